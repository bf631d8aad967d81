/**
 * The claims board over HTTP (docs/protocol.md §14): the real app on the fake GitHub, signed
 * in through the fake's OAuth web flow. The browser tests drive the same routes in Chromium.
 */
import { describe, expect, it } from 'vitest';
import { renderClaimComment } from '../../src/claims/comment.js';
import { caller } from '../api/api-helpers.js';
import {
  beginSignIn,
  boardHarness,
  claimIssue,
  claimWithPaths,
  OTHER_REPO,
  REPO,
  setCookie,
  signIn,
} from './board-harness.js';

const get = (url: string, cookie?: string) =>
  fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });

describe.concurrent('the claims board over HTTP', () => {
  it('without GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET every board page is a 404 naming them', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished, { board: false });
    for (const path of ['/claims', '/claims/data.json', '/claims/login']) {
      const response = await get(`${harness.appUrl}${path}`);
      expect(response.status).toBe(404);
      const text = await response.text();
      expect(text).toContain('GITHUB_CLIENT_ID');
      expect(text).toContain('GITHUB_CLIENT_SECRET');
    }
  });

  it('a visitor who is not signed in gets the sign-in page and no data', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    claimIssue(harness.fake, REPO, 'Secret plans', 'alice', 's-1');
    await harness.settle();
    const page = await get(`${harness.appUrl}/claims`);
    expect(page.status).toBe(401);
    const html = await page.text();
    expect(html).toContain('Sign in with GitHub');
    expect(html).not.toContain('Secret plans');
    const data = await get(`${harness.appUrl}/claims/data.json`);
    expect(data.status).toBe(401);
    expect(JSON.stringify(await data.json())).not.toContain('Secret plans');
  });

  it('sign-in sends the browser to GitHub with a state bound to it, then lands on /claims', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    const steps = await beginSignIn(harness, 'alice');
    const authorize = new URL(steps.login.headers.get('location') ?? '');
    expect(`${authorize.origin}${authorize.pathname}`).toBe(
      `${harness.fake.url}/login/oauth/authorize`,
    );
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${harness.appUrl}/claims/callback`);
    expect(steps.stateCookie).toContain(authorize.searchParams.get('state'));
    expect(steps.login.headers.getSetCookie()[0]).toMatch(/HttpOnly; SameSite=Lax/);

    const landed = await get(steps.callback.toString(), steps.stateCookie);
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toBe(`${harness.appUrl}/claims`);
    const cookie = landed.headers.getSetCookie().find((c) => c.startsWith('cw_board_session='))!;
    expect(cookie).toMatch(/; Path=\/claims; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    // The user's token is sealed, never in clear.
    expect(cookie).not.toMatch(/ghu_/);
  });

  it('a signed-in user sees exactly the claims of repositories both they and the app reach', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    const { fake } = harness;
    const mine = claimIssue(fake, REPO, 'Fix <script>alert(1)</script> widget', 'bob', 's-bob', [
      'src/a.ts',
      'docs/',
    ]);
    claimIssue(fake, OTHER_REPO, 'Globex plans', 'bob', 's-globex');
    await harness.settle();

    const alice = await signIn(harness, 'alice');
    const data = await (await get(`${harness.appUrl}/claims/data.json`, alice)).json();
    expect(
      data.claims.map((c: { repo: string; number: number }) => `${c.repo}#${c.number}`),
    ).toEqual([`${REPO}#${mine}`]);
    expect(data.claims[0]).toMatchObject({
      holder: 'bob',
      session: 's-bob',
      branch: 'feat/s-bob',
      stage: 'implementing',
      paths: ['src/a.ts', 'docs/'],
    });
    expect(data.repos).toEqual([{ repo: REPO, live: 1, claimable: 0 }]);

    const page = await get(`${harness.appUrl}/claims`, alice);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Fix &lt;script&gt;alert(1)&lt;/script&gt; widget');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('Globex plans');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");

    const bob = await signIn(harness, 'bob');
    const bobs = await (await get(`${harness.appUrl}/claims/data.json`, bob)).json();
    expect(bobs.claims.map((c: { title: string }) => c.title).sort()).toEqual([
      'Fix <script>alert(1)</script> widget',
      'Globex plans',
    ]);
  });

  it('an issue in review is a row only for those who may see its repository', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    const { fake } = harness;
    const ours = fake.createIssue(REPO, { title: 'Ours to review' });
    const theirs = fake.createIssue(OTHER_REPO, { title: 'Globex review' });
    fake.addLabels(REPO, ours, ['status:needs-review'], { actor: 'maria' });
    fake.addLabels(OTHER_REPO, theirs, ['status:needs-review'], { actor: 'maria' });
    await harness.settle();

    const reviews = async (login: string) => {
      const cookie = await signIn(harness, login);
      const data = await (await get(`${harness.appUrl}/claims/data.json`, cookie)).json();
      return data.claims.map((c: { title: string }) => c.title).sort();
    };
    expect(await reviews('alice')).toEqual(['Ours to review']);
    expect(await reviews('bob')).toEqual(['Globex review', 'Ours to review']);
    const alice = await signIn(harness, 'alice');
    const data = await (await get(`${harness.appUrl}/claims/data.json`, alice)).json();
    expect(data.claims).toMatchObject([
      { kind: 'review', review: null, holder: '', stage: 'needs-review', staleAt: null },
    ]);
    // Not a live claim: the repository line counts none, and the issue is not claimable.
    expect(data.repos).toEqual([{ repo: REPO, live: 0, claimable: 0 }]);
    const html = await (await get(`${harness.appUrl}/claims`, alice)).text();
    expect(html).toContain('0 live claims · 1 in review');
    expect(html).not.toContain('Globex review');
  });

  it('filters by repository, stage and holder through the query string', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    claimIssue(harness.fake, REPO, 'One', 'alice', 's-1');
    claimIssue(harness.fake, REPO, 'Two', 'bob', 's-2');
    await harness.settle();
    const alice = await signIn(harness, 'alice');
    const titles = async (query: string) =>
      (
        (await (await get(`${harness.appUrl}/claims/data.json?${query}`, alice)).json()).claims as {
          title: string;
        }[]
      )
        .map((c) => c.title)
        .sort();
    expect(await titles('')).toEqual(['One', 'Two']);
    expect(await titles('holder=BOB')).toEqual(['Two']);
    expect(await titles('stage=review')).toEqual([]);
    expect(await titles(`repo=${REPO}&stage=implementing`)).toEqual(['One', 'Two']);
    const html = await (await get(`${harness.appUrl}/claims?holder=bob`, alice)).text();
    expect(html).toContain('<option value="bob" selected>');
    expect(html).not.toContain('>One<');
  });

  it('a page view costs no GitHub call once the visibility check is cached', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    claimIssue(harness.fake, REPO, 'One', 'alice', 's-1');
    await harness.settle();
    const alice = await signIn(harness, 'alice');
    await get(`${harness.appUrl}/claims`, alice);
    harness.fake.clearRequests();
    expect((await get(`${harness.appUrl}/claims`, alice)).status).toBe(200);
    expect((await get(`${harness.appUrl}/claims/data.json`, alice)).status).toBe(200);
    expect(harness.fake.requests).toEqual([]);
  });

  it('a wrong or missing state gets no session', async ({ onTestFinished }) => {
    const harness = await boardHarness(onTestFinished);
    const steps = await beginSignIn(harness, 'alice');
    const other = await beginSignIn(harness, 'alice');
    for (const cookie of [undefined, other.stateCookie, `${steps.stateCookie}x`]) {
      const landed = await get(steps.callback.toString(), cookie);
      expect(landed.status).toBe(400);
      expect(setCookie(landed, 'cw_board_session')).toBeUndefined();
    }
  });

  it('a tampered session cookie gets no session', async ({ onTestFinished }) => {
    const harness = await boardHarness(onTestFinished);
    const alice = await signIn(harness, 'alice');
    const [name, value] = alice.split('=') as [string, string];
    const flipped = value.slice(0, -2) + (value.at(-2) === 'A' ? 'B' : 'A') + value.at(-1);
    for (const cookie of [`${name}=${flipped}`, `${name}=${value.slice(0, 40)}`, `${name}=v1.`]) {
      expect((await get(`${harness.appUrl}/claims/data.json`, cookie)).status).toBe(401);
      expect((await get(`${harness.appUrl}/claims`, cookie)).status).toBe(401);
    }
  });

  it('a token GitHub no longer takes ends the session', async ({ onTestFinished }) => {
    const harness = await boardHarness(onTestFinished);
    const alice = await signIn(harness, 'alice');
    harness.fake.revokeUserAccessTokens('alice');
    const response = await get(`${harness.appUrl}/claims/data.json`, alice);
    expect(response.status).toBe(401);
    expect(response.headers.getSetCookie()[0]).toMatch(
      /^cw_board_session=; Path=\/claims; Max-Age=0/,
    );
  });

  it('sign-out needs the token of the page it was served on, and clears the session', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    const alice = await signIn(harness, 'alice');
    const html = await (await get(`${harness.appUrl}/claims`, alice)).text();
    const token = /name="token" value="([^"]+)"/.exec(html)![1]!;
    const post = (body: string) =>
      fetch(`${harness.appUrl}/claims/logout`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: alice, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    expect((await post('token=forged')).status).toBe(403);
    const out = await post(`token=${encodeURIComponent(token)}`);
    expect(out.status).toBe(303);
    expect(out.headers.getSetCookie()[0]).toMatch(
      /^cw_board_session=; Path=\/claims; Max-Age=0; HttpOnly; SameSite=Lax/,
    );
  });

  it('behind an https CLAIMS_PUBLIC_URL the callback uses it and the cookies are Secure', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished, {
      env: { CLAIMS_PUBLIC_URL: 'https://claims.example.com' },
    });
    const start = await get(`${harness.appUrl}/claims/login`);
    const authorize = new URL(start.headers.get('location') ?? '');
    expect(authorize.searchParams.get('redirect_uri')).toBe(
      'https://claims.example.com/claims/callback',
    );
    expect(start.headers.getSetCookie()[0]).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
  });

  it('lists the last 24 hours of expiries, losses and takeovers', async ({ onTestFinished }) => {
    const harness = await boardHarness(onTestFinished);
    const { fake } = harness;
    const n = claimIssue(fake, REPO, 'Raced', 'alice', 's-first');
    fake.addComment(REPO, n, { author: 'bob', body: claimWithPaths('s-second') });
    await harness.settle();
    const alice = await signIn(harness, 'alice');
    const data = await (await get(`${harness.appUrl}/claims/data.json`, alice)).json();
    expect(data.changes).toEqual([
      expect.objectContaining({
        kind: 'loss',
        repo: REPO,
        number: n,
        title: 'Raced',
        author: 'bob',
        session: 's-second',
        by: { login: 'alice', session: 's-first' },
      }),
    ]);
  });

  it('a heartbeat of the holder moves its row and the work queue’s claim at once, though it costs no reconcile', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    const { fake } = harness;
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    const marker = {
      session: 's-1',
      lane: 'lane-1',
      branch: 'feat/s-1',
      started: twoHoursAgo,
      updated: twoHoursAgo,
      stage: 'implementing' as const,
      assignee: 'claim' as const,
    };
    const n = fake.createIssue(REPO, { title: 'Busy' });
    const comment = fake.addComment(REPO, n, {
      author: 'alice',
      body: renderClaimComment(marker),
      createdAt: twoHoursAgo,
      updatedAt: twoHoursAgo,
    });
    await harness.settle();
    const alice = await signIn(harness, 'alice');
    const before = (await (await get(`${harness.appUrl}/claims/data.json`, alice)).json())
      .claims[0];
    expect(Date.parse(before.heartbeat)).toBe(Math.floor(twoHoursAgo.getTime() / 1000) * 1000);

    const beat = new Date();
    fake.editComment(comment.id, renderClaimComment({ ...marker, updated: beat, stage: 'review' }));
    fake.clearRequests();
    await harness.settle();
    expect(fake.requests).toEqual([]);
    const after = (await (await get(`${harness.appUrl}/claims/data.json`, alice)).json()).claims[0];
    expect(after.stage).toBe('review');
    expect(Date.parse(after.heartbeat)).toBe(Math.floor(beat.getTime() / 1000) * 1000);
    // docs/protocol.md §3: stale one second past the 6-hour window, as the claim object says.
    expect(Date.parse(after.staleAt) - Date.parse(after.heartbeat)).toBe(6 * 3_600_000 + 1000);
    // One index: the work queue shows the holder as the board does.
    const queue = await caller(harness.appUrl, fake, 'alice').get('/issues?claimable=false');
    expect(queue.body.items.map((i: { claim: object }) => i.claim)).toEqual([
      expect.objectContaining({
        commentId: comment.id,
        stage: 'review',
        heartbeat: after.heartbeat,
        staleAt: after.staleAt,
      }),
    ]);
  });
});
