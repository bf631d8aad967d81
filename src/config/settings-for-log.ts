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
    redisUrl,
    eventsUrl,
    publicUrl,
    webhookProxyUrl,
    ...rest
  } = settings;
  return {
    ...rest,
    redisUrl: redisUrl === undefined ? undefined : urlOrigin(redisUrl),
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
