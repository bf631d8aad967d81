import { generateKeyPairSync } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Probot, ProbotOctokit } from 'probot';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { type ClaimWarden, createClaimWarden } from '../../src/app/app.js';
import type { ThreadComment } from '../../src/claims/types.js';
import { createIntake, type Intake } from '../../src/intake/intake.js';
import { MemoryQueue } from '../../src/queue/memory-queue.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { createPayloads } from '../fake-github/payloads.js';
import { type Association, isoSeconds, State } from '../fake-github/state.js';
import { HOUR, NOW } from '../helpers/thread-builder.js';
import {
  API,
  type Call,
  calls,
  checkNock,
  installNockGuards,
  type Method,
  mock,
  removeNockGuards,
} from './nock-guard.js';

/*
 * Integration tests of the app inside a real Probot instance: webhooks go in through its
 * intake (what the webhook door hands genuine deliveries to), GitHub is nock on
 * https://api.github.com. Every request the app makes is recorded (`calls`), every mock must
 * be used, and a request no mock matches fails the test (`installNockGuards`). Writes are
 * asserted exactly and in order.
 */

export { HOUR, MINUTE, NOW } from '../helpers/thread-builder.js';
export {
  API,
  type Call,
  calls,
  checkNock,
  gate,
  installNockGuards,
  mock,
  reads,
  unmatched,
  writes,
} from './nock-guard.js';
export const INSTALLATION = 42;
export const OWNER = 'o';
export const REPO = 'r';
export const APP_SLUG = 'claim-warden';
export const IN_PROGRESS = 'status:in-progress';
export const BLOCKED = 'status:blocked';
/** claims.yml turning people's claims off (docs/protocol.md §16): part two exactly. */
export const PEOPLE_OFF = 'people:\n  enabled: false\n';
/** Attempts of one reconcile before the queue drops it (kept low: failures retry fast). */
export const MAX_ATTEMPTS = 5;

/** One RSA key for the whole file: generating one costs ~100 ms. */
const { privateKey: PRIVATE_KEY } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

// ---------------------------------------------------------------------------------------
// Octokit for tests: production behaviour, minus the waiting.
// ---------------------------------------------------------------------------------------

/**
 * ProbotOctokit with @octokit/plugin-retry's waits (1, 4, 9 s for a 5xx) shortened to 1, 4,
 * 9 ms: same retries, same order, no sleeping. A function default, because Probot's own
 * defaults (get-probot-octokit-with-defaults.js) replace a plain `throttle` object.
 * Installation octokits inherit it: src/github/octokit.ts builds them from the app octokit's
 * options. Write pacing is the app's own setting (`writePacingMs: 0` below): the throttling
 * plugin still handles 403/429 and calls the installation octokit's handlers, so
 * `retry-after` is still honoured.
 */
export const TestOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => ({
  ...options,
  retry: { ...(options.retry as object | undefined), retryAfterBaseValue: 1 },
}));

// ---------------------------------------------------------------------------------------
// The app under test.
// ---------------------------------------------------------------------------------------

/** A running app: Probot plus claim-warden, with a clock and captured logs. */
export interface TestApp {
  readonly probot: Probot;
  readonly warden: ClaimWarden;
  readonly store: MemoryStore;
  /** Every log line of Probot, the app and the queue, parsed. */
  readonly logs: Array<Record<string, unknown> & { msg?: string }>;
  /** Moves the app's clock. */
  setNow(at: Date): void;
  /** Delivers one webhook; a fresh delivery id unless one is given. */
  receive(event: WebhookEvent, id?: string): Promise<void>;
  /** Resolves once the queue is idle (nothing queued, delayed or running). */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

let deliveries = 0;

/** Starts Probot and loads claim-warden; mocks and consumes `GET /app`. */
export async function startApp(): Promise<TestApp> {
  const logs: TestApp['logs'] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const log = pino({ level: 'debug' }, sink);
  let now = NOW;
  mock('GET', '/app', [200, appPayload()]);
  const probot = new Probot({
    appId: 1,
    privateKey: PRIVATE_KEY,
    secret: 'test',
    log,
    Octokit: TestOctokit,
  });
  const store = new MemoryStore();
  const queue = new MemoryQueue({
    baseDelayMs: 10,
    maxAttempts: MAX_ATTEMPTS,
    logger: log.child({ name: 'queue' }),
  });
  let warden: ClaimWarden | undefined;
  const intake = createIntake('test', log);
  await probot.load(async (app) => {
    warden = await createClaimWarden(app, {
      intake,
      settings: {
        staleAfterMs: 6 * HOUR,
        sweepIntervalMs: 60_000,
        resyncIntervalMs: 6 * HOUR,
        configCacheMs: 60_000,
        writePacingMs: 0,
      },
      store,
      queue,
      now: () => now,
      timers: false,
    });
  });
  if (!warden) throw new Error('createClaimWarden did not run');
  const started = warden;
  // GET /app is answered once at load; the app must not ask again.
  calls.length = 0;
  return {
    probot,
    warden: started,
    store,
    logs,
    setNow(at) {
      now = at;
    },
    async receive(event, id) {
      deliveries += 1;
      await intake.receive({
        id: id ?? `delivery-${deliveries}`,
        name: event.name,
        payload: event.payload,
      } as Parameters<Intake['receive']>[0]);
    },
    settle: () => started.queue.idle(),
    stop: () => started.stop(),
  };
}

/** `GET /app` as GitHub answers it for a JWT. */
function appPayload() {
  return render.app();
}

// ---------------------------------------------------------------------------------------
// GitHub reads.
// ---------------------------------------------------------------------------------------

/** The installation token endpoint, answered once (Probot caches the token). */
export function expectToken(installationId = INSTALLATION): void {
  mock('POST', `/app/installations/${installationId}/access_tokens`, [
    201,
    {
      token: `ghs_test${installationId}`,
      expires_at: new Date(Date.now() + HOUR).toISOString(),
      permissions: { issues: 'write', metadata: 'read', contents: 'read' },
      repository_selection: 'all',
    },
  ]);
}

/** The contents path of a config file, as octokit encodes it. */
export const CONFIG_PATH = `/contents/${encodeURIComponent('.github/claims.yml')}`;

/**
 * `.github/claims.yml` as Probot's config plugin reads it: the repository's file, and when it
 * has none, the org's `.github` repository's. `absent`: both 404.
 */
export function expectConfig(config: 'absent' | string, repo = REPO): void {
  if (config === 'absent') {
    mock('GET', `/repos/${OWNER}/${repo}${CONFIG_PATH}`, [404, notFound()]);
    mock('GET', `/repos/${OWNER}/.github${CONFIG_PATH}`, [404, notFound()]);
    return;
  }
  mock('GET', `/repos/${OWNER}/${repo}${CONFIG_PATH}`, [
    200,
    config,
    { 'content-type': 'application/vnd.github.raw; charset=utf-8' },
  ]);
}

function notFound() {
  return {
    message: 'Not Found',
    documentation_url: 'https://docs.github.com/rest',
    status: '404',
  };
}

/** What a test says about an issue; everything has a default. */
export interface ThreadSpec {
  readonly issue?: number;
  readonly comments?: readonly ThreadComment[];
  readonly labels?: readonly string[];
  readonly assignees?: readonly string[];
  readonly state?: 'open' | 'closed';
  readonly state_reason?: 'completed' | 'not_planned' | 'reopened' | null;
  /** The issue's `updated_at` (default NOW). */
  readonly updatedAt?: Date;
  /** The issue's comment count as GitHub reports it (default: the comments given). */
  readonly commentCount?: number;
  /** `absent` (default): both config reads 404; a string: the repository's file; `cached`: none. */
  readonly config?: 'absent' | 'cached' | string;
  /** Mock the installation token too (default true; false when an earlier read got it). */
  readonly token?: boolean;
}

/**
 * Mocks one reconcile's reads of an issue: the installation token, the config, the issue and
 * its comments (`per_page=100`, one page).
 */
export function mockThread(spec: ThreadSpec): void {
  if (spec.token ?? true) expectToken();
  const config = spec.config ?? 'absent';
  if (config !== 'cached') expectConfig(config);
  mockIssue(spec);
  mockComments(spec.issue ?? 1, spec.comments ?? []);
}

/** `GET /repos/o/r/issues/n`. */
export function mockIssue(spec: ThreadSpec, times?: number): void {
  const number = spec.issue ?? 1;
  mock('GET', `/repos/${OWNER}/${REPO}/issues/${number}`, [200, issuePayload(spec)], {
    ...(times === undefined ? {} : { times }),
  });
}

/** `GET /repos/o/r/issues/n/comments?per_page=100`, one page. */
export function mockComments(issue: number, comments: readonly ThreadComment[]): void {
  mock('GET', commentsPath(issue), [200, comments.map((c) => restComment(c, issue))]);
}

export function commentsPath(issue: number): string {
  return `/repos/${OWNER}/${REPO}/issues/${issue}/comments?per_page=100`;
}

export function issuePath(issue: number): string {
  return `/repos/${OWNER}/${REPO}/issues/${issue}`;
}

// ---------------------------------------------------------------------------------------
// GitHub writes.
// ---------------------------------------------------------------------------------------

const repoPath = `/repos/${OWNER}/${REPO}`;

/** The writes the app may send, as the calls they are. */
export const write = {
  finalise: (commentId: number, body: string): Call => ({
    method: 'PATCH',
    path: `${repoPath}/issues/comments/${commentId}`,
    body: { body },
  }),
  note: (issue: number, body: string): Call => ({
    method: 'POST',
    path: `${repoPath}/issues/${issue}/comments`,
    body: { body },
  }),
  addLabel: (issue: number, label: string): Call => ({
    method: 'POST',
    path: `${repoPath}/issues/${issue}/labels`,
    body: { labels: [label] },
  }),
  removeLabel: (issue: number, label: string): Call => ({
    method: 'DELETE',
    path: `${repoPath}/issues/${issue}/labels/${encodeURIComponent(label)}`,
  }),
  createLabel: (name: string, color: string, description: string): Call => ({
    method: 'POST',
    path: `${repoPath}/labels`,
    body: { name, color, description },
  }),
  assign: (issue: number, login: string): Call => ({
    method: 'POST',
    path: `${repoPath}/issues/${issue}/assignees`,
    body: { assignees: [login] },
  }),
  unassign: (issue: number, login: string): Call => ({
    method: 'DELETE',
    path: `${repoPath}/issues/${issue}/assignees`,
    body: { assignees: [login] },
  }),
};

/** The labels the app creates (docs/protocol.md §4 row 1), with its colours and descriptions. */
export const createInProgress = write.createLabel(
  IN_PROGRESS,
  '1d76db',
  `Held by a live claim; see the claim comment (${IN_PROGRESS})`,
);
export const createBlocked = write.createLabel(
  BLOCKED,
  'd93f0b',
  'The holder of this issue’s claim is blocked',
);

/**
 * Mocks each write, the request body matched exactly, answered as GitHub does; returns them
 * so a test can assert the order: `expect(writes()).toEqual(expected)`.
 */
export function expectWrites(...expected: Call[]): Call[] {
  for (const call of expected) {
    mock(call.method as Method, call.path, [successStatus(call), successData(call)], {
      body: call.body,
    });
  }
  return expected;
}

function successStatus(call: Call): number {
  // GitHub answers 201 to creating a label, a comment or assignees, 200 to adding labels.
  if (call.method !== 'POST' || /\/issues\/\d+\/labels$/.test(call.path)) return 200;
  return 201;
}

function successData(call: Call): unknown {
  const body = call.body as Record<string, unknown> | undefined;
  if (call.path.endsWith('/assignees')) return { number: 1, assignees: [] };
  if (call.path.endsWith(`${repoPath}/labels`)) return { id: 1, ...body, default: false };
  if (call.path.includes('/labels')) return [];
  return { id: 1, body: body?.body, user: user(`${APP_SLUG}[bot]`) };
}

/** `GET /repos/o/r/labels/:name`: 200 when the repository has it, else 404. */
export function labelLookup(name: string, exists: boolean): void {
  mock(
    'GET',
    `${repoPath}/labels/${encodeURIComponent(name)}`,
    exists ? [200, { id: 7, name, color: 'ededed', description: null }] : [404, notFound()],
  );
}

/**
 * A claim comment as the app must finalise it (docs/protocol.md §1, §4), derived by plain string edits:
 * marker `stage=released`, `updated` = now, `outcome=` appended, other keys kept; the human
 * text's `- Stage:` line reads `released`; `- Outcome:` and `- Reason:` lines end it.
 */
export function finalised(
  comment: ThreadComment,
  outcome: 'landed' | 'abandoned' | 'handed-over',
  reason: string,
  now: Date = NOW,
): string {
  const [first, ...rest] = comment.body.split('\n');
  const marker = first!
    .replace(/ updated=\S+/, ` updated=${now.toISOString().slice(0, 19)}Z`)
    .replace(/ stage=\S+/, ' stage=released')
    .replace(/ outcome=\S+/, '')
    .replace(/ -->$/, ` outcome=${outcome} -->`);
  const kept = rest
    .filter((line) => !/^- (Outcome|Reason):/.test(line))
    .map((line) => (line.startsWith('- Stage:') ? '- Stage: released' : line));
  return [marker, ...kept, `- Outcome: ${outcome}`, `- Reason: ${reason}`].join('\n');
}

// ---------------------------------------------------------------------------------------
// GitHub shapes (REST and webhook): rendered by the fake GitHub's payloads, the one set of
// builders, from records made of what a test says.
// ---------------------------------------------------------------------------------------

const FULL_NAME = `${OWNER}/${REPO}`;
const shapes = new State(
  () => NOW,
  () => {},
);
shapes.addInstallation({
  id: INSTALLATION,
  account: OWNER,
  repos: [FULL_NAME, `${OWNER}/old-home`],
});
shapes.addUser('maria', { association: 'MEMBER' });
const render = createPayloads(
  shapes,
  { apiUrl: API, htmlUrl: 'https://github.com' },
  { id: 1, slug: APP_SLUG, name: 'Claim Warden', owner: OWNER },
);
const shapesRepo = shapes.repo(FULL_NAME);

/** A user (or bot) as GitHub embeds it in payloads. */
export function user(login: string) {
  return render.user(login);
}

function labelPayload(name: string) {
  const label =
    shapes.findLabel(shapesRepo, name) ??
    shapes.createLabel(shapesRepo, { name, color: name === BLOCKED ? 'd93f0b' : '1d76db' });
  return render.label(shapesRepo, label);
}

/** An issue as `GET /repos/o/r/issues/n` and the webhooks carry it. */
export function issuePayload(spec: ThreadSpec & { pullRequest?: boolean } = {}) {
  const number = spec.issue ?? 1;
  const state = spec.state ?? 'open';
  for (const name of spec.labels ?? []) labelPayload(name);
  const count = spec.commentCount ?? spec.comments?.length ?? 0;
  return render.issue({
    id: 500_000 + number,
    number,
    repo: FULL_NAME,
    title: `Issue ${number}`,
    body: 'Something to do.',
    author: 'maria',
    state,
    stateReason: spec.state_reason ?? null,
    labels: [...(spec.labels ?? [])],
    assignees: [...(spec.assignees ?? [])],
    isPullRequest: spec.pullRequest ?? false,
    createdAt: '2026-11-01T09:00:00Z',
    updatedAt: isoSeconds(spec.updatedAt ?? NOW),
    closedAt: state === 'closed' ? isoSeconds(NOW) : null,
    closedBy: null,
    // Only its length is rendered (`comments`).
    commentIds: Array.from({ length: count }, (_, i) => i + 1),
    timeline: [],
    fate: null,
  });
}

/** A comment as `GET .../comments` and the issue_comment webhooks carry it. */
export function restComment(c: ThreadComment, issue = 1) {
  // The fake renders `author_association` from its users: this comment's, as the test says.
  shapes.user(c.author).repoAssociation.set(FULL_NAME, c.authorAssociation as Association);
  return render.comment({
    id: c.id,
    repo: FULL_NAME,
    issueNumber: issue,
    author: c.author,
    body: c.body,
    createdAt: isoSeconds(c.createdAt),
    updatedAt: isoSeconds(c.updatedAt),
    viaApp: false,
    reactions: [],
  });
}

/** A repository as webhooks carry it. */
export function repositoryPayload(name = REPO) {
  return render.repository(shapes.repo(`${OWNER}/${name}`));
}

function installationRef(id = INSTALLATION) {
  return { id, node_id: `MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u${id}` };
}

/** A webhook as the intake takes it, minus the delivery id. */
export interface WebhookEvent {
  readonly name: string;
  readonly payload: Record<string, unknown>;
}

interface CommentEventSpec {
  readonly issue?: ThreadSpec & { pullRequest?: boolean };
  readonly comment: ThreadComment;
  /** Who did it; default the comment's author. */
  readonly sender?: string;
}

function commentEvent(
  action: 'created' | 'edited' | 'deleted',
  spec: CommentEventSpec,
  extra: Record<string, unknown> = {},
): WebhookEvent {
  const issue = spec.issue ?? {};
  return {
    name: 'issue_comment',
    payload: {
      action,
      ...extra,
      issue: issuePayload(issue),
      comment: restComment(spec.comment, issue.issue ?? 1),
      repository: repositoryPayload(),
      organization: { login: OWNER, id: 77, node_id: 'O_77' },
      sender: user(spec.sender ?? spec.comment.author),
      installation: installationRef(),
    },
  };
}

/** `issue_comment.created`. */
export function commentCreated(spec: CommentEventSpec): WebhookEvent {
  return commentEvent('created', spec);
}

/** `issue_comment.edited`; `from` is the body before the edit (`changes.body.from`). */
export function commentEdited(spec: CommentEventSpec & { from: string }): WebhookEvent {
  return commentEvent('edited', spec, { changes: { body: { from: spec.from } } });
}

/** `issue_comment.deleted`: the payload carries the comment as it was. */
export function commentDeleted(spec: CommentEventSpec): WebhookEvent {
  return commentEvent('deleted', spec);
}

interface IssueEventSpec {
  readonly issue?: ThreadSpec;
  readonly sender?: string;
}

function issueEvent(action: string, spec: IssueEventSpec, extra = {}): WebhookEvent {
  return {
    name: 'issues',
    payload: {
      action,
      issue: issuePayload(spec.issue ?? {}),
      ...extra,
      repository: repositoryPayload(),
      organization: { login: OWNER, id: 77, node_id: 'O_77' },
      sender: user(spec.sender ?? 'maria'),
      installation: installationRef(),
    },
  };
}

/** `issues.labeled` / `issues.unlabeled`. */
export function issueLabeled(spec: IssueEventSpec & { label: string }): WebhookEvent {
  return issueEvent('labeled', spec, { label: labelPayload(spec.label) });
}
export function issueUnlabeled(spec: IssueEventSpec & { label: string }): WebhookEvent {
  return issueEvent('unlabeled', spec, { label: labelPayload(spec.label) });
}

/** `issues.closed` (state_reason in the issue), `issues.reopened`, `issues.deleted`. */
export function issueClosed(spec: IssueEventSpec): WebhookEvent {
  return issueEvent('closed', spec);
}
export function issueReopened(spec: IssueEventSpec): WebhookEvent {
  return issueEvent('reopened', spec);
}
export function issueDeleted(spec: IssueEventSpec): WebhookEvent {
  return issueEvent('deleted', spec);
}

/** `issues.transferred` from another repository to o/r, as issue `to`. */
export function issueTransferred(spec: IssueEventSpec & { to: number }): WebhookEvent {
  const from = repositoryPayload('old-home');
  return {
    name: 'issues',
    payload: {
      action: 'transferred',
      changes: {
        new_issue: issuePayload({ ...spec.issue, issue: spec.to }),
        new_repository: repositoryPayload(),
      },
      issue: issuePayload(spec.issue ?? {}),
      repository: from,
      organization: { login: OWNER, id: 77, node_id: 'O_77' },
      sender: user(spec.sender ?? 'maria'),
      installation: installationRef(),
    },
  };
}

function installationPayload() {
  return render.installation(shapes.installations.get(INSTALLATION)!);
}

function repoRef(name: string) {
  const {
    id,
    node_id,
    full_name,
    private: secret,
  } = repositoryPayload(name) as Record<string, unknown>;
  return { id, node_id, name, full_name, private: secret };
}

/** `installation.created` for the given repositories. */
export function installationCreated(repos: readonly string[] = [REPO]): WebhookEvent {
  return {
    name: 'installation',
    payload: {
      action: 'created',
      installation: installationPayload(),
      repositories: repos.map(repoRef),
      requester: null,
      sender: user('maria'),
    },
  };
}

/** `installation.deleted`: the app was uninstalled from the account. */
export function installationDeleted(): WebhookEvent {
  return {
    name: 'installation',
    payload: {
      action: 'deleted',
      installation: installationPayload(),
      repositories: [repoRef(REPO)],
      requester: null,
      sender: user('maria'),
    },
  };
}

/** `installation_repositories.added`. */
export function installationReposAdded(repos: readonly string[]): WebhookEvent {
  return {
    name: 'installation_repositories',
    payload: {
      action: 'added',
      installation: installationPayload(),
      repository_selection: 'selected',
      repositories_added: repos.map(repoRef),
      repositories_removed: [],
      requester: null,
      sender: user('maria'),
    },
  };
}

/**
 * Registers the hooks of a test file: the nock guards, a fresh app per test, and after each
 * test the app stopped and the unmatched/unused checks. Returns the current test's app.
 */
export function useTestApp(): () => TestApp {
  let app: TestApp | undefined;
  beforeAll(installNockGuards);
  afterAll(removeNockGuards);
  beforeEach(async () => {
    app = await startApp();
  });
  afterEach(async () => {
    await app?.stop();
    // docs/protocol.md §6: secrets never appear in logs, whatever failed.
    const logged = JSON.stringify(app?.logs ?? []);
    checkNock();
    expect(logged).not.toMatch(/ghs_test|PRIVATE KEY/);
  });
  return () => {
    if (!app) throw new Error('no app: useTestApp() runs its hooks around each test');
    return app;
  };
}

/**
 * docs/protocol.md §17: before a stale claim is finalised its branch is read for work. Mocks
 * the repository (its default branch) and a compare that finds no branch (404): no work.
 */
export function mockNoBranchWork(branch: string): void {
  mock('GET', `/repos/${OWNER}/${REPO}`, [200, { default_branch: 'main' }]);
  mock('GET', `/repos/${OWNER}/${REPO}/compare/main...${encodeURIComponent(branch)}`, [
    404,
    { message: 'Not Found' },
  ]);
}
