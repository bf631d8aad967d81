import { startStack } from '../sandbox/stack.js';
import { renderClaimComment } from '../src/claims/comment.js';
import { overlaps } from '../src/claims/paths.js';
import { resolveRepoConfig } from '../src/config/resolve-repo-config.js';
import type { IssueThread } from '../src/github/thread.js';
import { liveHoldersOverlapping } from '../src/path-holders/live-holders-overlapping.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { isCounted } from './measured-calls.js';
import { fmt, type Section } from './section.js';

const REPO = 'acme/widgets';
const INSTALLATION = 1;
const MEASURE_MS = 1000;
/** A repository without claims.yml under the default 6-hour window. */
const CONFIG = resolveRepoConfig({}, { staleAfterMs: 6 * 3_600_000 });

/** 20 entries for claim `i`: 18 files and 2 directories of its own package. */
function entriesOf(i: number): string[] {
  const files = Array.from({ length: 18 }, (_, f) => `packages/p${i}/src/module-${f}.ts`);
  return [...files, `packages/p${i}/test/`, `packages/p${i}/docs/`];
}

/** Runs `body` for about MEASURE_MS; the calls per second. */
async function rate(body: () => Promise<unknown> | unknown): Promise<number> {
  await body();
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < MEASURE_MS) {
    await body();
    calls += 1;
  }
  return (calls * 1000) / (performance.now() - started);
}

/**
 * The overlap check a claim with paths runs (`liveHoldersOverlapping`, the claims API's and the
 * reconcile's) against 1,000 live path claims of 20 entries each, indexed in memory. Paths
 * touching nobody read no thread; the contested holder's thread is answered from memory, so
 * the figure is the app's own work, not GitHub's.
 */
async function overlapCost(): Promise<Array<{ name: string; perSec: number; msEach: number }>> {
  const store = new MemoryStore();
  const key = (number: number) => ({
    installationId: INSTALLATION,
    owner: 'acme',
    repo: 'widgets',
    number,
  });
  const threads = new Map<number, IssueThread>();
  for (let i = 0; i < 1000; i++) {
    const heartbeat = new Date();
    await store.setPathHolder(key(i + 1), {
      commentId: 10_000 + i,
      session: `h${i}`,
      author: 'alice',
      branch: `fix/h${i}`,
      heartbeat,
      paths: entriesOf(i),
    });
    threads.set(i + 1, {
      open: true,
      stateReason: null,
      isPullRequest: false,
      labels: [],
      assignees: [],
      comments: [
        {
          id: 10_000 + i,
          author: 'alice',
          authorAssociation: 'COLLABORATOR',
          body: claim(`h${i}`, entriesOf(i)),
          createdAt: heartbeat,
          updatedAt: heartbeat,
        },
      ],
    });
  }
  const deps = {
    store,
    appLogin: 'claim-warden[bot]',
    readThread: async (where: { number: number }) => {
      const thread = threads.get(where.number);
      if (!thread) throw new Error(`paths bench: no thread for #${where.number}`);
      return thread;
    },
  };
  const check = (paths: readonly string[]) =>
    liveHoldersOverlapping(deps, key(5000), paths, CONFIG, new Date());
  const disjoint = entriesOf(5000);
  const contested = [...entriesOf(5000).slice(0, 19), 'packages/p500/'];
  const holders = await store.pathHolders(1, 'acme', 'widgets');
  const rows = [
    {
      name: 'overlaps(): one claim of 20 against 1,000 claims of 20 (pure)',
      perSec: await rate(() => {
        for (const h of holders) overlaps(disjoint, h.paths);
      }),
    },
    {
      name: 'liveHoldersOverlapping(): 20 paths touching nobody, 1,000 holders indexed',
      perSec: await rate(() => check(disjoint)),
    },
    {
      name: 'liveHoldersOverlapping(): 20 paths, one directory over one holder (verified)',
      perSec: await rate(async () => {
        const found = await check(contested);
        if (found.length !== 1)
          throw new Error(`paths bench: expected one overlap, got ${found.length}`);
      }),
    },
  ];
  return rows.map((r) => ({ ...r, msEach: 1000 / r.perSec }));
}

function claim(session: string, paths?: readonly string[]): string {
  const at = new Date();
  return renderClaimComment(
    {
      session,
      lane: 'main',
      branch: `fix/${session}`,
      started: at,
      updated: at,
      stage: 'claimed',
      assignee: 'claim',
    },
    paths === undefined ? {} : { paths },
  );
}

/** The GitHub calls of one claim: counted, and the reads answered 304 (not counted). */
interface CallCost {
  readonly scenario: string;
  readonly calls: number;
  readonly notModified: number;
  readonly requests: string[];
}

/** GitHub calls of one claim delivered to a settled app, by what its path line says. */
async function callCost(): Promise<CallCost[]> {
  const stack = await startStack({
    webhooks: 'capture',
    env: { CLAIMS_SWEEP_INTERVAL: '24h' },
    seed: (fake) => {
      fake.addInstallation({ id: INSTALLATION, account: 'acme', repos: [REPO] });
      fake.addUser('alice', { association: 'COLLABORATOR' });
      fake.addUser('bob', { association: 'COLLABORATOR' });
      fake.createLabel(REPO, { name: 'status:in-progress' });
    },
  });
  const { fake } = stack;
  const out: CallCost[] = [];
  try {
    let delivered = fake.deliveries.length;
    const measure = async (scenario: string, author: string, body: string) => {
      const n = fake.createIssue(REPO, { title: scenario });
      delivered = fake.deliveries.length;
      const mark = fake.requests.length;
      fake.addComment(REPO, n, { author, body });
      for (const d of fake.deliveries.slice(delivered)) await stack.deliver(d);
      await stack.app.warden.queue.idle();
      // Deliver nothing more: the app's echoes cost no call (docs/protocol.md §5).
      const answered = fake.requests.slice(mark);
      const calls = answered.filter(isCounted).length;
      const requests = answered.map((r) => `${r.method} ${r.path} ${r.status}`);
      out.push({ scenario, calls, notModified: answered.length - calls, requests });
    };
    // Warm-up: the first claim also learns that the status label exists (one GET, once).
    await measure('warm-up', 'alice', claim('s-warm'));
    out.pop();
    await measure('claim without a path line', 'alice', claim('s-plain'));
    await measure('claim with 20 paths touching nobody', 'alice', claim('s-paths', entriesOf(1)));
    await measure(
      'claim with 20 paths an older holder elsewhere holds (loses)',
      'bob',
      claim('s-late', entriesOf(1)),
    );
  } finally {
    await stack.close();
  }
  return out;
}

/** docs/protocol.md §10: what path claims cost, in CPU and in GitHub calls. */
export async function benchPaths(): Promise<Section> {
  const cpu = await overlapCost();
  const calls = await callCost();
  return {
    id: 'paths',
    title: 'Path claims: the overlap check, and GitHub calls of a claim with and without paths',
    notes: [
      'CPU rows: checks per second over 1,000 indexed holders of 20 entries (in-memory index).',
      'Call rows: one claim delivered to a settled app (label exists, config cached); 304 answers apart, not counted by GitHub.',
    ],
    columns: ['benchmark', 'per second', 'ms each', 'GitHub calls', '304s'],
    rows: [
      ...cpu.map((r) => [r.name, fmt(r.perSec), fmt(r.msEach, 3), '-', '-']),
      ...calls.map((r) => [r.scenario, '-', '-', String(r.calls), String(r.notModified)]),
    ],
    data: { cpu, calls },
  };
}
