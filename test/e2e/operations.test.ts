/**
 * What an operator meets: `/health` and `/metrics`, the webhook path's neighbours, and start-up
 * refusing bad settings (docs/protocol.md §6, §7). The app as `npm start` runs it.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort, PRIVATE_KEY, REPO, WEBHOOK_SECRET } from '../helpers/app-harness.js';
import { harnessFor, type OnFinished, scrape } from './e2e-helpers.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

/** A fresh directory of its own, removed when the test finishes. */
function tempDir(onFinished: OnFinished): string {
  const dir = mkdtempSync(join(tmpdir(), 'claim-warden-e2e-'));
  onFinished(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs a command to its end with exactly `env` (plus PATH), collecting its output. */
function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A start-up that should have failed but serves instead must not hang the suite.
    // Wide: tsx compiles the app as it starts, which takes seconds on a busy machine.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe.concurrent('operating the app', () => {
  it('GET /health answers 200 and GET /metrics shows webhooks and GitHub requests', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    fake.addComment(REPO, n, { author: 'alice', body: 'No marker here, just a remark.' });
    await harness.settle();

    const health = await fetch(`${harness.appUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });

    const metrics = await fetch(`${harness.appUrl}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain(
      'claims_webhooks_total{event="issue_comment.created",result="ignored"} 1',
    );
    expect(text).toMatch(
      /^claims_github_requests_total\{method="GET",route="\/app",status="200"\} 1$/m,
    );
  });

  it('GitHub request metrics are labelled by route template, not by URL', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    // The start-up resync paginated: listing repositories and reading comments since a time.
    const routes = [...(await scrape(harness)).matchAll(/^claims_github_requests_total\{(.*)\}/gm)]
      .map((m) => /route="([^"]*)"/.exec(m[1]!)?.[1] ?? '')
      .sort();
    // A URL with its host, ids and query as a label value makes a new series per issue and
    // per resync, without bound (Prometheus: label values must have bounded cardinality).
    expect(routes.filter((route) => !/^\/[^?:]*$/.test(route))).toEqual([]);
    expect(routes).toContain('/repos/{owner}/{repo}/issues/comments');
  });

  it('a bad operator setting stops start-up naming the variable', async ({ onTestFinished }) => {
    const result = await run(TSX, [join(ROOT, 'src/app/main.ts')], {
      cwd: tempDir(onTestFinished),
      env: {
        APP_ID: '1',
        PRIVATE_KEY,
        WEBHOOK_SECRET,
        PORT: String(await freePort()),
        CLAIMS_STALE_AFTER: '5m',
      },
    });
    expect(result.code).toBe(1);
    // The one bad variable is named, with what it should hold (docs/protocol.md §3: 10m .. 720h).
    expect([...result.stderr.matchAll(/^\s+([A-Z_]+):/gm)].map((m) => m[1])).toEqual([
      'CLAIMS_STALE_AFTER',
    ]);
    // docs/protocol.md §6: secrets never appear in errors.
    expect(result.stderr + result.stdout).not.toContain(WEBHOOK_SECRET);
    expect(result.stderr + result.stdout).not.toContain('PRIVATE KEY');
  });

  // Outside production the same start serves the setup page instead (test/app/setup.test.ts).
  it('npm start in production with no settings at all fails naming APP_ID', async ({
    onTestFinished,
  }) => {
    // A checkout of its own without .env: package.json and src as they are, node_modules shared.
    const checkout = tempDir(onTestFinished);
    writeFileSync(join(checkout, 'package.json'), readFileSync(join(ROOT, 'package.json')));
    cpSync(join(ROOT, 'src'), join(checkout, 'src'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');

    const result = await run('npm', ['start'], {
      cwd: checkout,
      env: { HOME: checkout, npm_config_update_notifier: 'false', NODE_ENV: 'production' },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('APP_ID');
  });
});
