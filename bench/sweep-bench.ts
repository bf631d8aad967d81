import { startStack } from '../sandbox/stack.js';
import { renderClaimComment } from '../src/claims/comment.js';
import type { IssueKey } from '../src/keys.js';
import { sweepOnce } from '../src/sweep/sweep.js';
import { fmt, type Section } from './section.js';

const INDEXED = 10_000;
const DUE = 100;
const HOUR = 3_600_000;
/** Reconciles at once: one per due installation, so the figure is not the queue's limit. */
const CONCURRENCY = DUE;

interface SweepRun {
  readonly due: number;
  readonly queued: number;
  /** The sweep itself: the index scan and the enqueueing. */
  readonly sweepMs: number;
  /** From the sweep's start until every reconcile it queued has finished. */
  readonly completeMs: number;
  readonly calls: number;
  readonly writes: number;
}

/**
 * Sweep: 10,000 live claims in the index (MemoryStore), 100 of them due. The 100 are real
 * stale claims on the fake GitHub (labelled, assigned, 7 hours old with a 6-hour window), one
 * per installation so that their writes do not queue behind each other's throttle; the other
 * 9,900 have deadlines in the next hours. One sweep with 0 due, then one with 100.
 */
export async function benchSweep(): Promise<Section> {
  const ago = new Date(Date.now() - 7 * HOUR);
  const due: IssueKey[] = [];
  const stack = await startStack({
    webhooks: 'capture',
    env: { CLAIMS_SWEEP_INTERVAL: '24h', CLAIMS_QUEUE_CONCURRENCY: String(CONCURRENCY) },
    seed: (fake) => {
      fake.addUser('alice', { association: 'COLLABORATOR' });
      for (let i = 0; i < DUE; i++) {
        const owner = `team-${i}`;
        const repo = `${owner}/app`;
        fake.addInstallation({ id: 7000 + i, account: owner, repos: [repo] });
        const n = fake.createIssue(repo, { title: 'stale work' });
        due.push({ installationId: 7000 + i, owner, repo: 'app', number: n });
      }
    },
  });
  const { fake } = stack;
  const { store, queue } = stack.app.warden;
  const runs: SweepRun[] = [];
  try {
    // The claims arrive once the start-up resync is done (their webhooks captured, not sent),
    // so that the sweep, not the start-up, is what finds them stale.
    await stack.app.warden.started;
    await queue.idle();
    for (const key of due) {
      const repo = `${key.owner}/${key.repo}`;
      fake.addComment(repo, key.number, {
        author: 'alice',
        body: renderClaimComment({
          session: `s-${key.installationId}`,
          lane: 'main',
          branch: 'fix/it',
          started: ago,
          updated: ago,
          stage: 'implementing',
          assignee: 'claim',
        }),
        createdAt: ago,
        updatedAt: ago,
      });
      fake.addLabels(repo, key.number, ['status:in-progress']);
      fake.assign(repo, key.number, ['alice']);
    }
    const now = Date.now();
    for (let i = 0; i < INDEXED - DUE; i++) {
      const key = {
        installationId: 9000 + (i % 100),
        owner: `org-${i % 100}`,
        repo: 'repo',
        number: i + 1,
      };
      await store.setDeadline(key, new Date(now + HOUR + ((i * 7919) % (5 * HOUR))));
    }
    for (const key of due) await store.setDeadline(key, new Date(now + HOUR));
    if ((await store.countDeadlines()) !== INDEXED) throw new Error('sweep bench: index size');

    // The sweep as its timer runs it, with a lease short enough to sweep twice in a row.
    const deps = { store, queue, now: () => new Date(), intervalMs: 1 };
    const sweep = async (expectDue: number): Promise<SweepRun> => {
      await new Promise((resolve) => setTimeout(resolve, 5)); // the 1 ms lease expires
      const mark = fake.requests.length;
      const started = performance.now();
      const result = await sweepOnce(deps);
      await queue.idle();
      const completeMs = performance.now() - started;
      const calls = fake.requests.slice(mark);
      if (!result.ran || result.queued !== expectDue) {
        throw new Error(
          `sweep bench: expected ${expectDue} due, the sweep queued ${result.queued}`,
        );
      }
      return {
        due: expectDue,
        queued: result.queued,
        sweepMs: result.ms,
        completeMs,
        calls: calls.length,
        writes: calls.filter((r) => r.method !== 'GET').length,
      };
    };
    runs.push(await sweep(0));
    for (const key of due) await store.setDeadline(key, new Date(now - 60_000));
    runs.push(await sweep(DUE));
    const freed = due.filter((key) => {
      const issue = fake.issue(`${key.owner}/${key.repo}`, key.number);
      return issue.labels.length === 0 && issue.assignees.length === 0;
    }).length;
    if (freed !== DUE) throw new Error(`sweep bench: only ${freed} of ${DUE} issues were freed`);
  } finally {
    await stack.close();
  }
  return {
    id: 'sweep',
    title: `Sweep: ${fmt(INDEXED)} live claims indexed (MemoryStore)`,
    notes: [
      'sweep ms: the index scan and enqueueing; complete: until every queued reconcile finished',
      `(each due claim is stale: read issue + comments, note, finalise, unlabel, unassign;`,
      `one installation each, CLAIMS_QUEUE_CONCURRENCY=${CONCURRENCY}, writes throttled 1/s per installation).`,
    ],
    columns: [
      'due',
      'queued',
      'sweep ms',
      'complete ms',
      'GitHub calls',
      'writes',
      'calls per due issue',
    ],
    rows: runs.map((run) => [
      String(run.due),
      String(run.queued),
      fmt(run.sweepMs, 2),
      fmt(run.completeMs),
      String(run.calls),
      String(run.writes),
      run.due === 0 ? '-' : fmt(run.calls / run.due, 1),
    ]),
    data: runs,
  };
}
