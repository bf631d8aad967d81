import { ProbotOctokit } from 'probot';
import { freePort, STACK_SECRET, stackEnv } from '../sandbox/stack.js';
import type { ClaimWarden } from '../src/app/app.js';
import { main } from '../src/app/main.js';
import { renderClaimComment } from '../src/claims/comment.js';
import { type FakeGitHub, startFakeGitHub } from '../test/fake-github/fake-github.js';
import { fmt, type Section } from './section.js';

const INSTALLATIONS = 50;
const LABEL = 'status:in-progress';

/**
 * Probot's default keying, forced onto every octokit: each installation octokit the app builds
 * passes `throttle.id = <installation id>` (src/github/octokit.ts), and this class puts it back
 * to the key that Probot's `context.octokit` uses for every installation ("no-id"). So the
 * same app runs with one write queue for all installations, as a Probot app using
 * `context.octokit` does.
 */
class SharedThrottleOctokit extends ProbotOctokit {
  constructor(options: ConstructorParameters<typeof ProbotOctokit>[0] = {}) {
    super({ ...options, throttle: { ...options.throttle, id: 'no-id' } } as typeof options);
  }
}

/** The app started through npm start's code path (main) with the given octokit class. */
async function startWarden(
  fake: FakeGitHub,
  env: Record<string, string>,
  Octokit: typeof ProbotOctokit,
): Promise<{ warden: ClaimWarden; stop(): Promise<void> }> {
  const port = await freePort();
  const app = await main(stackEnv(fake, port, env), { Octokit });
  await app.warden.started;
  fake.setWebhookTarget({
    url: `http://127.0.0.1:${port}/api/github/webhooks`,
    secret: STACK_SECRET,
  });
  return {
    warden: app.warden,
    async stop() {
      fake.setWebhookTarget(undefined);
      await app.stop();
    },
  };
}

export interface Run {
  readonly variant: string;
  readonly seconds: number;
  readonly writes: number;
  /** The shortest gap between two writes of different installations, in ms. */
  readonly minCrossGapMs: number;
}

/**
 * 50 installations, one repository each with the status label already there, one claim each
 * posted at the same moment; seconds until every issue is labelled and assigned.
 */
export async function converge(
  variant: string,
  Octokit: typeof ProbotOctokit,
  env: Record<string, string>,
): Promise<Run> {
  const fake = await startFakeGitHub({ log: () => {} });
  fake.addUser('alice', { association: 'COLLABORATOR' });
  const repos: string[] = [];
  for (let i = 0; i < INSTALLATIONS; i++) {
    const repo = `org-${i}/service`;
    fake.addInstallation({ id: 5000 + i, account: `org-${i}`, repos: [repo] });
    fake.createLabel(repo, { name: LABEL, color: '1d76db' });
    fake.createIssue(repo, { title: 'Fix it' });
    repos.push(repo);
  }
  const app = await startWarden(fake, { CLAIMS_SWEEP_INTERVAL: '24h', ...env }, Octokit);
  try {
    // Every claim is on GitHub before the first delivery leaves: "at once".
    fake.pauseWebhooks();
    const at = new Date();
    for (const [i, repo] of repos.entries()) {
      fake.addComment(repo, 1, {
        author: 'alice',
        body: renderClaimComment({
          session: `s-${i}`,
          lane: 'main',
          branch: 'fix/it',
          started: at,
          updated: at,
          stage: 'claimed',
          assignee: 'claim',
        }),
      });
    }
    const mark = fake.requests.length;
    const started = performance.now();
    fake.resumeWebhooks();
    const done = () =>
      repos.every((repo) => {
        const issue = fake.issue(repo, 1);
        return issue.labels.includes(LABEL) && issue.assignees.includes('alice');
      });
    while (!done()) {
      if (performance.now() - started > 600_000) throw new Error('convergence: over 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const writes = fake.requests.slice(mark).filter((r) => r.method !== 'GET');
    let minCrossGapMs = Number.POSITIVE_INFINITY;
    for (let i = 1; i < writes.length; i++) {
      if (writes[i]!.path.split('/')[2] === writes[i - 1]!.path.split('/')[2]) continue;
      const gap = writes[i]!.at.getTime() - writes[i - 1]!.at.getTime();
      minCrossGapMs = Math.min(minCrossGapMs, gap);
    }
    return { variant, seconds, writes: writes.length, minCrossGapMs };
  } finally {
    await app.stop();
    await fake.close();
  }
}

/**
 * Convergence: 50 installations each get a claim at once. The app keys its throttle per
 * installation (docs/protocol.md §6: writes of different installations never wait on each other); the
 * comparison runs the same app with every installation on Probot's one default key.
 */
export async function benchConvergence(): Promise<Section> {
  const perInstallation = await converge('per-installation throttle (the app)', ProbotOctokit, {});
  const wide = await converge(
    'per-installation throttle, CLAIMS_QUEUE_CONCURRENCY=50',
    ProbotOctokit,
    {
      CLAIMS_QUEUE_CONCURRENCY: '50',
    },
  );
  const shared = await converge(
    'one shared throttle id (Probot’s default keying)',
    SharedThrottleOctokit,
    {},
  );
  const runs = [perInstallation, wide, shared];
  return {
    id: 'convergence',
    title: `Convergence: ${INSTALLATIONS} installations, one claim each, posted at once`,
    notes: [
      'Seconds until all 50 issues are labelled and assigned (2 writes each; labels exist already).',
      'Same app, built as main() builds it; the only difference is Probot’s `Octokit` option, whose',
      'subclass sets throttle.id = "no-id" for every installation, as context.octokit has it.',
      'Queue concurrency 8 (the default) unless said.',
    ],
    columns: ['variant', 'seconds', 'writes', 'min gap between installations', 'vs the app'],
    rows: runs.map((run) => [
      run.variant,
      fmt(run.seconds, 1),
      String(run.writes),
      Number.isFinite(run.minCrossGapMs) ? `${fmt(run.minCrossGapMs)} ms` : '-',
      `${fmt(run.seconds / perInstallation.seconds, 1)}×`,
    ]),
    data: { runs, ratioSharedToApp: shared.seconds / perInstallation.seconds },
  };
}
