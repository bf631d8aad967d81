/**
 * docs/protocol.md §13: an event goes to `CLAIMS_EVENTS_URL` and nowhere else. A receiver's
 * redirect is a failed attempt, retried like any other non-2xx answer; the signed body is
 * never sent to the `location`. The real app on the fake GitHub, real receivers on loopback.
 */
import { describe, expect, it } from 'vitest';
import type { ClaimEvent } from '../../src/events/claim-event.js';
import { claimComment, harnessFor, scrape } from '../e2e/e2e-helpers.js';
import { REPO, waitFor } from '../helpers/app-harness.js';
import { startReceiver } from './receiver.js';

const SECRET = 'redirect-events-secret-'.padEnd(40, 'x');

describe.concurrent('outgoing events follow no redirect', () => {
  it.for([301, 302, 303, 307, 308])(
    'a receiver answering %i gets the event again until it answers 2xx; the location gets nothing',
    async (redirect, { onTestFinished }) => {
      const elsewhere = await startReceiver(() => 200);
      onTestFinished(() => elsewhere.close());
      const first = await startReceiver((attempt) =>
        attempt === 1 ? { status: redirect, headers: { location: elsewhere.url } } : 200,
      );
      onTestFinished(() => first.close());
      const harness = await harnessFor(onTestFinished, {
        env: { CLAIMS_EVENTS_URL: first.url, CLAIMS_EVENTS_SECRET: SECRET },
        // The §13 schedule, shortened: no test waits for a real backoff.
        main: { events: { firstRetryMs: 20, maxRetryMs: 100 } },
      });
      const { fake } = harness;

      const n = fake.createIssue(REPO);
      fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
      await harness.settle();
      await waitFor(() => first.received.length >= 2, 'the event sent again');
      await harness.app.warden.events?.idle();

      expect(elsewhere.received).toEqual([]);
      const ids = first.received.map((r) => r.headers['x-claims-delivery']);
      expect(first.received.map((r) => r.status)).toEqual([redirect, 200]);
      expect(ids[0]).toBe(ids[1]);
      expect((JSON.parse(first.received[0]!.body) as ClaimEvent).type).toBe('claim.held');
      const metrics = await scrape(harness);
      expect(metrics).toContain('claims_event_attempts_total{result="failed"} 1');
      expect(metrics).toContain('claims_event_attempts_total{result="delivered"} 1');
    },
  );
});
