import type { IndexedClaim } from '../src/store/store.js';
import {
  agent,
  type BenchCluster,
  benchIssue,
  percentile,
  REPO,
  seedCallers,
  stamp,
  startBenchCluster,
} from './bench-cluster.js';
import { isCounted } from './measured-calls.js';
import { fmt, type Section } from './section.js';

const CALLERS = 20;
/** The read-only account that floods heartbeats (docs/protocol.md §8 "Limits"). */
const READER = 'reader';
/** Heartbeats the reader sends at once just before a collaborator claims the issue. */
const FLOOD = 40;
/** The Redis database of the benchmark's replicas (the test suites use 5, 6 and 8). */
const DB = 9;

/** A fake GitHub and `replicas` apps: embedded for one, on a shared Redis prefix for more. */
async function startCluster(
  replicas: number,
  extraEnv: Record<string, string> = {},
): Promise<BenchCluster> {
  return startBenchCluster({
    replicas,
    db: DB,
    env: extraEnv,
    seed: (fake) => {
      seedCallers(fake, CALLERS);
      // A passer-by: reads the public repository, may not claim (role read).
      fake.addUser(READER, { association: 'NONE' });
    },
  });
}

async function post(url: string, token: string, path: string, body: unknown) {
  const started = performance.now();
  const response = await fetch(`${url}/api/claims/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.text();
  return { status: response.status, ms: performance.now() - started };
}

interface LatencyRow {
  readonly scenario: string;
  readonly replicas: number;
  readonly p50: number;
  readonly p99: number;
  readonly statuses: Record<string, number>;
}

/** 20 callers at once, on one issue or one issue each, spread over the replicas. */
async function latency(replicas: number, sameIssue: boolean): Promise<LatencyRow> {
  const cluster = await startCluster(replicas);
  try {
    const { fake, urls } = cluster;
    const shared = fake.createIssue(REPO, { title: 'contested' });
    const issues = Array.from({ length: CALLERS }, (_, i) =>
      sameIssue ? shared : fake.createIssue(REPO, { title: `issue ${i}` }),
    );
    // Identity and permission cached, as for a loop that has called before.
    await Promise.all(
      Array.from({ length: CALLERS }, (_, i) =>
        fetch(`${urls[i % urls.length]}/api/claims/v1/issues?limit=1`, {
          headers: { authorization: `Bearer ${fake.tokenFor(agent(i))}` },
        }).then((r) => r.text()),
      ),
    );
    const answers = await Promise.all(
      issues.map((n, i) =>
        post(urls[i % urls.length]!, fake.tokenFor(agent(i)), `/repos/${REPO}/issues/${n}/claim`, {
          session: `s-${i}`,
          lane: 'main',
          branch: `feat/s-${i}`,
        }),
      ),
    );
    const statuses: Record<string, number> = {};
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    const ms = answers.map((a) => a.ms);
    return {
      scenario: sameIssue ? '20 callers, one issue' : '20 callers, 20 issues',
      replicas,
      p50: percentile(ms, 50),
      p99: percentile(ms, 99),
      statuses,
    };
  } finally {
    await cluster.close();
  }
}

/** GitHub calls of one API claim (warm caches, its own webhook echoes included) and one comment claim. */
async function callsPerClaim(): Promise<
  Array<{ scenario: string; calls: number; writes: number; notModified: number }>
> {
  const cluster = await startCluster(1);
  try {
    const { fake, apps, urls } = cluster;
    const settle = async () => {
      for (let i = 0; i < 2; i++) {
        await fake.settled();
        await apps[0]!.warden.queue.idle();
      }
    };
    const token = fake.tokenFor(agent(0));
    const warm = fake.createIssue(REPO);
    // With paths, so the path-holder index is not empty when the path claims are measured.
    await post(urls[0]!, token, `/repos/${REPO}/issues/${warm}/claim`, {
      session: 'warm',
      lane: 'm',
      branch: 'b',
      paths: ['warm/'],
    });
    await settle();
    const rows: Array<{ scenario: string; calls: number; writes: number; notModified: number }> =
      [];
    const measure = async (scenario: string, act: () => Promise<unknown>) => {
      await settle();
      const mark = fake.requests.length;
      await act();
      await settle();
      const requests = fake.requests.slice(mark).filter((r) => !r.path.startsWith('/app/'));
      const counted = requests.filter(isCounted);
      rows.push({
        scenario,
        calls: counted.length,
        writes: counted.filter((r) => r.method !== 'GET').length,
        notModified: requests.length - counted.length,
      });
    };
    const a = fake.createIssue(REPO);
    await measure('API claim (caller and app, with its webhook echoes)', () =>
      post(urls[0]!, token, `/repos/${REPO}/issues/${a}/claim`, {
        session: 's-a',
        lane: 'm',
        branch: 'b',
      }),
    );
    const b = fake.createIssue(REPO);
    await measure('comment claim (the app’s reconcile of the comment)', async () => {
      fake.addComment(REPO, b, {
        author: agent(1),
        body: `<!-- praetor-claim v=1 session=s-b lane=m branch=b started=${iso()} updated=${iso()} stage=claimed assignee=claim -->`,
      });
    });
    const c = fake.createIssue(REPO);
    const paths = Array.from({ length: 20 }, (_, i) => `src/c/file-${i}.ts`);
    await measure('API claim with 20 paths that overlap nobody', async () => {
      const answer = await post(urls[0]!, token, `/repos/${REPO}/issues/${c}/claim`, {
        session: 's-c',
        lane: 'm',
        branch: 'b',
        paths,
      });
      if (answer.status !== 201) throw new Error(`api bench: path claim answered ${answer.status}`);
    });
    const d = fake.createIssue(REPO);
    await measure(
      'API claim refused, 409 PATHS_CLAIMED (the holder’s thread re-read)',
      async () => {
        const answer = await post(
          urls[0]!,
          // The same caller (identity cached): its own claim on another issue holds the files.
          token,
          `/repos/${REPO}/issues/${d}/claim`,
          {
            session: 's-d',
            lane: 'm',
            branch: 'b',
            paths: ['src/c/'],
          },
        );
        if (answer.status !== 409)
          throw new Error(`api bench: contested claim answered ${answer.status}`);
      },
    );
    return rows;
  } finally {
    await cluster.close();
  }
}

function iso(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A queue query over 10,000 indexed issues, identity and visibility cached. */
async function queueQuery(
  replicas: number,
): Promise<{ replicas: number; issues: number; p50: number; p99: number; calls: number }> {
  const cluster = await startCluster(replicas);
  try {
    const { fake, apps, urls } = cluster;
    const store = apps[0]!.warden.store;
    const count = 10_000;
    const puts: Promise<void>[] = [];
    for (let n = 1; n <= count; n++) {
      const issue = benchIssue(n);
      puts.push(store.putOpenIssue(issue));
      if (n % 4 === 0) {
        const claim: IndexedClaim = {
          commentId: n,
          url: '',
          author: agent(n % CALLERS),
          session: `s-${n}`,
          lane: 'm',
          branch: 'b',
          stage: 'claimed',
          started: stamp(Date.now()),
          updated: stamp(Date.now()),
          heartbeat: stamp(Date.now()),
          staleAt: stamp(Date.now() + 3_600_000),
          commentUpdatedAt: stamp(Date.now()),
        };
        puts.push(store.setIssueClaim(issue.key, claim));
      }
      if (puts.length >= 500) await Promise.all(puts.splice(0));
    }
    await Promise.all(puts);
    const token = fake.tokenFor(agent(0));
    const query = () =>
      fetch(`${urls[0]}/api/claims/v1/issues?claimable=true&label=bug&limit=50`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((r) => r.json());
    await query();
    const mark = fake.requests.length;
    const ms: number[] = [];
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      const body = (await query()) as { items: unknown[] };
      ms.push(performance.now() - started);
      if (body.items.length !== 50)
        throw new Error('api bench: the queue query returned a short page');
    }
    return {
      replicas,
      issues: count,
      p50: percentile(ms, 50),
      p99: percentile(ms, 99),
      calls: fake.requests.length - mark,
    };
  } finally {
    await cluster.close();
  }
}

interface FloodRow {
  readonly limits: string;
  readonly quietP50: number;
  readonly floodP50: number;
  readonly ratio: number;
  readonly heartbeats: number;
  readonly statuses: Record<string, number>;
}

/**
 * A collaborator's API claims, one after another on fresh issues, quiet and each sent just
 * after FLOOD heartbeats of a read-only user on the same issue (such calls
 * are refused before the issue's lock, so they no longer queue the claim behind them). `env`
 * sets the per-caller limits.
 */
async function claimUnderFlood(label: string, env: Record<string, string>): Promise<FloodRow> {
  const cluster = await startCluster(1, env);
  try {
    const { fake, urls } = cluster;
    const url = urls[0]!;
    const token = fake.tokenFor(agent(0));
    const reader = fake.tokenFor(READER);
    const rounds = 8;
    const claim = async (n: number, session: string) => {
      const answer = await post(url, token, `/repos/${REPO}/issues/${n}/claim`, {
        session,
        lane: 'm',
        branch: `feat/${session}`,
      });
      if (answer.status !== 201)
        throw new Error(`api bench: flood claim answered ${answer.status}`);
      return answer.ms;
    };
    // Identity, visibility and permission cached for both, as for loops that called before.
    await claim(fake.createIssue(REPO), 'warm');
    await post(url, reader, `/repos/${REPO}/issues/1/claim/heartbeat`, { session: 'x' });
    const quiet: number[] = [];
    for (let i = 0; i < rounds; i++) quiet.push(await claim(fake.createIssue(REPO), `q-${i}`));
    const flooded: number[] = [];
    const statuses: Record<string, number> = {};
    let heartbeats = 0;
    for (let i = 0; i < rounds; i++) {
      const n = fake.createIssue(REPO);
      // The reader's heartbeats go out first, all at once, then the collaborator's claim.
      const flood = Array.from({ length: FLOOD }, () =>
        post(url, reader, `/repos/${REPO}/issues/${n}/claim/heartbeat`, { session: `f-${i}` }),
      );
      flooded.push(await claim(n, `f-${i}`));
      for (const answer of await Promise.all(flood)) {
        heartbeats += 1;
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      }
    }
    const quietP50 = percentile(quiet, 50);
    const floodP50 = percentile(flooded, 50);
    return {
      limits: label,
      quietP50,
      floodP50,
      ratio: floodP50 / quietP50,
      heartbeats,
      statuses,
    };
  } finally {
    await cluster.close();
  }
}

/** The claims API (§8) and the work queue (§9): latency, GitHub calls, and query cost. */
export async function benchApi(): Promise<Section> {
  const latencies: LatencyRow[] = [];
  for (const replicas of [1, 3]) {
    latencies.push(await latency(replicas, true));
    latencies.push(await latency(replicas, false));
  }
  const calls = await callsPerClaim();
  const queries = [await queueQuery(1), await queueQuery(3)];
  const floods = [
    await claimUnderFlood('limits off (CLAIMS_API_CONCURRENCY=1000)', {
      CLAIMS_API_CONCURRENCY: '1000',
      CLAIMS_API_RATE_PER_MINUTE: '100000',
    }),
    await claimUnderFlood('default limits (10 at once, 300 a minute)', {}),
  ];
  const rows: string[][] = [
    ...latencies.map((r) => [
      `API claim latency: ${r.scenario}, ${r.replicas} replica${r.replicas > 1 ? 's (Redis)' : ''}`,
      `p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms`,
      Object.entries(r.statuses)
        .map(([status, n]) => `${n}× ${status}`)
        .join(', '),
    ]),
    ...calls.map((r) => [
      `GitHub calls: ${r.scenario}`,
      `${r.calls} calls`,
      `${r.writes} writes, ${r.notModified} reads answered 304 (not counted)`,
    ]),
    ...floods.map((f) => [
      `API claim latency right after ${FLOOD} heartbeats by a read-only user on the issue, ${f.limits}`,
      `p50 ${fmt(f.floodP50)} ms vs ${fmt(f.quietP50)} ms quiet (${fmt(f.ratio, 2)}×; goal ≤ 1.2×)`,
      `${fmt(f.heartbeats)} heartbeats: ${Object.entries(f.statuses)
        .map(([status, n]) => `${n}× ${status}`)
        .join(', ')}`,
    ]),
    ...queries.map((q) => [
      `queue query over ${fmt(q.issues)} indexed issues, ${q.replicas === 1 ? 'memory store' : 'Redis store'}`,
      `p50 ${fmt(q.p50, 1)} ms, p99 ${fmt(q.p99, 1)} ms`,
      `${q.calls} GitHub calls`,
    ]),
  ];
  return {
    id: 'api',
    title: 'The claims API and the work queue',
    notes: [
      'Replicas in this process; writes are paced by octokit’s throttling per installation, as in production.',
      'Queue queries: claimable=true&label=bug&limit=50, identity and visibility cached, 30 runs.',
    ],
    columns: ['measure', 'figure', 'detail'],
    rows,
    data: { latencies, calls, queries, floods },
  };
}
