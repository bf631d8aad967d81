/**
 * docs/protocol.md §13, the embedded sender's bounds: a receiver that takes connections and
 * never answers gets at most `CLAIMS_EVENTS_CONCURRENCY` of them; past
 * `CLAIMS_EVENTS_MAX_PENDING` events are dropped, each logged with its id and type and counted
 * in `claims_events_dropped_total`; the app keeps answering meanwhile. The real app on the
 * fake GitHub, a real receiver on loopback.
 */
import { describe, expect, it } from 'vitest';
import type { ClaimEvent } from '../../src/events/claim-event.js';
import { claimComment, harnessFor, scrape } from '../e2e/e2e-helpers.js';
import { REPO, waitFor } from '../helpers/app-harness.js';
import { startReceiver } from './receiver.js';

const SECRET = 'bounded-events-secret-'.padEnd(40, 'x');

/** Installations besides the harness's own, each with one repository: their writes are paced
 * apart from each other (src/github/octokit.ts), so eight claims take seconds, not eight. */
const OTHER_REPOS = Array.from({ length: 7 }, (_, i) => `org${i + 1}/widgets`);

interface LogLine {
  readonly msg: string;
  readonly event?: string;
  readonly type?: string;
  readonly reason?: string;
}

describe('the embedded event sender is bounded', () => {
  it('a receiver that never answers holds at most CLAIMS_EVENTS_CONCURRENCY connections; events past CLAIMS_EVENTS_MAX_PENDING are dropped, logged and counted; /health answers', async ({
    onTestFinished,
  }) => {
    const silent = await startReceiver(() => null);
    onTestFinished(() => silent.close());
    const harness = await harnessFor(onTestFinished, {
      env: {
        CLAIMS_EVENTS_URL: silent.url,
        CLAIMS_EVENTS_SECRET: SECRET,
        CLAIMS_EVENTS_CONCURRENCY: '2',
        CLAIMS_EVENTS_MAX_PENDING: '4',
        LOG_LEVEL: 'warn',
      },
      captureLogs: true,
      seed: (fake) => {
        OTHER_REPOS.forEach((repo, i) => {
          fake.addInstallation({ id: 9001 + i, account: repo.split('/')[0]!, repos: [repo] });
        });
      },
    });
    const { fake } = harness;

    // Eight claims, eight claim.held events: two sent (and never answered), two waiting,
    // four past the cap.
    for (const repo of [REPO, ...OTHER_REPOS]) {
      const n = fake.createIssue(repo);
      fake.addComment(repo, n, { author: 'alice', body: claimComment(`s-${repo}`) });
    }
    // Every reconcile has published its event once the queue is idle.
    await harness.settle();
    await waitFor(() => silent.received.length >= 2, 'two events sent');
    const logs = () => harness.logLines.map((line) => JSON.parse(line) as LogLine);
    const dropped = () => logs().filter((l) => l.reason === 'full');

    expect(silent.connections.peak).toBe(2);
    expect(silent.received).toHaveLength(2);
    expect(dropped()).toHaveLength(4);
    const sent = new Set(silent.received.map((r) => (JSON.parse(r.body) as ClaimEvent).id));
    for (const line of dropped()) {
      expect(line.type).toBe('claim.held');
      expect(line.event).toMatch(/^[0-9a-f]{8}-/);
      expect(sent.has(line.event!)).toBe(false);
    }
    expect(new Set(dropped().map((l) => l.event)).size).toBe(4);
    expect(await scrape(harness)).toContain('claims_events_dropped_total{reason="full"} 4');
    const health = await fetch(`${harness.appUrl}/health`);
    expect(health.status).toBe(200);
  });

  it('an event its receiver refuses for its whole retry window is given up, logged with its id and type, and counted', async ({
    onTestFinished,
  }) => {
    const refusing = await startReceiver(() => 503);
    onTestFinished(() => refusing.close());
    const harness = await harnessFor(onTestFinished, {
      env: { CLAIMS_EVENTS_URL: refusing.url, CLAIMS_EVENTS_SECRET: SECRET, LOG_LEVEL: 'warn' },
      captureLogs: true,
      // §13's 24 hours and its backoff, shortened: no test waits for them.
      main: { events: { firstRetryMs: 10, maxRetryMs: 20, windowMs: 2_000 } },
    });
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await harness.settle();
    await harness.app.warden.events?.idle();

    const given = harness.logLines
      .map((line) => JSON.parse(line) as LogLine)
      .filter((l) => l.reason === 'expired');
    const sent = JSON.parse(refusing.received[0]!.body) as ClaimEvent;
    expect(given).toEqual([expect.objectContaining({ event: sent.id, type: 'claim.held' })]);
    expect(refusing.received.length).toBeGreaterThan(1);
    const metrics = await scrape(harness);
    expect(metrics).toContain('claims_events_dropped_total{reason="expired"} 1');
    expect(metrics).toContain(
      `claims_event_attempts_total{result="failed"} ${refusing.received.length}`,
    );
  });
});
