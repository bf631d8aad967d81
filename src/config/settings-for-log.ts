import type { RedisTarget } from './redis-target.js';
import type { Settings } from './settings.js';

/**
 * The settings as they may be logged (docs/protocol.md §6): secrets left out, each URL as its
 * origin only (scheme://host:port): a user name, a password, a path or a query may carry a
 * token (a receiver's `?token=`, a Redis password).
 */
export function settingsForLog(settings: Settings): Record<string, unknown> {
  const {
    privateKey: _key,
    webhookSecret: _secret,
    eventsSecret: _eventsSecret,
    sessionSecret: _session,
    metricsToken,
    boardOAuth,
    redis,
    eventsUrl,
    publicUrl,
    webhookProxyUrl,
    ...rest
  } = settings;
  return {
    ...rest,
    redis: redis === undefined ? undefined : redisForLog(redis),
    eventsUrl: eventsUrl === undefined ? undefined : urlOrigin(eventsUrl),
    publicUrl: publicUrl === undefined ? undefined : urlOrigin(publicUrl),
    webhookProxy: webhookProxyUrl !== undefined,
    boardClientId: boardOAuth?.clientId,
    metricsToken: metricsToken !== undefined,
  };
}

/** A URL's scheme, host and port only (`redis://…` has no WHATWG origin, so it is built). */
export function urlOrigin(text: string): string {
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}`;
  } catch {
    return '(unparseable URL)';
  }
}

/** Where Redis is and how it is reached; never a password, nor the URL's path or query. */
function redisForLog(target: RedisTarget): Record<string, unknown> {
  const nodes = (list: readonly { host: string; port: number }[]) =>
    list.map((node) => `${node.host}:${node.port}`).join(',');
  const where =
    target.form === 'url'
      ? { url: urlOrigin(target.url) }
      : target.form === 'sentinel'
        ? { sentinels: nodes(target.sentinels), name: target.name }
        : { nodes: nodes(target.nodes) };
  return {
    form: target.form,
    ...where,
    username: target.username,
    password: target.password !== undefined,
    tls: target.tls !== undefined,
  };
}
