import { expect } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { ClaimEvent } from '../../src/events/claim-event.js';
import type { Receiver } from '../events/receiver.js';
import type { WebhookDelivery } from '../fake-github/fake-github.js';
import {
  type Cluster,
  claim,
  createdDeliveries,
  INSTALLATION_ID,
  REPO,
  type Replica,
  startCluster,
  waitFor,
} from './harness.js';

/*
 * The failover scenario of the Sentinel and Cluster suites: three replicas take 20 sessions
 * racing for one issue, then a stream of claims on further issues, while the test may kill
 * Redis's primary in the middle. What GitHub and the events receiver saw is counted, so a run
 * with the kill can be compared with one without.
 */

/** The 20 racing sessions' users (add them to the fake before the run). */
export const RACERS = Array.from(
  { length: 20 },
  (_, i) => `racer-${String(i + 1).padStart(2, '0')}`,
);

/** Issues claimed one after the other, by alice then bob, after the race. */
const STREAMED = 8;

/** What a run left behind, to compare with another run. */
export interface StormOutcome {
  /** Per issue of the run, the claims still held: exactly 1 each when converged. */
  readonly holders: readonly number[];
  /** Comments the app posted. */
  readonly comments: number;
  /** Claim comments the app finalised (edited), and how many edits that took. */
  readonly finalised: number;
  readonly edits: number;
  /** Labels and assignees the app added. */
  readonly labelWrites: number;
  readonly assigneeWrites: number;
  /** Distinct events the receiver took, by type. */
  readonly events: Readonly<Record<string, number>>;
  /** Webhooks answered 503 (sent again until taken, as GitHub's redelivery would). */
  readonly refused: number;
  /** Milliseconds from `act` (the kill) to the first streamed claim enforced after it. */
  readonly enforcedAgainMs: number | null;
}

/**
 * One run. `act` (the kill) runs once the race's reconcile is under way (three of its losing
 * claims finalised); the stream goes on through it.
 */
export async function claimStorm(
  cluster: Cluster,
  receiver: Receiver,
  act?: () => Promise<void>,
): Promise<StormOutcome> {
  const { fake, replicas } = cluster;
  fake.clearRequests();
  const eventsBefore = receiver.received.length;
  const refused = { count: 0 };
  const issues: number[] = [];

  const race = fake.createIssue(REPO, { title: 'Contested' });
  issues.push(race);
  const raceIds = RACERS.map(
    (racer, i) => fake.addComment(REPO, race, { author: racer, body: claim(`s-${race}-${i}`) }).id,
  );
  await Promise.all(
    createdDeliveries(fake, raceIds).map((d, i) =>
      sendUntilTaken(cluster, d, replicas[i % replicas.length]!, refused),
    ),
  );

  let actedAt: number | undefined;
  let firstAfter: number | undefined;
  const acting = act
    ? waitFor(() => lostClaims(cluster, race) >= 3, 'the race to be under way').then(async () => {
        actedAt = performance.now();
        await act();
      })
    : Promise.resolve();

  for (let i = 0; i < STREAMED; i++) {
    const n = fake.createIssue(REPO, { title: `Streamed ${i}` });
    issues.push(n);
    const ids = ['alice', 'bob'].map(
      (author) => fake.addComment(REPO, n, { author, body: claim(`s-${n}-${author}`) }).id,
    );
    const sentAt = performance.now();
    for (const [j, delivery] of createdDeliveries(fake, ids).entries()) {
      await sendUntilTaken(cluster, delivery, replicas[(i + j) % replicas.length]!, refused);
    }
    // The next claim comes once this one is enforced: the stream lasts through the kill.
    await waitFor(() => lostClaims(cluster, n) === 1, `streamed issue ${n} to be enforced`);
    if (actedAt !== undefined && sentAt >= actedAt && firstAfter === undefined) {
      firstAfter = performance.now();
    }
  }
  await acting;
  await converge(cluster);

  const received = receiver.received.slice(eventsBefore);
  const events: Record<string, number> = {};
  for (const id of new Set(received.filter((r) => r.status === 200).map((r) => r.body))) {
    const event = JSON.parse(id) as ClaimEvent;
    events[event.type] = (events[event.type] ?? 0) + 1;
  }
  const patched = fake.requests.filter(
    (r) => r.method === 'PATCH' && /\/issues\/comments\/\d+$/.test(r.path),
  );
  return {
    holders: issues.map((n) => heldClaims(cluster, n)),
    comments: fake.requests.filter(
      (r) => r.method === 'POST' && /\/issues\/\d+\/comments$/.test(r.path),
    ).length,
    finalised: new Set(patched.map((r) => r.path)).size,
    edits: patched.length,
    labelWrites: fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/labels'))
      .length,
    assigneeWrites: fake.requests.filter(
      (r) => r.method === 'POST' && r.path.endsWith('/assignees'),
    ).length,
    events,
    refused: refused.count,
    enforcedAgainMs:
      actedAt !== undefined && firstAfter !== undefined ? Math.round(firstAfter - actedAt) : null,
  };
}

/**
 * The queue drained, then one resync (as the periodic one would: it finds a request whose
 * write Redis acknowledged but lost in the failover) and the queue drained again, then the
 * events sent.
 */
async function converge(cluster: Cluster): Promise<void> {
  const local = cluster.replicas.find((r) => r.app !== undefined)?.app;
  if (!local) throw new Error('the scenario needs an in-process replica');
  await cluster.idle();
  await local.warden.resync(INSTALLATION_ID);
  await cluster.idle();
  for (const replica of cluster.replicas) await replica.app?.warden.events?.idle();
}

/** Sends a delivery until a replica takes it (2xx); 503s are counted. */
async function sendUntilTaken(
  cluster: Cluster,
  delivery: WebhookDelivery,
  replica: Replica,
  refused: { count: number },
): Promise<void> {
  for (;;) {
    const status = await cluster.send(delivery, replica, 15_000).catch(() => 0);
    if (status >= 200 && status < 300) return;
    if (status !== 0 && status !== 503)
      throw new Error(`webhook answered ${status}, not 2xx or 503`);
    refused.count++;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function claimMarkers(cluster: Cluster, n: number) {
  return cluster.fake
    .comments(REPO, n)
    .map((c) => parseClaimMarker(c.body))
    .filter((m) => m !== null);
}

function heldClaims(cluster: Cluster, n: number): number {
  return claimMarkers(cluster, n).filter((m) => m.stage === 'claimed').length;
}

function lostClaims(cluster: Cluster, n: number): number {
  return claimMarkers(cluster, n).filter((m) => m.stage === 'released').length;
}

/**
 * Three replicas on the Redis `redisEnv` names, sending events to `receiver`, with the
 * racing sessions' users added; paced, so the race's reconcile is still writing when the
 * primary dies.
 */
export function failoverReplicas(
  redisEnv: Record<string, string>,
  receiver: Receiver,
  secret: string,
): Promise<Cluster> {
  return startCluster({
    replicas: 3,
    redisEnv,
    env: {
      CLAIMS_EVENTS_URL: receiver.url,
      CLAIMS_EVENTS_SECRET: secret,
      // A lease longer than the failover (a run renews through it), as by default.
      CLAIMS_QUEUE_LOCK: '10s',
      CLAIMS_WRITE_PACING_MS: '100',
    },
    seed: (fake) => {
      for (const racer of RACERS) fake.addUser(racer, { association: 'COLLABORATOR' });
    },
  });
}

/** The run with the kill ended as the one without: one holder per issue, the same writes. */
export function expectSameAsCalm(label: string, calm: StormOutcome, stormy: StormOutcome): void {
  expect(calm.holders.every((held) => held === 1)).toBe(true);
  expect(stormy.holders.every((held) => held === 1)).toBe(true);
  expect(comparable(stormy)).toEqual(comparable(calm));
  expect(stormy.enforcedAgainMs).not.toBeNull();
  console.info(
    `[${label}] failover: ${stormy.refused} webhooks answered 503 meanwhile; first claim enforced ${stormy.enforcedAgainMs} ms after the kill; ${JSON.stringify(comparable(stormy))}`,
  );
}

/** What a run with a failover must match of a run without: everything but the 503s. */
function comparable(outcome: StormOutcome) {
  const { refused: _refused, enforcedAgainMs: _ms, ...rest } = outcome;
  return rest;
}
