import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/read-settings.js';
import { SettingsError } from '../../src/config/settings-error.js';
import { settingsForLog, urlOrigin } from '../../src/config/settings-for-log.js';

const s = 1000;
const EVENTS_SECRET = 'events-secret-'.padEnd(40, 'x');
const m = 60 * s;
const h = 60 * m;

let dir: string;
let pkcs8: string;
let pkcs1: string;
let ecKey: string;
let keyFile: string;

beforeAll(() => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  pkcs8 = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  pkcs1 = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  dir = mkdtempSync(join(tmpdir(), 'settings-test-'));
  keyFile = join(dir, 'app.pem');
  writeFileSync(keyFile, pkcs1);
  writeFileSync(join(dir, 'not-a-key.txt'), 'hello');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The least an operator must set. */
function env(overrides: Record<string, string | undefined> = {}) {
  return { APP_ID: '12345', PRIVATE_KEY: pkcs8, WEBHOOK_SECRET: 'hush-webhook', ...overrides };
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

describe('readSettings', () => {
  it('applies the defaults of docs/protocol.md §3, §4 and §7', () => {
    expect(readSettings(env())).toEqual({
      staleAfterMs: 6 * h,
      sweepIntervalMs: 60 * s,
      resyncIntervalMs: 6 * h,
      configCacheMs: 60 * s,
      queueConcurrency: 8,
      apiRatePerMinute: 300,
      apiConcurrency: 10,
      redis: undefined,
      redisPrefix: 'claims',
      queueLockMs: 30 * s,
      writePacingMs: 1000,
      appId: 12345,
      privateKey: pkcs8.trim(),
      webhookSecret: 'hush-webhook',
      port: 3000,
      host: undefined,
      logLevel: 'info',
      logFormat: 'json',
      gheHost: undefined,
      gheProtocol: 'https',
      githubBaseUrl: undefined,
      redeliverIntervalMs: 10 * m,
      redeliverMax: 100,
      eventsUrl: undefined,
      eventsSecret: undefined,
      eventsConcurrency: 4,
      eventsMaxPending: 10_000,
      boardOAuth: undefined,
      publicUrl: undefined,
      trustProxy: false,
      shutdownTimeoutMs: 20_000,
      redeliverDelayMs: 15_000,
      sessionSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
      metricsToken: undefined,
    });
  });

  it('treats empty variables as unset', () => {
    expect(readSettings(env({ CLAIMS_STALE_AFTER: '', PORT: '', HOST: '' })).port).toBe(3000);
  });

  it('accepts PORT=0 (any free port) and LOG_FORMAT=pretty, as Probot does', () => {
    const settings = readSettings(env({ PORT: '0', LOG_FORMAT: 'pretty' }));
    expect(settings.port).toBe(0);
    expect(settings.logFormat).toBe('pretty');
    expect(readSettings(env({})).logFormat).toBe('json');
  });

  it.each([
    ['CLAIMS_STALE_AFTER', '10m', 'staleAfterMs', 10 * m],
    ['CLAIMS_TRUST_PROXY', 'true', 'trustProxy', true],
    ['CLAIMS_SHUTDOWN_TIMEOUT', '5s', 'shutdownTimeoutMs', 5 * s],
    ['CLAIMS_REDELIVER_DELAY', '0s', 'redeliverDelayMs', 0],
    ['CLAIMS_STALE_AFTER', '720h', 'staleAfterMs', 720 * h],
    ['CLAIMS_STALE_AFTER', '1h30m', 'staleAfterMs', 90 * m],
    ['CLAIMS_SWEEP_INTERVAL', '1s', 'sweepIntervalMs', s],
    ['CLAIMS_SWEEP_INTERVAL', '24h', 'sweepIntervalMs', 24 * h],
    ['CLAIMS_RESYNC_INTERVAL', '1m', 'resyncIntervalMs', m],
    ['CLAIMS_RESYNC_INTERVAL', '720h', 'resyncIntervalMs', 720 * h],
    ['CLAIMS_CONFIG_CACHE', '0s', 'configCacheMs', 0],
    ['CLAIMS_CONFIG_CACHE', '1h', 'configCacheMs', h],
    ['CLAIMS_QUEUE_CONCURRENCY', '1', 'queueConcurrency', 1],
    ['CLAIMS_QUEUE_CONCURRENCY', '256', 'queueConcurrency', 256],
    ['CLAIMS_REDIS_PREFIX', 'c', 'redisPrefix', 'c'],
    ['CLAIMS_REDIS_PREFIX', 'claims-staging_2.eu', 'redisPrefix', 'claims-staging_2.eu'],
    ['CLAIMS_REDIS_PREFIX', 'a'.repeat(64), 'redisPrefix', 'a'.repeat(64)],
    ['CLAIMS_QUEUE_LOCK', '1s', 'queueLockMs', s],
    ['CLAIMS_QUEUE_LOCK', '10m', 'queueLockMs', 10 * m],
    ['CLAIMS_WRITE_PACING_MS', '0', 'writePacingMs', 0],
    ['CLAIMS_WRITE_PACING_MS', '10000', 'writePacingMs', 10_000],
    ['CLAIMS_REDELIVER_INTERVAL', '1m', 'redeliverIntervalMs', m],
    ['CLAIMS_REDELIVER_INTERVAL', '24h', 'redeliverIntervalMs', 24 * h],
    ['CLAIMS_REDELIVER_MAX', '1', 'redeliverMax', 1],
    ['CLAIMS_EVENTS_CONCURRENCY', '1', 'eventsConcurrency', 1],
    ['CLAIMS_EVENTS_CONCURRENCY', '64', 'eventsConcurrency', 64],
    ['CLAIMS_EVENTS_MAX_PENDING', '1', 'eventsMaxPending', 1],
    ['CLAIMS_EVENTS_MAX_PENDING', '1000000', 'eventsMaxPending', 1_000_000],
    ['APP_ID', '1', 'appId', 1],
    ['WEBHOOK_SECRET', 'x', 'webhookSecret', 'x'],
    ['PORT', '1', 'port', 1],
    ['PORT', '65535', 'port', 65535],
    ['HOST', '0.0.0.0', 'host', '0.0.0.0'],
    ['LOG_LEVEL', 'trace', 'logLevel', 'trace'],
    ['LOG_LEVEL', 'fatal', 'logLevel', 'fatal'],
    ['GHE_HOST', 'github.example.com', 'gheHost', 'github.example.com'],
    ['GHE_HOST', 'ghe:8443', 'gheHost', 'ghe:8443'],
    ['GHE_PROTOCOL', 'http', 'gheProtocol', 'http'],
  ])('accepts %s=%s', (variable, value, field, expected) => {
    expect(readSettings(env({ [variable]: value }))).toMatchObject({ [field]: expected });
  });

  it('builds the Enterprise API URL as Probot does', () => {
    const settings = readSettings(env({ GHE_HOST: 'ghe.local:8080', GHE_PROTOCOL: 'http' }));
    expect(settings.githubBaseUrl).toBe('http://ghe.local:8080/api/v3');
  });

  it.each([
    ['CLAIMS_STALE_AFTER', '5m', 'must be a duration between 10m and 720h, such as 6h (got "5m")'],
    [
      'CLAIMS_TRUST_PROXY',
      'yes',
      'must be true or false: true only when a proxy in front of the app sets X-Forwarded-Proto and drops any a client sent (got "yes")',
    ],
    [
      'CLAIMS_SHUTDOWN_TIMEOUT',
      '0s',
      'must be a duration between 1s and 10m, such as 20s (got "0s")',
    ],
    [
      'CLAIMS_STALE_AFTER',
      '721h',
      'must be a duration between 10m and 720h, such as 6h (got "721h")',
    ],
    ['CLAIMS_STALE_AFTER', '6', 'must be a duration between 10m and 720h, such as 6h (got "6")'],
    [
      'CLAIMS_SWEEP_INTERVAL',
      '0s',
      'must be a duration between 1s and 24h, such as 60s (got "0s")',
    ],
    [
      'CLAIMS_SWEEP_INTERVAL',
      '25h',
      'must be a duration between 1s and 24h, such as 60s (got "25h")',
    ],
    [
      'CLAIMS_RESYNC_INTERVAL',
      '59s',
      'must be a duration between 1m and 720h, such as 6h (got "59s")',
    ],
    ['CLAIMS_CONFIG_CACHE', '2h', 'must be a duration between 0s and 1h, such as 60s (got "2h")'],
    ['CLAIMS_CONFIG_CACHE', '-1s', 'must be a duration between 0s and 1h, such as 60s (got "-1s")'],
    ['CLAIMS_QUEUE_CONCURRENCY', '0', 'between 1 and 256 (got "0")'],
    ['CLAIMS_QUEUE_CONCURRENCY', '257', 'between 1 and 256 (got "257")'],
    ['CLAIMS_QUEUE_CONCURRENCY', 'eight', 'between 1 and 256 (got "eight")'],
    ['CLAIMS_QUEUE_CONCURRENCY', '2.5', 'between 1 and 256 (got "2.5")'],
    ['CLAIMS_EVENTS_CONCURRENCY', '0', 'between 1 and 64 (got "0")'],
    ['CLAIMS_EVENTS_CONCURRENCY', '65', 'between 1 and 64 (got "65")'],
    ['CLAIMS_EVENTS_MAX_PENDING', '0', 'between 1 and 1000000 (got "0")'],
    ['CLAIMS_EVENTS_MAX_PENDING', '10k', 'between 1 and 1000000 (got "10k")'],
    ['CLAIMS_REDIS_URL', 'http://redis:6379', 'must be a redis:// or rediss:// URL'],
    ['CLAIMS_REDIS_URL', 'redis-host:6379', 'must be a redis:// or rediss:// URL'],
    ['CLAIMS_REDIS_PREFIX', 'claims:', 'must be 1 to 64 letters, digits'],
    ['CLAIMS_REDIS_PREFIX', '{claims}', 'such as claims (got "{claims}")'],
    [
      'CLAIMS_REDIS_PREFIX',
      '-claims',
      'starting with a letter or digit, such as claims (got "-claims")',
    ],
    ['CLAIMS_REDIS_PREFIX', 'a'.repeat(65), 'must be 1 to 64 letters, digits'],
    [
      'CLAIMS_QUEUE_LOCK',
      '500ms',
      'must be a duration between 1s and 10m, such as 30s (got "500ms")',
    ],
    ['CLAIMS_QUEUE_LOCK', '11m', 'must be a duration between 1s and 10m, such as 30s (got "11m")'],
    ['CLAIMS_WRITE_PACING_MS', '10001', 'between 0 and 10000 (got "10001")'],
    ['CLAIMS_WRITE_PACING_MS', '1s', 'between 0 and 10000 (got "1s")'],
    ['APP_ID', '0', 'must be the GitHub App\'s numeric ID, such as 123456 (got "0")'],
    ['APP_ID', '-3', "must be the GitHub App's numeric ID"],
    ['APP_ID', 'my-app', "must be the GitHub App's numeric ID"],
    ['APP_ID', undefined, "is required: the GitHub App's numeric ID"],
    ['WEBHOOK_SECRET', undefined, "is required: the GitHub App's webhook secret"],
    ['WEBHOOK_SECRET', '', "is required: the GitHub App's webhook secret"],
    ['PORT', '65536', 'between 0 and 65535 (got "65536")'],
    ['PORT', 'http', 'between 0 and 65535 (got "http")'],
    ['LOG_FORMAT', 'text', 'must be json or pretty (got "text")'],
    [
      'LOG_LEVEL',
      'verbose',
      'must be one of trace, debug, info, warn, error, fatal (got "verbose")',
    ],
    ['LOG_LEVEL', 'INFO', 'must be one of trace, debug, info, warn, error, fatal (got "INFO")'],
    ['GHE_HOST', 'https://github.example.com', 'without https://'],
    ['GHE_HOST', 'github.example.com/api/v3', 'must be a host name'],
    ['GHE_HOST', 'ghe:70000', 'must be a host name'],
    ['GHE_PROTOCOL', 'ftp', 'must be http or https (got "ftp")'],
    [
      'CLAIMS_REDELIVER_INTERVAL',
      '30s',
      'must be a duration between 1m and 24h, such as 10m (got "30s")',
    ],
    ['CLAIMS_REDELIVER_MAX', '0', 'between 1 and 10000 (got "0")'],
  ])('refuses %s=%s, naming the variable', (variable, value, expected) => {
    const { error, problems } = problemsOf(env({ [variable]: value }));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.variable).toBe(variable);
    expect(problems[0]?.message).toContain(expected);
    expect(error.message).toContain(`${variable}: ${problems[0]?.message}`);
  });

  it('requires CLAIMS_EVENTS_SECRET when CLAIMS_EVENTS_URL is set, and never shows it', () => {
    const { problems } = problemsOf(env({ CLAIMS_EVENTS_URL: 'https://hooks.example.com/c' }));
    expect(problems.map((p) => p.variable)).toEqual(['CLAIMS_EVENTS_SECRET']);
    expect(problems[0]?.message).toContain('is required when CLAIMS_EVENTS_URL is set');
    const settings = readSettings(
      env({
        CLAIMS_EVENTS_URL: 'https://hooks.example.com/c',
        CLAIMS_EVENTS_SECRET: EVENTS_SECRET,
      }),
    );
    expect(settings).toMatchObject({
      eventsUrl: 'https://hooks.example.com/c',
      eventsSecret: EVENTS_SECRET,
    });
    expect(JSON.stringify(settingsForLog(settings))).not.toContain(EVENTS_SECRET);
    const bad = problemsOf(
      env({ CLAIMS_EVENTS_URL: 'ftp://hooks.example.com', CLAIMS_EVENTS_SECRET: EVENTS_SECRET }),
    );
    expect(bad.problems.map((p) => p.variable)).toEqual(['CLAIMS_EVENTS_URL']);
    expect(bad.problems[0]?.message).toContain('must be an http:// or https:// URL');
  });

  it('names every bad variable at once', () => {
    const { problems } = problemsOf({
      CLAIMS_STALE_AFTER: '5m',
      PORT: 'x',
      LOG_LEVEL: 'loud',
    });
    expect(problems.map((p) => p.variable)).toEqual([
      'CLAIMS_STALE_AFTER',
      'APP_ID',
      'WEBHOOK_SECRET',
      'PORT',
      'LOG_LEVEL',
      'PRIVATE_KEY',
    ]);
  });
});

describe('readSettings: the private key', () => {
  it('reads PRIVATE_KEY_PATH', () => {
    const settings = readSettings(env({ PRIVATE_KEY: undefined, PRIVATE_KEY_PATH: keyFile }));
    expect(settings.privateKey).toBe(pkcs1);
  });

  it.each([
    ['with \\n escapes, as Probot allows', () => pkcs1.trim().replace(/\n/g, '\\n')],
    ['squashed onto one line', () => pkcs1.trim().replace(/\n/g, ' ')],
    ['base64-encoded', () => Buffer.from(pkcs8).toString('base64')],
  ])('accepts PRIVATE_KEY %s', (_name, key) => {
    const settings = readSettings(env({ PRIVATE_KEY: key() }));
    expect(settings.privateKey.split('\n').length).toBeGreaterThan(3);
  });

  it('prefers PRIVATE_KEY and ignores PRIVATE_KEY_PATH, as Probot does', () => {
    const settings = readSettings(env({ PRIVATE_KEY_PATH: join(dir, 'missing.pem') }));
    expect(settings.privateKey).toBe(pkcs8.trim());
  });

  it('requires one of PRIVATE_KEY and PRIVATE_KEY_PATH', () => {
    const { problems } = problemsOf(env({ PRIVATE_KEY: undefined }));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.variable).toBe('PRIVATE_KEY');
    expect(problems[0]?.message).toMatch(/^is required: .* set PRIVATE_KEY_PATH to the file/);
  });

  it.each([
    [
      'a missing file',
      () => join(dir, 'missing.pem'),
      'must be a readable file holding the key (ENOENT)',
    ],
    ['a directory', () => dir, 'must be a readable file holding the key (EISDIR)'],
    [
      'a file that holds no key',
      () => join(dir, 'not-a-key.txt'),
      'the file must hold the GitHub App private key',
    ],
  ])('refuses PRIVATE_KEY_PATH naming %s', (_name, path, expected) => {
    const { problems } = problemsOf(env({ PRIVATE_KEY: undefined, PRIVATE_KEY_PATH: path() }));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.variable).toBe('PRIVATE_KEY_PATH');
    expect(problems[0]?.message).toContain(expected);
    expect(problems[0]?.message).toContain(`(got ${JSON.stringify(path())})`);
  });

  it.each([
    ['no PEM at all', () => 'not-a-key-at-all', 'must be the GitHub App private key in PEM form'],
    [
      'a public key',
      () => '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----',
      'in PEM form',
    ],
    ['a truncated key', () => pkcs8.slice(0, 400) + pkcs8.slice(-30), 'cannot be loaded'],
    ['an EC key', () => ecKey, 'must be an RSA key'],
  ])('refuses PRIVATE_KEY holding %s, without quoting it', (_name, key, expected) => {
    const secret = key();
    const { error, problems } = problemsOf(env({ PRIVATE_KEY: secret }));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.variable).toBe('PRIVATE_KEY');
    expect(problems[0]?.message).toContain(expected);
    expect(error.message).not.toContain(secret.length > 80 ? secret.slice(40, 80) : secret);
    expect(error.message).not.toContain('(got');
  });
});

describe('readSettings: secrets stay secret (docs/protocol.md §6)', () => {
  it('never quotes a bad CLAIMS_REDIS_URL, which may hold a password', () => {
    const url = 'http://:sup3r-secret@redis:6379';
    const { error } = problemsOf(env({ CLAIMS_REDIS_URL: url }));
    expect(error.message).not.toContain('sup3r-secret');
    expect(error.message).toContain('value not shown');
  });

  it('reads WEBHOOK_PROXY_URL for Probot to connect to, and logs only that it is set', () => {
    const channel = 'https://smee.io/AbCd1234secret';
    const settings = readSettings(env({ WEBHOOK_PROXY_URL: channel }));
    expect(settings.webhookProxyUrl).toBe(channel);
    expect(JSON.stringify(settingsForLog(settings))).not.toContain('AbCd1234secret');
    expect(settingsForLog(settings)).toMatchObject({ webhookProxy: true });
  });

  it('a WEBHOOK_PROXY_URL that is no URL is named, its value not shown', () => {
    const { problems } = problemsOf(env({ WEBHOOK_PROXY_URL: 'smee.io/AbCd1234secret' }));
    expect(problems).toEqual([
      {
        variable: 'WEBHOOK_PROXY_URL',
        message: 'must be the URL of a webhook proxy channel, such as https://smee.io/AbCd1234',
      },
    ]);
  });

  it('never quotes secrets when other variables are bad', () => {
    const { error } = problemsOf(env({ APP_ID: 'x', PRIVATE_KEY: 'hunter2-key' }));
    expect(error.message).not.toContain('hunter2-key');
    expect(error.message).not.toContain('hush-webhook');
    expect(error.message).not.toContain(pkcs8.slice(40, 80));
  });

  it('settingsForLog leaves out the key and the webhook secret, and shows Redis as its origin', () => {
    const settings = readSettings(env({ CLAIMS_REDIS_URL: 'redis://user:pw-123@redis:6379/0' }));
    const logged = JSON.stringify(settingsForLog(settings));
    expect(logged).not.toContain('PRIVATE KEY');
    expect(logged).not.toContain('hush-webhook');
    expect(logged).not.toContain('pw-123');
    expect(settingsForLog(settings)).toMatchObject({
      redis: { form: 'url', url: 'redis://redis:6379', username: 'user', password: true },
      appId: 12345,
      staleAfterMs: 6 * h,
    });
  });

  it.each([
    ['redis://:pw@host:6379/2?x=1', 'redis://host:6379'],
    ['redis://host:6379', 'redis://host:6379'],
    ['https://u:p@hooks.example.com:443/a?token=t', 'https://hooks.example.com'],
    ['not a url', '(unparseable URL)'],
  ])('urlOrigin(%s)', (url, expected) => {
    expect(urlOrigin(url)).toBe(expected);
  });
});

describe('claims board settings (docs/protocol.md §14)', () => {
  it('reads the OAuth credentials and the public address, without a trailing slash', () => {
    const settings = readSettings(
      env({
        GITHUB_CLIENT_ID: 'Iv1.0123456789abcdef',
        GITHUB_CLIENT_SECRET: 'oauth-hush',
        CLAIMS_PUBLIC_URL: 'https://claims.example.com/',
      }),
    );
    expect(settings.boardOAuth).toEqual({
      clientId: 'Iv1.0123456789abcdef',
      clientSecret: 'oauth-hush',
    });
    expect(settings.publicUrl).toBe('https://claims.example.com');
  });

  it.each([
    [{ GITHUB_CLIENT_ID: 'Iv1.abc' }, 'GITHUB_CLIENT_SECRET'],
    [{ GITHUB_CLIENT_SECRET: 'oauth-hush' }, 'GITHUB_CLIENT_ID'],
    [{ CLAIMS_PUBLIC_URL: 'claims.example.com' }, 'CLAIMS_PUBLIC_URL'],
    [{ CLAIMS_SESSION_SECRET: 'short' }, 'CLAIMS_SESSION_SECRET'],
  ])('refuses %o naming %s', (values, variable) => {
    const { problems, error } = problemsOf(env(values));
    expect(problems.map((p) => p.variable)).toEqual([variable]);
    expect(error.message).not.toContain('oauth-hush');
  });

  it('derives one session secret from the webhook secret, different from it, unless one is set', () => {
    const a = readSettings(env()).sessionSecret;
    expect(readSettings(env()).sessionSecret).toBe(a);
    expect(a).not.toContain('hush-webhook');
    expect(readSettings(env({ WEBHOOK_SECRET: 'other' })).sessionSecret).not.toBe(a);
    const own = 'x'.repeat(40);
    expect(readSettings(env({ CLAIMS_SESSION_SECRET: own })).sessionSecret).toBe(own);
  });

  it('settingsForLog leaves out the OAuth client secret and the session secret', () => {
    const settings = readSettings(
      env({ GITHUB_CLIENT_ID: 'Iv1.abc', GITHUB_CLIENT_SECRET: 'oauth-hush' }),
    );
    const logged = JSON.stringify(settingsForLog(settings));
    expect(logged).not.toContain('oauth-hush');
    expect(logged).not.toContain(settings.sessionSecret);
    expect(settingsForLog(settings)).toMatchObject({ boardClientId: 'Iv1.abc' });
  });

  it('settingsForLog leaves out every secret when all are set at once', () => {
    const settings = readSettings(
      env({
        GITHUB_CLIENT_ID: 'Iv1.abc',
        GITHUB_CLIENT_SECRET: 'oauth-hush',
        CLAIMS_SESSION_SECRET: 'session-hush-'.padEnd(40, 'x'),
        CLAIMS_EVENTS_URL: 'https://hooks.example.com/claims',
        CLAIMS_EVENTS_SECRET: 'events-hush-'.padEnd(40, 'x'),
        WEBHOOK_PROXY_URL: 'https://smee.io/ProxyHush1234',
      }),
    );
    const logged = JSON.stringify(settingsForLog(settings));
    for (const secret of [
      'oauth-hush',
      'session-hush-',
      'events-hush',
      'ProxyHush1234',
      'hush-webhook',
      'PRIVATE KEY',
    ]) {
      expect(logged).not.toContain(secret);
    }
    expect(settingsForLog(settings)).toMatchObject({
      eventsUrl: 'https://hooks.example.com',
      webhookProxy: true,
      boardClientId: 'Iv1.abc',
    });
  });
});
