import { createHash } from 'node:crypto';
import { assertTtl } from './assert-ttl.js';
import type { CachedRead, CachedReads } from './cached-reads.js';
import { RedisPart } from './redis-connection.js';

/**
 * {@link CachedReads} on Redis: one string per scope and URL, `etag:<scope>:<sha256 of url>`
 * (hashed, so keys stay short and free of `:`), expiring with its TTL.
 */
export class RedisCachedReads extends RedisPart implements CachedReads {
  async cachedRead(scope: string, url: string): Promise<CachedRead | null> {
    const value = await (await this.client()).get(this.#key(scope, url));
    if (value === null) return null;
    try {
      const { etag, value: kept } = JSON.parse(value) as { etag?: unknown; value?: unknown };
      return typeof etag === 'string' && typeof kept === 'string' ? { etag, value: kept } : null;
    } catch {
      return null;
    }
  }

  async setCachedRead(scope: string, url: string, read: CachedRead, ttlMs: number): Promise<void> {
    assertTtl(ttlMs);
    const value = JSON.stringify({ etag: read.etag, value: read.value });
    await (await this.client()).set(this.#key(scope, url), value, 'PX', Math.ceil(ttlMs));
  }

  #key(scope: string, url: string): string {
    return this.key('etag', scope, createHash('sha256').update(url).digest('hex'));
  }
}
