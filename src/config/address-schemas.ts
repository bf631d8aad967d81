import { isIP } from 'node:net';
import { z } from 'zod';

// The settings that name an address or a key prefix (docs/protocol.md §7): each refuses a bad
// value with what it wants and an example, so start-up stops naming the fix.

const redisUrlMessage =
  'must be a redis:// or rediss:// URL such as redis://redis:6379 (value not shown: it may hold a password)';

/** `CLAIMS_REDIS_PREFIX`: the first part of every Redis key. */
// Letters, digits, `.`, `_` and `-`: no `:` (the key separator), no `{}` (cluster hash tags),
// no `*?[` (glob characters an operator would use to find the keys).
export const redisPrefixSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, {
  error:
    'must be 1 to 64 letters, digits, dots, underscores or hyphens, starting with a letter or digit, such as claims',
});

/** A URL with one of `protocols` and a host, else `error`. */
function urlSchema(protocols: readonly string[], error: string) {
  return z.string().refine(
    (text) => {
      try {
        const url = new URL(text);
        return protocols.includes(url.protocol) && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { error },
  );
}

/** `CLAIMS_REDIS_URL`: a redis:// or rediss:// URL, never quoted (it may hold a password). */
export const redisUrlSchema = urlSchema(['redis:', 'rediss:'], redisUrlMessage);

/** `CLAIMS_EVENTS_URL`: an http(s) URL, the receiver of outgoing events (docs/protocol.md §13). */
export const eventsUrlSchema = urlSchema(
  ['http:', 'https:'],
  'must be an http:// or https:// URL that receives claim events, such as https://hooks.example.com/claims',
);

// host[:port] as Probot pastes it into `${GHE_PROTOCOL}://${GHE_HOST}/api/v3`: a scheme or a
// path here would build a broken URL, so both are refused with a hint.
const HOST_PORT =
  /^(?=.{1,253}(?::|$))[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::(\d{1,5}))?$/i;

/** `GHE_HOST`: a GitHub Enterprise Server host[:port]. */
export const gheHostSchema = z.string().refine(
  (text) => {
    const match = HOST_PORT.exec(text);
    if (!match) return false;
    return match[1] === undefined || (Number(match[1]) >= 1 && Number(match[1]) <= 65535);
  },
  {
    error:
      'must be a host name with an optional port, such as github.example.com or github.example.com:8443, without https:// (set GHE_PROTOCOL for that)',
  },
);

// The board's address as browsers reach it; a path prefix is kept (a proxy may mount the app).
// It becomes the OAuth callback and the cookies' scope (docs/protocol.md §14), so it is taken
// only in one unambiguous form: WHATWG parsing would read `http:x.example` as
// `http://x.example/`, drop a leading space, and keep a user name and password.
const PUBLIC_URL_EXAMPLE = 'such as https://claims.example.com';
/** `CLAIMS_PUBLIC_URL`: the app's address as browsers reach it, normalised. */
export const publicUrlSchema = z.string().transform((text, ctx) => {
  const refuse = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (/[\s\u0000-\u001f\u007f]/.test(text)) {
    return refuse(
      `must not contain a space or control character: the address browsers use for the app, ${PUBLIC_URL_EXAMPLE}`,
    );
  }
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:\/\/[^/]/i.test(text) || url.hostname === '') {
    return refuse(
      `must be an absolute http:// or https:// address with a host: the address browsers use for the app, ${PUBLIC_URL_EXAMPLE}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    return refuse(
      `must not hold a user name or password: the address browsers use for the app, ${PUBLIC_URL_EXAMPLE}`,
    );
  }
  if (text.includes('?') || text.includes('#')) {
    return refuse(
      `must not have a query or a fragment: the address browsers use for the app, ${PUBLIC_URL_EXAMPLE}`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
});

// Where the server listens: an IP literal or a host name, nothing else (no scheme, no port:
// PORT says that). Whether the name resolves is checked by checkListenHost, at start-up.
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
/** `HOST`: the address to listen on. */
export const hostSchema = z.string().refine((text) => isIP(text) !== 0 || HOST_NAME.test(text), {
  error:
    'must be an IP address or a host name to listen on, such as 0.0.0.0 (every interface, for containers), 127.0.0.1 or localhost; without a scheme or port (set PORT for that)',
});
