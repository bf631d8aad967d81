import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, REPO } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

/** Runs `claim-warden check --json` with the brief on stdin. */
async function gate(brief: string, as: Parameters<Harness['cli']>[1] = {}) {
  const { code, stdout } = await h.cli(['check', '--json'], { stdin: brief, ...as });
  return { code, json: JSON.parse(stdout) as Record<string, unknown> };
}

describe('the dispatch gate', () => {
  it('allows (exit 0) when every named issue is held by the brief’s session', async () => {
    const one = h.issue();
    const two = h.issue();
    for (const ref of [one, two]) {
      await h.run('claim', { issue: ref, session: 'unit7', lane: 'l', branch: 'feat/x' });
    }
    const { code, json } = await gate(`Fix both.\nissue: ${one}, ${two}\nsession: unit7\n`);
    expect(code).toBe(0);
    expect(json).toMatchObject({
      verdict: 'allow',
      issues: [{ reason: 'held-by-session' }, { reason: 'held-by-session' }],
    });
  });

  it('denies (exit 1) naming another live session’s claim', async () => {
    const ref = h.issue();
    const held = h.seedClaim(ref, { author: 'bob', session: 'other', stage: 'review' });
    const { code, json } = await gate(`issue: ${ref}\nsession: unit7\n`);
    expect(code).toBe(1);
    expect(json).toMatchObject({
      verdict: 'deny',
      issues: [
        {
          verdict: 'deny',
          reason: 'held-by-other',
          holder: { commentId: held, session: h.tag('session', 'other') },
        },
      ],
    });
  });

  it.each([
    ['unclaimed', () => undefined],
    [
      'stale',
      (ref: string) =>
        void h.seedClaim(ref, { author: 'bob', session: 'other', ageMinutes: 7 * 60 }),
    ],
  ])('denies an %s issue with the claim command to run first', async (reason, seed) => {
    const ref = h.issue();
    seed(ref);
    const { code, json } = await gate(`issue: ${ref}\nsession: unit7\n`);
    expect(code).toBe(1);
    expect(json).toMatchObject({
      issues: [
        {
          reason,
          command: `claim-warden claim ${ref} --session unit7 --lane <lane> --branch <branch>`,
        },
      ],
    });
  });

  it('denies a closed issue', async () => {
    const ref = h.issue({ state: 'closed' });
    const { code, json } = await gate(`issue: ${ref}\nsession: unit7\n`);
    expect(code).toBe(1);
    expect(json).toMatchObject({ issues: [{ verdict: 'deny', reason: 'closed' }] });
  });

  it('denies when the brief names issues but no session', async () => {
    const ref = h.issue();
    const { code, json } = await gate(`issue: ${ref}\n`);
    expect(code).toBe(1);
    expect(json).toMatchObject({ verdict: 'deny', reason: 'no-session' });
  });

  it('denies (exit 3) when a claim cannot be read', async () => {
    const ref = h.issue();
    await h.run('claim', { issue: ref, session: 'unit7', lane: 'l', branch: 'feat/x' });
    h.fake.inject({ method: 'GET', path: /\/comments$/, status: 500 });
    const { code, json } = await gate(`issue: ${ref}\nsession: unit7\n`);
    expect(code).toBe(3);
    expect(json).toMatchObject({ verdict: 'deny', issues: [{ reason: 'unverifiable' }] });
  });

  it('a definite denial outranks an unverifiable one (exit 1)', async () => {
    const held = h.issue();
    h.seedClaim(held, { author: 'bob', session: 'other' });
    const { code } = await gate(`issue: ${held}, ${REPO}#404\nsession: unit7\n`);
    expect(code).toBe(1);
  });

  it('denies (exit 4) when no token can be found for a brief naming an issue', async () => {
    const ref = h.issue();
    const env = { GITHUB_API_URL: h.fake.apiUrl, CLAIM_WARDEN_CONFIG_DIR: h.configDir };
    const { code, json } = await gate(`issue: ${ref}\nsession: unit7\n`, { runtime: { env } });
    expect(code).toBe(4);
    expect(json.message).toContain('GITHUB_TOKEN');
  });

  it.each([
    ['#0', `issue: ${REPO}#0`],
    ['a leading zero', `issue: ${REPO}#007`],
    ['no owner', 'issue: widgets#7'],
    ['a trailing comma', `issue: ${REPO}#7,`],
    ['a bad session', `issue: ${REPO}#7\nsession: -x`],
    ['two sessions', `issue: ${REPO}#7\nsession: a\nsession: b`],
  ])('a brief with %s is a usage error (exit 2), not skipped', async (_, brief) => {
    const { code } = await gate(brief);
    expect(code).toBe(2);
    expect(h.fake.requests).toEqual([]);
  });

  it('a brief naming no issue passes without a token, a key or any request', async () => {
    const env = { CLAIM_WARDEN_CONFIG_DIR: '/nonexistent/claim-warden' };
    const gh = async () => {
      throw new Error('gh must not be asked');
    };
    const brief = [
      'Refactor the parser.',
      '- issue: acme/widgets#7',
      '  issue: acme/widgets#8',
      'Issue: acme/widgets#9',
      'ISSUE: acme/widgets#0',
      'session: unit7',
      'issues: acme/widgets#10',
    ].join('\n');
    const { code, json } = await gate(brief, { runtime: { env, gh } });
    expect(code).toBe(0);
    expect(json).toMatchObject({ verdict: 'allow', issues: [] });
    expect(h.fake.requests).toEqual([]);
  });

  it('reads briefs with CRLF line endings', async () => {
    const ref = h.issue();
    await h.run('claim', { issue: ref, session: 'unit7', lane: 'l', branch: 'feat/x' });
    const { code } = await gate(`issue: ${ref}\r\nsession: unit7\r\n`);
    expect(code).toBe(0);
  });

  it('without anything on stdin, check is a usage error', async () => {
    const { code, stderr } = await h.cli(['check'], { stdin: null });
    expect(code).toBe(2);
    expect(stderr).toContain('stdin');
  });
});
