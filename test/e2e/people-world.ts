/**
 * Where the people's-claims scenarios (docs/protocol.md §16) run: one replica with its
 * webhooks delivered as GitHub sends them, or three replicas on Redis with each delivery sent
 * to the next replica in turn. Both share one clock between the fake GitHub and the app
 * (`now`), which a scenario moves on by days instead of waiting.
 */
import { randomUUID } from 'node:crypto';
import { type FakeGitHub, sendWebhook, type WebhookDelivery } from '../fake-github/fake-github.js';
import { REPO, WEBHOOK_SECRET, waitUntil } from '../helpers/app-harness.js';
import { startCluster } from '../replicas/harness.js';
import { harnessFor, type OnFinished } from './e2e-helpers.js';

export const DAY = 24 * 3_600_000;

/** What a scenario drives: GitHub's side, time, the sweep, and the app's HTTP. */
export interface PeopleWorld {
  readonly fake: FakeGitHub;
  /** The claims API's root of one replica: `http://…/api/claims/v1` is under it. */
  readonly appUrl: string;
  /** Moves the shared clock on. */
  advance(ms: number): void;
  /** Every webhook delivered and answered, and the queue idle. */
  settle(): Promise<void>;
  /** One sweep (docs/protocol.md §4), then settle. */
  sweep(): Promise<void>;
  /** Sends a delivery again under a new delivery id (a second event for the same change). */
  resend(delivery: WebhookDelivery): Promise<void>;
}

/** How a world is made, for `describe.each`. */
export type WorldMaker = (onFinished: OnFinished, config: string) => Promise<PeopleWorld>;

/** A clock starting now, moved by hand. */
function sharedClock() {
  let at = Date.now();
  return {
    now: () => new Date(at),
    advance: (ms: number) => {
      at += ms;
    },
  };
}

/**
 * One sweep that runs: a sweep takes a lease for most of its interval (one replica sweeps per
 * interval), so one asked for too soon after the last is refused; it is asked again until the
 * lease is free. The interval is a second, the clock the sweep reads the shared one.
 */
async function sweepOnce(sweep: () => Promise<{ ran: boolean }>): Promise<void> {
  await waitUntil(async () => (await sweep()).ran, 'a sweep that runs');
}

/** The repository config and the people seeded in every world (besides the harness's). */
function seed(fake: FakeGitHub, config: string): void {
  fake.setFile(REPO, '.github/claims.yml', config);
  fake.addUser('carol', { association: 'COLLABORATOR' });
  fake.setRole(REPO, 'carol', 'triage');
  fake.setRole(REPO, 'maria', 'maintain');
  fake.addUser('helper[bot]', { type: 'Bot' });
}

/** One replica, embedded store, webhooks delivered as they happen. */
export const oneReplica: WorldMaker = async (onFinished, config) => {
  const clock = sharedClock();
  const harness = await harnessFor(onFinished, {
    fake: { clock: clock.now },
    main: { now: clock.now },
    env: { CLAIMS_SWEEP_INTERVAL: '1s' },
    seed: (fake) => seed(fake, config),
  });
  return {
    fake: harness.fake,
    appUrl: harness.appUrl,
    advance: clock.advance,
    settle: () => harness.settle(),
    async sweep() {
      await sweepOnce(() => harness.app.warden.sweep());
      await harness.settle();
    },
    async resend(delivery) {
      await sendWebhook(harness.webhookUrl, WEBHOOK_SECRET, {
        event: delivery.event,
        id: randomUUID(),
        body: delivery.body,
      });
      await harness.settle();
    },
  };
};

/** Three replicas on Redis; each new delivery goes to the next replica in turn. */
export const threeReplicas: WorldMaker = async (onFinished, config) => {
  const clock = sharedClock();
  const cluster = await startCluster({
    replicas: 3,
    label: false,
    env: { CLAIMS_SWEEP_INTERVAL: '1s' },
    main: { now: clock.now },
    seed: (fake) => {
      fake.clock = clock.now;
      fake.addUser('maria', { association: 'MEMBER' });
      fake.addUser('mallory', { association: 'NONE' });
      seed(fake, config);
    },
  });
  onFinished(() => cluster.close());
  const { fake, replicas } = cluster;
  let sent = fake.deliveries.length;
  let turn = 0;
  const next = () => replicas[turn++ % replicas.length]!;
  const settle = async () => {
    // Deliveries made while delivering (the app's echoes, which it drops) are sent too.
    for (let round = 0; round < 20; round++) {
      await cluster.idle();
      const fresh = fake.deliveries.slice(sent);
      if (fresh.length === 0) return;
      sent = fake.deliveries.length;
      for (const delivery of fresh) await cluster.send(delivery, next());
    }
  };
  return {
    fake,
    appUrl: replicas[0]!.url,
    advance: clock.advance,
    settle,
    async sweep() {
      const replica = next();
      await sweepOnce(() => replica.app!.warden.sweep());
      await settle();
    },
    async resend(delivery) {
      await cluster.send({ ...delivery, id: randomUUID() }, next());
      await settle();
    },
  };
};
