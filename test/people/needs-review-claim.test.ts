import { describe, expect, it } from 'vitest';
import { reviewTag } from '../../src/claims/review.js';
import { decideWithPeople } from '../../src/people/decide-with-people.js';
import { claimComment, harnessFor } from '../e2e/e2e-helpers.js';
import { REPO, waitFor } from '../helpers/app-harness.js';
import { APP_LOGIN, claim, HOUR } from '../helpers/thread-builder.js';
import { applyPlan } from './apply-plan.js';
import { config, DAY, issue, kinds, NOW, noteTexts, said } from './people-builder.js';

const ROLES = { bob: 'write', alice: 'write' } as const;
const WORK = { branch: 'feat/5', aheadBy: 3, head: '1a2b3c4d5e6f', pull: null };
const REVIEW_NOTE = said(
  6,
  `<!-- claim-warden note=expired comment=5 -->\n${reviewTag('alice', WORK)}\n@alice …`,
  APP_LOGIN,
  HOUR,
);
const REPLY = '<!-- claim-warden note=people-reply comment=7 outcome=refused -->';

describe('/claim on an issue in review (docs/protocol.md §17)', () => {
  it('is refused with one reply and does not join the waitlist', () => {
    const facts = issue({
      labels: ['status:needs-review'],
      comments: [REVIEW_NOTE, said(7, '/claim')],
      roles: ROLES,
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toEqual([`note ${REPLY}`]);
    expect(noteTexts(plan)[0]).toBe(
      '@bob this issue needs review (the stale session of `alice` left work here): ask a maintainer to review it, or claim another issue. You were not put on the waitlist.',
    );
    expect(plan.waitlist).toEqual([]);
    expect(plan.holder).toBeNull();
  });

  it('admits the stale claim’s own author as any /claim', () => {
    const facts = issue({
      labels: ['status:needs-review'],
      comments: [REVIEW_NOTE, said(7, '/claim', 'Alice')],
      roles: ROLES,
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toContain('assign Alice');
    expect(kinds(plan)).toContain('react 7');
    expect(kinds(plan)).toContain('remove-label status:needs-review');
    expect(plan.holder).toMatchObject({ kind: 'person', author: 'Alice' });
  });

  it('a label added by hand refuses everyone, naming no one', () => {
    const facts = issue({
      labels: ['status:needs-review'],
      comments: [said(7, '/claim', 'alice')],
      roles: ROLES,
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toEqual([`note ${REPLY}`]);
    expect(noteTexts(plan)[0]).toContain('(a maintainer marked it)');
    expect(plan.waitlist).toEqual([]);
  });

  it('a review that starts in the same decision refuses the /claim too', () => {
    const facts = issue({
      assignees: ['alice'],
      labels: ['status:in-progress'],
      comments: [
        claim({ id: 5, by: 'alice', postedAgoMs: 8 * DAY, updatedAgoMs: 8 * DAY }),
        said(7, '/claim'),
      ],
      review: new Map([[5, WORK]]),
      roles: ROLES,
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toContain('add-label status:needs-review');
    expect(kinds(plan)).toContain(`note ${REPLY}`);
    expect(kinds(plan)).not.toContain('assign bob');
    expect(plan.waitlist).toEqual([]);
  });

  it('a person waiting is not served when the stale claim’s work goes to review', () => {
    const first = issue({
      assignees: ['agent'],
      comments: [claim({ id: 5, by: 'agent', postedAgoMs: HOUR }), said(7, '/claim')],
      roles: { bob: 'write' },
    });
    const waiting = applyPlan(first, decideWithPeople(first, config(), NOW), NOW);
    expect(decideWithPeople(waiting, config(), NOW).waitlist).toEqual(['bob']);
    const later = new Date(NOW.getTime() + 7 * HOUR);
    const plan = decideWithPeople({ ...waiting, review: new Map([[5, WORK]]) }, config(), later);
    expect(kinds(plan)).toContain('add-label status:needs-review');
    expect(kinds(plan)).not.toContain('assign bob');
    expect(plan.holder).toBeNull();
  });
});

describe('/claim by the owner on an issue in review, end to end', () => {
  it('the stale claim’s author is assigned by /claim and the review label goes', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, {
      seed: (fake) => fake.setFile(REPO, '.github/claims.yml', 'people:\n  enabled: true\n'),
    });
    const { fake } = harness;
    fake.createBranch(REPO, 'feat/s-old', { ahead: 2 });
    const n = fake.createIssue(REPO);
    const at = new Date(Date.now() - 7 * HOUR);
    fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-old', { at }),
      createdAt: at,
      updatedAt: at,
    });
    await waitFor(() => fake.issue(REPO, n).labels.includes('status:needs-review'), 'review');
    await harness.settle();

    // Bob's /claim is refused; alice's, the stale claim's own author, holds.
    fake.addComment(REPO, n, { author: 'bob', body: '/claim' });
    await harness.settle();
    expect(fake.issue(REPO, n).assignees).toEqual([]);
    const back = fake.addComment(REPO, n, { author: 'alice', body: '/claim' });
    await harness.settle();
    expect(fake.issue(REPO, n)).toMatchObject({
      assignees: ['alice'],
      labels: ['status:in-progress'],
    });
    expect(fake.reactions(back.id).map((r) => r.content)).toEqual(['+1']);
  });
});
