import { afterEach, describe, expect, it } from 'vitest';
import { renderClaimComment } from '../../src/claims/comment.js';
import { type Harness, REPO, startHarness } from '../helpers/app-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function marker(session: string, at = new Date()) {
  return renderClaimComment({
    session,
    lane: 'lane-1',
    branch: `feat/${session}`,
    started: at,
    updated: at,
    stage: 'claimed',
    assignee: 'claim',
  });
}

describe('end to end on one replica', () => {
  it('a collaborator’s claim gets the label and the assignee', async () => {
    harness = await startHarness();
    const { fake } = harness;
    const n = fake.createIssue(REPO, { title: 'Fix the widget' });
    fake.addComment(REPO, n, { author: 'alice', body: marker('s-1') });
    await harness.settle();
    expect(fake.issue(REPO, n).labels).toEqual(['status:in-progress']);
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
  });
});
