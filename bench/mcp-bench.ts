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
  readonly p50: number;
  readonly p99: number;
  readonly won: number;
}

/**
 * 20 callers claiming one issue at once, spread over the replicas, through REST and then (on
 * another issue, same contention) through MCP tools: identity cached and MCP sessions open,
 * as for a loop that has called before.
 */
async function claimLatency(replicas: number): Promise<LatencyRow[]> {
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
    const rest = fake.createIssue(REPO, { title: 'contested over REST' });
    const restMs = await Promise.all(
      Array.from({ length: CALLERS }, async (_, i) => {
        const started = performance.now();
        const response = await fetch(`${url(i)}/api/claims/v1/repos/${REPO}/issues/${rest}/claim`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token(i)}`, 'content-type': 'application/json' },
          body: JSON.stringify({ session: `s-${i}`, lane: 'main', branch: `feat/s-${i}` }),
        });
        await response.text();
        return { ms: performance.now() - started, won: response.status === 201 };
      }),
    );
    const mcp = fake.createIssue(REPO, { title: 'contested over MCP' });
    const mcpMs = await Promise.all(
      clients.map(async (client, i) => {
        const started = performance.now();
        const result = await client.callTool({
          name: 'issue_claim',
          arguments: {
            issue: `${REPO}#${mcp}`,
            session: `m-${i}`,
            lane: 'main',
            branch: `feat/m-${i}`,
          },
        });
        return { ms: performance.now() - started, won: !result.isError };
      }),
    );
    await Promise.all(clients.map((c) => c.close()));
    const row = (surface: 'REST' | 'MCP', runs: Array<{ ms: number; won: boolean }>) => ({
      surface,
      replicas,
      p50: percentile(
        runs.map((r) => r.ms),
        50,
      ),
      p99: percentile(
        runs.map((r) => r.ms),
        99,
      ),
      won: runs.filter((r) => r.won).length,
    });
    return [row('REST', restMs), row('MCP', mcpMs)];
  } finally {
    await cluster.close();
  }
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
  const latencies = [...(await claimLatency(1)), ...(await claimLatency(3))];
  const calls = await callsPerToolCall();
  const list = await listRate();
  const ratio = (replicas: number) => {
    const of = (surface: string) =>
      latencies.find((r) => r.surface === surface && r.replicas === replicas)!.p50;
    return of('MCP') / of('REST');
  };
  const rows: string[][] = [
    ...latencies.map((r) => [
      `${r.surface} claim latency: 20 callers, one issue, ${r.replicas} replica${r.replicas > 1 ? 's (Redis)' : ''}`,
      `p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms`,
      `${r.won} claim, ${CALLERS - r.won} refused`,
    ]),
    ...[1, 3].map((replicas) => [
      `MCP claim p50 / REST claim p50, ${replicas} replica${replicas > 1 ? 's' : ''}`,
      `${fmt(ratio(replicas), 2)}×`,
      'goal ≤ 1.05×',
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
      'issues_list: claimable=true, label=bug, limit=50, one client, sequential calls.',
      'A tool call is one run of the operation as the MCP request’s admitted caller: one count against the caller’s limits, as a REST call.',
    ],
    columns: ['measure', 'figure', 'detail'],
    rows,
    data: { latencies, ratios: { one: ratio(1), three: ratio(3) }, calls, list },
  };
}
