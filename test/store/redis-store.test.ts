import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RedisConnection } from '../../src/store/redis-connection.js';
import { RedisStore } from '../../src/store/redis-store.js';
import { flushPrefix, redisUrl, uniquePrefix } from '../helpers/redis.js';
import { redisForFile } from '../helpers/redis-for-file.js';
import { describeStoreContract } from './store-contract.js';

/** The store suite's own database; the queue suite uses another. */
const DB = 5;

let redis: Redis;
const runPrefix = `${uniquePrefix('claims-store-test')}:`;

redisForFile(DB, runPrefix, (client) => {
  redis = client;
});

describeStoreContract('RedisStore', async () => {
  const prefix = `${runPrefix}${uniquePrefix('case')}:`;
  const store = new RedisStore({ redis, prefix });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await flushPrefix(redis, prefix);
    },
  };
});

/** An indexed claim as a version before `commentUpdatedAt` wrote it. */
const EARLIER_CLAIM = {
  commentId: 9,
  url: 'c',
  author: 'alice',
  session: 's',
  lane: 'l',
  branch: 'b',
  stage: 'claimed',
  started: '2030-01-01T00:00:00Z',
  updated: '2030-01-01T00:00:00Z',
  heartbeat: '2030-01-01T00:00:00Z',
  staleAt: '2030-01-01T06:00:01Z',
};

describe('RedisStore', () => {
  it('a replica reading the open-issue index sees every other replica’s writes', async () => {
    const prefix = `${runPrefix}${uniquePrefix('index')}:`;
    const a = new RedisStore({ target: redisUrl(DB), prefix });
    const b = new RedisStore({ target: redisUrl(DB), prefix });
    const key = { installationId: 1, owner: 'acme', repo: 'widgets', number: 5 };
    const issue = {
      key,
      title: 't',
      url: 'u',
      labels: [],
      assignees: [],
      createdAt: '2030-01-01T00:00:00Z',
      updatedAt: '2030-01-01T00:00:00Z',
    };
    const claim = { ...EARLIER_CLAIM, commentUpdatedAt: '2030-01-01T00:00:00Z' };
    try {
      expect(await a.openIssues()).toEqual([]);
      await b.putOpenIssue(issue);
      expect(await a.openIssues()).toEqual([{ issue, claim: null }]);
      await b.putOpenIssue({ ...issue, title: 'renamed', updatedAt: '2030-01-01T00:01:00Z' });
      expect((await a.openIssues())[0]?.issue.title).toBe('renamed');
      await b.setIssueClaim(key, claim);
      expect((await a.openIssues())[0]?.claim).toEqual(claim);
      const renewed = {
        ...claim,
        heartbeat: '2030-01-01T00:09:00Z',
        commentUpdatedAt: '2030-01-01T00:09:00Z',
      };
      expect(await b.renewIssueClaim(key, renewed)).toBe(true);
      expect((await a.openIssues())[0]?.claim).toEqual(renewed);
      await b.dropOpenIssue(key);
      expect(await a.openIssues()).toEqual([]);
      await b.putOpenIssue(issue);
      expect(await a.openIssues()).toEqual([{ issue, claim: null }]);
      await b.forgetIssue(key);
      expect(await a.openIssues()).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a heartbeat renews a claim an earlier version indexed without its comment’s updated_at', async () => {
    const prefix = `${runPrefix}${uniquePrefix('upgrade')}:`;
    const store = new RedisStore({ redis, prefix });
    const key = { installationId: 1, owner: 'acme', repo: 'widgets', number: 5 };
    const earlier = EARLIER_CLAIM;
    try {
      await redis.hset(`${prefix}issue-claims`, '1/acme/widgets#5', JSON.stringify(earlier));
      const renewed = {
        ...earlier,
        heartbeat: '2030-01-01T00:09:00Z',
        commentUpdatedAt: '2030-01-01T00:09:00Z',
      };
      expect(await store.renewIssueClaim(key, { ...renewed, commentId: 10 })).toBe(false);
      expect(await store.renewIssueClaim(key, renewed)).toBe(true);
      expect(await store.issueClaim(key)).toEqual(renewed);
    } finally {
      await flushPrefix(redis, prefix);
    }
  });

  it('replicas sharing a prefix share deliveries, deadlines and locks', async () => {
    const prefix = `${runPrefix}${uniquePrefix('shared')}:`;
    const a = new RedisStore({ target: redisUrl(DB), prefix });
    const b = new RedisStore({ target: redisUrl(DB), prefix });
    try {
      expect(await a.markDelivery('d-1', 60_000)).toBe(true);
      expect(await b.markDelivery('d-1', 60_000)).toBe(false);

      const key = { installationId: 1, owner: 'acme', repo: 'widgets', number: 5 };
      await a.setDeadline(key, new Date(1000));
      expect(await b.dueIssues(new Date(1000), 10)).toEqual([key]);

      const token = (await a.acquireLock('issue', 60_000))!;
      expect(await b.acquireLock('issue', 60_000)).toBeNull();
      expect(await b.releaseLock('issue', token)).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('writes only keys under its prefix', async () => {
    const prefix = `${runPrefix}${uniquePrefix('scoped')}:`;
    const store = new RedisStore({ redis, prefix });
    await store.markDelivery('d', 60_000);
    await store.setDeadline({ installationId: 1, owner: 'o', repo: 'r', number: 1 }, new Date());
    await store.setCheckpoint({ installationId: 1, owner: 'o', repo: 'r' }, new Date());
    await store.acquireLock('l', 60_000);
    await store.setAppAssignees({ installationId: 1, owner: 'o', repo: 'r', number: 1 }, ['a']);
    await store.noteIssueGone({ installationId: 1, owner: 'o', repo: 'r', number: 1 }, 60_000);
    const keys = (await redis.keys(`${prefix}*`)).sort();
    expect(keys).toEqual(
      ['assigned', 'checkpoints', 'deadlines', 'delivery:d', 'gone:1/o/r#1', 'lock:l'].map(
        (suffix) => prefix + suffix,
      ),
    );
  });

  it('uses `claims:` as its default prefix', async () => {
    // The store's pairs all build their keys on its one connection.
    expect(new RedisConnection({ redis }).key('deadlines')).toBe('claims:deadlines');
  });

  it('keeps the caller`s connection open on close', async () => {
    const store = new RedisStore({ redis, prefix: runPrefix });
    await store.close();
    expect(await redis.ping()).toBe('PONG');
  });

  it('reports false, without throwing, when Redis is down', async () => {
    // Port 1 refuses connections; retries are off so the client gives up at once.
    const store = new RedisStore({
      target: 'redis://127.0.0.1:1',
      redisOptions: { retryStrategy: () => null, maxRetriesPerRequest: 0 },
      pingTimeoutMs: 500,
    });
    const started = Date.now();
    expect(await store.ping()).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
    await store.close();
  });

  it('reports false when Redis does not answer in time', async () => {
    // With retries on, commands wait in ioredis' offline queue: only the timeout ends the ping.
    const store = new RedisStore({ target: 'redis://127.0.0.1:1', pingTimeoutMs: 100 });
    expect(await store.ping()).toBe(false);
    await store.close();
  });
});
