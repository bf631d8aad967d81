/**
 * Path claims end to end (docs/protocol.md §10): the real app on the HTTP fake of GitHub.
 * Each test starts its own fake and app.
 */
import { describe, expect, it } from 'vitest';
import { renderClaimComment } from '../../src/claims/comment.js';
import { type Harness, REPO, WEBHOOK_SECRET } from '../helpers/app-harness.js';
import { deliveryFor, harnessFor, IN_PROGRESS, markerOf, redeliver } from './e2e-helpers.js';

/** A claim comment by `session` whose second line names `paths` (or is `line`, verbatim). */
function pathClaim(session: string, paths: readonly string[] | { line: string }): string {
  const at = new Date();
  const marker = {
    session,
    lane: 'lane-1',
    branch: `feat/${session}`,
    started: at,
    updated: at,
    stage: 'claimed' as const,
    assignee: 'claim' as const,
  };
  if (Array.isArray(paths)) return renderClaimComment(marker, { paths });
  const [first, ...rest] = renderClaimComment(marker).split('\n');
  return [first, (paths as { line: string }).line, ...rest].join('\n');
}

/** Reads of issue `n`'s thread so far: each reconcile of it, or each check of its paths. */
const threadReads = (harness: Harness, n: number) =>
  harness.fake.count('GET', `/repos/${REPO}/issues/${n}/comments`);

/**
 * Posts `first` on one issue and `second` on another (so `first` has the lower comment id)
 * with webhooks captured, then delivers the two `created` events in `order`, one at a time.
 */
async function twoClaims(
  harness: Harness,
  first: { author: string; body: string },
  second: { author: string; body: string },
  order: 'older first' | 'younger first',
) {
  const { fake } = harness;
  fake.setWebhookTarget({ capture: true });
  const n1 = fake.createIssue(REPO, { title: 'One' });
  const n2 = fake.createIssue(REPO, { title: 'Two' });
  const older = fake.addComment(REPO, n1, first);
  const younger = fake.addComment(REPO, n2, second);
  fake.setWebhookTarget({ url: harness.webhookUrl, secret: WEBHOOK_SECRET });
  const ids = order === 'older first' ? [older.id, younger.id] : [younger.id, older.id];
  for (const id of ids) {
    expect(await redeliver(harness, deliveryFor(fake, 'issue_comment.created', id))).toBe(200);
    await harness.settle();
  }
  return { n1, n2, older, younger };
}

const ORDERS = ['older first', 'younger first'] as const;

describe.concurrent('path claims end to end (docs/protocol.md §10)', () => {
  it.for(ORDERS)(
    'overlapping claims on two issues: the older comment keeps, the other is finalised with who holds what (%s)',
    async (order, { onTestFinished }) => {
      const harness = await harnessFor(onTestFinished);
      const { fake } = harness;
      const { n1, n2, older, younger } = await twoClaims(
        harness,
        { author: 'alice', body: pathClaim('s-a', ['src/a.ts', 'lib/']) },
        { author: 'bob', body: pathClaim('s-b', ['docs/', 'src/a.ts']) },
        order,
      );

      expect(markerOf(fake, older.id)).toMatchObject({ session: 's-a', stage: 'claimed' });
      expect(markerOf(fake, younger.id)).toMatchObject({
        session: 's-b',
        stage: 'released',
        outcome: 'abandoned',
      });
      expect(fake.comment(younger.id)?.body).toContain(
        `- Reason: paths held by acme/widgets#${n1} (comment ${older.id}, session s-a): src/a.ts`,
      );
      // The path line stays: the finalised comment still says what it had asked for.
      expect(fake.comment(younger.id)?.body.split('\n')[1]).toBe(
        '<!-- claim-paths v=1 paths=docs/,src/a.ts -->',
      );
      // The note of §4 tells its author, once.
      const notes = fake.comments(REPO, n2).filter((c) => c.user?.login === fake.botLogin);
      expect(notes).toHaveLength(1);
      expect(notes[0]!.body).toContain('@bob');
      expect(notes[0]!.body).toContain(`acme/widgets#${n1}`);
      expect(fake.issue(REPO, n1)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['alice'] });
      expect(fake.issue(REPO, n2)).toMatchObject({ labels: [], assignees: [] });
    },
  );

  it.for(ORDERS)(
    'disjoint claims on two issues both hold and cost no GitHub call beyond their own reconciles (%s)',
    async (order, { onTestFinished }) => {
      const harness = await harnessFor(onTestFinished);
      const { fake } = harness;
      const { n1, n2, older, younger } = await twoClaims(
        harness,
        { author: 'alice', body: pathClaim('s-a', ['src/a.ts', 'docs/']) },
        // `src.ts` and `docs2/` merely start like `src/a.ts` and `docs/`: they overlap nothing.
        { author: 'bob', body: pathClaim('s-b', ['src/b.ts', 'docs2/', 'src.ts']) },
        order,
      );
      expect(markerOf(fake, older.id)?.stage).toBe('claimed');
      expect(markerOf(fake, younger.id)?.stage).toBe('claimed');
      expect(fake.issue(REPO, n1).labels).toEqual([IN_PROGRESS]);
      expect(fake.issue(REPO, n2).labels).toEqual([IN_PROGRESS]);
      // Each thread was read by its own reconcile only: the other issue's claim was not checked.
      expect(threadReads(harness, n1)).toBe(1);
      expect(threadReads(harness, n2)).toBe(1);
    },
  );

  it('a file under a claimed directory is held by that directory’s claim', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { n1, older, younger } = await twoClaims(
      harness,
      { author: 'alice', body: pathClaim('s-a', ['src/queue/']) },
      { author: 'bob', body: pathClaim('s-b', ['src/queue/retry.ts']) },
      'younger first',
    );
    expect(markerOf(fake, older.id)?.stage).toBe('claimed');
    expect(markerOf(fake, younger.id)?.stage).toBe('released');
    expect(fake.comment(younger.id)?.body).toContain(
      `paths held by acme/widgets#${n1} (comment ${older.id}, session s-a): src/queue/`,
    );
  });

  it('a released holder’s paths are free again: a new claim on them holds, with no check of the old thread', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const n1 = fake.createIssue(REPO);
    const n2 = fake.createIssue(REPO);
    const held = fake.addComment(REPO, n1, { author: 'alice', body: pathClaim('s-a', ['src/']) });
    await harness.settle();
    expect(fake.issue(REPO, n1).labels).toEqual([IN_PROGRESS]);

    const released = fake
      .comment(held.id)!
      .body.replace('stage=claimed assignee=claim', 'stage=released assignee=claim outcome=landed');
    fake.editComment(held.id, released);
    await harness.settle();
    expect(fake.issue(REPO, n1).labels).toEqual([]);
    const readsOfOld = threadReads(harness, n1);

    const next = fake.addComment(REPO, n2, { author: 'bob', body: pathClaim('s-b', ['src/a.ts']) });
    await harness.settle();
    expect(markerOf(fake, next.id)?.stage).toBe('claimed');
    expect(fake.issue(REPO, n2)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['bob'] });
    expect(threadReads(harness, n1)).toBe(readsOfOld);
  });

  it('a holder that edits its path line onto held paths is weighed again at once, not left to the sweep', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { n1, older, younger } = await twoClaims(
      harness,
      { author: 'alice', body: pathClaim('s-a', ['src/a.ts']) },
      { author: 'bob', body: pathClaim('s-b', ['lib/']) },
      'older first',
    );
    expect(markerOf(fake, younger.id)?.stage).toBe('claimed');

    // Only the second line changes: to the marker it is a heartbeat of the holder.
    const body = fake.comment(younger.id)!.body;
    fake.editComment(younger.id, body.replace('paths=lib/', 'paths=lib/,src/'));
    await harness.settle();
    expect(markerOf(fake, younger.id)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(fake.comment(younger.id)?.body).toContain(
      `paths held by acme/widgets#${n1} (comment ${older.id}, session s-a): src/a.ts`,
    );
  });

  it('a claim whose path line breaks the grammar holds its issue but no paths, and the app logs it', async ({
    onTestFinished,
  }) => {
    // In this process, its pino lines kept: once the app has settled, every line of the
    // reconciles is there (a child's stdout would arrive when it arrives).
    const harness = await harnessFor(onTestFinished, {
      captureLogs: true,
      env: { LOG_LEVEL: 'info' },
    });
    const { fake } = harness;
    const logs = () => harness.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);

    const n1 = fake.createIssue(REPO);
    const bad = fake.addComment(REPO, n1, {
      author: 'alice',
      body: pathClaim('s-a', { line: '<!-- claim-paths v=1 paths=src/a.ts,../b.ts -->' }),
    });
    await harness.settle();
    expect(fake.issue(REPO, n1).labels).toEqual([IN_PROGRESS]);
    // It holds no paths, so a claim on src/a.ts elsewhere holds too.
    const n2 = fake.createIssue(REPO);
    const other = fake.addComment(REPO, n2, {
      author: 'bob',
      body: pathClaim('s-b', ['src/a.ts']),
    });
    await harness.settle();

    expect(fake.issue(REPO, n2).labels).toEqual([IN_PROGRESS]);
    expect(markerOf(fake, bad.id)?.stage).toBe('claimed');
    expect(markerOf(fake, other.id)?.stage).toBe('claimed');
    expect(fake.issue(REPO, n1).assignees).toEqual(['alice']);
    const line = logs().find(
      (l) => l.msg === 'path line invalid: the claim holds its issue but no paths',
    );
    expect(line).toMatchObject({
      level: 40,
      issue: `${harness.installationId}/acme/widgets#${n1}`,
      commentId: bad.id,
      problem: expect.stringContaining('. or .. segment'),
    });
  });
});
