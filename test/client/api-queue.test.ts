/**
 * `claim-warden list` (the app's work queue, docs/protocol.md §9), the app-only commands
 * without CLAIM_WARDEN_URL, and the failures of API mode, through the real app's server on
 * the fake GitHub.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFailure } from '../../src/client/commands/api/api-failure.js';
import { freePort } from '../helpers/app-harness.js';
import { claimArgs, type Harness, harness, issueNumber, REPO, worldsPerTest } from './harness.js';

const world = worldsPerTest();

describe('claim-warden list', () => {
  it('lists the queue oldest first, with the holder, as text and as --json', async () => {
    const h = await world({ app: true });
    const free = h.issue({ title: 'Fix the widget', labels: ['bug'] });
    const held = h.issue({ title: 'Speed up the gears' });
    expect((await h.cli(claimArgs(held, 'unit7'))).code).toBe(0);
    await h.app!.settle();

    const text = await h.cli(['list']);
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout.trimEnd().split('\n')).toEqual([
      `${free} Fix the widget [bug]: free`,
      expect.stringMatching(
        new RegExp(
          `^${held.replace('#', '#')} Speed up the gears \\[status:in-progress\\]: held: comment \\d+ by @alice: session ${h.tag('session', 'unit7')}, lane ${h.tag('lane', 'lane-a')}, branch feat/x, stage claimed, last update `,
        ),
      ),
    ]);

    const json = await h.cli(['list', '--json']);
    const body = JSON.parse(json.stdout);
    expect(body).toMatchObject({ status: 'ok', exitCode: 0, nextCursor: null });
    expect(body.items.map((i: { issue: { number: number } }) => i.issue.number)).toEqual([
      issueNumber(free),
      issueNumber(held),
    ]);
    expect(body.items[0]).toMatchObject({
      issue: { title: 'Fix the widget', labels: ['bug'] },
      claim: null,
    });
    expect(body.items[1].claim).toMatchObject({
      author: 'alice',
      session: h.tag('session', 'unit7'),
      live: true,
    });
  });

  it('pages with --limit and --cursor, and --all follows nextCursor to the end', async () => {
    const h = await world({ app: true });
    const refs = [1, 2, 3].map(() => h.issue({ title: 'work' }));
    await h.app!.settle();
    const first = JSON.parse((await h.cli(['list', '--limit', '2', '--json'])).stdout);
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const text = await h.cli(['list', '--limit', '2']);
    expect(text.stdout).toContain(`--cursor ${first.nextCursor}`);
    const second = JSON.parse(
      (await h.cli(['list', '--limit', '2', '--cursor', first.nextCursor, '--json'])).stdout,
    );
    expect(second).toMatchObject({
      nextCursor: null,
      items: [{ issue: { number: issueNumber(refs[2]!) } }],
    });
    const all = JSON.parse((await h.cli(['list', '--limit', '1', '--all', '--json'])).stdout);
    expect(all.items.map((i: { issue: { number: number } }) => i.issue.number)).toEqual(
      refs.map(issueNumber),
    );
    expect(all.nextCursor).toBeNull();
  });

  it.each([
    [['list', '--limit', '0'], 'is not a whole number from 1 to 100'],
    [['list', '--all', '--cursor', 'abc'], '--all starts at the first page'],
    [['list', '--repo', 'nope'], 'is not a repository'],
    [['list', 'extra'], 'list takes no arguments'],
  ])('%j is a usage error (exit 2): %s', async (args, message) => {
    const h = await world({ app: true });
    const { code, stderr } = await h.cli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('without CLAIM_WARDEN_URL, list and paths check say to set it (exit 2) and ask nobody', async () => {
    const h = await world();
    for (const args of [['list'], ['paths', 'check', 'src/a.ts', '--repo', REPO]]) {
      const { code, stderr } = await h.cli(args);
      expect(code).toBe(2);
      expect(stderr).toContain('set CLAIM_WARDEN_URL');
    }
    expect(h.fake.requests).toEqual([]);
  });

  it('a page the app cannot verify is unverifiable (exit 3), never an empty queue', async () => {
    const h = await world({ app: true });
    h.issue();
    await h.app!.settle();
    h.fake.inject({ method: 'GET', path: '/user', status: 502, times: Infinity });
    const { code, stderr } = await h.cli(['list']);
    h.fake.clearInjections();
    expect(code).toBe(3);
    expect(stderr).toContain('UNVERIFIABLE');
  });
});

describe('claim-warden list filters', () => {
  // One world for the table: the filters only read.
  let h: Harness;
  let issues: { free: string; held: string };
  beforeAll(async () => {
    h = await harness({ app: true });
    issues = {
      free: h.issue({ title: 'free one', labels: ['bug'] }),
      held: h.issue({ title: 'held one' }),
    };
    expect((await h.cli(claimArgs(issues.held, 'unit7'))).code).toBe(0);
    await h.app!.settle();
  });
  afterAll(async () => {
    await h.close();
  });

  it.each([
    [['--claimable'], ['free']],
    [['--claimed-by', 'me'], ['held']],
    [['--claimed-by', 'bob'], []],
    [['--assigned-to-me'], ['held']],
    [['--label', 'bug'], ['free']],
    [['--repo', REPO, '--claimable', '--label', 'bug'], ['free']],
    [['--repo', 'acme/elsewhere'], []],
  ])('list %j gives the matching issues', async (flags, expected) => {
    const { code, stdout } = await h.cli(['list', ...flags, '--json']);
    expect(code).toBe(0);
    const numbers = JSON.parse(stdout).items.map(
      (i: { issue: { number: number } }) => i.issue.number,
    );
    expect(numbers).toEqual(expected.map((k) => issueNumber(issues[k as keyof typeof issues])));
  });
});

describe('API mode failures', () => {
  it('an app that does not answer is unverifiable (exit 3) and the token is never printed', async () => {
    const h = await world();
    const ref = h.issue();
    const port = await freePort();
    const env = { ...h.runtime('alice').env, CLAIM_WARDEN_URL: `http://127.0.0.1:${port}` };
    const result = await h.cli([...claimArgs(ref, 'unit7'), '--json'], { runtime: { env } });
    expect(result.code).toBe(3);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({ status: 'unverifiable', exitCode: 3 });
    expect(json.message).toContain(
      `the claims app at http://127.0.0.1:${port}/api/claims/v1 did not answer`,
    );
    expect(result.stdout + result.stderr).not.toContain(h.fake.tokenFor('alice'));
    expect(h.fake.comments(REPO, issueNumber(ref))).toEqual([]);
  });

  it('list while the app is down says which app did not answer and what to check', async () => {
    const h = await world();
    const port = await freePort();
    const env = { ...h.runtime('alice').env, CLAIM_WARDEN_URL: `http://127.0.0.1:${port}` };
    const result = await h.cli(['list'], { runtime: { env } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `the claims app at http://127.0.0.1:${port}/api/claims/v1 did not answer GET`,
    );
    expect(result.stderr).toContain('check that it runs and that CLAIM_WARDEN_URL names it');
    expect(result.stderr).not.toContain('the claim is');
  });

  it('the app answering 503 UNVERIFIABLE is unverifiable (exit 3), with its retry-after', async () => {
    // The app's own 503 (GitHub failing under it) is tested in test/api; here its answer, as
    // it writes it, reaches the client, which must not read it as held or free.
    const h = await world({ app: true });
    const ref = h.issue();
    const fetch503: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.includes('/api/claims/v1/')) return fetch(input, init);
      return new Response(
        JSON.stringify({
          error: {
            code: 'UNVERIFIABLE',
            message: 'GitHub failed reading the thread; retry in 7 s',
          },
        }),
        { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '7' } },
      );
    };
    const { code, stdout } = await h.cli([...claimArgs(ref, 'unit7'), '--json'], {
      runtime: { fetch: fetch503 },
    });
    expect(code).toBe(3);
    expect(JSON.parse(stdout)).toMatchObject({
      status: 'unverifiable',
      code: 'UNVERIFIABLE',
      retryAfterS: 7,
    });
    expect(h.fake.comments(REPO, issueNumber(ref))).toEqual([]);
  });

  it('a caller without write access is refused (exit 1) and writes nothing', async () => {
    const h = await world({ app: true });
    const ref = h.issue();
    const { code, stdout } = await h.cli([...claimArgs(ref, 'unit7'), '--json'], {
      login: 'mallory',
    });
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ reason: 'untrusted', code: 'NOT_TRUSTED' });
    expect(h.fake.comments(REPO, issueNumber(ref))).toEqual([]);
  });

  it.each([
    [
      422,
      { code: 'INVALID_INPUT', message: 'fix paths', details: { fields: { paths: 'absent' } } },
      'usage',
      'paths must be absent',
    ],
    [
      401,
      { code: 'UNAUTHENTICATED', message: 'GitHub refused the token' },
      'unverifiable',
      'could not tell which account',
    ],
    [
      403,
      { code: 'NOT_TRUSTED', message: 'ask a maintainer' },
      'refused',
      'NOT_TRUSTED: ask a maintainer',
    ],
    [404, { code: 'NOT_FOUND', message: 'no such issue' }, 'unverifiable', 'was not found'],
    [
      503,
      { code: 'UNVERIFIABLE', message: 'retry in 5 s' },
      'unverifiable',
      'UNVERIFIABLE: retry in 5 s',
    ],
    [500, null, 'unverifiable', 'answered 500'],
  ])(
    'an answer %i is a %s result with the exit code of direct mode',
    (status, error, kind, text) => {
      const failure = apiFailure('acme/widgets#1', { status, body: error ? { error } : null });
      expect(failure.kind).toBe(kind);
      expect(failure.message).toContain(text);
    },
  );
});
