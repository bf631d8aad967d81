/**
 * Issue 3's end-to-end list: the real app, started through `npm start`'s code path, on the HTTP
 * fake of GitHub. Each test starts its own fake and app.
 */
import { describe, expect, it } from 'vitest';
import { type Harness, REPO, WEBHOOK_SECRET, waitFor, waitUntil } from '../helpers/app-harness.js';
import {
  appWrites,
  claimComment,
  deliveryFor,
  HOUR,
  harnessFor,
  IN_PROGRESS,
  markerOf,
  redeliver,
} from './e2e-helpers.js';

describe.concurrent('end to end on one replica', () => {
  it('a collaborator’s claim gets the label and the assignee', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const n = fake.createIssue(REPO, { title: 'Fix the widget' });
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await harness.settle();
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
    // docs/protocol.md §4 row 1: created on the repository when missing, with the app's colour.
    expect(fake.labels(REPO)).toContainEqual(
      expect.objectContaining({ name: IN_PROGRESS, color: '1d76db' }),
    );
  });

  it('two claims delivered in reverse order leave the older as holder and the newer finalised', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    fake.setWebhookTarget({ capture: true });
    const n = fake.createIssue(REPO);
    const older = fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-old') });
    const newer = fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-new') });
    fake.setWebhookTarget({ url: harness.webhookUrl, secret: WEBHOOK_SECRET });

    // The newer claim's event arrives, and is handled, before the older one's.
    expect(await redeliver(harness, deliveryFor(fake, 'issue_comment.created', newer.id))).toBe(
      200,
    );
    await harness.settle();
    expect(await redeliver(harness, deliveryFor(fake, 'issue_comment.created', older.id))).toBe(
      200,
    );
    await harness.settle();

    expect(markerOf(fake, older.id)).toMatchObject({ session: 's-old', stage: 'claimed' });
    expect(markerOf(fake, newer.id)).toMatchObject({
      session: 's-new',
      stage: 'released',
      outcome: 'abandoned',
    });
    expect(fake.comment(newer.id)?.body).toContain(
      `lost to the older claim in comment ${older.id} (session s-old)`,
    );
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
    // The second reconcile found everything true and wrote nothing (docs/protocol.md §5).
    expect(appWrites(fake)).toEqual([
      `PATCH /repos/acme/widgets/issues/comments/${newer.id}`,
      'POST /repos/acme/widgets/labels',
      `POST /repos/acme/widgets/issues/${n}/labels`,
      `POST /repos/acme/widgets/issues/${n}/assignees`,
    ]);
  });

  it('a backdated claim is finalised by the sweep alone and the note posted', async ({
    onTestFinished,
  }) => {
    // The label exists already: one write fewer before the claim turns stale.
    const harness = await harnessFor(onTestFinished, {
      seed: (f) => f.createLabel(REPO, { name: IN_PROGRESS }),
    });
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    // Live when posted: its heartbeat is 8 s short of the default 6 h window.
    const at = new Date(Date.now() - 6 * HOUR + 8_000);
    const posted = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-late', { at }),
      createdAt: at,
      updatedAt: at,
    });
    await harness.settle();
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
    expect(markerOf(fake, posted.id)?.stage).toBe('claimed');
    const eventsBefore = fake.deliveries.filter((d) => senderOf(d) !== fake.botLogin).length;

    const staleAt = Date.parse(posted.updated_at) + 6 * HOUR;
    await waitFor(() => markerOf(fake, posted.id)?.stage === 'released', 'the stale finalisation');
    await harness.settle();

    const finalise = fake.requests.find(
      (r) => r.method === 'PATCH' && r.path === `/repos/acme/widgets/issues/comments/${posted.id}`,
    );
    // Not before it went stale (how soon after is the sweep interval's business).
    expect(finalise!.at.getTime()).toBeGreaterThanOrEqual(staleAt);
    // No webhook but the app's own echoes arrived meanwhile: the sweep did it.
    expect(fake.deliveries.filter((d) => senderOf(d) !== fake.botLogin)).toHaveLength(eventsBefore);
    expect(markerOf(fake, posted.id)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(fake.comment(posted.id)?.body).toMatch(/- Reason: stale since \d{4}-/);
    expect(fake.issue(REPO, n).labels).toEqual([]);
    expect(fake.issue(REPO, n).assignees).toEqual([]);

    // Two more sweeps: still exactly one note, mentioning the claim's author.
    const sweeps = async () =>
      (await harness.app.warden.metrics.sweepSeconds.get()).values.find((v) =>
        v.metricName?.endsWith('_count'),
      )?.value ?? 0;
    const before = await sweeps();
    await waitUntil(async () => (await sweeps()) >= before + 2, 'two more sweeps');
    await harness.settle();
    const notes = fake.comments(REPO, n).filter((c) => c.user?.login === fake.botLogin);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain('@alice');
    expect(notes[0]!.body).toContain(`comment ${posted.id}`);
  });

  it('a forged marker from a passer-by changes nothing and costs no call', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    await harness.settle();
    fake.clearRequests();
    const body = claimComment('s-forged');
    const forged = fake.addComment(REPO, n, { author: 'mallory', body });
    await harness.settle();

    expect(forged.author_association).toBe('NONE');
    expect(fake.deliveries.at(-1)).toMatchObject({ event: 'issue_comment', state: 'sent' });
    expect(fake.writes()).toEqual([]);
    expect(fake.requests).toEqual([]);
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [], assignees: [], comments: 1 });
    expect(fake.comment(forged.id)?.body).toBe(body);
  });

  it('a 502 on a write converges after a retry', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    const labelsPath = `/repos/acme/widgets/issues/${n}/labels`;
    const failure = fake.inject({ method: 'POST', path: labelsPath, status: 502 });
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await harness.settle();

    expect(failure.hits).toBe(1);
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
    const labelWrites = fake.requests.filter((r) => r.method === 'POST' && r.path === labelsPath);
    expect(labelWrites.map((r) => r.status)).toEqual([502, 200]);
    // Every other write happened once.
    expect(appWrites(fake).filter((w) => w !== `POST ${labelsPath}`)).toEqual([
      'POST /repos/acme/widgets/labels',
      `POST /repos/acme/widgets/issues/${n}/assignees`,
    ]);
  });

  it('a restart picks up a claim posted while the app was down', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    await harness.settle();
    await harness.stopApp();
    const posted = fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-down') });
    expect(deliveryCount(fake, posted.id)).toBe(0);
    fake.clearRequests();

    await harness.startApp();
    await harness.settle();

    // The start-up resync found it: no checkpoint yet, so since one stale window ago.
    const resync = fake.requests.find((r) => r.path === '/repos/acme/widgets/issues/comments');
    expect(resync?.method).toBe('GET');
    expect(Date.now() - Date.parse(resync!.query.since!)).toBeGreaterThanOrEqual(6 * HOUR);
    expect(Date.now() - Date.parse(resync!.query.since!)).toBeLessThan(6 * HOUR + 60_000);
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
  });
});

function senderOf(delivery: { payload: Record<string, unknown> }): string | undefined {
  return (delivery.payload.sender as { login?: string } | undefined)?.login;
}

function deliveryCount(fake: Harness['fake'], commentId: number): number {
  return fake.deliveries.filter((d) => (d.payload.comment as { id?: number })?.id === commentId)
    .length;
}
