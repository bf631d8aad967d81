/**
 * docs/replicas.md "Naming Redis" and "The Redis it needs": `rediss://` with a private CA
 * and an ACL user, as managed services offer Redis; and the start-up check of
 * `maxmemory-policy`, which refuses a Redis that may evict and goes on, saying so, where
 * `CONFIG GET` is not allowed.
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logSink } from '../helpers/app-harness.js';
import {
  type Certificates,
  freePort,
  makeCertificates,
  RedisServers,
} from '../helpers/redis-servers.js';
import { type Cluster, claim, createdDeliveries, REPO, startCluster } from './harness.js';

const PASSWORD = 'tls-test-password';
const servers = new RedisServers();
let certificates: Certificates;
let tlsPort: number;
let cluster: Cluster | undefined;

/** True when the TLS server answers PING to the ACL user over TLS with the private CA. */
async function tlsAnswers(port: number): Promise<boolean> {
  const redis = new Redis({
    port,
    host: '127.0.0.1',
    username: 'app',
    password: PASSWORD,
    tls: { ca: [readFileSync(certificates.caFile)] },
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

beforeAll(async () => {
  certificates = await makeCertificates(servers);
  tlsPort = await freePort();
  await servers.start(
    [
      // TLS only: the plain port is closed.
      '--port',
      '0',
      '--tls-port',
      String(tlsPort),
      '--tls-cert-file',
      certificates.certFile,
      '--tls-key-file',
      certificates.keyFile,
      '--tls-ca-cert-file',
      certificates.caFile,
      '--tls-auth-clients',
      'no',
      // An ACL user as a managed service gives: every command but CONFIG.
      '--user',
      'default',
      'off',
      '--user',
      'app',
      'on',
      `>${PASSWORD}`,
      '~*',
      '&*',
      '+@all',
      '-config',
    ],
    { port: tlsPort, ping: tlsAnswers },
  );
}, 60_000);

afterAll(async () => {
  try {
    await cluster?.close();
  } finally {
    await servers.stop();
  }
});

describe('Redis over TLS with an ACL user', () => {
  it('runs on rediss:// with a private CA; without CONFIG it says it could not check the eviction policy', async () => {
    const lines: string[] = [];
    cluster = await startCluster({
      redisEnv: {
        CLAIMS_REDIS_URL: `rediss://127.0.0.1:${tlsPort}`,
        CLAIMS_REDIS_USERNAME: 'app',
        CLAIMS_REDIS_PASSWORD: PASSWORD,
        CLAIMS_REDIS_TLS_CA: certificates.caFile,
      },
    });
    const replica = await cluster.startReplica({
      env: { LOG_LEVEL: 'info' },
      main: { logDestination: logSink(lines) },
    });
    const { fake } = cluster;
    const n = fake.createIssue(REPO);
    const ids = ['alice', 'bob'].map(
      (author) => fake.addComment(REPO, n, { author, body: claim(`s-${author}`) }).id,
    );
    for (const delivery of createdDeliveries(fake, ids)) {
      expect(await cluster.send(delivery, replica)).toBe(200);
    }
    await cluster.idle();
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);

    const warning = lines
      .map((line) => JSON.parse(line))
      .find((l) => /maxmemory-policy/.test(l.msg));
    expect(warning).toMatchObject({
      level: 40,
      msg: 'could not check Redis maxmemory-policy (CONFIG GET is not allowed here): make sure it is noeviction',
    });
    expect(warning.reason).toMatch(/NOPERM/);
    const text = lines.join('\n');
    expect(text).not.toContain(PASSWORD);
  }, 120_000);
});

describe('the eviction policy', () => {
  it('a Redis that may evict keys stops start-up, naming the setting and the fix', async () => {
    const evicting = await servers.start(['--maxmemory-policy', 'allkeys-lru']);
    await cluster?.close();
    cluster = await startCluster({
      redisEnv: { CLAIMS_REDIS_URL: `redis://127.0.0.1:${evicting.port}` },
    });
    await expect(cluster.startReplica()).rejects.toThrow(
      `Redis at 127.0.0.1:${evicting.port} has maxmemory-policy allkeys-lru; claim-warden needs noeviction`,
    );
  }, 60_000);
});
