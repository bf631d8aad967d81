import { freePort, STACK_SECRET, stackEnv } from '../sandbox/stack.js';
import { main, type RunningApp } from '../src/app/main.js';
import { type FakeGitHub, startFakeGitHub } from '../test/fake-github/fake-github.js';
import { flushPrefix, redisUrl, requireRedis, uniquePrefix } from '../test/helpers/redis.js';

/** A fake GitHub and the apps answering one benchmark's callers. */
export interface BenchCluster {
  readonly fake: FakeGitHub;
  readonly apps: RunningApp[];
  readonly urls: string[];
  close(): Promise<void>;
}

/**
 * A fake GitHub seeded by `seed`, and `replicas` apps: embedded for one, on a shared Redis
 * prefix of database `db` for more. Webhooks go to the first replica.
 */
export async function startBenchCluster(options: {
  readonly replicas: number;
  readonly db: number;
  readonly seed: (fake: FakeGitHub) => void;
  readonly env?: Record<string, string>;
}): Promise<BenchCluster> {
  const fake = await startFakeGitHub({ log: () => {} });
  options.seed(fake);
  const prefix = uniquePrefix('cw-bench');
  const redis = options.replicas > 1 ? await requireRedis(options.db) : undefined;
  const apps: RunningApp[] = [];
  const urls: string[] = [];
  for (let i = 0; i < options.replicas; i++) {
    const port = await freePort();
    const env = stackEnv(fake, port, {
      CLAIMS_SWEEP_INTERVAL: '24h',
      ...options.env,
      ...(redis ? { CLAIMS_REDIS_URL: redisUrl(options.db), CLAIMS_REDIS_PREFIX: prefix } : {}),
    });
    apps.push(await main(env));
    urls.push(`http://127.0.0.1:${port}`);
  }
  await Promise.all(apps.map((a) => a.warden.started));
  fake.setWebhookTarget({ url: `${urls[0]}/api/github/webhooks`, secret: STACK_SECRET });
  return {
    fake,
    apps,
    urls,
    async close() {
      fake.setWebhookTarget(undefined);
      await fake.settled();
      for (const app of apps) await app.stop();
      await fake.close();
      if (redis) {
        await flushPrefix(redis, `${prefix}:`);
        await redis.quit();
      }
    },
  };
}

/** The `p`th percentile of `values` (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
