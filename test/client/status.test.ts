import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, issueNumber, REPO, windowAhead } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

async function claimed(): Promise<{ ref: string; id: number }> {
  const ref = h.issue();
  const result = await h.run('claim', {
    issue: ref,
    session: 'unit7',
    lane: 'lane-a',
    branch: 'feat/x',
  });
  return { ref, id: (result.data as { claim: { commentId: number } }).claim.commentId };
}

describe('status with a stage', () => {
  it('edits the session’s own comment in place, never adding one', async () => {
    const { ref, id } = await claimed();
    for (const stage of ['implementing', 'review', 'fix-round-2', 'queued', 'landing']) {
      const result = await h.run('status', { issue: ref, session: 'unit7', stage });
      expect(result.status).toBe('ok');
      expect(h.marker(id)).toMatchObject({ stage, assignee: 'claim', branch: 'feat/x' });
    }
    expect(h.fake.comments(REPO, issueNumber(ref))).toHaveLength(1);
  });

  it('blocked adds status:blocked; any other stage removes it', async () => {
    const { ref } = await claimed();
    await h.run('status', { issue: ref, session: 'unit7', stage: 'blocked', note: 'CI red' });
    expect(h.fake.issue(REPO, issueNumber(ref)).labels).toEqual([
      'status:in-progress',
      'status:blocked',
    ]);
    await h.run('status', { issue: ref, session: 'unit7', stage: 'implementing' });
    expect(h.fake.issue(REPO, issueNumber(ref)).labels).toEqual(['status:in-progress']);
  });

  it('folds a note to one line and refuses, not cuts, one past 280 characters', async () => {
    const { ref, id } = await claimed();
    await h.run('status', {
      issue: ref,
      session: 'unit7',
      stage: 'review',
      note: 'first line\n\n  second\tline',
    });
    expect(h.fake.comment(id)!.body).toContain('- Note: first line second line');

    // Folding first: 279 + ' ' + 'y' is 281 characters however many spaces were written.
    const exactly = `${'x'.repeat(278)}\n\n\ty`;
    expect(
      (await h.run('status', { issue: ref, session: 'unit7', stage: 'review', note: exactly }))
        .status,
    ).toBe('ok');
    h.fake.clearRequests();
    const long = `${'x'.repeat(279)}\n\n  y`;
    const refusedNote = await h.run('status', {
      issue: ref,
      session: 'unit7',
      stage: 'review',
      note: long,
    });
    expect(refusedNote.status).toBe('usage');
    expect(refusedNote.message).toContain('281 characters');
    expect(h.fake.requests).toEqual([]);
  });

  it.each(['released', 'fix-round-0', 'fix-round-01', 'done'])(
    'stage %s is a usage error',
    async (stage) => {
      const { ref } = await claimed();
      expect((await h.run('status', { issue: ref, session: 'unit7', stage })).status).toBe('usage');
    },
  );

  it('a session whose claim was taken over is told so', async () => {
    const ref = h.issue();
    h.seedClaim(ref, { author: 'alice', session: 'unit7', ageMinutes: 7 * 60 });
    await h.run(
      'claim',
      { issue: ref, session: 'other', lane: 'l', branch: 'feat/y' },
      { login: 'bob' },
    );
    const result = await h.run('status', { issue: ref, session: 'unit7', stage: 'review' });
    expect(result.status).toBe('refused');
    expect(result.data).toMatchObject({ reason: 'taken-over', holder: { author: 'bob' } });
    expect(result.message).toContain('was taken over');
  });

  it('a session whose claim went stale is told to claim again, and nothing is written', async () => {
    const ref = h.issue();
    h.seedClaim(ref, { author: 'alice', session: 'unit7', ageMinutes: 7 * 60 });
    h.fake.clearRequests();
    const result = await h.run('status', { issue: ref, session: 'unit7', stage: 'review' });
    expect(result.data).toMatchObject({ reason: 'stale' });
    expect(result.message).toContain('run claim');
    expect(h.fake.writes()).toEqual([]);
  });

  it.each([
    ['exactly one window ahead still holds: the stage is recorded', 0, 'ok'],
    ['one second more is stale at once: refused, nothing written', 1000, 'refused'],
  ])(
    'a claim whose marker updated lies ahead of now (a fast clock): %s (docs/protocol.md §3)',
    async (_name, extraMs, status) => {
      const { now, updated } = windowAhead(extraMs);
      const ref = h.issue({ labels: ['status:in-progress'], assignees: ['alice'] });
      const id = h.seedClaim(ref, {
        author: 'alice',
        session: 'unit7',
        updated,
      });
      h.fake.clearRequests();

      const result = await h.run(
        'status',
        { issue: ref, session: 'unit7', stage: 'review' },
        { runtime: { now: () => now } },
      );

      expect(result.status).toBe(status);
      if (status === 'ok') {
        expect(h.marker(id)).toMatchObject({ stage: 'review', updated: now });
      } else {
        // It went stale when GitHub recorded it, a minute ago, not hours from now.
        const recorded = h.fake.comment(id)!.updated_at;
        expect(result.data).toMatchObject({ reason: 'stale', own: { staleAt: recorded } });
        expect(result.message).toContain(`went stale at ${recorded}`);
        expect(h.fake.writes()).toEqual([]);
      }
    },
  );

  it('a session without a claim is refused', async () => {
    const ref = h.issue();
    const result = await h.run('status', { issue: ref, session: 'unit7', stage: 'review' });
    expect(result.status).toBe('refused');
    expect(result.data).toMatchObject({ reason: 'none' });
  });

  it('a closed issue holds no live claim', async () => {
    const { ref } = await claimed();
    h.fake.closeIssue(REPO, issueNumber(ref));
    const result = await h.run('status', { issue: ref, session: 'unit7', stage: 'review' });
    expect(result.data).toMatchObject({ reason: 'closed' });
  });

  it('rewrites a legacy claim with plain identities as keyed tags', async () => {
    const ref = h.issue();
    const id = h.seedClaim(ref, { author: 'alice', session: 'unit7', plain: true });
    const result = await h.run('status', { issue: ref, session: 'unit7', stage: 'review' });
    expect(result.status).toBe('ok');
    expect(h.marker(id)).toMatchObject({
      session: h.tag('session', 'unit7'),
      lane: h.tag('lane', 'lane-a'),
    });
    expect(h.fake.comment(id)!.body).not.toMatch(/unit7|lane-a/);
  });
});

describe('status without a stage', () => {
  it('reports the holder and writes nothing', async () => {
    const { ref, id } = await claimed();
    h.fake.clearRequests();
    const result = await h.run('status', { issue: ref, session: 'unit7' });
    expect(result.status).toBe('ok');
    expect(result.data).toMatchObject({
      action: 'reported',
      claim: { commentId: id, stage: 'claimed' },
    });
    expect(h.fake.writes()).toEqual([]);
  });

  it('reports another session’s hold as a refusal, and writes nothing, not even a loser', async () => {
    const ref = h.issue();
    h.seedClaim(ref, { author: 'bob', session: 'other', ageMinutes: 5 });
    const mine = h.seedClaim(ref, { author: 'alice', session: 'unit7', ageMinutes: 4 });
    h.fake.clearRequests();
    const result = await h.run('status', { issue: ref, session: 'unit7' });
    expect(result.status).toBe('refused');
    expect(result.data).toMatchObject({ reason: 'held' });
    expect(h.fake.writes()).toEqual([]);
    expect(h.marker(mine)).toMatchObject({ stage: 'implementing' });
  });
});
