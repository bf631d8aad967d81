import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { purposeKey } from './session-cookie.js';

/** How long a sign-in may take between /claims/login and the callback. */
export const STATE_TTL_MS = 10 * 60_000;

/** A fresh OAuth `state` and the signed cookie value that binds it to this browser. */
export function newOAuthState(secret: string, now: Date): { state: string; cookie: string } {
  const state = randomBytes(24).toString('base64url');
  const expires = now.getTime() + STATE_TTL_MS;
  return { state, cookie: `${state}.${expires}.${mac(secret, `${state}.${expires}`)}` };
}

/**
 * Whether the callback's `state` is the one this browser's cookie was given, unaltered and
 * not expired (docs/protocol.md §14: a wrong state gets no session).
 */
export function checkOAuthState(
  secret: string,
  cookie: string | undefined,
  state: string | null,
  now: Date,
): boolean {
  if (!cookie || !state) return false;
  const [value, expires, signature] = cookie.split('.');
  if (!value || !expires || !signature || !/^\d+$/.test(expires)) return false;
  if (!same(signature, mac(secret, `${value}.${expires}`))) return false;
  return Number(expires) > now.getTime() && same(value, state);
}

function mac(secret: string, text: string): string {
  return createHmac('sha256', purposeKey(secret, 'state')).update(text).digest('base64url');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
