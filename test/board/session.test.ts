import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkOAuthState, newOAuthState, STATE_TTL_MS } from '../../src/board/oauth-state.js';
import { openSession, sealSession } from '../../src/board/session-cookie.js';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const NOW = new Date('2026-12-01T09:00:00Z');
const session = {
  id: 'session-id-0123456789',
  login: 'alice',
  avatarUrl: 'https://avatars.githubusercontent.com/u/1?v=4',
  token: 'ghu_0123456789abcdef0123456789abcdef0123',
  expiresAt: NOW.getTime() + 3_600_000,
};

describe('the sealed session cookie', () => {
  it('opens to the session it sealed, and never shows the token', () => {
    fc.assert(
      // Tokens of 8+ characters, so a chance match of a few bytes is not mistaken for a leak.
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 8 }), (login, token) => {
        const sealed = sealSession(SECRET, { ...session, login, token });
        expect(openSession(SECRET, sealed, NOW)).toEqual({ ...session, login, token });
        expect(sealed).not.toContain(token);
        expect(Buffer.from(sealed.slice(3), 'base64url').includes(Buffer.from(token))).toBe(false);
      }),
    );
  });

  it('refuses any change to a single character', () => {
    const sealed = sealSession(SECRET, session);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    fc.assert(
      fc.property(fc.nat({ max: sealed.length - 1 }), fc.constantFrom(...alphabet), (at, char) => {
        fc.pre(sealed[at] !== char);
        const tampered = sealed.slice(0, at) + char + sealed.slice(at + 1);
        expect(openSession(SECRET, tampered, NOW)).toBeNull();
      }),
    );
  });

  it.each([
    ['another secret', (s: string) => openSession(`${SECRET}!`, s, NOW)],
    ['after it expired', (s: string) => openSession(SECRET, s, new Date(session.expiresAt))],
    ['cut short', (s: string) => openSession(SECRET, s.slice(0, -4), NOW)],
    ['with something appended', (s: string) => openSession(SECRET, `${s}AA`, NOW)],
  ])('is refused %s', (_, open) => {
    expect(open(sealSession(SECRET, session))).toBeNull();
  });
});

describe('the OAuth state bound to the browser', () => {
  it('is accepted from the browser it was given to, within ten minutes', () => {
    const { state, cookie } = newOAuthState(SECRET, NOW);
    expect(checkOAuthState(SECRET, cookie, state, NOW)).toBe(true);
    const late = new Date(NOW.getTime() + STATE_TTL_MS);
    expect(checkOAuthState(SECRET, cookie, state, late)).toBe(false);
  });

  it.each([
    ['no cookie', () => undefined, (s: string) => s],
    ['another browser`s cookie', () => newOAuthState(SECRET, NOW).cookie, (s: string) => s],
    ['a different state', (c: string) => c, (s: string) => `${s}x`],
    ['no state', (c: string) => c, () => null],
    [
      'a cookie with a later expiry written in',
      (c: string) => c.replace(/\.\d+\./, '.9999999999999.'),
      (s: string) => s,
    ],
    [
      'a cookie signed with another secret',
      () => newOAuthState('other', NOW).cookie,
      (s: string) => s,
    ],
  ])('is refused with %s', (_, cookieOf, stateOf) => {
    const { state, cookie } = newOAuthState(SECRET, NOW);
    expect(checkOAuthState(SECRET, cookieOf(cookie), stateOf(state), NOW)).toBe(false);
  });

  it('is different every time', () => {
    expect(newOAuthState(SECRET, NOW).state).not.toBe(newOAuthState(SECRET, NOW).state);
  });
});
