import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAIM_KEY_FILE, loadClaimKey } from '../../src/client/io/claim-key.js';
import { configDir } from '../../src/client/io/config-dir.js';
import { type Harness, harness } from './harness.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'claim-key-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the identity key', () => {
  it('is created on first use: 32 random bytes, mode 0600, in a directory only the owner can enter', async () => {
    const where = join(dir, 'nested', 'claim-warden');
    const key = await loadClaimKey(where);
    expect(key).toHaveLength(32);
    const file = await stat(join(where, CLAIM_KEY_FILE));
    expect(file.mode & 0o777).toBe(0o600);
    expect((await stat(where)).mode & 0o777).toBe(0o700);
    expect(new Uint8Array(await readFile(join(where, CLAIM_KEY_FILE)))).toEqual(key);
  });

  it('is reused once it exists', async () => {
    const first = await loadClaimKey(dir);
    expect(await loadClaimKey(dir)).toEqual(first);
  });

  it('comes out the same for sessions that create it at the same moment', async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadClaimKey(dir)));
    for (const key of keys) expect(key).toEqual(keys[0]);
  });

  it('is refused when other users can read it', async () => {
    await loadClaimKey(dir);
    await chmod(join(dir, CLAIM_KEY_FILE), 0o644);
    await expect(loadClaimKey(dir)).rejects.toMatchObject({
      kind: 'setup',
      message: expect.stringContaining('chmod 600'),
    });
  });

  it('is refused when it is not 32 bytes long', async () => {
    await writeFile(join(dir, CLAIM_KEY_FILE), 'short', { mode: 0o600 });
    await expect(loadClaimKey(dir)).rejects.toMatchObject({ kind: 'setup' });
  });

  it('that cannot be created fails the operation; there is no plain fallback', async () => {
    const blocker = join(dir, 'a-file');
    await writeFile(blocker, '');
    await expect(loadClaimKey(join(blocker, 'claim-warden'))).rejects.toMatchObject({
      kind: 'setup',
    });
  });
});

describe('the config directory', () => {
  it.each([
    [{ CLAIM_WARDEN_CONFIG_DIR: '/x/cw', XDG_CONFIG_HOME: '/y' }, 'linux', '/x/cw'],
    [{ XDG_CONFIG_HOME: '/y', HOME: '/home/a' }, 'linux', '/y/claim-warden'],
    [{ XDG_CONFIG_HOME: 'relative', HOME: '/home/a' }, 'linux', '/home/a/.config/claim-warden'],
    [{ HOME: '/home/a' }, 'linux', '/home/a/.config/claim-warden'],
    [{ HOME: '/Users/a' }, 'darwin', '/Users/a/Library/Application Support/claim-warden'],
  ] as const)('%o on %s is %s', (env, platform, expected) => {
    expect(configDir(env, platform)).toBe(expected);
  });
});

describe('the key in use', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('is never printed, in text or JSON, nor written to GitHub', async () => {
    const ref = h.issue();
    const hex = Buffer.from(h.key).toString('hex');
    const base64 = Buffer.from(h.key).toString('base64');
    const outputs = [
      await h.cli([
        'claim',
        ref,
        '--session',
        'unit7',
        '--lane',
        'l',
        '--branch',
        'feat/x',
        '--json',
      ]),
      await h.cli(['status', ref, '--session', 'unit7']),
      await h.cli(['release', ref, '--session', 'unit7', '--outcome', 'landed']),
    ];
    const seen = [
      ...outputs.flatMap((o) => [o.stdout, o.stderr]),
      ...h.fake.requests.map((r) => JSON.stringify(r.body ?? '')),
    ].join('\n');
    expect(seen).not.toContain(hex);
    expect(seen).not.toContain(base64);
  });

  it('XDG_CONFIG_HOME places the key under claim-warden/', async () => {
    const ref = h.issue();
    const env = {
      GITHUB_TOKEN: h.fake.tokenFor('alice'),
      GITHUB_API_URL: h.fake.apiUrl,
      XDG_CONFIG_HOME: dir,
    };
    const result = await h.run(
      'claim',
      { issue: ref, session: 'unit7', lane: 'l', branch: 'feat/x' },
      { runtime: { env } },
    );
    expect(result.status).toBe('ok');
    expect((await stat(join(dir, 'claim-warden', CLAIM_KEY_FILE))).mode & 0o777).toBe(0o600);
  });

  it('an unusable key directory is a setup error (exit 4) before any request', async () => {
    const ref = h.issue();
    const blocker = join(dir, 'a-file');
    await writeFile(blocker, '');
    const env = {
      GITHUB_TOKEN: h.fake.tokenFor('alice'),
      GITHUB_API_URL: h.fake.apiUrl,
      CLAIM_WARDEN_CONFIG_DIR: join(blocker, 'cw'),
    };
    h.fake.clearRequests();
    const { code } = await h.cli(
      ['claim', ref, '--session', 'unit7', '--lane', 'l', '--branch', 'feat/x'],
      { runtime: { env } },
    );
    expect(code).toBe(4);
    expect(h.fake.requests).toEqual([]);
  });
});
