import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, issueNumber, REPO } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await harness();
  h.fake.addUser('carol', { association: 'COLLABORATOR' });
});
afterEach(async () => {
  await h.close();
});

const IDENTITY = { session: 'unit7', lane: 'lane-a', branch: 'feat/x' };

async function claimed(options: Parameters<Harness['issue']>[0] = {}) {
  const ref = h.issue(options);
  const result = await h.run('claim', { issue: ref, ...IDENTITY });
  expect(result.status).toBe('ok');
  return { ref, id: (result.data as { claim: { commentId: number } }).claim.commentId };
}

function release(ref: string, outcome = 'landed', extra: Record<string, unknown> = {}) {
  return h.run('release', { issue: ref, session: 'unit7', outcome, ...extra });
}

describe('release', () => {
  it('removes the labels and the assignee the claim added, keeps other assignees, then finalises', async () => {
    const { ref, id } = await claimed({ assignees: ['carol'] });
    await h.run('status', { issue: ref, session: 'unit7', stage: 'blocked' });

    const result = await release(ref, 'landed', { note: 'merged in #12' });

    expect(result.status).toBe('ok');
    expect(h.marker(id)).toMatchObject({ stage: 'released', outcome: 'landed', assignee: 'claim' });
    expect(h.fake.comment(id)!.body).toContain('- Reason: released by its session: merged in #12');
    const issue = h.fake.issue(REPO, issueNumber(ref));
    expect(issue.labels).toEqual([]);
    expect(issue.assignees).toEqual(['carol']);
    expect(issue.state).toBe('open');
  });

  it('keeps an assignee that was there before the claim', async () => {
    const { ref } = await claimed({ assignees: ['alice'] });
    await release(ref);
    expect(h.fake.issue(REPO, issueNumber(ref)).assignees).toEqual(['alice']);
  });

  it('works on a closed issue and still unassigns, leaving it closed', async () => {
    const { ref, id } = await claimed();
    h.fake.closeIssue(REPO, issueNumber(ref));
    const result = await release(ref);
    expect(result.status).toBe('ok');
    expect(h.marker(id)).toMatchObject({ stage: 'released', outcome: 'landed' });
    const issue = h.fake.issue(REPO, issueNumber(ref));
    expect(issue.assignees).toEqual([]);
    expect(issue.labels).toEqual([]);
    expect(issue.state).toBe('closed');
  });

  it('takes labels and assignee off before the comment, in that order', async () => {
    const { ref, id } = await claimed();
    h.fake.clearRequests();
    await release(ref);
    const writes = h.fake.writes().map((w) => `${w.method} ${w.path}`);
    expect(writes).toEqual([
      `DELETE /repos/acme/widgets/issues/${issueNumber(ref)}/labels/status%3Ain-progress`,
      `DELETE /repos/acme/widgets/issues/${issueNumber(ref)}/assignees`,
      `PATCH /repos/acme/widgets/issues/comments/${id}`,
    ]);
  });

  it('a label removal that fails leaves the claim live, and the retry succeeds', async () => {
    const { ref, id } = await claimed();
    h.fake.inject({ method: 'DELETE', path: /\/labels\//, status: 500 });

    const first = await release(ref);
    expect(first.status).toBe('unverifiable');
    expect(first.message).toContain('stays live');
    expect(h.marker(id)).toMatchObject({ stage: 'claimed' });
    expect(h.fake.issue(REPO, issueNumber(ref)).labels).toEqual(['status:in-progress']);

    const retry = await release(ref);
    expect(retry.status).toBe('ok');
    expect(h.marker(id)).toMatchObject({ stage: 'released', outcome: 'landed' });
    expect(h.fake.issue(REPO, issueNumber(ref))).toMatchObject({ labels: [], assignees: [] });
  });

  it('an unassign that fails leaves the claim releasable', async () => {
    const { ref, id } = await claimed();
    h.fake.inject({ method: 'DELETE', path: /\/assignees$/, status: 502 });
    expect((await release(ref)).status).toBe('unverifiable');
    expect(h.marker(id)).toMatchObject({ stage: 'claimed' });
    expect((await release(ref)).status).toBe('ok');
    expect(h.fake.issue(REPO, issueNumber(ref)).assignees).toEqual([]);
  });

  it('a repeated release with the same outcome reports success and writes nothing', async () => {
    const { ref } = await claimed();
    await release(ref);
    h.fake.clearRequests();
    const again = await release(ref);
    expect(again.status).toBe('ok');
    expect(again.data).toMatchObject({ action: 'already-released' });
    expect(h.fake.writes()).toEqual([]);
    expect((await release(ref, 'abandoned')).status).toBe('refused');
  });

  it('a session without a claim is refused', async () => {
    const ref = h.issue();
    const result = await release(ref);
    expect(result.status).toBe('refused');
    expect(result.data).toMatchObject({ reason: 'none' });
  });

  it('an outcome outside landed, abandoned, handed-over is a usage error', async () => {
    const { ref } = await claimed();
    expect((await release(ref, 'merged')).status).toBe('usage');
  });

  it('a stale claim of the session can still be released', async () => {
    const ref = h.issue();
    const id = h.seedClaim(ref, { author: 'alice', session: 'unit7', ageMinutes: 7 * 60 });
    expect((await release(ref, 'abandoned')).status).toBe('ok');
    expect(h.marker(id)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
  });
});
