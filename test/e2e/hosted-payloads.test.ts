/**
 * GitHub's own webhook payloads (`@octokit/webhooks-examples`) replayed at the real app
 * (docs/protocol.md §18): every `pull_request` example, whatever its action, and every
 * `issues.assigned` one, signed and delivered as GitHub sends them, with the fake GitHub
 * serving the repository they are rewritten to. Once as a hosted agent's (the sender, the
 * assignee and the pull request's author a listed bot, the body linking an issue with
 * "Fixes #N"), once as they come (human senders). Every delivery is answered 200 and nothing
 * is logged at warning level or above; a hosted agent holds the issue exactly where the
 * payload says so. With people's claims on (the default) and off.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { callApi } from '../api/api-helpers.js';
import { type FakeGitHub, sendWebhook } from '../fake-github/fake-github.js';
import { type Harness, REPO, WEBHOOK_SECRET } from '../helpers/app-harness.js';
import { harnessFor, IN_PROGRESS, type OnFinished } from './e2e-helpers.js';

type Json = Record<string, unknown>;
type RepoJson = Json & { owner: Json };
interface Ref extends Json {
  ref: string;
  sha: string;
  repo: RepoJson | null;
}
interface PullJson extends Json {
  number: number;
  state: string;
  body: string | null;
  head: Ref;
  base: Ref;
}
/** What the replay reads and rewrites of an example; the rest is sent as it is. */
interface Payload extends Json {
  action: string;
  repository: RepoJson;
  sender?: Json;
  assignee?: Json | null;
  installation?: Json;
  number?: number;
  pull_request?: PullJson;
}
type PullPayload = Payload & { pull_request: PullJson };
type IssuesPayload = Payload & { issue: Json };
interface ExampleGroup {
  readonly name: string;
  readonly examples: readonly Payload[];
}

const GROUPS = createRequire(import.meta.url)('@octokit/webhooks-examples') as ExampleGroup[];
const examplesOf = (name: string) => GROUPS.find((group) => group.name === name)?.examples ?? [];
const PULLS = examplesOf('pull_request') as PullPayload[];
const ASSIGNED = (examplesOf('issues') as IssuesPayload[]).filter(
  (example) => example.action === 'assigned',
);

/** The `pull_request` actions that reconcile the issues a hosted agent's body closes (§18). */
const RECONCILING = ['opened', 'edited', 'closed', 'reopened'];

/** Two hosted agents as GitHub shows them: Copilot without a suffix, Claude's app with one. */
const BOTS = [
  { login: 'Copilot', id: 198982749, type: 'Bot' },
  { login: 'claude[bot]', id: 209825114, type: 'Bot' },
] as const;

function userOf(bot: (typeof BOTS)[number]): Json {
  return {
    login: bot.login,
    id: bot.id,
    node_id: `BOT_${bot.id}`,
    type: 'Bot',
    site_admin: false,
    html_url: `https://github.com/apps/${bot.login.replace(/\[bot\]$/, '')}`,
  };
}

const CONFIGS = [
  ['people’s claims on (the default)', ''],
  ['people’s claims off', 'people:\n  enabled: false\n'],
] as const;

/** A harness whose fake captures its own deliveries: only the replayed payloads are sent. */
async function replayWorld(onFinished: OnFinished, config: string): Promise<Harness> {
  const harness = await harnessFor(onFinished, {
    captureLogs: true,
    env: { LOG_LEVEL: 'warn' },
    seed: (fake) => {
      fake.setFile(REPO, '.github/claims.yml', config);
      fake.addUser('Copilot', { type: 'Bot' });
      fake.addUser('claude[bot]', { type: 'Bot' });
      fake.addUser('Codertocat', { association: 'COLLABORATOR' });
      fake.addUser('mia', { association: 'COLLABORATOR' });
    },
  });
  harness.fake.setWebhookTarget({ capture: true });
  return harness;
}

/**
 * The example moved to the harness's repository and installation, otherwise as it is but for
 * its pull request's commits, which become those of the fake's pull request `number` (the
 * guard reads them, and the fake serves only its own).
 */
function inHarness<T extends Payload>(example: T, harness: Harness, number?: number): T {
  const payload = structuredClone(example);
  const [owner, name] = REPO.split('/') as [string, string];
  const full = <R extends RepoJson | null>(repo: R): R =>
    repo && { ...repo, name, full_name: REPO, owner: { ...repo.owner, login: owner } };
  payload.repository = full(payload.repository);
  payload.installation = {
    id: harness.installationId,
    node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u',
  };
  const pull = payload.pull_request;
  if (pull) {
    const served = harness.fake.pullRecord(REPO, number ?? pull.number);
    pull.head = { ...pull.head, sha: served.head.sha, repo: full(pull.head.repo) };
    pull.base = { ...pull.base, sha: served.base.sha, repo: full(pull.base.repo) };
  }
  return payload;
}

async function deliver(harness: Harness, event: string, payload: Payload): Promise<number> {
  const answer = await sendWebhook(harness.webhookUrl, WEBHOOK_SECRET, {
    event,
    id: randomUUID(),
    body: JSON.stringify(payload),
  });
  return answer.status;
}

/**
 * The app's log lines at warning level or above (pino's 40 and up): an error, a payload
 * ignored as malformed, a reconcile that failed and will retry.
 */
function warnings(harness: Harness): string[] {
  return harness.logLines.filter((line) => (JSON.parse(line) as { level: number }).level >= 40);
}

async function claimOf(harness: Harness, n: number) {
  const answer = await callApi(harness.appUrl, 'GET', `/repos/${REPO}/issues/${n}/claim`, {
    token: harness.fake.tokenFor('alice'),
  });
  expect(answer.status).toBe(200);
  return answer.body.claim;
}

/** A pull request of the fake standing for the example: its bot author, its state, its link. */
function servePull(fake: FakeGitHub, example: PullPayload, login: string, n: number) {
  const head = `${login.replace(/\[bot\]$/, '')}/fix-${n}`;
  const number = fake.openPullRequest(REPO, {
    head,
    files: ['src/a.ts'],
    author: login,
    body: `Fixes #${n}`,
  });
  if (example.pull_request.state === 'closed') fake.closePullRequest(REPO, number, 'mia');
  return { number, head };
}

describe.concurrent.each(CONFIGS)('GitHub’s example payloads replayed, %s', (_, config) => {
  it(`${PULLS.length} pull_request and ${ASSIGNED.length} issues.assigned examples as a hosted agent's: 200, no warning, held where the payload says`, async ({
    onTestFinished,
  }) => {
    expect(PULLS.length).toBeGreaterThan(20);
    expect(ASSIGNED.length).toBeGreaterThan(0);
    const harness = await replayWorld(onTestFinished, config);
    const { fake } = harness;
    const expected: { n: number; held: string | null; branch?: string; what: string }[] = [];

    for (const [i, example] of PULLS.entries()) {
      const bot = BOTS[i % BOTS.length]!;
      const n = fake.createIssue(REPO, { title: `example ${i}` });
      const pull = servePull(fake, example, bot.login, n);
      const payload = inHarness(example, harness, pull.number);
      const user = userOf(bot);
      payload.sender = user;
      if (payload.assignee) payload.assignee = user;
      payload.number = pull.number;
      Object.assign(payload.pull_request, {
        number: pull.number,
        user,
        body: `Fixes #${n}\n\n${example.pull_request.body ?? ''}`,
      });
      payload.pull_request.head.ref = pull.head;
      const what = `pull_request.${example.action} #${i}`;
      expect(await deliver(harness, 'pull_request', payload), what).toBe(200);
      const reconciled = RECONCILING.includes(example.action);
      const open = example.pull_request.state === 'open';
      expected.push({
        n,
        what,
        held: reconciled && open ? bot.login : null,
        ...(reconciled && open ? { branch: pull.head } : {}),
      });
    }
    for (const [i, example] of ASSIGNED.entries()) {
      const bot = BOTS[i % BOTS.length]!;
      const n = fake.createIssue(REPO, { title: `assigned ${i}` });
      fake.assign(REPO, n, [bot.login], { actor: 'mia' });
      const payload = inHarness(example, harness);
      const user = userOf(bot);
      payload.sender = user;
      payload.assignee = user;
      Object.assign(payload.issue, { number: n, assignee: user, assignees: [user] });
      const what = `issues.assigned #${i}`;
      expect(await deliver(harness, 'issues', payload), what).toBe(200);
      expected.push({ n, what, held: bot.login });
    }
    await harness.settle();

    expect(warnings(harness)).toEqual([]);
    for (const { n, held, branch, what } of expected) {
      const claim = await claimOf(harness, n);
      if (held === null) {
        expect(claim, what).toBeNull();
        expect(fake.issue(REPO, n).labels, what).toEqual([]);
      } else {
        expect(claim, what).toMatchObject({
          kind: 'hosted',
          author: held,
          session: null,
          ...(branch ? { branch } : {}),
        });
        expect(fake.issue(REPO, n).labels, what).toEqual([IN_PROGRESS]);
      }
    }
  });

  it('the same examples as they come, human senders: 200, no warning, no hosted holder', async ({
    onTestFinished,
  }) => {
    const harness = await replayWorld(onTestFinished, config);
    const { fake } = harness;
    // What the examples name: issue #1, assigned to Codertocat, and Codertocat's pull request #2.
    const issue = fake.createIssue(REPO, { author: 'Codertocat' });
    fake.assign(REPO, issue, ['Codertocat'], { actor: 'Codertocat' });
    const pull = fake.openPullRequest(REPO, {
      head: 'changes',
      files: ['README.md'],
      author: 'Codertocat',
      body: 'This is a pretty simple change that we need to pull into master.',
    });
    expect([issue, pull]).toEqual([1, 2]);

    for (const [event, examples] of [
      ['pull_request', PULLS],
      ['issues', ASSIGNED],
    ] as const) {
      for (const [i, example] of examples.entries()) {
        const what = `${event}.${example.action} #${i}`;
        expect(await deliver(harness, event, inHarness(example, harness)), what).toBe(200);
      }
    }
    await harness.settle();

    expect(warnings(harness)).toEqual([]);
    // Codertocat, a collaborator assigned, holds #1 as a person with people's claims on (§16).
    const claim = await claimOf(harness, issue);
    expect(claim?.kind ?? null).toBe(config === '' ? 'person' : null);
  });
});
