import type { DecideConfig } from '../claims/decide-config.js';
import { sameName } from '../claims/names.js';
import type { Plan } from '../claims/plan.js';
import { exclusiveInProcess, exclusiveOnRedis } from '../queue/issue-lock.js';
import { RedisStore } from '../store/redis-store.js';
import type { Store } from '../store/store.js';

/**
 * How long a cap lock lives without renewal: a replica that dies holding one frees it by
 * then. It is renewed while its holder writes, so a slow, paced assignment keeps it.
 */
const CAP_LOCK_TTL_MS = 30_000;

// The embedded store's locks: one process, so one map per store is the whole deployment.
const inProcess = new WeakMap<Store, Map<string, Promise<void>>>();

/**
 * docs/protocol.md §16 `people.maxClaims` counts a login's live person claims across the
 * installation, but each issue is reconciled under its own lock: three `/claim`s by one
 * person on three issues, delivered at once, would each count the others' claims as not yet
 * made. Runs `fn` (count, decide, assign, record in the open-issue index) holding one lock per
 * login and installation, across every replica on Redis, taken in one order so that two
 * reconciles never wait on each other. Throws IssueLockTimeoutError when a lock stays held
 * too long: the reconcile is retried.
 */
export async function underCapLocks<T>(
  store: Store,
  installationId: number,
  logins: readonly string[],
  fn: () => Promise<T>,
): Promise<T> {
  const names = [...new Set(logins.map((login) => login.toLowerCase()))].sort();
  const run = (at: number): Promise<T> => {
    const login = names[at];
    if (login === undefined) return fn();
    const id = `people-cap:${installationId}:${login}`;
    return lockOne(store, id, () => run(at + 1));
  };
  return run(0);
}

async function lockOne<T>(store: Store, id: string, fn: () => Promise<T>): Promise<T> {
  if (store instanceof RedisStore) {
    const redis = await store.connection();
    return exclusiveOnRedis(redis, `${store.prefix}${id}`, fn, { ttlMs: CAP_LOCK_TTL_MS });
  }
  let running = inProcess.get(store);
  if (running === undefined) {
    running = new Map();
    inProcess.set(store, running);
  }
  return exclusiveInProcess(running, id, fn, () => {});
}

/**
 * Whether a plan assigns a person while `people.maxClaims` caps them: an assignment that is
 * not the agent holder's (a `/claim` accepted, or the waitlist served). Only such a plan
 * takes the cap locks; every other reconcile costs none.
 */
export function assignsCappedPerson(plan: Plan, config: DecideConfig): boolean {
  if (!config.people || config.people.maxClaims === 0) return false;
  const agent = plan.holder?.kind === 'agent' ? plan.holder.author : null;
  return plan.actions.some(
    (action) => action.kind === 'assign' && (agent === null || !sameName(action.login, agent)),
  );
}
