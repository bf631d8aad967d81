import type { IncomingMessage } from 'node:http';

/** How the app's own address is found for links it hands out (settings `CLAIMS_PUBLIC_URL`, `CLAIMS_TRUST_PROXY`). */
export interface BaseUrlSettings {
  readonly publicUrl?: string | undefined;
  readonly trustProxy?: boolean | undefined;
}

// A host name (RFC 1123 labels), an IPv4 address or a bracketed IPv6 literal, with an optional
// port: what a Host header may hold (RFC 9110 §7.2). Anything else (quotes, commas, spaces, a
// path) is refused, so a link or a header built from it says only what the operator allows.
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/**
 * The app's address for links it hands out: `CLAIMS_PUBLIC_URL` when set; else the `Host` the
 * request named, when it is a host name, over http, or over https when `X-Forwarded-Proto`
 * says so and the operator trusts the proxy that sets it (`CLAIMS_TRUST_PROXY`): a client can
 * send any header, and only a proxy that overwrites it makes it true. Undefined when the
 * `Host` is not a host name (`localhost` when a request names none, as HTTP/1.0 may).
 */
export function requestBaseUrl(
  req: IncomingMessage,
  settings: BaseUrlSettings,
): string | undefined {
  if (settings.publicUrl) return settings.publicUrl.replace(/\/$/, '');
  const host = req.headers.host ?? 'localhost';
  if (!HOST.test(host)) return undefined;
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]
    ?.trim()
    .toLowerCase();
  const scheme = settings.trustProxy && forwarded === 'https' ? 'https' : 'http';
  return `${scheme}://${host.toLowerCase()}`;
}
