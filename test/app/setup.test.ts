/**
 * docs/protocol.md §15, the first start: `npm start` without APP_ID outside production
 * serves Probot's setup page, which offers the manifest built from app.yml; with
 * NODE_ENV=production a missing setting stops the process naming it. The real entry, spawned.
 */
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { claimComment } from '../e2e/e2e-helpers.js';
import { startFakeGitHub } from '../fake-github/fake-github.js';
import { freePort, waitFor } from '../helpers/app-harness.js';
import { groupsLeft, spawnGroup, stopGroup } from '../helpers/process-group.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const MAIN = join(ROOT, 'src/app/main.ts');

const started: { child: ChildProcess; dir: string }[] = [];
afterEach(async () => {
  for (const { child, dir } of started.splice(0)) {
    await stopGroup(child);
    rmSync(dir, { recursive: true, force: true });
  }
});
// Every app this file started is gone with everything it started (tsx runs it in a second
// node process, which a SIGTERM to tsx alone once left running after the suite).
afterAll(() => {
  expect(groupsLeft()).toEqual([]);
});

/** A fresh checkout: app.yml and package.json, no .env. */
function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'claim-warden-setup-'));
  copyFileSync(join(ROOT, 'app.yml'), join(dir, 'app.yml'));
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  return dir;
}

/** `npm start` in `dir` (default: a fresh checkout). */
function start(
  env: Record<string, string>,
  dir = checkout(),
): { child: ChildProcess; output: () => string; dir: string } {
  const child = spawnGroup(TSX, [MAIN], {
    cwd: dir,
    // NO_SMEE_SETUP: Probot would otherwise ask smee.io for a channel; there is no network.
    env: { PATH: process.env.PATH ?? '', HOME: dir, NO_SMEE_SETUP: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push({ child, dir });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output, dir };
}

async function setupPage(port: number, output: () => string): Promise<string> {
  await waitFor(() => output().includes('setup mode'), 'the setup server', { timeoutMs: 20_000 });
  const response = await fetch(`http://127.0.0.1:${port}/probot`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The manifest the page's "Register GitHub App" button posts to GitHub. */
function manifestOf(page: string): Record<string, unknown> {
  const value = /name="manifest" id="manifest" value='([^']*)'/.exec(page)?.[1];
  if (value === undefined) throw new Error('the page offers no manifest');
  return JSON.parse(value);
}

describe('the first start', () => {
  it('the manifest flow registers the app, writes .env, and the restarted app runs on it', async () => {
    const fake = await startFakeGitHub();
    try {
      fake.addInstallation({ id: 1, account: 'acme', repos: ['acme/widgets'] });
      fake.addUser('alice', { association: 'COLLABORATOR' });
      const port = await freePort();
      const env = {
        PORT: String(port),
        HOST: '127.0.0.1',
        GHE_HOST: fake.host,
        GHE_PROTOCOL: 'http',
      };
      const setup = start(env);
      const manifest = manifestOf(await setupPage(port, setup.output));

      // The person confirms the form on GitHub, which redirects back with a code.
      const code = fake.registerManifest(manifest);
      const back = await fetch(`http://127.0.0.1:${port}/probot/setup?code=${code}`, {
        redirect: 'manual',
      });
      expect(back.status).toBe(302);
      expect(back.headers.get('location')).toBe(`${fake.url}/apps/claim-warden/installations/new`);
      const dotenv = readFileSync(join(setup.dir, '.env'), 'utf8');
      expect(dotenv).toMatch(/^APP_ID=1$/m);
      expect(dotenv).toMatch(/^WEBHOOK_SECRET=\w+$/m);
      expect(dotenv).toMatch(/^PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----\\n/m);

      await stopGroup(setup.child);
      const app = start(env, setup.dir);
      await waitFor(() => app.output().includes('claim-warden started'), 'the app', {
        timeoutMs: 20_000,
      });
      const secret = /^WEBHOOK_SECRET=(\w+)$/m.exec(dotenv)![1]!;
      fake.setWebhookTarget({ url: `http://127.0.0.1:${port}/api/github/webhooks`, secret });
      const n = fake.createIssue('acme/widgets');
      fake.addComment('acme/widgets', n, { author: 'alice', body: claimComment('s-1') });
      await waitFor(
        () => fake.issue('acme/widgets', n).assignees.includes('alice'),
        'the claim to be enforced',
      );
    } finally {
      await fake.close();
    }
  });

  it('without APP_ID the setup page offers the manifest built from app.yml', async () => {
    const port = await freePort();
    const { output } = start({ PORT: String(port), HOST: '127.0.0.1' });

    const page = await setupPage(port, output);

    const appYml = parse(readFileSync(join(ROOT, 'app.yml'), 'utf8'));
    const manifest = manifestOf(page);
    expect(manifest).toMatchObject({
      name: appYml.name,
      default_permissions: appYml.default_permissions,
      default_events: appYml.default_events,
      public: false,
      hook_attributes: { url: `http://127.0.0.1:${port}/api/github/webhooks` },
      redirect_url: `http://127.0.0.1:${port}/probot/setup`,
    });
    expect(page).toContain('action="https://github.com/settings/apps/new"');
  });

  it('where the flow cannot complete, the page and the log say what to set by hand', async () => {
    const port = await freePort();
    const { output } = start({ PORT: String(port), HOST: '127.0.0.1' });

    const page = await setupPage(port, output);

    for (const name of ['APP_ID', 'PRIVATE_KEY', 'WEBHOOK_SECRET', 'WEBHOOK_PROXY_URL']) {
      expect(page).toContain(`<code>${name}`);
      expect(output()).toContain(name);
    }
    expect(output()).toContain('no WEBHOOK_PROXY_URL');
  });

  it('GHE_HOST and WEBHOOK_PROXY_URL reach the manifest flow', async () => {
    const port = await freePort();
    const { output } = start({
      PORT: String(port),
      HOST: '127.0.0.1',
      GHE_HOST: 'github.example.com',
      WEBHOOK_PROXY_URL: 'https://smee.io/claim-warden-test',
    });

    const page = await setupPage(port, output);

    expect(page).toContain('action="https://github.example.com/settings/apps/new"');
    expect(manifestOf(page)).toMatchObject({
      hook_attributes: { url: 'https://smee.io/claim-warden-test' },
    });
  });

  it('with NODE_ENV=production a missing APP_ID stops the process naming it', async () => {
    const { child, output } = start({ NODE_ENV: 'production', PORT: String(await freePort()) });

    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect(code).toBe(1);
    expect(output()).toMatch(/APP_ID: is required/);
    expect(output()).not.toContain('setup mode');
  });
});
