import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  agent,
  type BenchCluster,
  benchIssue,
  percentile,
  REPO,
  seedCallers,
  startBenchCluster,
} from './bench-cluster.js';
import { isCounted } from './measured-calls.js';
import { fmt, type Section } from './section.js';

const CALLERS = 20;
/** The Redis database of this benchmark's replicas (api-bench uses 9, the suites 5, 6, 8). */
const DB = 10;

/** A fake GitHub and `replicas` apps: embedded for one, on a shared Redis prefix for more. */
async function startCluster(replicas: number): Promise<BenchCluster> {
  return startBenchCluster({
    replicas,
    db: DB,
    seed: (fake) => {
      seedCallers(fake, CALLERS);
    },
  });
}

async function connect(url: string, token: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

interface LatencyRow {
  readonly surface: 'REST' | 'MCP';
  readonly replicas: number;
  /** The median over the rounds of each round's p50 and p99. */
  readonly p50: number;
  readonly p99: number;
  /** Claims won in each round (one each, the others refused). */
  readonly won: readonly number[];
}

/** Contested rounds per surface: the lock's order is the race's, so one round is noise. */
const ROUNDS = 4;

type Race = Array<{ ms: number; won: boolean }>;

/**
 * 20 callers claiming one issue at once, spread over the replicas, through REST and through
 * MCP tools (identity cached and MCP sessions open, as for a loop that has called before), in
 * `ROUNDS` rounds of a fresh issue per surface, the surfaces taking turns to go first so the
 * machine's load falls on both alike.
 */
async function claimLatency(replicas: number): Promise<{
  rows: LatencyRow[];
  ratios: number[];
  alone: { rest: number; mcp: number };
  reads: { rest: number; mcp: number };
}> {
  const cluster = await startCluster(replicas);
  try {
    const { fake, urls } = cluster;
    const token = (i: number) => fake.tokenFor(agent(i));
    const url = (i: number) => urls[i % urls.length]!;
    const clients = await Promise.all(
      Array.from({ length: CALLERS }, (_, i) => connect(url(i), token(i), `bench-${i}`)),
    );
    // Both surfaces warm alike: each caller's identity, visibility and the config cached.
    const warm = fake.createIssue(REPO, { title: 'warm-up' });
    await Promise.all(
      clients.map(async (client, i) => {
        const response = await fetch(`${url(i)}/api/claims/v1/repos/${REPO}/issues/${warm}/claim`, {
          headers: { authorization: `Bearer ${token(i)}` },
        });
        await response.text();
        await client.callTool({ name: 'issue_get', arguments: { issue: `${REPO}#${warm}` } });
      }),
    );
    /** Everyone at once on a fresh issue, or caller `only` alone. */
    const callers = (only?: number) =>
      only === undefined ? Array.from({ length: CALLERS }, (_, i) => i) : [only];
    const restRace = async (round: number, only?: number): Promise<Race> => {
      const issue = fake.createIssue(REPO, { title: `claimed over REST, round ${round}` });
      return Promise.all(
        callers(only).map(async (i) => {
          const started = performance.now();
          const response = await fetch(
            `${url(i)}/api/claims/v1/repos/${REPO}/issues/${issue}/claim`,
            {
              method: 'POST',
              headers: { authorization: `Bearer ${token(i)}`, 'content-type': 'application/json' },
              body: JSON.stringify({
                session: `s-${round}-${i}`,
                lane: 'main',
                branch: `feat/s-${i}`,
              }),
            },
          );
          await response.text();
          return { ms: performance.now() - started, won: response.status === 201 };
        }),
      );
    };
    const mcpRace = async (round: number, only?: number): Promise<Race> => {
      const issue = fake.createIssue(REPO, { title: `claimed over MCP, round ${round}` });
      return Promise.all(
        callers(only).map(async (i) => {
          const started = performance.now();
          const result = await clients[i]!.callTool({
            name: 'issue_claim',
            arguments: {
              issue: `${REPO}#${issue}`,
              session: `m-${round}-${i}`,
              lane: 'main',
              branch: `feat/m-${i}`,
            },
          });
          return { ms: performance.now() - started, won: !result.isError };
        }),
      );
    };
    const rest: Race[] = [];
    const mcp: Race[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        rest.push(await restRace(round));
        mcp.push(await mcpRace(round));
      } else {
        mcp.push(await mcpRace(round));
        rest.push(await restRace(round));
      }
    }
    // Uncontested: each caller claims a fresh issue through each surface in turn, one at a
    // time, so what the door itself adds is not hidden behind the lock's queue.
    const alone = { rest: [] as number[], mcp: [] as number[] };
    for (let i = 0; i < CALLERS; i++) {
      const timed = async (race: (round: number, only: number) => Promise<Race>) =>
        (await race(ROUNDS + i, i))[0]!.ms;
      const restFirst = i % 2 === 0;
      const first = await timed(restFirst ? restRace : mcpRace);
      const second = await timed(restFirst ? mcpRace : restRace);
      alone.rest.push(restFirst ? first : second);
      alone.mcp.push(restFirst ? second : first);
    }
    // And a read of a claim, which writes nothing: the door's own cost, milliseconds.
    const reads = { rest: [] as number[], mcp: [] as number[] };
    const readRest = async (i: number) => {
      const response = await fetch(`${url(i)}/api/claims/v1/repos/${REPO}/issues/${warm}/claim`, {
        headers: { authorization: `Bearer ${token(i)}` },
      });
      await response.text();
    };
    const readMcp = (i: number) =>
      clients[i]!.callTool({ name: 'issue_get', arguments: { issue: `${REPO}#${warm}` } });
    for (let i = 0; i < CALLERS; i++) {
      const started = performance.now();
      await readRest(i);
      const between = performance.now();
      await readMcp(i);
      reads.rest.push(between - started);
      reads.mcp.push(performance.now() - between);
    }
    await Promise.all(clients.map((c) => c.close()));
    const p = (race: Race, at: number) =>
      percentile(
        race.map((r) => r.ms),
        at,
      );
    const row = (surface: 'REST' | 'MCP', races: Race[]): LatencyRow => ({
      surface,
      replicas,
      p50: median(races.map((race) => p(race, 50))),
      p99: median(races.map((race) => p(race, 99))),
      won: races.map((race) => race.filter((r) => r.won).length),
    });
    const ratios = mcp.map((race, round) => p(race, 50) / p(rest[round]!, 50));
    return {
      rows: [row('REST', rest), row('MCP', mcp)],
      ratios,
      alone: { rest: median(alone.rest), mcp: median(alone.mcp) },
      reads: { rest: median(reads.rest), mcp: median(reads.mcp) },
    };
  } finally {
    await cluster.close();
  }
}

function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** GitHub calls of one uncontested claim through each surface, and of one `issue_get`. */
interface CallsRow {
  readonly measure: string;
  readonly rest: number;
  readonly mcp: number;
}

/**
 * The GitHub calls of one tool call beside those of the REST call it stands for, on one
 * replica with the caller's identity cached and the config read (a loop that has called
 * before): a claim of a fresh issue, and a read of an issue's claim.
 */
async function callsPerToolCall(): Promise<CallsRow[]> {
  const cluster = await startCluster(1);
  try {
    const { fake, urls } = cluster;
    const token = fake.tokenFor(agent(0));
    const client = await connect(urls[0]!, token, 'bench-calls');
    const rest = (method: string, path: string, body?: object) =>
      fetch(`${urls[0]}/api/claims/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then((r) => r.text());
    const counted = async (work: () => Promise<unknown>) => {
      await fake.settled();
      const before = fake.requests.length;
      await work();
      await fake.settled();
      for (const app of cluster.apps) await app.warden.queue.idle();
      await fake.settled();
      return fake.requests.slice(before).filter(isCounted).length;
    };
    const claimBody = (i: number) => ({ session: `c-${i}`, lane: 'main', branch: `feat/c-${i}` });
    // Warm: identity, visibility, permission and config, a claim through each surface.
    const [warmRest, warmMcp] = [fake.createIssue(REPO), fake.createIssue(REPO)];
    await rest('POST', `/repos/${REPO}/issues/${warmRest}/claim`, claimBody(0));
    await client.callTool({
      name: 'issue_claim',
      arguments: { issue: `${REPO}#${warmMcp}`, ...claimBody(0) },
    });
    const restIssue = fake.createIssue(REPO, { title: 'claimed over REST' });
    const mcpIssue = fake.createIssue(REPO, { title: 'claimed over MCP' });
    const restClaim = await counted(() =>
      rest('POST', `/repos/${REPO}/issues/${restIssue}/claim`, claimBody(1)),
    );
    const mcpClaim = await counted(() =>
      client.callTool({
        name: 'issue_claim',
        arguments: { issue: `${REPO}#${mcpIssue}`, ...claimBody(2) },
      }),
    );
    const restGet = await counted(() => rest('GET', `/repos/${REPO}/issues/${restIssue}/claim`));
    const mcpGet = await counted(() =>
      client.callTool({ name: 'issue_get', arguments: { issue: `${REPO}#${mcpIssue}` } }),
    );
    await client.close();
    return [
      { measure: 'claim of a fresh issue', rest: restClaim, mcp: mcpClaim },
      { measure: 'read of an issue’s claim', rest: restGet, mcp: mcpGet },
    ];
  } finally {
    await cluster.close();
  }
}

/** `issues_list` tool calls per second over 10,000 indexed issues, one client, one replica. */
async function listRate(): Promise<{
  issues: number;
  calls: number;
  perSecond: number;
  p50: number;
}> {
  const cluster = await startCluster(1);
  try {
    const { fake, apps, urls } = cluster;
    const store = apps[0]!.warden.store;
    const count = 10_000;
    for (let n = 1; n <= count; n++) {
      const issue = benchIssue(n);
      await store.putOpenIssue(issue);
    }
    const client = await connect(urls[0]!, fake.tokenFor(agent(0)), 'bench-list');
    const call = () =>
      client.callTool({
        name: 'issues_list',
        arguments: { claimable: true, label: 'bug', limit: 50 },
      });
    await call();
    const calls = 50;
    const ms: number[] = [];
    const started = performance.now();
    for (let i = 0; i < calls; i++) {
      const one = performance.now();
      const result = await call();
      ms.push(performance.now() - one);
      const items = (result.structuredContent as { items?: unknown[] } | undefined)?.items;
      if (items?.length !== 50) throw new Error('mcp bench: issues_list returned a short page');
    }
    const seconds = (performance.now() - started) / 1000;
    await client.close();
    return { issues: count, calls, perSecond: calls / seconds, p50: percentile(ms, 50) };
  } finally {
    await cluster.close();
  }
}

/** The remote MCP server: claim latency beside REST's, and issues_list's rate. */
export async function benchMcp(): Promise<Section> {
  const one = await claimLatency(1);
  const three = await claimLatency(3);
  const latencies = [...one.rows, ...three.rows];
  const calls = await callsPerToolCall();
  const list = await listRate();
  const ratio = (replicas: number) => {
    const of = (surface: string) =>
      latencies.find((r) => r.surface === surface && r.replicas === replicas)!.p50;
    return of('MCP') / of('REST');
  };
  const rounds = (ratios: readonly number[]) =>
    `rounds ${ratios.map((r) => `${fmt(r, 2)}×`).join(', ')}; goal ≤ 1.05×`;
  const rows: string[][] = [
    ...latencies.map((r) => [
      `${r.surface} claim latency: 20 callers, one issue, ${r.replicas} replica${r.replicas > 1 ? 's (Redis)' : ''}`,
      `p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms (median of ${ROUNDS} rounds)`,
      `claims won per round: ${r.won.join(', ')} (the others refused)`,
    ]),
    ...[1, 3].map((replicas) => [
      `MCP claim p50 / REST claim p50, ${replicas} replica${replicas > 1 ? 's' : ''}`,
      `${fmt(ratio(replicas), 2)}×`,
      rounds(replicas === 1 ? one.ratios : three.ratios),
    ]),
    ...[one, three].map((run, at) => [
      `one claim of a fresh issue, uncontested: MCP / REST, ${at === 0 ? '1 replica' : '3 replicas'}`,
      `${fmt(run.alone.mcp / run.alone.rest, 2)}×`,
      `p50 ${fmt(run.alone.mcp, 1)} / ${fmt(run.alone.rest, 1)} ms over ${CALLERS} claims each, in turns`,
    ]),
    ...[one, three].map((run, at) => [
      `one read of a claim, uncontested: MCP / REST, ${at === 0 ? '1 replica' : '3 replicas'}`,
      `+${fmt(run.reads.mcp - run.reads.rest, 1)} ms`,
      `p50 ${fmt(run.reads.mcp, 1)} / ${fmt(run.reads.rest, 1)} ms over ${CALLERS} reads each: what the MCP door adds`,
    ]),
    ...calls.map((c) => [
      `GitHub calls of one ${c.measure}: MCP tool call / REST call`,
      `${c.mcp} / ${c.rest}`,
      'goal: the same',
    ]),
    [
      `issues_list over ${fmt(list.issues)} indexed issues (MCP, memory store)`,
      `${fmt(list.perSecond)} tool calls/s`,
      `p50 ${fmt(list.p50, 1)} ms, ${list.calls} sequential calls`,
    ],
  ];
  return {
    id: 'mcp',
    title: 'The remote MCP server',
    notes: [
      'Replicas in this process; each MCP client holds an open session; each caller’s identity and visibility cached on both surfaces before timing.',
      `Claim latency: ${ROUNDS} rounds of a fresh issue per surface, the surfaces taking turns to go first; the figure is the median of the rounds’ p50s.`,
      'issues_list: claimable=true, label=bug, limit=50, one client, sequential calls.',
      'A tool call is one run of the operation as the MCP request’s admitted caller: one count against the caller’s limits, as a REST call.',
    ],
    columns: ['measure', 'figure', 'detail'],
    rows,
    data: {
      latencies,
      ratios: { one: ratio(1), three: ratio(3) },
      rounds: { one: one.ratios, three: three.ratios },
      alone: { one: one.alone, three: three.alone },
      reads: { one: one.reads, three: three.reads },
      calls,
      list,
    },
  };
}
