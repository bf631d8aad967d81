/**
 * `claim-warden release` of the session's own claim in its grace (docs/protocol.md §17),
 * through the real app (API mode) and against GitHub alone (direct mode): released (exit 0),
 * and another session claims the issue at once instead of waiting for the grace to end.
 */
import { describe, expect, it } from 'vitest';
import { claimArgs, type Harness, issueNumber, REPO, worldsPerTest } from './harness.js';

const world = worldsPerTest();

/** A ten-minute window and ten minutes of grace: a claim 12 minutes quiet is in its grace. */
const GRACE = 'staleAfter: 10m\ngrace: 10m\n';

/** An issue whose claim by alice's session unit7 is in its grace, labelled and assigned. */
async function inGrace(h: Harness) {
  const ref = h.issue();
  const id = h.seedClaim(ref, {
    author: 'alice',
    session: 'unit7',
    ageMinutes: 12,
    assignee: 'claim',
  });
  h.fake.addLabels(REPO, issueNumber(ref), ['status:in-progress']);
  h.fake.assign(REPO, issueNumber(ref), ['alice']);
  await h.app?.settle();
  return { ref, id };
}

describe.each([
  ['API mode', true],
  ['direct mode', false],
])('releasing a claim in grace (%s)', (_, app) => {
  it('the owner’s release frees the issue at once; another session claims it', async () => {
    const h = await world({ app, claimsYml: GRACE });
    const { ref, id } = await inGrace(h);
    // Another session is refused while the grace holds.
    const early = await h.cli([...claimArgs(ref, 'other'), '--json'], { login: 'bob' });
    expect(JSON.parse(early.stdout)).toMatchObject({ exitCode: 1, reason: 'in-grace' });

    const done = await h.cli(['release', ref, '--session', 'unit7', '--outcome', 'abandoned']);
    expect(done.code).toBe(0);
    expect(h.marker(id)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    await h.app?.settle();
    expect(h.fake.issue(REPO, issueNumber(ref))).toMatchObject({ labels: [], assignees: [] });
    expect((await h.cli(claimArgs(ref, 'other'), { login: 'bob' })).code).toBe(0);
  });
});
