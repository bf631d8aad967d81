/**
 * The alert rules and the dashboard against the app itself: a real Prometheus (Debian's
 * package, as CI installs it) scrapes two running apps (one on Redis telling a receiver its
 * events, one embedded in observe mode) under a small workload of claims, a stale claim,
 * refused API calls and a refused event; then every dashboard panel's query must return
 * series, and every alert's expression must evaluate and name only metrics the app exports.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { claimComment, HOUR } from '../e2e/e2e-helpers.js';
import { startReceiver } from '../events/receiver.js';
import {
  freePort,
  type Harness,
  REPO,
  startHarness,
  waitFor,
  waitUntil,
} from '../helpers/app-harness.js';
import { flushPrefix, redisUrl, requireRedis, uniquePrefix } from '../helpers/redis.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const RULES = join(ROOT, 'deploy/prometheus/alerts.yml');
const DASHBOARD = join(ROOT, 'deploy/grafana/claim-warden.json');
/** The replicas suites' database; this file keeps to a prefix of its own there. */
const DB = 8;

interface Panel {
  readonly title: string;
  readonly type: string;
  readonly targets?: ReadonlyArray<{ readonly expr: string }>;
}
interface Rule {
  readonly alert: string;
  readonly expr: string;
}

/** A panel's query as Grafana sends it: its variables replaced. */
function asGrafanaSends(expr: string): string {
  return expr
    .replaceAll('$job', 'claim-warden')
    .replaceAll('$__rate_interval', '1m')
    .replaceAll('$__range', '5m');
}

/** The metric names a PromQL expression reads (not its functions, keywords or labels). */
function metricNames(expr: string): string[] {
  const withoutStrings = expr.replace(/"[^"]*"/g, '""').replace(/\{[^}]*\}/g, '{}');
  const names = withoutStrings.match(/\b(?:claims_[a-z_]+|up)\b(?!\s*\()/g) ?? [];
  return [...new Set(names)];
}

let prometheus: ChildProcess | undefined;
let promUrl = '';
const dir = mkdtempSync(join(tmpdir(), 'claim-warden-prometheus-'));
const harnesses: Harness[] = [];
const prefix = uniquePrefix('cw-prometheus');
const closers: Array<() => Promise<void>> = [];

async function query(
  expr: string,
): Promise<{ status: string; error?: string; data?: { result: unknown[] } }> {
  const url = `${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`;
  return (await (await fetch(url)).json()) as {
    status: string;
    error?: string;
    data?: { result: unknown[] };
  };
}

async function seriesOf(expr: string): Promise<number> {
  const answer = await query(expr);
  if (answer.status !== 'success') throw new Error(`${expr}: ${answer.error}`);
  return answer.data?.result.length ?? 0;
}

beforeAll(async () => {
  const redis = await requireRedis(DB);
  closers.push(async () => {
    await flushPrefix(redis, `${prefix}:`);
    await redis.quit();
  });
  // The first attempt of each event is refused, the retry taken: failed and delivered both.
  const receiver = await startReceiver((attempt) => (attempt === 1 ? 500 : 200));
  closers.push(() => receiver.close());
  const onRedis = await startHarness({
    env: {
      CLAIMS_REDIS_URL: redisUrl(DB),
      CLAIMS_REDIS_PREFIX: prefix,
      CLAIMS_EVENTS_URL: receiver.url,
      CLAIMS_EVENTS_SECRET: 's'.repeat(40),
    },
    main: { events: { firstRetryMs: 50, maxRetryMs: 100 } },
  });
  const observing = await startHarness({
    seed: (fake) => fake.setFile(REPO, '.github/claims.yml', 'mode: observe\n'),
  });
  harnesses.push(onRedis, observing);

  for (const harness of harnesses) {
    const { fake } = harness;
    const live = fake.createIssue(REPO);
    fake.addComment(REPO, live, { author: 'alice', body: claimComment('s-live') });
    const old = new Date(Date.now() - 100 * HOUR);
    const stale = fake.createIssue(REPO);
    fake.addComment(REPO, stale, {
      author: 'bob',
      body: claimComment('s-stale', { at: old }),
      createdAt: old,
    });
    // Refused: no token (the REST surface's refusals by code).
    await fetch(`${harness.appUrl}/api/claims/v1/repos/acme/widgets/issues/${live}/claim`);
    await harness.settle();
  }
  await waitFor(() => receiver.received.some((r) => r.status === 200), 'an event taken');

  const port = await freePort();
  promUrl = `http://127.0.0.1:${port}`;
  const config = {
    global: { scrape_interval: '1s', evaluation_interval: '1s' },
    rule_files: [RULES],
    scrape_configs: [
      {
        job_name: 'claim-warden',
        static_configs: [{ targets: harnesses.map((h) => new URL(h.appUrl).host) }],
      },
    ],
  };
  writeFileSync(join(dir, 'prometheus.yml'), JSON.stringify(config));
  prometheus = spawn(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  prometheus.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await waitUntil(async () => {
    if (prometheus?.exitCode !== null) throw new Error(`prometheus exited: ${stderr}`);
    const answer = await query('count_over_time(up{job="claim-warden"}[1m]) >= 5').catch(
      () => null,
    );
    return answer?.data?.result.length === 2;
  }, 'Prometheus to scrape both apps five times');
}, 180_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((done) => prometheus?.once('exit', done));
    prometheus.kill('SIGTERM');
    await exited;
  }
  for (const harness of harnesses) await harness.close();
  for (const close of closers) await close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Prometheus scraping the app', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };
  const queries = dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ title: panel.title, expr: target.expr })),
  );
  const rules = (
    parse(readFileSync(RULES, 'utf8')) as { groups: Array<{ rules: Rule[] }> }
  ).groups.flatMap((group) => group.rules);

  it('every dashboard panel’s query returns series', async () => {
    expect(queries.length).toBeGreaterThan(20);
    const empty: string[] = [];
    for (const { title, expr } of queries)
      if ((await seriesOf(asGrafanaSends(expr))) === 0) empty.push(`${title}: ${expr}`);
    expect(empty).toEqual([]);
  });

  it('every alert’s expression evaluates and names only metrics the app exports', async () => {
    expect(rules.length).toBeGreaterThanOrEqual(10);
    const missing: string[] = [];
    for (const rule of rules) {
      // Evaluates: an error (a bad function, a type mismatch) throws here.
      await seriesOf(rule.expr);
      for (const name of metricNames(rule.expr))
        if ((await seriesOf(`${name}{job="claim-warden"}`)) === 0)
          missing.push(`${rule.alert}: ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('the rules file loads into Prometheus with every alert', async () => {
    const answer = (await (await fetch(`${promUrl}/api/v1/rules`)).json()) as {
      data: { groups: Array<{ rules: Array<{ name: string; health: string }> }> };
    };
    const loaded = answer.data.groups.flatMap((g) => g.rules);
    expect(loaded.map((r) => r.name).sort()).toEqual(rules.map((r) => r.alert).sort());
    expect(loaded.filter((r) => r.health === 'err')).toEqual([]);
  });
});
