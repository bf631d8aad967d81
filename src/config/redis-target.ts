/** One node of a Sentinel or Cluster list: `host:port`. */
export interface RedisNode {
  readonly host: string;
  readonly port: number;
}

/** What every form of naming Redis may add: credentials (ACL user or `requirepass`), TLS. */
interface RedisAccess {
  /** `CLAIMS_REDIS_USERNAME`, or the URL's user name: an ACL user. */
  readonly username?: string | undefined;
  /** `CLAIMS_REDIS_PASSWORD`, or the URL's password: a secret, never logged. */
  readonly password?: string | undefined;
  /**
   * TLS to Redis (`rediss://`, or `CLAIMS_REDIS_TLS=true` for Sentinel and Cluster);
   * `ca` is the PEM of `CLAIMS_REDIS_TLS_CA`, a private CA trusted besides Node's own.
   */
  readonly tls?: { readonly ca?: string | undefined } | undefined;
}

/**
 * The one Redis the app runs on, as the operator named it (docs/replicas.md "Naming Redis"):
 * a URL, a Sentinel-managed primary, or a Redis Cluster. Exactly one of the three.
 */
export type RedisTarget =
  | (RedisAccess & {
      readonly form: 'url';
      /** `CLAIMS_REDIS_URL` (its user name and password, if any, are also in `RedisAccess`). */
      readonly url: string;
    })
  | (RedisAccess & {
      readonly form: 'sentinel';
      /** `CLAIMS_REDIS_SENTINELS`. */
      readonly sentinels: readonly RedisNode[];
      /** `CLAIMS_REDIS_SENTINEL_NAME`: the primary's name in the Sentinels' configuration. */
      readonly name: string;
      /** `CLAIMS_REDIS_SENTINEL_PASSWORD`: the Sentinels' own password, a secret. */
      readonly sentinelPassword?: string | undefined;
    })
  | (RedisAccess & {
      readonly form: 'cluster';
      /** `CLAIMS_REDIS_CLUSTER`: start-up nodes; the rest of the cluster is discovered. */
      readonly nodes: readonly RedisNode[];
    });

/** The variable that named `target`, for messages about it. */
export function redisVariable(target: RedisTarget): string {
  if (target.form === 'url') return 'CLAIMS_REDIS_URL';
  if (target.form === 'sentinel') return 'CLAIMS_REDIS_SENTINELS';
  return 'CLAIMS_REDIS_CLUSTER';
}
