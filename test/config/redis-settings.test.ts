import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/read-settings.js';
import { SettingsError } from '../../src/config/settings-error.js';
import { settingsForLog } from '../../src/config/settings-for-log.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
let dir: string;
let pkcs8: string;
let caFile: string;

beforeAll(() => {
  pkcs8 = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  dir = mkdtempSync(join(tmpdir(), 'redis-settings-test-'));
  caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, CA);
  writeFileSync(join(dir, 'not-a-ca.txt'), 'hello');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function env(values: Record<string, string>) {
  return { APP_ID: '12345', PRIVATE_KEY: pkcs8, WEBHOOK_SECRET: 'hush-webhook', ...values };
}

function problems(values: Record<string, string>) {
  try {
    readSettings(env(values));
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as SettingsError).problems.map((p) => `${p.variable}: ${p.message}`);
  }
  throw new Error('readSettings accepted bad settings');
}

describe('naming Redis (docs/replicas.md "Naming Redis")', () => {
  it('reads a URL, its credentials and TLS', () => {
    expect(readSettings(env({ CLAIMS_REDIS_URL: 'redis://redis:6379' })).redis).toEqual({
      form: 'url',
      url: 'redis://redis:6379',
      username: undefined,
      password: undefined,
      tls: undefined,
    });
    expect(
      readSettings(
        env({ CLAIMS_REDIS_URL: 'rediss://app:p%40ss@cache:6380/2', CLAIMS_REDIS_TLS_CA: caFile }),
      ).redis,
    ).toMatchObject({ form: 'url', username: 'app', password: 'p@ss', tls: { ca: CA } });
    expect(
      readSettings(
        env({
          CLAIMS_REDIS_URL: 'redis://cache:6379',
          CLAIMS_REDIS_USERNAME: 'app',
          CLAIMS_REDIS_PASSWORD: 'hush',
        }),
      ).redis,
    ).toMatchObject({ username: 'app', password: 'hush' });
  });

  it('reads Sentinels and the primary they watch', () => {
    expect(
      readSettings(
        env({
          CLAIMS_REDIS_SENTINELS: 's1:26379, 10.0.0.2:26379,[::1]:26380',
          CLAIMS_REDIS_SENTINEL_NAME: 'mymaster',
          CLAIMS_REDIS_SENTINEL_PASSWORD: 'sentinel-hush',
          CLAIMS_REDIS_PASSWORD: 'hush',
        }),
      ).redis,
    ).toEqual({
      form: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: '10.0.0.2', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'mymaster',
      sentinelPassword: 'sentinel-hush',
      username: undefined,
      password: 'hush',
      tls: undefined,
    });
  });

  it('reads a Cluster, with TLS and a private CA', () => {
    expect(
      readSettings(
        env({
          CLAIMS_REDIS_CLUSTER: 'node-a:6379,node-b:6379',
          CLAIMS_REDIS_TLS: 'true',
          CLAIMS_REDIS_TLS_CA: caFile,
        }),
      ).redis,
    ).toMatchObject({
      form: 'cluster',
      nodes: [
        { host: 'node-a', port: 6379 },
        { host: 'node-b', port: 6379 },
      ],
      tls: { ca: CA },
    });
  });

  it.each([
    [
      { CLAIMS_REDIS_URL: 'redis://r:6379', CLAIMS_REDIS_CLUSTER: 'a:1' },
      'CLAIMS_REDIS_CLUSTER: is set together with CLAIMS_REDIS_URL: name Redis one way only',
    ],
    [
      { CLAIMS_REDIS_SENTINELS: 'a:1', CLAIMS_REDIS_CLUSTER: 'a:1' },
      'unset one of CLAIMS_REDIS_SENTINELS and CLAIMS_REDIS_CLUSTER',
    ],
    [{ CLAIMS_REDIS_SENTINELS: 'a:1' }, 'CLAIMS_REDIS_SENTINEL_NAME: is required with'],
    [
      { CLAIMS_REDIS_SENTINEL_NAME: 'mymaster' },
      'CLAIMS_REDIS_SENTINEL_NAME: is set without CLAIMS_REDIS_SENTINELS',
    ],
    [{ CLAIMS_REDIS_PASSWORD: 'x' }, 'CLAIMS_REDIS_PASSWORD: is set without CLAIMS_REDIS_URL'],
    [
      { CLAIMS_REDIS_URL: 'redis://r:6379', CLAIMS_REDIS_TLS: 'true' },
      'CLAIMS_REDIS_TLS: is for CLAIMS_REDIS_SENTINELS and CLAIMS_REDIS_CLUSTER only',
    ],
    [{ CLAIMS_REDIS_CLUSTER: 'a' }, 'CLAIMS_REDIS_CLUSTER: must be a comma-separated list'],
    [{ CLAIMS_REDIS_CLUSTER: 'a:70000' }, 'CLAIMS_REDIS_CLUSTER: must be a comma-separated list'],
    [{ CLAIMS_REDIS_CLUSTER: 'a:1,' }, 'CLAIMS_REDIS_CLUSTER: must be a comma-separated list'],
    [
      { CLAIMS_REDIS_URL: 'redis://:pw@r:6379', CLAIMS_REDIS_PASSWORD: 'x' },
      'CLAIMS_REDIS_PASSWORD: is set and CLAIMS_REDIS_URL holds a password too',
    ],
  ])('refuses %o', (values, expected) => {
    expect(problems(values).join('\n')).toContain(expected);
  });

  it('refuses a CA file that cannot be read, is not a certificate, or has no TLS to serve', () => {
    expect(problems({ CLAIMS_REDIS_URL: 'redis://r:6379', CLAIMS_REDIS_TLS_CA: caFile })).toEqual([
      'CLAIMS_REDIS_TLS_CA: is set but TLS to Redis is off: use a rediss:// URL, or CLAIMS_REDIS_TLS=true with CLAIMS_REDIS_SENTINELS or CLAIMS_REDIS_CLUSTER',
    ]);
    const url = { CLAIMS_REDIS_URL: 'rediss://r:6380' };
    expect(problems({ ...url, CLAIMS_REDIS_TLS_CA: join(dir, 'missing.pem') })[0]).toContain(
      "CLAIMS_REDIS_TLS_CA: must be a readable PEM file of the CA that signed Redis's certificate (ENOENT)",
    );
    expect(problems({ ...url, CLAIMS_REDIS_TLS_CA: join(dir, 'not-a-ca.txt') })[0]).toContain(
      'must be a PEM file of the CA',
    );
  });

  it('never quotes or logs a password', () => {
    const message = problems({
      CLAIMS_REDIS_SENTINELS: 'bad',
      CLAIMS_REDIS_SENTINEL_PASSWORD: 'sentinel-hush',
      CLAIMS_REDIS_PASSWORD: 'redis-hush',
    }).join('\n');
    expect(message).not.toContain('hush');
    const settings = readSettings(
      env({
        CLAIMS_REDIS_SENTINELS: 's1:26379,s2:26379',
        CLAIMS_REDIS_SENTINEL_NAME: 'mymaster',
        CLAIMS_REDIS_SENTINEL_PASSWORD: 'sentinel-hush',
        CLAIMS_REDIS_USERNAME: 'app',
        CLAIMS_REDIS_PASSWORD: 'redis-hush',
      }),
    );
    const logged = settingsForLog(settings);
    expect(JSON.stringify(logged)).not.toContain('hush');
    expect(logged.redis).toEqual({
      form: 'sentinel',
      sentinels: 's1:26379,s2:26379',
      name: 'mymaster',
      username: 'app',
      password: true,
      tls: false,
    });
  });
});
