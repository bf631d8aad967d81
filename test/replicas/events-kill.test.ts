/**
 * docs/protocol.md §13 with a real kill: outgoing events go through the shared queue "so a
 * replica restart loses none". A replica process killed (SIGKILL) while its events wait for
 * a retry or are being sent leaves them on Redis; another replica sends every one, signed,
 * under the id it had.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EVENTS_QUEUE } from '../../src/events/bull-outbox.js';
import type { ClaimEvent } from '../../src/events/claim-event.js';
import { signEvent } from '../../src/events/sign-event.js';
import { type Received, type Receiver, startReceiver } from '../events/receiver.js';
import {
  type Cluster,
  claim,
  createdDeliveries,
  exitOf,
  REPO,
  type Replica,
  startCluster,
  waitFor,
  waitUntil,
} from './harness.js';

const SECRET = 'events-kill-secret-'.padEnd(40, 'x');

let cluster: Cluster | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  try {
    await cluster?.close();
  } finally {
    await receiver?.close();
    cluster = undefined;
    receiver = undefined;
  }
});

/**
 * A cluster whose replicas send events to a receiver that answers `answer`. A dead
 * replica's jobs, events included, are taken over after one to two `CLAIMS_QUEUE_LOCK`.
 */
async function clusterWithReceiver(answer: (attempt: number) => number | null) {
  receiver = await startReceiver(answer);
  cluster = await startCluster({
    env: {
      CLAIMS_EVENTS_URL: receiver.url,
      CLAIMS_EVENTS_SECRET: SECRET,
      CLAIMS_QUEUE_LOCK: '2s',
    },
  });
  return { cluster, receiver };
}

/** Spawns a child replica and waits for its start-up resync, so deliveries are all it does. */
async function spawnAndSettle(cluster: Cluster, name: string): Promise<Replica> {
  const before = cluster.fake.count('GET', `/repos/${REPO}/issues/comments`);
  const replica = await cluster.spawnReplica({ name });
  await waitFor(
    () => cluster.fake.count('GET', `/repos/${REPO}/issues/comments`) > before,
    'the start-up resync',
  );
  return replica;
}

/** Posts claims of `authors` on a new issue and sends their deliveries to `replica`. */
async function claimIssue(cluster: Cluster, replica: Replica, authors: readonly string[]) {
  const { fake } = cluster;
  const n = fake.createIssue(REPO);
  const ids = authors.map(
    (author) => fake.addComment(REPO, n, { author, body: claim(`s-${author}-${n}`) }).id,
  );
  for (const delivery of createdDeliveries(fake, ids))
    expect(await cluster.send(delivery, replica)).toBe(200);
  return { n, ids };
}

async function kill(replica: Replica): Promise<void> {
  replica.child!.kill('SIGKILL');
  await exitOf(replica);
}

function deliveryId(received: Received): string {
  return String(received.headers['x-claims-delivery']);
}

/** The ids of the events the receiver took (answered 2xx). */
function delivered(receiver: Receiver): Set<string> {
  return new Set(receiver.received.filter((r) => r.status === 200).map(deliveryId));
}

/** One event as the receiver saw it: what it is about and the status of each attempt. */
type Seen = [type: string, issue: number, comment: number | null, statuses: number[]];

/**
 * Every POST the receiver got is a signed attempt of one event under its own id, with the
 * same body each time; returns each distinct id's event and attempts, sorted.
 */
function eventsSeen(receiver: Receiver): Seen[] {
  const byId = new Map<string, { body: string; statuses: number[] }>();
  for (const { headers, body, status } of receiver.received) {
    const event = JSON.parse(body) as ClaimEvent;
    expect(headers['x-claims-signature-256']).toBe(signEvent(SECRET, body));
    expect(headers['x-claims-delivery']).toBe(event.id);
    expect(headers['x-claims-event']).toBe(event.type);
    const seen = byId.get(event.id) ?? { body, statuses: [] };
    expect(body, `every attempt of ${event.id} sends the same body`).toBe(seen.body);
    byId.set(event.id, { body, statuses: [...seen.statuses, status] });
  }
  return [...byId.values()]
    .map(({ body, statuses }): Seen => {
      const event = JSON.parse(body) as ClaimEvent;
      return [event.type, event.issue, event.claim.commentId, statuses];
    })
    .sort(bySubject);
}

function bySubject(a: Seen, b: Seen): number {
  return a[1] - b[1] || (a[2] ?? 0) - (b[2] ?? 0) || a[0].localeCompare(b[0]);
}

/** The number of outgoing events in BullMQ state `state` (a list or a sorted set). */
async function eventJobs(cluster: Cluster, state: 'active' | 'delayed'): Promise<number> {
  const key = `${cluster.prefix}:${EVENTS_QUEUE}:${state}`;
  return state === 'active' ? cluster.redis.llen(key) : cluster.redis.zcard(key);
}

describe('a replica killed with events pending', () => {
  it('loses none: another replica sends the events in flight and those waiting for a retry', async () => {
    // The first two POSTs hang (in flight when the replica dies); the rest are refused.
    const { cluster, receiver } = await clusterWithReceiver((attempt) =>
      attempt <= 2 ? null : 503,
    );
    const doomed = await spawnAndSettle(cluster, 'doomed');
    const held1 = await claimIssue(cluster, doomed, ['bob']);
    const held2 = await claimIssue(cluster, doomed, ['alice']);
    await waitFor(() => receiver.received.length === 2, 'two events in flight');
    // Alice holds, bob lost: two events, refused, wait 5 s for their first retry.
    const race = await claimIssue(cluster, doomed, ['alice', 'bob']);
    await waitFor(() => receiver.received.length === 4, 'two events refused');
    // The receiver counts a refusal when it answers; the replica moves the job to `delayed`
    // only once it has read that answer. Wait for the queue to show it, then kill.
    await waitUntil(
      async () =>
        (await eventJobs(cluster, 'active')) === 2 && (await eventJobs(cluster, 'delayed')) === 2,
      'the two refused events to wait for their retry',
    );
    const inFlight = receiver.received.filter((r) => r.status === 0).map(deliveryId);
    await kill(doomed);
    const killedAt = performance.now();

    receiver.answer = () => 200;
    const survivor = await cluster.startReplica({ name: 'survivor' });
    await waitFor(
      () => inFlight.every((id) => delivered(receiver).has(id)),
      'the events in flight',
    );
    const inFlightMs = performance.now() - killedAt;
    await waitFor(() => delivered(receiver).size === 4, 'the four pending events');
    const allMs = performance.now() - killedAt;
    await survivor.app!.warden.events!.idle();

    // Each was attempted once by the dead replica (no answer, or refused), then taken once
    // from the survivor under the same id; no other event was sent.
    const [alice, bob] = race.ids;
    const expected: Seen[] = [
      ['claim.held', held1.n, held1.ids[0]!, [0, 200]],
      ['claim.held', held2.n, held2.ids[0]!, [0, 200]],
      ['claim.held', race.n, alice!, [503, 200]],
      ['claim.lost', race.n, bob!, [503, 200]],
    ];
    expect(eventsSeen(receiver)).toEqual(expected.sort(bySubject));
    console.info(
      `[replicas] killed with 4 events pending: those in flight delivered ${(inFlightMs / 1000).toFixed(1)} s after the kill, all ${(allMs / 1000).toFixed(1)} s (CLAIMS_QUEUE_LOCK=2s, first retry 5 s)`,
    );
  });

  it('an event whose sending replicas are killed one after the other is still sent', async () => {
    const { cluster, receiver } = await clusterWithReceiver(() => null);
    const first = await spawnAndSettle(cluster, 'first');
    const held = await claimIssue(cluster, first, ['alice']);
    await waitFor(() => receiver.received.length === 1, 'the event in flight');
    await kill(first);

    // The next replica takes the event over and is killed while sending it in turn.
    const second = await cluster.spawnReplica({ name: 'second' });
    await waitFor(() => receiver.received.length === 2, 'the event taken over');
    await kill(second);
    const killedAt = performance.now();

    receiver.answer = () => 200;
    const survivor = await cluster.startReplica({ name: 'survivor' });
    await waitFor(() => delivered(receiver).size === 1, 'the event');
    const tookMs = performance.now() - killedAt;
    await survivor.app!.warden.events!.idle();

    expect(eventsSeen(receiver)).toEqual([['claim.held', held.n, held.ids[0]!, [0, 0, 200]]]);
    console.info(
      `[replicas] event in flight on two killed replicas in turn: delivered ${(tookMs / 1000).toFixed(1)} s after the second kill (CLAIMS_QUEUE_LOCK=2s)`,
    );
  });
});
