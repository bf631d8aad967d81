/**
 * An answer of the claims app that is not shaped as docs/protocol.md §8 and §9 describe (an
 * older app, a proxy's JSON) is unverifiable (exit 3) naming what is wrong: never read as held
 * or free, and never a crash. The real app serves the thread; only its answers are replaced.
 */
import { describe, expect, it } from 'vitest';
import { issueNumber, REPO, worldsPerTest } from './harness.js';

const world = worldsPerTest();

/** A fetch that answers every claims API request with `status` and `body`. */
function appAnswering(status: number, body: unknown): typeof fetch {
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (!url.includes('/api/claims/v1/')) return fetch(input, init);
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  };
}

describe('a malformed answer of the claims app', () => {
  it('a claim object without its marker keys is unverifiable, not another session holding it', async () => {
    const h = await world({ app: true });
    const ref = h.issue();
    const fetch = appAnswering(200, {
      issue: { repo: REPO, number: issueNumber(ref), state: 'open' },
      claim: { commentId: 5, author: 'bob' },
    });
    const { code, stdout } = await h.cli(['status', ref, '--session', 'unit7', '--json'], {
      runtime: { fetch },
    });
    expect(code).toBe(3);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ status: 'unverifiable' });
    expect(out.message).toContain('session: Invalid input');
  });

  it('a 201 without a claim is unverifiable, not a crash', async () => {
    const h = await world({ app: true });
    const ref = h.issue();
    const { code, stdout, stderr } = await h.cli(
      ['claim', ref, '--session', 'unit7', '--lane', 'lane-a', '--branch', 'feat/x', '--json'],
      { runtime: { fetch: appAnswering(201, { alreadyHeld: false }) } },
    );
    expect({ code, stderr }).toEqual({ code: 3, stderr: '' });
    expect(JSON.parse(stdout).message).toContain('a claim object (docs/protocol.md §8)');
  });

  it('a work-queue page without items is unverifiable, not a crash', async () => {
    const h = await world({ app: true });
    const { code, stdout, stderr } = await h.cli(['list', '--json'], {
      runtime: { fetch: appAnswering(200, { nextCursor: null }) },
    });
    expect({ code, stderr }).toEqual({ code: 3, stderr: '' });
    expect(JSON.parse(stdout).message).toContain(
      'a page (docs/protocol.md §9) of another shape (items:',
    );
  });
});
