/**
 * The series the alert rules and the dashboard read (docs/operations.md), as an operator
 * scrapes them from the running app: GitHub's budget per installation, reconcile and queue
 * timings, the sweep's last success, the store, overdue deadlines, claims by kind and state,
 * the event backlog, and claims API calls by code.
 */
import { describe, expect, it } from 'vitest';
import { claimComment, HOUR, harnessFor, scrape } from '../e2e/e2e-helpers.js';
import { startReceiver } from '../events/receiver.js';
import { REPO, waitUntil } from '../helpers/app-harness.js';

/** The value of one series of the scrape, or undefined when it is not there. */
function seriesValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.concurrent('operations metrics', () => {
  it('a claim shows up in the budget, timing, store and claim gauges', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake, installationId } = harness;
    const n = fake.createIssue(REPO);
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await harness.settle();

    const text = await scrape(harness);
    const budget = `{installation="${installationId}",resource="core"}`;
    // The fake answers every request with GitHub's headers: 4999 of 5000 left, reset in an hour.
    expect(seriesValue(text, `claims_github_rate_limit_remaining${budget}`)).toBe(4999);
    expect(seriesValue(text, `claims_github_rate_limit_limit${budget}`)).toBe(5000);
    const reset = seriesValue(text, `claims_github_rate_limit_reset_timestamp_seconds${budget}`)!;
    expect(reset * 1000).toBeGreaterThan(Date.now() + HOUR / 2);
    expect(
      seriesValue(text, 'claims_github_rate_limit_remaining{installation="app",resource="core"}'),
    ).toBe(4999);

    expect(
      seriesValue(text, 'claims_reconcile_duration_seconds_count{outcome="applied"}'),
    ).toBeGreaterThan(0);
    expect(seriesValue(text, 'claims_queue_wait_seconds_count')).toBeGreaterThan(0);
    expect(seriesValue(text, 'claims_store_up')).toBe(1);
    expect(seriesValue(text, 'claims_indexed_claims{kind="agent",state="claimed"}')).toBe(1);
    expect(seriesValue(text, 'claims_deadlines_overdue')).toBe(0);
    // Without CLAIMS_EVENTS_URL nothing waits.
    expect(seriesValue(text, 'claims_events_pending')).toBe(0);
    expect(seriesValue(text, 'claims_events_oldest_age_seconds')).toBe(0);
  });

  it('the sweep records when it last finished', async ({ onTestFinished }) => {
    // The harness sweeps every second (CLAIMS_SWEEP_INTERVAL=1s).
    const harness = await harnessFor(onTestFinished);
    const before = Date.now() / 1000;
    await waitUntil(
      async () =>
        (seriesValue(await scrape(harness), 'claims_sweep_last_success_timestamp_seconds') ?? 0) >=
        Math.floor(before),
      'a sweep to finish',
    );
  });

  it('a deadline long past that no sweep reached counts as overdue', async ({ onTestFinished }) => {
    // A sweep every 10 minutes: the deadline an hour ago is far past what it needs.
    const harness = await harnessFor(onTestFinished, { env: { CLAIMS_SWEEP_INTERVAL: '10m' } });
    const { store } = harness.app.warden;
    const key = {
      installationId: harness.installationId,
      owner: 'acme',
      repo: 'widgets',
      number: 9,
    };
    await store.setDeadline(key, new Date(Date.now() - HOUR));
    await store.setDeadline({ ...key, number: 10 }, new Date(Date.now() - 60_000));
    // The one a minute past is within the sweep's reach: not overdue.
    expect(seriesValue(await scrape(harness), 'claims_deadlines_overdue')).toBe(1);
  });

  it('events a receiver refuses are counted as pending, with the oldest one’s age', async ({
    onTestFinished,
  }) => {
    const receiver = await startReceiver(() => 500);
    onTestFinished(() => receiver.close());
    const harness = await harnessFor(onTestFinished, {
      env: { CLAIMS_EVENTS_URL: receiver.url, CLAIMS_EVENTS_SECRET: 'x'.repeat(40) },
    });
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await harness.settle();
    await waitUntil(async () => receiver.received.length > 0, 'the receiver to be asked');
    await waitUntil(
      async () => (seriesValue(await scrape(harness), 'claims_events_oldest_age_seconds') ?? 0) > 0,
      'the pending event to age',
    );
    expect(seriesValue(await scrape(harness), 'claims_events_pending')).toBe(1);
  });

  it('claims API refusals are counted by surface, route, status and code', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const answer = await fetch(`${harness.appUrl}/api/claims/v1/repos/acme/widgets/issues/3/claim`);
    expect(answer.status).toBe(401);
    const { error } = (await answer.json()) as { error: { code: string } };
    const text = await scrape(harness);
    const route = '/repos/{owner}/{repo}/issues/{id}/claim';
    expect(
      seriesValue(
        text,
        `claims_api_requests_total{surface="rest",method="GET",route="${route}",status="401",code="${error.code}"}`,
      ),
    ).toBe(1);
    expect(
      seriesValue(
        text,
        `claims_api_request_duration_seconds_count{surface="rest",method="GET",route="${route}"}`,
      ),
    ).toBe(1);
  });
});
