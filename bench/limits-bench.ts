import pino from 'pino';
import { limitCounters } from '../src/api/caller/limit-counters.js';
import { apiCallerLimits } from '../src/api/claims-api.js';
import { connectRedis } from '../src/redis/connect-redis.js';
import { flushPrefix, redisUrl, requireRedis, uniquePrefix } from '../test/helpers/redis.js';
import { agent, percentile, REPO, seedCallers, startBenchCluster } from './bench-cluster.js';
import { fmt, type Section } from './section.js';

const CALLERS = 20;
/** The Redis database of the benchmark (the test suites use 5 to 8). */
const DB = 9;
/** Limiter calls measured, one after another. */
const CALLS = 5000;

/** 20 callers claim 20 issues at once, spread over `replicas`; GitHub's pacing as in production. */
async function twentyClaims(replicas: number) {
  const cluster = await startBenchCluster({
    replicas,
    db: DB,
    seed: (fake) => seedCallers(fake, CALLERS),
  });
  try {
    const { fake, urls } = cluster;
    const issues = Array.from({ length: CALLERS }, (_, i) =>
      fake.createIssue(REPO, { title: `issue ${i}` }),
    );
    // Identity and permission cached, as for loops that called before.
    await Promise.all(
      issues.map((_, i) =>
        fetch(`${urls[i % urls.length]}/api/claims/v1/issues?limit=1`, {
          headers: { authorization: `Bearer ${fake.tokenFor(agent(i))}` },
        }).then((r) => r.text()),
      ),
    );
    const answers = await Promise.all(
      issues.map(async (n, i) => {
        const started = performance.now();
        const response = await fetch(
          `${urls[i % urls.length]}/api/claims/v1/repos/${REPO}/issues/${n}/claim`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${fake.tokenFor(agent(i))}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ session: `s-${i}`, lane: 'main', branch: `feat/s-${i}` }),
          },
        );
        await response.text();
        return { status: response.status, ms: performance.now() - started };
      }),
    );
    const ms = answers.map((a) => a.ms);
    const created = answers.filter((a) => a.status === 201).length;
    return { replicas, p50: percentile(ms, 50), p99: percentile(ms, 99), created };
  } finally {
    await cluster.close();
  }
}

/** The cost of one admission (enter, then leave) by the per-caller limits. */
async function limiterCost(onRedis: boolean) {
  const prefix = `${uniquePrefix('cw-bench-limits')}:`;
  const check = onRedis ? await requireRedis(DB) : undefined;
  const client = onRedis ? connectRedis(redisUrl(DB), 'fail-fast') : undefined;
  try {
    // Measured once connected: before, every count is this process's (the fallback).
    if (client && client.status !== 'ready') {
      await new Promise((resolve) => client.once('ready', resolve));
    }
    const counters = limitCounters({
      log: pino({ level: 'silent' }),
      now: Date.now,
      ...(client ? { redis: { client: async () => client, prefix } } : {}),
    });
    const limits = apiCallerLimits({ perMinute: 100_000, concurrency: 1000 }, counters);
    const ms: number[] = [];
    for (let i = 0; i < CALLS + 200; i++) {
      const started = performance.now();
      const leave = await limits.enter(`caller-${i % 20}`);
      leave();
      if (i >= 200) ms.push(performance.now() - started);
    }
    return {
      store: onRedis ? 'Redis' : 'this process',
      p50: percentile(ms, 50),
      p99: percentile(ms, 99),
    };
  } finally {
    if (check) {
      await flushPrefix(check, prefix);
      await check.quit();
    }
    client?.disconnect();
  }
}

/** docs/security.md "Limits" and docs/replicas.md "Write pacing": one count, one schedule. */
export async function benchLimits(): Promise<Section> {
  const claims = [await twentyClaims(1), await twentyClaims(3)];
  const costs = [await limiterCost(false), await limiterCost(true)];
  return {
    id: 'limits',
    title: 'One count and one write schedule for the deployment',
    notes: [
      'Claims: 20 callers claim 20 issues at once (identity cached), spread over the replicas; GitHub’s 1 s between an installation’s writes.',
      `Limiter: ${fmt(CALLS)} admissions one after another (rate and running count, enter then leave).`,
    ],
    columns: ['measure', 'figure', 'detail'],
    rows: [
      ...claims.map((c) => [
        `20 claims on 20 issues, ${c.replicas === 1 ? '1 replica (embedded)' : `${c.replicas} replicas (Redis)`}`,
        `p50 ${fmt(c.p50 / 1000, 1)} s, p99 ${fmt(c.p99 / 1000, 1)} s`,
        `${c.created}× 201`,
      ]),
      ...costs.map((c) => [
        `per-caller limiter, counted in ${c.store}`,
        `p50 ${fmt(c.p50, 3)} ms, p99 ${fmt(c.p99, 3)} ms`,
        c.store === 'Redis' ? 'goal: p50 < 1 ms' : '',
      ]),
    ],
    data: { claims, costs },
  };
}
