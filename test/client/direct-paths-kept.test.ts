/**
 * A stage update in direct mode keeps the claim's path line (docs/protocol.md §10): after
 * `status --stage`, `paths check` still reports the path held and the app, reconciling,
 * still enforces it against an overlapping claim on another issue.
 */
import { describe, expect, it } from 'vitest';
import { pathLineOf } from '../../src/claims/paths.js';
import { type Harness, issueNumber, REPO, worldsPerTest } from './harness.js';

const world = worldsPerTest();

/** The client in direct mode (no CLAIM_WARDEN_URL) against the app's fake GitHub. */
function direct(h: Harness, login: string) {
  const { CLAIM_WARDEN_URL: _, ...env } = h.runtime(login).env;
  return { login, runtime: { env } };
}

/** `claim` in direct mode with paths; the comment it posted. */
async function claimDirect(h: Harness, login: string, ref: string, paths: string) {
  const session = `${login}-session`;
  const flags = { session, lane: 'lane-a', branch: `feat/${login}`, paths };
  const argv = ['claim', ref, ...Object.entries(flags).flatMap(([flag, v]) => [`--${flag}`, v])];
  const result = await h.cli(argv, direct(h, login));
  expect(result).toMatchObject({ code: 0, stderr: '' });
  await h.app!.settle();
  const [comment] = h.fake.comments(REPO, issueNumber(ref));
  return { session, id: comment!.id, pathLine: (comment!.body ?? '').split('\n')[1] };
}

describe('a direct-mode stage update keeps the claim’s paths', () => {
  it('after status --stage, paths check reports the path held and the app keeps enforcing it', async () => {
    const h = await world({ app: true });
    const ref = h.issue();
    const mine = await claimDirect(h, 'alice', ref, 'src/,docs/a.md');

    const argv = ['status', ref, '--session', mine.session, '--stage', 'implementing'];
    const status = await h.cli([...argv, '--note', 'halfway'], direct(h, 'alice'));
    expect(status.code).toBe(0);
    await h.app!.settle();

    const check = await h.cli(['paths', 'check', 'src/x.ts', '--repo', REPO, '--json'], {
      login: 'bob',
    });
    expect(JSON.parse(check.stdout)).toMatchObject({
      paths: [{ path: 'src/x.ts', available: false, heldPath: 'src/', heldIn: ref }],
    });
    expect(check.code).toBe(1);
    const body = h.fake.comment(mine.id)!.body ?? '';
    expect(h.marker(mine.id)).toMatchObject({ stage: 'implementing' });
    expect(body.split('\n')[1]).toBe(mine.pathLine);
    expect(pathLineOf(body)).toEqual({ kind: 'valid', paths: ['src/', 'docs/a.md'] });

    // An overlapping claim posted directly on another issue loses to the older path holder.
    const rival = await claimDirect(h, 'bob', h.issue(), 'src/x.ts');
    expect(h.marker(rival.id)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(h.marker(mine.id)).toMatchObject({ stage: 'implementing' });
  });
});
