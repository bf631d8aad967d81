import { type Stack, startStack } from '../sandbox/stack.js';
import { renderClaimComment } from '../src/claims/comment.js';
import { callsSection, type Measured, summarise } from './measured-calls.js';
import type { Section } from './section.js';

const REPO = 'acme/widgets';
const HOUR = 3_600_000;

/** A claim comment on branch `feat/<session>`, updated `ago` ms ago, with `paths` if any. */
function claim(session: string, ago: number, paths?: readonly string[]): string {
  const at = new Date(Math.floor((Date.now() - ago) / 1000) * 1000);
  const marker = {
    session,
    lane: 'main',
    branch: `feat/${session}`,
    started: at,
    updated: at,
    stage: 'implementing' as const,
    assignee: 'claim' as const,
  };
  return renderClaimComment(marker, paths ? { paths } : {});
}

/**
 * GitHub calls per pull-request event and per push (docs/protocol.md §11), counted from the
 * fake GitHub's request log on a settled app (token minted, config cached), 304 answers apart. The fake delivers
 * every webhook, the app's own echoes included (they cost nothing).
 */
export async function benchGuard(): Promise<Section> {
  const stack = await startStack({
    env: { CLAIMS_SWEEP_INTERVAL: '24h' },
    seed: (fake) => {
      fake.addInstallation({ id: 1, account: 'acme', repos: [REPO] });
      fake.addUser('alice', { association: 'COLLABORATOR' });
      fake.addUser('bob', { association: 'COLLABORATOR' });
    },
  });
  const results: Measured[] = [];
  try {
    await runScenarios(stack, results);
  } finally {
    await stack.close();
  }
  return callsSection(
    'guard',
    'GitHub calls per pull-request event and per push (docs/protocol.md §11)',
    results,
  );
}

async function runScenarios(stack: Stack, out: Measured[]): Promise<void> {
  const { fake } = stack;
  const measure = async (scenario: string, floor: number, act: () => unknown) => {
    await stack.settle();
    const mark = fake.requests.length;
    await act();
    await stack.settle();
    out.push(summarise(scenario, floor, fake.requests.slice(mark)));
  };

  // A holder without paths, its heartbeat an hour old (a tenth of the 6 h window is 36 min).
  const plain = fake.createIssue(REPO, { title: 'plain' });
  fake.addComment(REPO, plain, { author: 'alice', body: claim('s-plain', HOUR) });
  await stack.settle();

  // Every pull request gets its check run; without a path claim its files are not read.
  let unclaimed = 0;
  await measure('pull request opened, no path claims in the repository', 1, () => {
    unclaimed = fake.openPullRequest(REPO, {
      head: 'feat/bob',
      author: 'bob',
      files: ['src/a.ts'],
    });
  });
  await measure('pull request edited, no path claims in the repository', 1, () =>
    fake.editPullRequest(REPO, unclaimed, 'New title'),
  );
  await measure('push to a branch no claim names', 0, () =>
    fake.push(REPO, { branch: 'feat/nobody', pusher: 'alice' }),
  );
  await measure('push by another account to the holder’s branch', 0, () =>
    fake.push(REPO, { branch: 'feat/s-plain', pusher: 'bob' }),
  );
  // The holder's thread was read at its claim, and only its issue changed since (the app's
  // own label and assignee): its re-reads cost R = 1 (docs/api-budget.md).
  await measure('push by the holder’s author to its branch (renews)', 2, () =>
    fake.push(REPO, { branch: 'feat/s-plain', pusher: 'alice' }),
  );
  await measure('second push within a tenth of the window', 0, () =>
    fake.push(REPO, { branch: 'feat/s-plain', pusher: 'alice' }),
  );

  // A holder of `src/a.ts` and `docs/`.
  const held = fake.createIssue(REPO, { title: 'held' });
  const holder = fake.addComment(REPO, held, {
    author: 'alice',
    body: claim('s-held', 0, ['src/a.ts', 'docs/']),
  });
  await stack.settle();

  await measure('pull request opened, path claims, no overlap (40 files)', 2, () =>
    fake.openPullRequest(REPO, {
      head: 'feat/carol',
      author: 'bob',
      files: Array.from({ length: 40 }, (_, i) => `lib/f${i}.ts`),
    }),
  );
  let flagged = 0;
  await measure('pull request opened, overlapping one holder (40 files)', 3, () => {
    flagged = fake.openPullRequest(REPO, {
      head: 'feat/dave',
      author: 'bob',
      files: [...Array.from({ length: 39 }, (_, i) => `lib/g${i}.ts`), 'src/a.ts'],
    });
  });
  // Its holder's thread is unchanged since the last event's read: R = 0 (two 304s).
  await measure('pull request edited, verdict unchanged (overlap)', 2, () =>
    fake.editPullRequest(REPO, flagged, 'New title'),
  );
  await measure('holder released: its reconcile, then the flagged pull request re-checked', 6, () =>
    fake.editComment(
      holder.id,
      claim('s-held', 0, ['src/a.ts', 'docs/']).replace(
        'stage=implementing',
        'stage=released outcome=landed',
      ),
    ),
  );
}
