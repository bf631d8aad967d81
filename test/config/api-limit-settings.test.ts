/**
 * The claims API's per-caller limits as the operator sets them (docs/protocol.md §8 "Limits"):
 * `CLAIMS_API_RATE_PER_MINUTE` and `CLAIMS_API_CONCURRENCY`, validated at start-up, a bad
 * value stopping it with a message naming the variable.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/read-settings.js';
import { SettingsError } from '../../src/config/settings-error.js';

const PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

function env(overrides: Record<string, string>) {
  return { APP_ID: '12345', PRIVATE_KEY, WEBHOOK_SECRET: 'hush-webhook', ...overrides };
}

describe('the claims API limits', () => {
  it('default to 300 calls a minute and 10 at once per token', () => {
    const settings = readSettings(env({}));
    expect(settings.apiRatePerMinute).toBe(300);
    expect(settings.apiConcurrency).toBe(10);
  });

  it.each([
    ['CLAIMS_API_RATE_PER_MINUTE', '1', 'apiRatePerMinute', 1],
    ['CLAIMS_API_RATE_PER_MINUTE', '100000', 'apiRatePerMinute', 100_000],
    ['CLAIMS_API_CONCURRENCY', '1', 'apiConcurrency', 1],
    ['CLAIMS_API_CONCURRENCY', '1000', 'apiConcurrency', 1000],
  ] as const)('%s=%s is accepted', (variable, value, key, expected) => {
    expect(readSettings(env({ [variable]: value }))[key]).toBe(expected);
  });

  it.each([
    ['CLAIMS_API_RATE_PER_MINUTE', '0', 'a minute, a whole number between 1 and 100000 (got "0")'],
    ['CLAIMS_API_RATE_PER_MINUTE', '100001', 'between 1 and 100000 (got "100001")'],
    ['CLAIMS_API_RATE_PER_MINUTE', '1e3', 'between 1 and 100000 (got "1e3")'],
    ['CLAIMS_API_CONCURRENCY', '0', 'at once, a whole number between 1 and 1000 (got "0")'],
    ['CLAIMS_API_CONCURRENCY', 'ten', 'between 1 and 1000 (got "ten")'],
    ['CLAIMS_API_CONCURRENCY', '2.5', 'between 1 and 1000 (got "2.5")'],
  ])('%s=%s stops start-up naming the variable', (variable, value, message) => {
    let error: unknown;
    try {
      readSettings(env({ [variable]: value }));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).problems).toEqual([
      { variable, message: expect.stringContaining(message) },
    ]);
    expect((error as SettingsError).message).toContain(variable);
  });
});
