import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { redisUrlSchema } from './address-schemas.js';
import type { RedisNode, RedisTarget } from './redis-target.js';
import { documented } from './setting-doc.js';
import type { SettingsProblem } from './settings-error.js';

// The variables that name Redis (docs/replicas.md "Naming Redis"): each checked on its own
// here, and together by redisTargetOf.

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9_-]{0,62})?(?:\.[a-z0-9](?:[a-z0-9_-]{0,62})?)*\.?$/i;

const NODES_EXAMPLE = 'such as redis-a:26379,redis-b:26379,redis-c:26379';

/** One `host:port` (an IPv6 host in brackets), or null. */
function parseNode(text: string): RedisNode | null {
  const match = /^(?:\[([0-9a-f:.]+)\]|([^:[\]]+)):(\d{1,5})$/i.exec(text.trim());
  if (!match) return null;
  const host = match[1] ?? match[2] ?? '';
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  if (match[1] !== undefined ? isIP(host) !== 6 : isIP(host) === 0 && !HOST_NAME.test(host)) {
    return null;
  }
  return { host, port };
}

/** `CLAIMS_REDIS_SENTINELS`, `CLAIMS_REDIS_CLUSTER`: `host:port,host:port,…`. */
const nodeListSchema = (what: string) =>
  z.string().transform((text, ctx) => {
    const nodes = text.split(',').map(parseNode);
    if (nodes.length === 0 || nodes.length > 64 || nodes.some((node) => node === null)) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a comma-separated list of host:port (${what}), ${NODES_EXAMPLE}`,
      });
      return z.NEVER;
    }
    return nodes as RedisNode[];
  });

/** `CLAIMS_REDIS_TLS_CA`: the file is read here, once, so a bad path stops start-up. */
const caFileSchema = z.string().transform((path, ctx) => {
  let pem: string;
  try {
    pem = readFileSync(resolve(path), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    ctx.addIssue({
      code: 'custom',
      message: `must be a readable PEM file of the CA that signed Redis's certificate (${code})`,
    });
    return z.NEVER;
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    ctx.addIssue({
      code: 'custom',
      message:
        "must be a PEM file of the CA that signed Redis's certificate (-----BEGIN CERTIFICATE----- ...)",
    });
    return z.NEVER;
  }
  return pem;
});

/** The environment's Redis variables, each validated on its own (part of SettingsEnv). */
export const RedisSettingsEnv = {
  CLAIMS_REDIS_URL: documented(redisUrlSchema.optional(), {
    about:
      '`redis://…` or `rediss://…` (TLS): share state and queue between replicas (docs/replicas.md); unset runs in-process',
    secret: true,
  }),
  CLAIMS_REDIS_SENTINELS: documented(nodeListSchema('the Sentinels').optional(), {
    about:
      '`host:port,…` of the Sentinels instead, with `CLAIMS_REDIS_SENTINEL_NAME` and optionally `CLAIMS_REDIS_SENTINEL_PASSWORD`',
  }),
  CLAIMS_REDIS_SENTINEL_NAME: documented(
    z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,128}$/, {
        error:
          "must be the primary's name in the Sentinels' configuration (sentinel monitor <name> …), such as mymaster",
      })
      .optional(),
    { about: "the primary's name in the Sentinels' configuration, such as `mymaster`" },
  ),
  CLAIMS_REDIS_SENTINEL_PASSWORD: documented(z.string().optional(), {
    about: "the Sentinels' own password",
    secret: true,
  }),
  CLAIMS_REDIS_CLUSTER: documented(
    nodeListSchema('start-up nodes of the Redis Cluster').optional(),
    {
      about:
        '`host:port,…` start-up nodes of a Redis Cluster instead (keys become `{prefix}:…`, one slot)',
    },
  ),
  CLAIMS_REDIS_USERNAME: documented(
    z
      .string()
      .regex(/^[\x21-\x7e]{1,256}$/, { error: 'must be an ACL user name, without spaces' })
      .optional(),
    { about: 'the ACL user (or in the URL)' },
  ),
  CLAIMS_REDIS_PASSWORD: documented(z.string().optional(), {
    about: 'the password (or in the URL)',
    secret: true,
  }),
  CLAIMS_REDIS_TLS: documented(
    z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .transform((text) => text === 'true')
      .optional(),
    {
      about: '`true`: TLS to the Sentinels or Cluster nodes (a URL says it with `rediss://`)',
      default: 'false',
    },
  ),
  CLAIMS_REDIS_TLS_CA: documented(caFileSchema.optional(), {
    about: "PEM file of a private CA that signed Redis's certificate, trusted besides Node's own",
  }),
};

type RedisValues = {
  readonly [K in keyof typeof RedisSettingsEnv]?: z.output<(typeof RedisSettingsEnv)[K]>;
};

const FORMS = ['CLAIMS_REDIS_URL', 'CLAIMS_REDIS_SENTINELS', 'CLAIMS_REDIS_CLUSTER'] as const;

/**
 * Checks the Redis variables together (`set` names the variables present, valid or not) and
 * returns the problems: more than one way of naming Redis, a companion without what it goes
 * with, credentials given twice.
 */
export function redisProblems(set: ReadonlySet<string>): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  const forms = FORMS.filter((name) => set.has(name));
  for (const name of forms.slice(1)) {
    problems.push({
      variable: name,
      message: `is set together with ${forms[0]}: name Redis one way only (CLAIMS_REDIS_URL, CLAIMS_REDIS_SENTINELS or CLAIMS_REDIS_CLUSTER); unset one of ${forms.join(' and ')}`,
    });
  }
  const needs = (variable: string, present: boolean, message: string) => {
    if (set.has(variable) && !present) problems.push({ variable, message });
  };
  const sentinels = set.has('CLAIMS_REDIS_SENTINELS');
  if (sentinels && !set.has('CLAIMS_REDIS_SENTINEL_NAME')) {
    problems.push({
      variable: 'CLAIMS_REDIS_SENTINEL_NAME',
      message:
        "is required with CLAIMS_REDIS_SENTINELS: the primary's name in the Sentinels' configuration, such as mymaster",
    });
  }
  for (const variable of ['CLAIMS_REDIS_SENTINEL_NAME', 'CLAIMS_REDIS_SENTINEL_PASSWORD']) {
    needs(variable, sentinels, 'is set without CLAIMS_REDIS_SENTINELS, so it would do nothing');
  }
  for (const variable of ['CLAIMS_REDIS_USERNAME', 'CLAIMS_REDIS_PASSWORD']) {
    needs(
      variable,
      forms.length > 0,
      'is set without CLAIMS_REDIS_URL, CLAIMS_REDIS_SENTINELS or CLAIMS_REDIS_CLUSTER, so it would do nothing',
    );
  }
  needs(
    'CLAIMS_REDIS_TLS',
    sentinels || set.has('CLAIMS_REDIS_CLUSTER'),
    'is for CLAIMS_REDIS_SENTINELS and CLAIMS_REDIS_CLUSTER only: with CLAIMS_REDIS_URL, say TLS with rediss://',
  );
  return problems;
}

/** The URL's user name and password, decoded; empty parts are absent. */
function urlCredentials(text: string): { username?: string; password?: string } {
  const url = new URL(text);
  return {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
  };
}

/**
 * The Redis the values name, or undefined (embedded mode), with the problems only visible once
 * each value is parsed: credentials in the URL and in their variable, a CA without TLS.
 */
export function redisTargetOf(v: RedisValues): {
  target: RedisTarget | undefined;
  problems: SettingsProblem[];
} {
  const problems: SettingsProblem[] = [];
  const fromUrl = v.CLAIMS_REDIS_URL ? urlCredentials(v.CLAIMS_REDIS_URL) : {};
  for (const [part, variable] of [
    ['username', 'CLAIMS_REDIS_USERNAME'],
    ['password', 'CLAIMS_REDIS_PASSWORD'],
  ] as const) {
    if (fromUrl[part] !== undefined && v[variable] !== undefined) {
      problems.push({
        variable,
        message: `is set and CLAIMS_REDIS_URL holds a ${part.replace('name', ' name')} too: give it once`,
      });
    }
  }
  const tlsOn = v.CLAIMS_REDIS_URL
    ? v.CLAIMS_REDIS_URL.startsWith('rediss:')
    : !!v.CLAIMS_REDIS_TLS;
  if (v.CLAIMS_REDIS_TLS_CA !== undefined && !tlsOn) {
    problems.push({
      variable: 'CLAIMS_REDIS_TLS_CA',
      message:
        'is set but TLS to Redis is off: use a rediss:// URL, or CLAIMS_REDIS_TLS=true with CLAIMS_REDIS_SENTINELS or CLAIMS_REDIS_CLUSTER',
    });
  }
  const access = {
    username: v.CLAIMS_REDIS_USERNAME ?? fromUrl.username,
    password: v.CLAIMS_REDIS_PASSWORD ?? fromUrl.password,
    tls: tlsOn ? { ca: v.CLAIMS_REDIS_TLS_CA } : undefined,
  };
  let target: RedisTarget | undefined;
  if (v.CLAIMS_REDIS_URL) target = { form: 'url', url: v.CLAIMS_REDIS_URL, ...access };
  else if (v.CLAIMS_REDIS_SENTINELS && v.CLAIMS_REDIS_SENTINEL_NAME) {
    target = {
      form: 'sentinel',
      sentinels: v.CLAIMS_REDIS_SENTINELS,
      name: v.CLAIMS_REDIS_SENTINEL_NAME,
      sentinelPassword: v.CLAIMS_REDIS_SENTINEL_PASSWORD,
      ...access,
    };
  } else if (v.CLAIMS_REDIS_CLUSTER) {
    target = { form: 'cluster', nodes: v.CLAIMS_REDIS_CLUSTER, ...access };
  }
  return { target, problems };
}
