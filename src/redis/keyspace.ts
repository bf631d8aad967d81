import type { RedisAddress } from './connect-redis.js';

/**
 * The first part of every key the app writes, from `CLAIMS_REDIS_PREFIX`. On a Cluster it is
 * the hash tag `{prefix}`: every key then hashes to one slot, so the store's MULTIs, the
 * queue's Lua scripts and BullMQ's own (which build keys of other issues and jobs from the
 * prefix) never fail with CROSSSLOT (docs/replicas.md "Key layout"). On one server the keys
 * stay as they always were, so an upgrade keeps a running deployment's state.
 */
export function keyspace(target: RedisAddress, prefix: string): string {
  return typeof target !== 'string' && target.form === 'cluster' ? `{${prefix}}` : prefix;
}
