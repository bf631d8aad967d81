import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../../src/api/caller/ttl-cache.js';
import { API_CACHE_MS, type ClaimsApiOptions, claimsApiDeps } from '../../../src/api/claims-api.js';

/** A cache on a clock the test moves, counting each load. */
function cacheOf(ttlMs: number, maxEntries?: number) {
  let now = 0;
  let loads = 0;
  const cache = new TtlCache<string>(ttlMs, () => now, maxEntries);
  return {
    get: (key: string, value = `${key}-${loads + 1}`) =>
      cache.get(key, async () => {
        loads += 1;
        return value;
      }),
    advance: (ms: number) => {
      now += ms;
    },
    loads: () => loads,
  };
}

describe('the claims API’s cache of identities, roles and visibility (docs/protocol.md §8)', () => {
  it('is kept at most 5 minutes: a role lost is read again once they have passed', async () => {
    expect(API_CACHE_MS).toBe(5 * 60_000);
    const cache = cacheOf(API_CACHE_MS);
    expect(await cache.get('alice', 'write')).toBe('write');
    cache.advance(API_CACHE_MS - 1);
    expect(await cache.get('alice', 'read')).toBe('write');
    cache.advance(1);
    expect(await cache.get('alice', 'read')).toBe('read');
    expect(cache.loads()).toBe(2);
  });

  it('an operator’s longer cache lifetime is cut to 5 minutes', async () => {
    let now = 0;
    const deps = claimsApiDeps({
      now: () => new Date(now),
      cacheMs: 3_600_000,
      log: pino({ level: 'silent' }),
      appOctokit: { request: { endpoint: { DEFAULTS: { baseUrl: 'https://api.github.com' } } } },
    } as unknown as ClaimsApiOptions);
    let loads = 0;
    const login = () => deps.logins.get('token-hash', async () => `alice-${++loads}`);
    expect(await login()).toBe('alice-1');
    now += API_CACHE_MS;
    expect(await login()).toBe('alice-2');
  });

  it('asks GitHub once for callers arriving together', async () => {
    const cache = cacheOf(API_CACHE_MS);
    const answers = await Promise.all([cache.get('alice'), cache.get('alice'), cache.get('bob')]);
    expect(answers).toEqual(['alice-1', 'alice-1', 'bob-2']);
    expect(cache.loads()).toBe(2);
  });

  it('a failed answer is not kept: the next caller asks again', async () => {
    let now = 0;
    const cache = new TtlCache<string>(API_CACHE_MS, () => now);
    await expect(cache.get('alice', () => Promise.reject(new Error('502')))).rejects.toThrow('502');
    now += 1;
    expect(await cache.get('alice', async () => 'write')).toBe('write');
  });

  it('holds a bounded number of answers: past it the oldest is read again', async () => {
    const cache = cacheOf(API_CACHE_MS, 2);
    await cache.get('a');
    await cache.get('b');
    await cache.get('c');
    expect(cache.loads()).toBe(3);
    await cache.get('c');
    await cache.get('b');
    expect(cache.loads()).toBe(3);
    await cache.get('a');
    expect(cache.loads()).toBe(4);
  });
});
