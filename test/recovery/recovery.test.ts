/**
 * docs/protocol.md §12 end to end: what GitHub failed to deliver while the app was down is
 * redelivered when it is back, exactly that, and once per cluster. The real app (embedded,
 * and three replicas on Redis) on the fake GitHub, which records every delivery attempt.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { claimComment, harnessFor, IN_PROGRESS, scrape } from '../e2e/e2e-helpers.js';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { freePort, REPO, WEBHOOK_SECRET, waitFor } from '../helpers/app-harness.js';
import { type Cluster, startCluster } from '../replicas/harness.js';

/**
 * The guids of the subscribed deliveries the fake failed to deliver, oldest first: comments,
 * and issues events (the work queue's index follows issues.opened, docs/protocol.md §9).
 */
function failedGuids(fake: FakeGitHub): string[] {
  return fake.hookAttempts
    .filter((a) => a.statusCode === 0 && (a.event === 'issue_comment' || a.event === 'issues'))
    .map((a) => a.guid);
}

/** The guids GitHub was asked to redeliver, in the order it redelivered them. */
function redeliveredGuids(fake: FakeGitHub): string[] {
  return fake.hookAttempts.filter((a) => a.redelivery).map((a) => a.guid);
}

describe('delivery recovery (docs/protocol.md §12)', () => {
  it('an app back from down redelivers exactly what failed: the deleted holder is freed, the new claim holds', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, { fake: { log: () => {} } });
    const { fake } = harness;
    const held = fake.createIssue(REPO);
    const holder = fake.addComment(REPO, held, { author: 'alice', body: claimComment('s-1') });
    await harness.settle();
    expect(fake.issue(REPO, held)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['alice'] });
    const deliveredBefore = fake.hookAttempts.map((a) => a.guid);
    expect(fake.hookAttempts.every((a) => a.statusCode === 200)).toBe(true);

    // The app is down; GitHub still tries to deliver, and records each failure.
    await harness.stopApp();
    fake.setWebhookTarget({ url: harness.webhookUrl, secret: WEBHOOK_SECRET });
    fake.deleteComment(holder.id);
    const fresh = fake.createIssue(REPO);
    fake.addComment(REPO, fresh, { author: 'bob', body: claimComment('s-2') });
    await fake.settled();
    const failed = failedGuids(fake);
    // The deleted comment, the new claim, and issues.opened (for the work queue's index).
    expect(failed).toHaveLength(3);
    expect(fake.hookAttempts.filter((a) => a.statusCode === 0)).toHaveLength(3);

    await harness.startApp();
    await waitFor(() => redeliveredGuids(fake).length === 3, 'three redeliveries');
    await harness.settle();

    expect(redeliveredGuids(fake)).toEqual(failed);
    expect(fake.hookAttempts.filter((a) => a.redelivery).map((a) => a.statusCode)).toEqual([
      200, 200, 200,
    ]);
    expect(redeliveredGuids(fake).filter((guid) => deliveredBefore.includes(guid))).toEqual([]);
    expect(fake.count('POST', /^\/app\/hook\/deliveries\/\d+\/attempts$/)).toBe(3);
    // The resync cannot see a deleted comment: only the redelivery frees the issue.
    expect(fake.issue(REPO, held)).toMatchObject({ labels: [], assignees: [] });
    expect(fake.issue(REPO, fresh)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['bob'] });
    const metrics = await scrape(harness);
    expect(metrics).toContain('claims_redeliveries_total{result="found"} 3');
    expect(metrics).toContain('claims_redeliveries_total{result="redelivered"} 3');
    expect(metrics).toContain('claims_redeliveries_total{result="failed"} 0');
  });
});

describe('delivery recovery across replicas', () => {
  let cluster: Cluster | undefined;
  let balancer: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (balancer ? balancer.close(resolve) : resolve(undefined)));
    await cluster?.close();
  });

  it('of three replicas starting together, one redelivers, each failed delivery once', async () => {
    cluster = await startCluster({ replicas: 0 });
    const { fake } = cluster;
    const started = cluster;
    // GitHub delivers to one URL: a balancer in front of whichever replica is up.
    const port = await freePort();
    balancer = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        const deadline = Date.now() + 10_000;
        while (started.replicas.length === 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const target = started.replicas[0];
        if (!target) return res.writeHead(503).end();
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => k.startsWith('x-') || k === 'content-type'),
        ) as Record<string, string>;
        const answer = await fetch(target.webhookUrl, {
          method: 'POST',
          headers,
          body: Buffer.concat(chunks),
        });
        res.writeHead(answer.status).end(await answer.text());
      });
    });
    await new Promise<void>((resolve) => balancer?.listen(port, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${port}/api/github/webhooks`;

    // Nobody up: the claim's delivery fails (the balancer has no replica to send it to
    // until the first starts, so it is pointed at a closed port meanwhile).
    fake.setWebhookTarget({ url: `http://127.0.0.1:${await freePort()}/`, secret: WEBHOOK_SECRET });
    const n = fake.createIssue(REPO);
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await fake.settled();
    const failed = failedGuids(fake);
    // The claim and issues.opened (for the work queue's index).
    expect(failed).toHaveLength(2);
    fake.setWebhookTarget({ url, secret: WEBHOOK_SECRET });

    await Promise.all([started.startReplica(), started.startReplica(), started.startReplica()]);
    await waitFor(() => redeliveredGuids(fake).length === 2, 'the redeliveries');
    await waitFor(() => fake.issue(REPO, n).assignees.includes('alice'), 'alice assigned');
    // Asked again at once, every replica finds the interval's lease taken.
    const again = await Promise.all(started.replicas.map((r) => r.app?.warden.recoverDeliveries()));
    expect(again).toEqual([null, null, null]);
    await fake.settled();

    expect(redeliveredGuids(fake)).toEqual(failed);
    expect(fake.count('POST', /^\/app\/hook\/deliveries\/\d+\/attempts$/)).toBe(2);
    const redelivered = await Promise.all(
      started.replicas.map(
        async (r) =>
          (await r.app?.warden.metrics.redeliveries.get())?.values.find(
            (v) => v.labels.result === 'redelivered',
          )?.value ?? 0,
      ),
    );
    expect(redelivered.sort()).toEqual([0, 0, 2]);
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['alice'] });
  });
});
