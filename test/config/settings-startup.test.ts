/**
 * Issue 20, defects 12 and 13: settings that used to be taken as written (a one-character
 * events secret, a secret without its URL, a public URL with credentials or spaces) stop
 * start-up naming the variable, and the start-up line shows URLs as their origin only.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/read-settings.js';
import { SettingsError } from '../../src/config/settings-error.js';
import { settingsForLog } from '../../src/config/settings-for-log.js';

const PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const EVENTS_SECRET = 'e'.repeat(32);

function env(overrides: Record<string, string | undefined> = {}) {
  return { APP_ID: '12345', PRIVATE_KEY, WEBHOOK_SECRET: 'hush-webhook', ...overrides };
}

function problemsOf(values: Record<string, string | undefined>) {
  try {
    readSettings(values);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return { error: error as SettingsError, problems: (error as SettingsError).problems };
  }
  throw new Error('readSettings accepted bad settings');
}

describe('settings that must not be taken as written', () => {
  it.each(['x', 'short-secret', 'e'.repeat(31)])(
    'a CLAIMS_EVENTS_SECRET of %j stops start-up, saying how to make one',
    (secret) => {
      const { error, problems } = problemsOf(
        env({ CLAIMS_EVENTS_URL: 'https://hooks.example.com/c', CLAIMS_EVENTS_SECRET: secret }),
      );
      expect(problems.map((p) => p.variable)).toEqual(['CLAIMS_EVENTS_SECRET']);
      expect(problems[0]?.message).toContain('at least 32 characters');
      expect(problems[0]?.message).toContain('openssl rand -hex 32');
      expect(error.message).not.toContain(`"${secret}"`);
    },
  );

  it('a 32-character CLAIMS_EVENTS_SECRET is taken', () => {
    const settings = readSettings(
      env({
        CLAIMS_EVENTS_URL: 'https://hooks.example.com/c',
        CLAIMS_EVENTS_SECRET: EVENTS_SECRET,
      }),
    );
    expect(settings.eventsSecret).toBe(EVENTS_SECRET);
  });

  it('CLAIMS_EVENTS_SECRET without CLAIMS_EVENTS_URL stops start-up naming both', () => {
    const { error, problems } = problemsOf(env({ CLAIMS_EVENTS_SECRET: EVENTS_SECRET }));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.variable).toBe('CLAIMS_EVENTS_URL');
    expect(problems[0]?.message).toContain('CLAIMS_EVENTS_SECRET');
    expect(error.message).not.toContain(EVENTS_SECRET);
  });

  it.each([
    ['https://user:pass@claims.example.com', 'user name or password'],
    ['https://:pass@claims.example.com', 'user name or password'],
    ['https://claims.example.com/a b', 'space'],
    [' https://claims.example.com', 'space'],
    ['http:claims.example.com', 'http:// or https://'],
    ['https:/claims.example.com', 'http:// or https://'],
    ['https://claims.example.com/?x=1', 'query'],
    ['https://claims.example.com/#top', 'query'],
    ['https://', 'http:// or https://'],
    ['ftp://claims.example.com', 'http:// or https://'],
  ])('CLAIMS_PUBLIC_URL=%j stops start-up naming it', (value, expected) => {
    const { error, problems } = problemsOf(env({ CLAIMS_PUBLIC_URL: value }));
    expect(problems.map((p) => p.variable)).toEqual(['CLAIMS_PUBLIC_URL']);
    expect(problems[0]?.message).toContain(expected);
    expect(error.message).not.toContain('pass@');
  });

  it.each([
    ['https://Claims.Example.COM:443/', 'https://claims.example.com'],
    ['HTTPS://claims.example.com/board/', 'https://claims.example.com/board'],
    ['http://claims.example.com:8080/a/../b', 'http://claims.example.com:8080/b'],
  ])('CLAIMS_PUBLIC_URL=%j is used normalised, as %j', (value, expected) => {
    expect(readSettings(env({ CLAIMS_PUBLIC_URL: value })).publicUrl).toBe(expected);
  });

  it.each(['http://127.0.0.1', 'localhost:3000', 'bad host', 'exa_mple.com', '-x.example', '[::1'])(
    'HOST=%j stops start-up naming HOST',
    (value) => {
      const { problems } = problemsOf(env({ HOST: value }));
      expect(problems.map((p) => p.variable)).toEqual(['HOST']);
      expect(problems[0]?.message).toContain('IP address or a host name');
    },
  );

  it.each(['0.0.0.0', '127.0.0.1', '::', '::1', 'localhost', 'claims.internal'])(
    'HOST=%j is taken',
    (value) => {
      expect(readSettings(env({ HOST: value })).host).toBe(value);
    },
  );

  it.each(['x', 'metrics', 'a'.repeat(31), `${'a'.repeat(32)} b`])(
    'a CLAIMS_METRICS_TOKEN of %j stops start-up, saying how to make one',
    (token) => {
      const { error, problems } = problemsOf(env({ CLAIMS_METRICS_TOKEN: token }));
      expect(problems.map((p) => p.variable)).toEqual(['CLAIMS_METRICS_TOKEN']);
      expect(problems[0]?.message).toContain('openssl rand -hex 32');
      expect(error.message).not.toContain(`"${token}"`);
    },
  );

  it('a CLAIMS_METRICS_TOKEN is read and never logged', () => {
    const token = 'm'.repeat(40);
    const settings = readSettings(env({ CLAIMS_METRICS_TOKEN: token }));
    expect(settings.metricsToken).toBe(token);
    expect(JSON.stringify(settingsForLog(settings))).not.toContain(token);
    expect(settingsForLog(settings)).toMatchObject({ metricsToken: true });
    expect(settingsForLog(readSettings(env()))).toMatchObject({ metricsToken: false });
  });
});

describe('the start-up line', () => {
  it('shows each URL as its origin: no user name, password, path or query', () => {
    const settings = readSettings(
      env({
        CLAIMS_EVENTS_URL:
          'https://bob:events-pass@hooks.example.com:8443/hook/tok-path?token=tok-query',
        CLAIMS_EVENTS_SECRET: EVENTS_SECRET,
        CLAIMS_PUBLIC_URL: 'https://claims.example.com/board',
        CLAIMS_REDIS_URL: 'rediss://:redis-pass@cache.example.com:6380/2?password=redis-query',
      }),
    );
    const logged = settingsForLog(settings);
    const text = JSON.stringify(logged);
    for (const secret of ['events-pass', 'tok-path', 'tok-query', 'redis-pass', 'redis-query']) {
      expect(text).not.toContain(secret);
    }
    expect(logged).toMatchObject({
      eventsUrl: 'https://hooks.example.com:8443',
      publicUrl: 'https://claims.example.com',
      redis: { form: 'url', url: 'rediss://cache.example.com:6380', password: true, tls: true },
    });
  });
});
