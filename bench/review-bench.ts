import { startStack } from '../sandbox/stack.js';
import { sweepOnce } from '../src/sweep/sweep.js';
import { marker } from './claim-marker.js';
import { callsSection, type Measured, summarise } from './measured-calls.js';
import type { Section } from './section.js';

const REPO = 'acme/widgets';
const INSTALLATION = 1;
const HOUR = 3_600_000;

/**
 * GitHub calls of a stale finalisation with the review of docs/protocol.md §17, counted from
 * the fake GitHub's request log: the stale claim's branch unknown to GitHub (404), or 3
 * commits ahead (the issue goes to review), and a compare read again after the pull-request
 * list failed (the compare is conditional: a 304). Each issue is labelled and assigned as its
 * claim's reconcile left it, and due in the sweep's index; its webhook is not delivered, so the
 * sweep reads its thread for the first time.
 */
export async function benchReview(): Promise<Section> {
  const stack = await startStack({
    webhooks: 'capture',
    env: { CLAIMS_SWEEP_INTERVAL: '24h' },
    seed: (fake) => {
      fake.addInstallation({ id: INSTALLATION, account: 'acme', repos: [REPO] });
      fake.addUser('alice', { association: 'COLLABORATOR' });
      fake.createLabel(REPO, { name: 'status:in-progress' });
    },
  });
  const { fake } = stack;
  const { store, queue } = stack.app.warden;
  const results: Measured[] = [];
  /** An issue whose claim by alice on `fix/s-<title>` went stale an hour ago, due now. */
  const staleIssue = async (title: string) => {
    const number = fake.createIssue(REPO, {
      title,
      labels: ['status:in-progress'],
      assignees: ['alice'],
    });
    const ago = new Date(Date.now() - 7 * HOUR);
    fake.addComment(REPO, number, {
      author: 'alice',
      body: marker(`s-${title}`, { started: ago, updated: ago, stage: 'implementing' }),
      createdAt: ago,
      updatedAt: ago,
    });
    const key = { installationId: INSTALLATION, owner: 'acme', repo: 'widgets', number };
    await store.setDeadline(key, new Date(Date.now() - HOUR));
    return number;
  };
  // The sweep as its timer runs it, with a lease short enough to sweep again at once.
  const sweep = async (scenario: string, floor: number) => {
    await new Promise((resolve) => setTimeout(resolve, 5)); // the 1 ms lease expires
    const mark = fake.requests.length;
    const result = await sweepOnce({ store, queue, now: () => new Date(), intervalMs: 1 });
    if (result.queued !== 1) throw new Error(`review bench: the sweep queued ${result.queued}`);
    await queue.idle();
    results.push(summarise(scenario, floor, fake.requests.slice(mark)));
  };
  try {
    await staleIssue('first');
    await sweep(
      'stale sweep, its branch unknown to GitHub (404), first in the repository (+ the default branch, kept an hour)',
      8,
    );
    await staleIssue('gone');
    await sweep('stale sweep, its branch unknown to GitHub (404)', 7);
    fake.createBranch(REPO, 'fix/s-work', { ahead: 3 });
    await staleIssue('work');
    await sweep(
      'stale sweep, its branch 3 commits ahead: to review (label created, note, pull list)',
      10,
    );
    fake.createBranch(REPO, 'fix/s-again', { ahead: 1 });
    fake.inject({ method: 'GET', path: '/repos/acme/widgets/pulls', status: 502, times: 1 });
    await staleIssue('again');
    await sweep('stale sweep whose pull list failed (502): nothing written, left for the next', 4);
    await sweep('the next sweep of it: the compare answered 304, then to review', 6);
  } finally {
    await stack.close();
  }
  return callsSection(
    'review',
    'GitHub calls of a stale finalisation with the review of stale work (docs/protocol.md §17)',
    results,
  );
}
