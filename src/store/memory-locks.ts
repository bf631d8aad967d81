import { randomUUID } from 'node:crypto';
import { assertTtl } from './assert-ttl.js';
import type { Locks } from './locks.js';

interface Lock {
  readonly token: string;
  readonly expiresAt: number;
}

/** {@link Locks} in the process: a map of name to token and expiry. */
export class MemoryLocks implements Locks {
  private readonly locks = new Map<string, Lock>();

  constructor(private readonly now: () => number) {}

  async acquireLock(name: string, ttlMs: number): Promise<string | null> {
    assertTtl(ttlMs);
    if (this.#held(name) !== undefined) return null;
    const token = randomUUID();
    this.locks.set(name, { token, expiresAt: this.now() + ttlMs });
    return token;
  }

  async extendLock(name: string, token: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    if (this.#held(name)?.token !== token) return false;
    this.locks.set(name, { token, expiresAt: this.now() + ttlMs });
    return true;
  }

  async releaseLock(name: string, token: string): Promise<boolean> {
    if (this.#held(name)?.token !== token) return false;
    this.locks.delete(name);
    return true;
  }

  /** The lock named `name` if it is held now; an expired one is forgotten on the way. */
  #held(name: string): Lock | undefined {
    const lock = this.locks.get(name);
    if (lock === undefined) return undefined;
    if (lock.expiresAt > this.now()) return lock;
    this.locks.delete(name);
    return undefined;
  }
}
