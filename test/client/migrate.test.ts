import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isClaimTag } from '../../src/claims/identity.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { type Harness, harness, interpose, issueNumber, REPO } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

/** An issue with a released legacy claim, a live legacy claim holding it, and prose. */
function legacyIssue() {
  const ref = h.issue();
  const released = h.seedClaim(ref, {
    author: 'bob',
    session: 'old-run',
    lane: 'night-shift',
    stage: 'released',
    outcome: 'handed-over',
    plain: true,
    ageMinutes: 120,
    assignee: 'before',
  });
  h.fake.addComment(REPO, issueNumber(ref), {
    author: 'alice',
    body: 'Just a comment about unit7.',
  });
  const live = h.seedClaim(ref, {
    author: 'alice',
    session: 'unit7',
    lane: 'lane-a',
    stage: 'review',
    plain: true,
    ageMinutes: 30,
    assignee: 'claim',
    note: 'built on build-host-7',
  });
  return { ref, released, live };
}

function claimMarkers(ref: string) {
  return h.fake
    .comments(REPO, issueNumber(ref))
    .map((c) => ({ id: c.id, marker: parseClaimMarker(c.body ?? '') }))
    .filter((c) => c.marker !== null);
}

describe('migrate dry run', () => {
  it('lists each legacy comment with its tags, never its plain values, and writes nothing', async () => {
    const { ref, released, live } = legacyIssue();
    h.fake.clearRequests();
    const { code, stdout } = await h.cli([
      'migrate',
      '--repo',
      REPO,
      '--issue',
      String(issueNumber(ref)),
    ]);
    expect(code).toBe(0);
    const n = issueNumber(ref);
    expect(stdout).toContain(
      `issue ${n} comment ${released}: stage released, session ${h.tag('session', 'old-run')} lane ${h.tag('lane', 'night-shift')}`,
    );
    expect(stdout).toContain(
      `issue ${n} comment ${live}: stage review, session ${h.tag('session', 'unit7')} lane ${h.tag('lane', 'lane-a')}`,
    );
    expect(stdout).toContain('note dropped: carries a protected hostname');
    expect(stdout).not.toMatch(/unit7|lane-a|old-run|night-shift/);
    expect(h.fake.writes()).toEqual([]);
  });
});

describe('migrate --apply', () => {
  it('replaces each legacy comment with a tagged one, keeping everything else, and verifies', async () => {
    const { ref, released, live } = legacyIssue();
    const before = claimMarkers(ref);
    const result = await h.run('migrate', { repo: REPO, issues: [issueNumber(ref)], apply: true });
    expect(result.status, result.message).toBe('ok');
    expect(result.message).toContain('migrated and verified');

    expect(h.fake.comment(released)).toBeUndefined();
    expect(h.fake.comment(live)).toBeUndefined();
    const after = claimMarkers(ref);
    expect(after).toHaveLength(2);
    for (const [index, { marker }] of after.entries()) {
      const old = before[index]!.marker!;
      expect(isClaimTag(marker!.session) && isClaimTag(marker!.lane)).toBe(true);
      expect(marker).toEqual({ ...old, session: marker!.session, lane: marker!.lane });
    }
    const bodies = h.fake.comments(REPO, issueNumber(ref)).map((c) => c.body ?? '');
    expect(bodies.filter((b) => b.startsWith('<!--')).join('\n')).not.toMatch(
      /unit7|lane-a|old-run|night-shift|build-host-7/,
    );
    expect(bodies).toContain('Just a comment about unit7.');
    // The session keeps its claim: it resumes it under its tag.
    const resumed = await h.run('claim', {
      issue: ref,
      session: 'unit7',
      lane: 'lane-a',
      branch: 'feat/x',
    });
    expect(resumed.data).toMatchObject({ action: 'resumed' });
  });

  it('refuses up front an issue where a tagged unreleased claim follows a legacy unreleased one', async () => {
    const ref = h.issue();
    const legacy = h.seedClaim(ref, {
      author: 'alice',
      session: 'unit7',
      plain: true,
      ageMinutes: 20,
    });
    const tagged = h.seedClaim(ref, { author: 'bob', session: 'other', ageMinutes: 10 });
    h.fake.clearRequests();
    for (const apply of [false, true]) {
      const result = await h.run('migrate', { repo: REPO, issues: [issueNumber(ref)], apply });
      expect(result.status).toBe('refused');
      expect(result.message).toContain(
        `tagged unreleased claim in comment ${tagged} comes after the legacy unreleased claim in comment ${legacy}`,
      );
    }
    expect(h.fake.writes()).toEqual([]);
  });

  it('halts naming both ids when the delete fails, and a rerun finishes without a duplicate', async () => {
    const { ref, live } = legacyIssue();
    h.fake.inject({ method: 'DELETE', path: /\/issues\/comments\/\d+$/, status: 500 });
    const first = await h.run('migrate', { repo: REPO, issues: [issueNumber(ref)], apply: true });
    expect(first.status).toBe('unverifiable');
    const posted = first.data as { replacement: number; legacy: number };
    expect(first.message).toContain(
      `posted comment ${posted.replacement} to replace legacy comment ${posted.legacy}`,
    );
    expect(h.fake.comment(live)).toBeDefined();
    const writesAfterHalt = h.fake.writes().length;
    expect(writesAfterHalt).toBe(2);

    const rerun = await h.run('migrate', { repo: REPO, issues: [issueNumber(ref)], apply: true });
    expect(rerun.status, rerun.message).toBe('ok');
    expect(rerun.message).toContain('replacement already posted');
    expect(claimMarkers(ref)).toHaveLength(2);
  });

  it('reads the thread back and fails when the holder changed meanwhile', async () => {
    const { ref } = legacyIssue();
    const fetch = interpose([
      {
        method: 'POST',
        path: /\/issues\/\d+\/comments$/,
        nth: 2,
        // Another session claims while the holder's replacement is being posted.
        before: () => void h.seedClaim(ref, { author: 'bob', session: 'other', ageMinutes: 0 }),
      },
    ]);
    const result = await h.run(
      'migrate',
      { repo: REPO, issues: [issueNumber(ref)], apply: true },
      { runtime: { fetch } },
    );
    expect(result.status).toBe('unverifiable');
    expect(result.message).toContain('read-back after migration failed: the holder changed');
  });

  it('an issue without legacy claims is left alone', async () => {
    const ref = h.issue();
    h.seedClaim(ref, { author: 'alice', session: 'unit7' });
    h.fake.clearRequests();
    const result = await h.run('migrate', { repo: REPO, issues: [issueNumber(ref)], apply: true });
    expect(result.status).toBe('ok');
    expect(result.message).toContain('no legacy claim comments');
    expect(h.fake.writes()).toEqual([]);
  });
});
