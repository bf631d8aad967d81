/**
 * A GitHub the client cannot connect to: the message says so, instead
 * of "GitHub answered 500" for an answer that never came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/app-harness.js';
import { type Harness, harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h.close();
});

describe('the client when GitHub cannot be reached', () => {
  it('claim says it could not connect to the host, not that GitHub answered 500', async () => {
    const port = await freePort();
    const ref = h.issue();

    const run = await h.cli(
      ['claim', ref, '--session', 'unit7', '--lane', 'l', '--branch', 'feat/x'],
      {
        runtime: {
          env: {
            GITHUB_TOKEN: h.fake.tokenFor('alice'),
            GITHUB_API_URL: `http://127.0.0.1:${port}`,
            CLAIM_WARDEN_CONFIG_DIR: h.configDir,
          },
        },
      },
    );

    const said = run.stdout + run.stderr;
    expect(run.code).not.toBe(0);
    expect(said).toContain(`could not connect to 127.0.0.1:${port}`);
    expect(said).not.toMatch(/answered 500/);
  });
});
