import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { runAction } from '../src/action/run-action.js';
import { type FakeGitHub, startFakeGitHub } from '../test/fake-github/fake-github.js';
import { benchCalls } from './calls-bench.js';
import { marker } from './claim-marker.js';
import { fmt, type Section } from './section.js';

const REPO = 'acme/widgets';
const HOUR = 3_600_000;
/** GitHub's rate limit for a workflow's GITHUB_TOKEN on github.com, per repository per hour. */
const TOKEN_BUDGET = 1000;
const SWEPT_CLAIMS = 100;

/** A workflow's GitHub: installation tokens act as github-actions[bot]. */
async function workflowGitHub(): Promise<{ fake: FakeGitHub; token: string }> {
  const fake = await startFakeGitHub({ appSlug: 'github-actions' });
  fake.addInstallation({ id: 1, account: 'acme', repos: [REPO] });
  fake.addUser('alice', { association: 'COLLABORATOR' });
  fake.addUser('bob', { association: 'COLLABORATOR' });
  fake.addUser('mallory', { association: 'NONE' });
  fake.setWebhookTarget({ capture: true });
  return { fake, token: fake.installationToken(1) };
}

/** One run of the Action, in process, as the runner would start it; returns its calls. */
async function runOnce(
  fake: FakeGitHub,
  token: string,
  event: string,
  payload: unknown,
): Promise<{ calls: number; reads: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'claim-warden-bench-'));
  const eventPath = join(dir, 'event.json');
  writeFileSync(eventPath, JSON.stringify(payload));
  const mark = fake.requests.length;
  try {
    const run = await runAction(
      {
        GITHUB_EVENT_NAME: event,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: REPO,
        GITHUB_API_URL: fake.apiUrl,
        'INPUT_GITHUB-TOKEN': token,
      },
      { log: pino({ level: 'silent' }) },
    );
    if (run.exitCode !== 0) throw new Error(`action bench: run failed: ${run.errors.join('; ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const requests = fake.requests.slice(mark);
  return { calls: requests.length, reads: requests.filter((r) => r.method === 'GET').length };
}

/** The payload of the last event `change` caused, as a workflow sees it (no installation). */
function payloadOf(fake: FakeGitHub, change: () => void): Record<string, unknown> {
  change();
  const delivery = fake.deliveries.at(-1);
  if (!delivery) throw new Error('action bench: no event');
  const { installation: _installation, ...payload } = delivery.payload;
  return payload;
}

interface Row {
  readonly scenario: string;
  /** The app's calls for the same event (the calls section), when it has the scenario. */
  readonly app: number | null;
  readonly action: number;
  readonly reads: number;
}

/**
 * The Action's GitHub calls per run next to the app's for the same events, and what a
 * scheduled sweep of a repository with 100 live claims spends of the 1,000 requests an hour
 * that a workflow's GITHUB_TOKEN gets. Each run is a fresh process in real life: no cached
 * config, no known labels, no holder memory, so every run reads the config and the thread.
 */
export async function benchAction(): Promise<Section> {
  const app = (await benchCalls()).data as ReadonlyArray<{ scenario: string; calls: number }>;
  const appCalls = (scenario: string) => app.find((r) => r.scenario === scenario)?.calls ?? null;
  const rows: Row[] = [];
  const record = (scenario: string, measured: { calls: number; reads: number }) =>
    rows.push({ scenario, app: appCalls(scenario), action: measured.calls, reads: measured.reads });

  const { fake, token } = await workflowGitHub();
  try {
    const first = fake.createIssue(REPO);
    let payload = payloadOf(fake, () =>
      fake.addComment(REPO, first, { author: 'alice', body: 'I can reproduce this.' }),
    );
    record('comment without a marker', await runOnce(fake, token, 'issue_comment', payload));

    const n = fake.createIssue(REPO);
    const started = new Date();
    let alice = 0;
    payload = payloadOf(fake, () => {
      alice = fake.addComment(REPO, n, {
        author: 'alice',
        body: marker('s-alice', { started, updated: started }),
      }).id;
    });
    record('claim on a fresh issue', await runOnce(fake, token, 'issue_comment', payload));

    payload = payloadOf(fake, () =>
      fake.addComment(REPO, n, { author: 'bob', body: marker('s-bob') }),
    );
    record(
      'losing claim (an older claim holds)',
      await runOnce(fake, token, 'issue_comment', payload),
    );

    payload = payloadOf(fake, () =>
      fake.editComment(alice, `${fake.comment(alice)?.body}\n`, { actor: 'github-actions[bot]' }),
    );
    record(
      'own echo (the app’s edit of the losing claim)',
      await runOnce(fake, token, 'issue_comment', payload),
    );

    payload = payloadOf(fake, () =>
      fake.editComment(
        alice,
        marker('s-alice', { started, updated: new Date(Date.now() + 1000), stage: 'implementing' }),
      ),
    );
    record('heartbeat (updated moves on)', await runOnce(fake, token, 'issue_comment', payload));

    payload = payloadOf(fake, () =>
      fake.editComment(alice, marker('s-alice', { started, stage: 'released', outcome: 'landed' })),
    );
    record(
      'release (stage=released outcome=landed)',
      await runOnce(fake, token, 'issue_comment', payload),
    );

    const third = fake.createIssue(REPO);
    payload = payloadOf(fake, () =>
      fake.addComment(REPO, third, { author: 'mallory', body: marker('s-mallory') }),
    );
    record(
      'untrusted marker (author association NONE)',
      await runOnce(fake, token, 'issue_comment', payload),
    );
  } finally {
    await fake.close();
  }

  // The schedule's sweep, on a repository of its own: one stale claim, labelled and assigned.
  {
    const { fake, token } = await workflowGitHub();
    try {
      const stale = fake.createIssue(REPO);
      const ago = new Date(Date.now() - 7 * HOUR);
      fake.addComment(REPO, stale, {
        author: 'alice',
        body: marker('s-stale', { updated: ago, stage: 'implementing' }),
        createdAt: ago,
        updatedAt: ago,
      });
      fake.addLabels(REPO, stale, ['status:in-progress']);
      fake.assign(REPO, stale, ['alice']);
      record(
        'stale sweep (one due issue, with the expiry note)',
        await runOnce(fake, token, 'schedule', {}),
      );
    } finally {
      await fake.close();
    }
  }

  // A scheduled sweep of a repository with 100 live claims, each already enforced.
  let sweep = { calls: 0, reads: 0 };
  {
    const { fake, token } = await workflowGitHub();
    try {
      fake.pauseWebhooks();
      for (let i = 0; i < SWEPT_CLAIMS; i++) {
        const issue = fake.createIssue(REPO);
        fake.addComment(REPO, issue, { author: 'alice', body: marker(`s-${i}`) });
        fake.addLabels(REPO, issue, ['status:in-progress']);
        fake.assign(REPO, issue, ['alice']);
      }
      sweep = await runOnce(fake, token, 'schedule', {});
      record(`scheduled sweep, ${SWEPT_CLAIMS} live claims (nothing to write)`, sweep);
    } finally {
      await fake.close();
    }
  }

  const perHour = (minutes: number) => sweep.calls * (60 / minutes);
  const budget = [5, 15, 30, 60].map(
    (minutes) =>
      `schedule every ${minutes} min: ${fmt(perHour(minutes))} calls an hour, ${fmt((100 * perHour(minutes)) / TOKEN_BUDGET)} % of GITHUB_TOKEN's ${fmt(TOKEN_BUDGET)}`,
  );
  return {
    id: 'action',
    title: 'The Action: GitHub calls per workflow run, next to the app’s for the same event',
    notes: [
      'Each run is a fresh process: it reads .github/claims.yml (here absent: the repository, then the org’s .github) and the thread every time.',
      'Events the Action drops without a call still start a workflow run (runner minutes, not API calls).',
      ...budget,
    ],
    columns: ['scenario', 'app', 'action', 'reads', 'writes'],
    rows: rows.map((r) => [
      r.scenario,
      r.app === null ? '-' : String(r.app),
      String(r.action),
      String(r.reads),
      String(r.action - r.reads),
    ]),
    data: {
      rows,
      sweep: { claims: SWEPT_CLAIMS, calls: sweep.calls, budgetPerHour: TOKEN_BUDGET },
    },
  };
}
