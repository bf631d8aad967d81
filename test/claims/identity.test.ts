import { describe, expect, it } from 'vitest';
import { claimTag, isClaimTag, sameIdentity } from '../../src/claims/identity.js';
import { parseClaimMarker } from '../../src/claims/marker.js';

const ASCII_KEY = new TextEncoder().encode('claim-warden-test-key-32-bytes!!');
const HEX_KEY = Uint8Array.from({ length: 32 }, (_, i) => i);

describe('claimTag', () => {
  // Vectors computed independently of node:crypto, with OpenSSL 3:
  //   printf 'session\0unit7' | openssl dgst -sha256 -hmac 'claim-warden-test-key-32-bytes!!'
  //     -> 013f9257cf4dde14d5e164ef87269489cc43ea4e5a128ee5a0c35cfc29156f2b
  //   printf 'lane\0unit7' | openssl dgst -sha256 -hmac 'claim-warden-test-key-32-bytes!!'
  //     -> 756483e0a5900bf463d7ede876bb24bdf03d9dedba2278e79edad32134fa7b1d
  //   printf 'session\0s\xc3\xa9ance' | openssl dgst -sha256 -hmac 'claim-warden-test-key-32-bytes!!'
  //     -> 0932390c11601d71054d98729baaa1cf96ffe7ad6eaa41bbe617a1b697221f5c
  //   printf 'session\0unit7' | openssl dgst -sha256 -mac HMAC \
  //     -macopt hexkey:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
  //     -> 44f7ab98131e9ab96fac9c86e15aaae8c3c0406cc44968506b6d97633bd43327
  it.each([
    ['a session', ASCII_KEY, 'session', 'unit7', 'h:013f9257cf4d'],
    ['a lane of the same name', ASCII_KEY, 'lane', 'unit7', 'h:756483e0a590'],
    ['a UTF-8 value', ASCII_KEY, 'session', 'séance', 'h:0932390c1160'],
    ['a binary key', HEX_KEY, 'session', 'unit7', 'h:44f7ab98131e'],
  ])('tags %s as h: + the first 12 hex of HMAC-SHA256', (_name, key, kind, value, tag) => {
    expect(claimTag(key, kind, value)).toBe(tag);
  });

  it('writes a tag that is a valid marker identity (docs/protocol.md §1)', () => {
    const tag = claimTag(ASCII_KEY, 'session', 'unit7');
    expect(isClaimTag(tag)).toBe(true);
    const line = `<!-- praetor-claim v=1 session=${tag} lane=${tag} branch=b started=2026-10-08T12:00:00Z updated=2026-10-08T12:00:00Z stage=claimed -->`;
    expect(parseClaimMarker(line)?.session).toBe(tag);
  });

  it('refuses an empty key rather than writing an unkeyed tag', () => {
    expect(() => claimTag(new Uint8Array(0), 'session', 'unit7')).toThrow(/key is empty/);
  });
});

describe('isClaimTag', () => {
  it.each([
    ['h:013f9257cf4d', true],
    ['h:000000000000', true],
    ['h:013F9257CF4D', false],
    ['h:013f9257cf4', false],
    ['h:013f9257cf4d0', false],
    ['H:013f9257cf4d', false],
    ['h:013f9257cf4g', false],
    ['x:013f9257cf4d', false],
    ['013f9257cf4d', false],
    ['h:013f9257cf4d\n', false],
    ['unit7', false],
    ['', false],
  ])('%j is a tag: %s', (value, ok) => {
    expect(isClaimTag(value)).toBe(ok);
  });
});

describe('sameIdentity (docs/protocol.md §1)', () => {
  const tag = claimTag(ASCII_KEY, 'session', 'unit7');

  it.each([
    ['a stored tag and the plain request it tags', tag, 'unit7', true],
    ['a stored tag and another plain request', tag, 'unit8', false],
    ['a stored tag and the same tag requested', tag, tag, true],
    ['a stored tag and another tag requested', tag, 'h:000000000000', false],
    ['a stored plain value and the same plain request', 'unit7', 'unit7', true],
    ['a stored plain value and another plain request', 'unit7', 'Unit7', false],
    ['a stored plain value and its tag requested', 'unit7', tag, true],
    ['a stored plain value and another tag requested', 'unit8', tag, false],
    ['an empty stored value', '', '', false],
    ['an empty request', tag, '', false],
  ])('%s: %s', (_name, stored, requested, same) => {
    expect(sameIdentity(stored, requested, ASCII_KEY, 'session')).toBe(same);
  });

  it('keeps kinds apart: a session tag does not match the lane of the same name', () => {
    expect(sameIdentity(tag, 'unit7', ASCII_KEY, 'lane')).toBe(false);
  });

  it('keeps keys apart: a tag from another key does not match', () => {
    expect(sameIdentity(tag, 'unit7', HEX_KEY, 'session')).toBe(false);
  });
});
