import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ghAuthToken, resolveToken } from '../../src/client/io/resolve-token.js';

const noGh = async () => null;

describe('resolveToken', () => {
  it('prefers --token, then GITHUB_TOKEN, then gh auth token', async () => {
    const gh = async () => 'from-gh';
    const env = { GITHUB_TOKEN: 'from-env' };
    expect(await resolveToken({ flag: 'from-flag', env, gh, host: 'github.com' })).toBe(
      'from-flag',
    );
    expect(await resolveToken({ env, gh, host: 'github.com' })).toBe('from-env');
    expect(await resolveToken({ env: {}, gh, host: 'github.com' })).toBe('from-gh');
  });

  it('without any, is a setup error that says how to provide one', async () => {
    await expect(
      resolveToken({ env: { GITHUB_TOKEN: '  ' }, gh: noGh, host: 'github.com' }),
    ).rejects.toMatchObject({
      kind: 'setup',
      message: expect.stringContaining('gh auth login'),
    });
  });
});

describe('gh auth token', () => {
  let bin: string;
  beforeAll(async () => {
    bin = await mkdtemp(join(tmpdir(), 'fake-gh-'));
    // Answers only the exact call the client makes, for the host it names.
    await writeFile(
      join(bin, 'gh'),
      '#!/bin/sh\n[ "$1 $2 $3 $4" = "auth token --hostname ghe.example.com" ] && echo gho_fromgh && exit 0\nexit 1\n',
    );
    await chmod(join(bin, 'gh'), 0o755);
  });
  afterAll(async () => {
    await rm(bin, { recursive: true, force: true });
  });

  it('is asked for the API host and its answer used', async () => {
    expect(await ghAuthToken({ PATH: bin })('ghe.example.com')).toBe('gho_fromgh');
  });

  it('fails gracefully when gh refuses or is not installed', async () => {
    expect(await ghAuthToken({ PATH: bin })('github.com')).toBeNull();
    expect(await ghAuthToken({ PATH: join(bin, 'nothing-here') })('github.com')).toBeNull();
  });
});
