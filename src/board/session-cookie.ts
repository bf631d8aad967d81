import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** A signed-in board user. The token is GitHub's user access token from the OAuth flow. */
export interface BoardSession {
  /**
   * The session's id: its record in the app's shared state (src/store/board-sessions.ts),
   * which sign-out removes, ends the session for every copy of the cookie.
   */
  readonly id: string;
  readonly login: string;
  readonly avatarUrl: string;
  readonly token: string;
  /** Epoch ms after which the cookie is refused. */
  readonly expiresAt: number;
}

/** How long a session lasts: as long as GitHub's expiring user tokens (8 hours). */
export const SESSION_TTL_MS = 8 * 3_600_000;

/** v2 cookies carry a session id; a v1 cookie (no server-side record) is refused. */
const VERSION = 'v2';

/** A fresh, unguessable session id (32 random bytes). */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** A 32-byte key for one purpose, derived from the session secret, so purposes never share. */
export function purposeKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`claim-warden board ${purpose}`).digest();
}

/**
 * Seals a session into a cookie value: AES-256-GCM, so the token is never in clear and any
 * change to the value fails its authentication tag (docs/protocol.md §14: a tampered cookie
 * gives no session). The cookie holds the token; the session's record (its `id`) says
 * whether it is still live, on every replica.
 */
export function sealSession(secret: string, session: BoardSession): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', purposeKey(secret, 'session'), iv);
  cipher.setAAD(Buffer.from(VERSION));
  const body = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** Opens a sealed session; null when it was altered, sealed with another key, or expired. */
export function openSession(secret: string, value: string, now: Date): BoardSession | null {
  if (!value.startsWith(`${VERSION}.`)) return null;
  const text64 = value.slice(VERSION.length + 1);
  const raw = Buffer.from(text64, 'base64url');
  // base64 decoding skips stray characters and spare bits: only the exact encoding counts,
  // so any change to the cookie is refused, not only those that change the bytes.
  if (raw.length < 12 + 16 + 2 || raw.toString('base64url') !== text64) return null;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      purposeKey(secret, 'session'),
      raw.subarray(0, 12),
    );
    decipher.setAAD(Buffer.from(VERSION));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString(
      'utf8',
    );
    const session = JSON.parse(text) as Partial<BoardSession>;
    if (
      typeof session.id !== 'string' ||
      typeof session.login !== 'string' ||
      typeof session.token !== 'string' ||
      typeof session.avatarUrl !== 'string' ||
      typeof session.expiresAt !== 'number' ||
      session.expiresAt <= now.getTime()
    ) {
      return null;
    }
    return session as BoardSession;
  } catch {
    return null;
  }
}
