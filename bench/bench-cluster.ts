import { freePort, STACK_SECRET, stackEnv } from '../sandbox/stack.js';
import { main, type RunningApp } from '../src/app/main.js';
import type { IndexedIssue } from '../src/store/store.js';
import { type FakeGitHub, startFakeGitHub } from '../test/fake-github/fake-github.js';
import { flushPrefix, redisUrl, requireRedis, uniquePrefix } from '../test/helpers/redis.js';

/** The repository and installation every claims benchmark asks about. */
export const REPO = 'acme/widgets';
export const INSTALLATION = 1;

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

/** The login of bench caller `i`: agent-01, agent-02, … */
export function agent(i: number): string {
  return `agent-${String(i + 1).padStart(2, '0')}`;
}

/** The installation on REPO, its in-progress label and `callers` collaborating agents. */
export function seedCallers(fake: FakeGitHub, callers: number): void {
  fake.addInstallation({ id: INSTALLATION, account: 'acme', repos: [REPO] });
  fake.createLabel(REPO, { name: 'status:in-progress' });
  for (let i = 0; i < callers; i++) fake.addUser(agent(i), { association: 'COLLABORATOR' });
}

const INDEX_BASE = Date.parse('2026-01-01T00:00:00Z');

/** GitHub's time format: whole seconds. */
export function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Open issue `n` of a bench's index: opened a second after issue n-1, every third a bug. */
export function benchIssue(n: number): IndexedIssue {
  return {
    key: { installationId: INSTALLATION, owner: 'acme', repo: 'widgets', number: n },
    title: `issue ${n}`,
    url: `https://github.com/${REPO}/issues/${n}`,
    labels: n % 3 === 0 ? ['bug'] : [],
    assignees: [],
    createdAt: stamp(INDEX_BASE + n * 1000),
    updatedAt: stamp(INDEX_BASE + n * 1000),
  };
}
