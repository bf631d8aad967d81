import { renderClaimComment } from '../../src/claims/comment.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { ClaimMarker } from '../../src/claims/types.js';
import type { FakeGitHub, RecordedRequest } from '../fake-github/fake-github.js';
import { sendWebhook, type WebhookDelivery } from '../fake-github/fake-github.js';
import { type Harness, startHarness, WEBHOOK_SECRET } from '../helpers/app-harness.js';

export const HOUR = 3_600_000;

/** Registers clean-up for the current test (vitest's `onTestFinished` from the test context). */
export type OnFinished = (fn: () => Promise<void>) => void;

/**
 * Starts a harness closed when the test finishes, so tests can run at once
 * (`describe.concurrent`), each with its own fake, app and installation.
 */
export async function harnessFor(
  onFinished: OnFinished,
  options: Parameters<typeof startHarness>[0] = {},
): Promise<Harness> {
  const harness = await startHarness(options);
  onFinished(() => harness.close());
  return harness;
}
export const IN_PROGRESS = 'status:in-progress';

/**
 * A whole claim comment as a Praetor client posts it: marker line plus human text. Defaults:
 * stage `claimed`, `assignee=claim`, started and updated `at` (default now).
 */
export function claimComment(
  session: string,
  options: Partial<Pick<ClaimMarker, 'stage' | 'outcome' | 'assignee'>> & { at?: Date } = {},
): string {
  const at = options.at ?? new Date();
  return renderClaimComment({
    session,
    lane: 'lane-1',
    branch: `feat/${session}`,
    started: at,
    updated: at,
    stage: options.stage ?? 'claimed',
    assignee: options.assignee ?? 'claim',
    ...(options.outcome ? { outcome: options.outcome } : {}),
  });
}

/** The parsed marker of a comment in the fake, or null when it has none (or is gone). */
export function markerOf(fake: FakeGitHub, commentId: number): ClaimMarker | null {
  return parseClaimMarker(fake.comment(commentId)?.body ?? '');
}

/** `METHOD path` of each request, for exact assertions on what the app called. */
export function calls(requests: readonly RecordedRequest[]): string[] {
  return requests.map((r) => `${r.method} ${r.path}`);
}

/** The writes the app made (token minting is auth, not a change to GitHub). */
export function appWrites(fake: FakeGitHub): string[] {
  return calls(fake.writes().filter((r) => !r.path.startsWith('/app/')));
}

/** The captured delivery of `event.action` for comment `commentId`. */
export function deliveryFor(
  fake: FakeGitHub,
  eventAction: string,
  commentId: number,
): WebhookDelivery {
  const found = fake.deliveries.find(
    (d) =>
      `${d.event}.${d.action}` === eventAction &&
      (d.payload.comment as { id?: number } | undefined)?.id === commentId,
  );
  if (!found) throw new Error(`no ${eventAction} delivery for comment ${commentId}`);
  return found;
}

/** Sends a captured delivery to the app, signed as GitHub would (or with `secret`). */
export async function redeliver(
  harness: Harness,
  delivery: WebhookDelivery,
  secret = WEBHOOK_SECRET,
): Promise<number> {
  const answer = await sendWebhook(harness.webhookUrl, secret, {
    event: delivery.event,
    id: delivery.id,
    body: delivery.body,
  });
  return answer.status;
}

/** The app's Prometheus text. */
export async function scrape(harness: Harness): Promise<string> {
  const response = await fetch(`${harness.appUrl}/metrics`);
  return response.text();
}
