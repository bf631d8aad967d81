/**
 * Issue 20, defect 13: the setup flow (docs/protocol.md §15) writes the app's private key to
 * `.env`; that file is readable by its owner only (0600), also when it existed before with a
 * wider mode. The real entry, spawned in a fresh checkout.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGitHub } from '../fake-github/fake-github.js';
import { freePort, PRIVATE_KEY, waitFor } from '../helpers/app-harness.js';
import { checkout, type Spawned, spawnStart } from './spawned-start.js';

const running: Spawned[] = [];
afterEach(async () => {
  for (const spawned of running.splice(0)) await spawned.close();
});

async function setupServer(dir?: string): Promise<{ port: number; spawned: Spawned }> {
  const port = await freePort();
  return { port, spawned: await setupOn(port, {}, dir) };
}

async function setupOn(port: number, env: Record<string, string>, dir?: string): Promise<Spawned> {
  const spawned = spawnStart({ PORT: String(port), HOST: '127.0.0.1', ...env }, dir);
  running.push(spawned);
  await waitFor(() => spawned.output().includes('setup mode'), 'the setup server', {
    timeoutMs: 20_000,
  });
  return spawned;
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

// Each test spawns the real entry (tsx compiles it first): slow on a busy machine.
describe('the .env the setup flow writes', { timeout: 60_000 }, () => {
  it('the manifest flow writes .env readable by its owner only', async () => {
    const fake = await startFakeGitHub();
    try {
      const port = await freePort();
      const spawned = await setupOn(port, { GHE_HOST: fake.host, GHE_PROTOCOL: 'http' });
      const page = await (await fetch(`http://127.0.0.1:${port}/probot`)).text();
      const manifest = /name="manifest" id="manifest" value='([^']*)'/.exec(page)?.[1];
      const code = fake.registerManifest(JSON.parse(manifest ?? '{}'));

      const back = await fetch(`http://127.0.0.1:${port}/probot/setup?code=${code}`, {
        redirect: 'manual',
      });

      expect(back.status).toBe(302);
      const dotenv = join(spawned.dir, '.env');
      expect(readFileSync(dotenv, 'utf8')).toMatch(
        /^PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----/m,
      );
      expect(modeOf(dotenv).toString(8)).toBe('600');
      // Probot's own setup lines quoted the request URL, code and all.
      expect(spawned.output()).not.toContain(String(code));
    } finally {
      await fake.close();
    }
  });

  it('an existing world-readable .env is narrowed to 0600 and keeps its other lines', async () => {
    const dir = checkout();
    const dotenv = join(dir, '.env');
    writeFileSync(dotenv, 'NO_SMEE_SETUP=true\nCLAIMS_STALE_AFTER=8h\n');
    chmodSync(dotenv, 0o644);
    const { port } = await setupServer(dir);

    const imported = await fetch(`http://127.0.0.1:${port}/probot/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appId: '42', pem: PRIVATE_KEY, webhook_secret: 'imported-hush' }),
    });

    expect(imported.status).toBe(200);
    const text = readFileSync(dotenv, 'utf8');
    expect(text).toMatch(/^APP_ID=42$/m);
    expect(text).toMatch(/^CLAIMS_STALE_AFTER=8h$/m);
    expect(text).toMatch(/^PRIVATE_KEY="-----BEGIN PRIVATE KEY-----\\n/m);
    expect(modeOf(dotenv).toString(8)).toBe('600');
  });
});
