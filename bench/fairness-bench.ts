import { freePort, STACK_SECRET, stackEnv } from '../sandbox/stack.js';
import { main, type RunningApp } from '../src/app/main.js';
import { renderClaimComment } from '../src/claims/comment.js';
import {
  type FakeGitHub,
  sendWebhook,
  startFakeGitHub,
  type WebhookDelivery,
} from '../test/fake-github/fake-github.js';
import { flushPrefix, redisUrl, requireRedis, uniquePrefix } from '../test/helpers/redis.js';
import { fmt, type Section } from './section.js';

/** Installation A's backlog: the burst that once kept every other installation waiting. */
const BACKLOG = 2000;
const LABEL = 'status:in-progress';
const A_REPO = 'acme/widgets';
const B_REPO = 'globex/gadgets';
/** The bench's Redis database (the test suites use 5, 6 and 8). */
const DB = 9;
const WEBHOOK_PATH = '/api/github/webhooks';

interface Run {
  readonly variant: string;
  /** From B's delivery to B's issue labelled and assigned. */
  readonly seconds: number;
  /** A's issues labelled by then. */
  readonly backlogDone: number;
}

function claimBody(session: string, at: Date): string {
  return renderClaimComment({
    session,
    lane: 'main',
    branch: 'fix/it',
    started: at,
    updated: at,
    stage: 'claimed',
    assignee: 'claim',
  });
}

/** The `issue_comment.created` deliveries the fake captured, in order. */
function commentDeliveries(fake: FakeGitHub): WebhookDelivery[] {
  return fake.deliveries.filter((d) => d.event === 'issue_comment' && d.action === 'created');
}

/**
 * A has BACKLOG claims delivered at once, then B one; seconds from B's delivery until B's
 * issue is labelled and assigned. Replicas get deliveries in turn, as a load balancer deals them.
 */
async function fairness(variant: string, replicas: number, redis?: string): Promise<Run> {
  const fake = await startFakeGitHub({ log: () => {} });
  const apps: RunningApp[] = [];
  const ports: number[] = [];
  try {
    fake.addInstallation({ id: 101, account: 'acme', repos: [A_REPO] });
    fake.addInstallation({ id: 102, account: 'globex', repos: [B_REPO] });
    fake.addUser('alice', { association: 'COLLABORATOR' });
    fake.addUser('carol', { association: 'MEMBER' });
    for (const repo of [A_REPO, B_REPO]) fake.createLabel(repo, { name: LABEL });
    fake.setWebhookTarget({ capture: true });
    const at = new Date();
    for (let i = 0; i < BACKLOG; i++) {
      const n = fake.createIssue(A_REPO);
      fake.addComment(A_REPO, n, { author: 'alice', body: claimBody(`a-${i}`, at) });
    }
    const b = fake.createIssue(B_REPO);
    fake.addComment(B_REPO, b, { author: 'carol', body: claimBody('b', at) });
    const deliveries = commentDeliveries(fake);
    const other = deliveries.pop()!;

    const prefix = uniquePrefix('cw-bench-fair');
    const env: Record<string, string> = redis
      ? { CLAIMS_REDIS_URL: redis, CLAIMS_REDIS_PREFIX: prefix }
      : {};
    for (let i = 0; i < replicas; i++) {
      const port = await freePort();
      const app = await main(stackEnv(fake, port, { CLAIMS_SWEEP_INTERVAL: '24h', ...env }));
      await app.warden.started;
      apps.push(app);
      ports.push(port);
    }
    const send = (delivery: WebhookDelivery, i: number) =>
      sendWebhook(`http://127.0.0.1:${ports[i % ports.length]}${WEBHOOK_PATH}`, STACK_SECRET, {
        event: delivery.event,
        id: delivery.id,
        body: delivery.body,
      });
    for (let i = 0; i < deliveries.length; i += 50) {
      await Promise.all(deliveries.slice(i, i + 50).map((d, j) => send(d, i + j)));
    }

    const started = performance.now();
    await send(other, 0);
    const served = () => {
      const issue = fake.issue(B_REPO, b);
      return issue.labels.includes(LABEL) && issue.assignees.includes('carol');
    };
    while (!served()) {
      if (performance.now() - started > 600_000) throw new Error('fairness: over 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    let backlogDone = 0;
    for (let n = 1; n <= BACKLOG; n++) {
      if (fake.issue(A_REPO, n).labels.includes(LABEL)) backlogDone++;
    }
    if (redis) {
      const client = await requireRedis(DB);
      await flushPrefix(client, `${prefix}:`);
      await client.quit();
    }
    return { variant, seconds, backlogDone };
  } finally {
    await Promise.allSettled(apps.map((app) => app.stop()));
    await fake.close();
  }
}

/**
 * Fairness across installations (docs/protocol.md §6): installation A has 2,000 claims
 * queued; the time until one claim in installation B is labelled and assigned.
 */
export async function benchFairness(): Promise<Section> {
  const runs = [
    await fairness('embedded (one replica)', 1),
    await fairness('three replicas on Redis', 3, redisUrl(DB)),
  ];
  return {
    id: 'fairness',
    title: `Fairness: installation A has ${fmt(BACKLOG)} claims queued, then B posts one`,
    notes: [
      'Seconds from B’s delivery until B’s issue is labelled and assigned; A’s issues done by then.',
      'Queue concurrency 8 per replica (the default); one installation holds at most 4 at once.',
    ],
    columns: ['variant', 'seconds to B', `A's done by then`],
    rows: runs.map((run) => [run.variant, fmt(run.seconds, 2), fmt(run.backlogDone)]),
    data: { runs },
  };
}
