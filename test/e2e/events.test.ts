/**
 * docs/protocol.md §4 and §5 end to end: deliveries twice, the app's own echoes, releases by the client
 * and by a person, closing, and the webhook signature. The real app on the fake of GitHub.
 */
import { describe, expect, it } from 'vitest';
import { sendWebhook } from '../fake-github/fake-github.js';
import { type Harness, REPO, WEBHOOK_SECRET } from '../helpers/app-harness.js';
import {
  appWrites,
  calls,
  claimComment,
  deliveryFor,
  harnessFor,
  IN_PROGRESS,
  markerOf,
  type OnFinished,
  redeliver,
  scrape,
} from './e2e-helpers.js';

const LABEL_PATH = `/repos/acme/widgets/labels/${encodeURIComponent(IN_PROGRESS)}`;

/** Starts the app, opens an issue and lets alice's claim be enforced; the log starts empty. */
async function claimedIssue(
  onFinished: OnFinished,
): Promise<{ harness: Harness; n: number; claimId: number }> {
  const started = await harnessFor(onFinished);
  const { fake } = started;
  const n = fake.createIssue(REPO);
  const { id } = fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
  await started.settle();
  expect(fake.issue(REPO, n)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['alice'] });
  fake.clearRequests();
  return { harness: started, n, claimId: id };
}

describe.concurrent('events end to end', () => {
  it('a delivery sent twice with the same id reconciles once', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    fake.setWebhookTarget({ capture: true });
    const n = fake.createIssue(REPO);
    const { id } = fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    fake.setWebhookTarget({ url: harness.webhookUrl, secret: WEBHOOK_SECRET });
    fake.clearRequests();
    const delivery = deliveryFor(fake, 'issue_comment.created', id);

    expect(await redeliver(harness, delivery)).toBe(200);
    await harness.settle();
    // The first run is over before the second copy arrives: coalescing cannot hide a rerun.
    expect(await redeliver(harness, delivery)).toBe(200);
    await harness.settle();

    expect(fake.count('GET', `/repos/acme/widgets/issues/${n}`)).toBe(1);
    expect(fake.count('GET', `/repos/acme/widgets/issues/${n}/comments`)).toBe(1);
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['alice'] });
    expect(await scrape(harness)).toContain(
      'claims_webhooks_total{event="issue_comment.created",result="duplicate"} 1',
    );
  });

  it('the app’s own writes coming back as webhooks make no API call', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    await harness.settle();
    fake.clearRequests();
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await harness.settle();

    const echoes = fake.deliveries.filter(
      (d) => (d.payload.sender as { login: string }).login === fake.botLogin,
    );
    expect(echoes.map((d) => `${d.event}.${d.action} ${d.status}`)).toEqual([
      'issues.labeled 200',
      'issues.assigned 200',
    ]);
    // Exactly the one reconcile of the claim; nothing after the echoes.
    expect(calls(fake.requests)).toEqual([
      `GET /repos/acme/widgets/issues/${n}`,
      `GET /repos/acme/widgets/issues/${n}/comments`,
      `GET ${LABEL_PATH}`,
      'POST /repos/acme/widgets/labels',
      `POST /repos/acme/widgets/issues/${n}/labels`,
      `POST /repos/acme/widgets/issues/${n}/assignees`,
    ]);
    expect(await scrape(harness)).toContain(
      'claims_webhooks_total{event="issues.labeled",result="ignored"} 1',
    );
  });

  it('a release by the client removes the label and unassigns', async ({ onTestFinished }) => {
    const { harness, n, claimId } = await claimedIssue(onTestFinished);
    const { fake } = harness;
    const released = claimComment('s-1', { stage: 'released', outcome: 'landed' });
    fake.editComment(claimId, released);
    await harness.settle();

    expect(fake.issue(REPO, n)).toMatchObject({ labels: [], assignees: [] });
    // The client's comment is left as written: a release is final, not rewritten.
    expect(fake.comment(claimId)?.body).toBe(released);
    expect(appWrites(fake)).toEqual([
      `DELETE /repos/acme/widgets/issues/${n}/labels/${encodeURIComponent(IN_PROGRESS)}`,
      `DELETE /repos/acme/widgets/issues/${n}/assignees`,
    ]);
  });

  it('removing the label by hand releases the holder administratively, naming who did it', async ({
    onTestFinished,
  }) => {
    const { harness, n, claimId } = await claimedIssue(onTestFinished);
    const { fake } = harness;
    fake.removeLabel(REPO, n, IN_PROGRESS, { actor: 'maria' });
    await harness.settle();

    expect(markerOf(fake, claimId)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(fake.comment(claimId)?.body).toContain(
      `- Reason: released by @maria, who removed the label ${IN_PROGRESS}`,
    );
    // The label stays off and the claim's assignee goes.
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [], assignees: [] });
    expect(appWrites(fake)).toEqual([
      `PATCH /repos/acme/widgets/issues/comments/${claimId}`,
      `DELETE /repos/acme/widgets/issues/${n}/assignees`,
    ]);
  });

  it('closing the issue as completed finalises the holder as landed', async ({
    onTestFinished,
  }) => {
    const { harness, n, claimId } = await claimedIssue(onTestFinished);
    const { fake } = harness;
    fake.closeIssue(REPO, n, { reason: 'completed', actor: 'maria' });
    await harness.settle();

    expect(markerOf(fake, claimId)).toMatchObject({ stage: 'released', outcome: 'landed' });
    expect(fake.comment(claimId)?.body).toContain('- Reason: the issue was closed as completed');
    expect(fake.issue(REPO, n)).toMatchObject({ state: 'closed', labels: [], assignees: [] });
  });

  it('a delivery of an action the app does not handle is answered and counted as unhandled', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    fake.clearRequests();
    const repository = { id: 1, name: 'widgets', full_name: REPO, owner: { login: 'acme' } };
    const sender = { login: 'alice', id: 2, type: 'User' };
    const installation = { id: 1 };
    const sent = [
      {
        event: 'pull_request',
        payload: { action: 'labeled', number: 3, repository, sender, installation },
      },
      { event: 'installation_repositories', payload: { action: 'removed', sender, installation } },
      { event: 'issues', payload: { action: 'milestoned', repository, sender, installation } },
    ];
    for (const webhook of sent) {
      expect((await sendWebhook(harness.webhookUrl, WEBHOOK_SECRET, webhook)).status).toBe(200);
    }
    await harness.settle();
    const text = await scrape(harness);
    for (const event of [
      'pull_request.labeled',
      'installation_repositories.removed',
      'issues.milestoned',
    ]) {
      expect(text).toContain(`claims_webhooks_total{event="${event}",result="unhandled"} 1`);
    }
    expect(fake.requests).toEqual([]);
  });

  it('a webhook with a bad signature is refused and changes nothing', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    fake.setWebhookTarget({ capture: true });
    const n = fake.createIssue(REPO);
    const { id } = fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    fake.setWebhookTarget({ url: harness.webhookUrl, secret: WEBHOOK_SECRET });
    fake.clearRequests();
    const delivery = deliveryFor(fake, 'issue_comment.created', id);

    const status = await redeliver(harness, delivery, 'not-the-secret');
    await harness.settle();
    expect([400, 401]).toContain(status);
    expect(fake.requests).toEqual([]);
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [], assignees: [] });
    expect(await scrape(harness)).not.toContain('claims_webhooks_total{');

    // The same delivery, signed with the secret, is taken: it was the signature alone.
    expect(await redeliver(harness, delivery)).toBe(200);
    await harness.settle();
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['alice'] });
  });
});
