/**
 * Signing out of the claims board (docs/protocol.md §14): the real app on the fake GitHub,
 * signed in through the fake's OAuth web flow, a copy of the session cookie kept as an
 * attacker who copied it would keep it. Sign-out ends the session for every copy, on every
 * replica, and revokes the user's token at GitHub.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { type Cluster, startCluster } from '../replicas/harness.js';
import { boardHarness, claimIssue, REPO, type SignInTarget, signIn } from './board-harness.js';

/** A private repository of the installed organisation that alice collaborates on. */
const PRIVATE_REPO = 'acme/private-plans';

const get = (url: string, cookie: string) =>
  fetch(url, { redirect: 'manual', headers: { cookie } });

/** Signs out as the board page does: its form, with the token only that page knows. */
async function signOut(appUrl: string, cookie: string): Promise<Response> {
  const html = await (await get(`${appUrl}/claims`, cookie)).text();
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('the board page has no sign-out form');
  return postLogout(appUrl, cookie, token);
}

function postLogout(appUrl: string, cookie: string, token: string): Promise<Response> {
  return fetch(`${appUrl}/claims/logout`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: `token=${encodeURIComponent(token)}`,
  });
}

/** What a visitor without a session gets: 401 and the sign-in page, no data, no trace. */
async function expectRefused(appUrl: string, cookie: string, secret?: string): Promise<void> {
  const page = await get(`${appUrl}/claims`, cookie);
  expect(page.status).toBe(401);
  const html = await page.text();
  expect(html).toContain('Sign in with GitHub');
  if (secret) expect(html).not.toContain(secret);
  expect(page.headers.getSetCookie()[0]).toMatch(/^cw_board_session=; Path=\/claims; Max-Age=0/);
  const data = await get(`${appUrl}/claims/data.json`, cookie);
  expect(data.status).toBe(401);
  const body = await data.json();
  expect(body).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'sign in at /claims first' } });
}

/** The revocation requests the fake GitHub answered. */
function revokeCalls(fake: FakeGitHub) {
  return fake.requests.filter(
    (r) => r.method === 'DELETE' && r.path === `/applications/${fake.oauth.client.clientId}/token`,
  );
}

describe.concurrent('signing out of the claims board', () => {
  it('a kept copy of the cookie reads nothing after sign-out, private claims included', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    harness.fake.addRepo(PRIVATE_REPO, { private: true });
    claimIssue(harness.fake, PRIVATE_REPO, 'Private acquisition plans', 'bob', 's-bob');
    claimIssue(harness.fake, REPO, 'Public widget', 'bob', 's-bob-2');
    await harness.settle();

    const alice = await signIn(harness, 'alice');
    const copy = alice;
    const before = await get(`${harness.appUrl}/claims/data.json`, copy);
    expect(before.status).toBe(200);
    expect(JSON.stringify(await before.json())).toContain('Private acquisition plans');

    const out = await signOut(harness.appUrl, alice);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe(`${harness.appUrl}/claims`);

    await expectRefused(harness.appUrl, copy, 'Private acquisition plans');
  });

  it('sign-out revokes the user token at GitHub exactly once', async ({ onTestFinished }) => {
    const harness = await boardHarness(onTestFinished);
    const { fake } = harness;
    const alice = await signIn(harness, 'alice');
    const issued = fake.oauth.issued.filter((t) => t.login === 'alice');
    expect(issued).toHaveLength(1);
    const html = await (await get(`${harness.appUrl}/claims`, alice)).text();
    const token = /name="token" value="([^"]+)"/.exec(html)![1]!;

    // A form another site posts has no token (and SameSite=Lax keeps the cookie off it).
    expect((await postLogout(harness.appUrl, alice, 'forged')).status).toBe(403);
    expect((await get(`${harness.appUrl}/claims/data.json`, alice)).status).toBe(200);
    expect(revokeCalls(fake)).toEqual([]);

    expect((await postLogout(harness.appUrl, alice, token)).status).toBe(303);
    // The same form posted again (a second tab, a replay) ends nothing more and revokes nothing.
    expect((await postLogout(harness.appUrl, alice, token)).status).toBe(303);

    expect(fake.oauth.revocations).toEqual([{ login: 'alice', token: issued[0]!.token }]);
    expect(revokeCalls(fake)).toHaveLength(1);
    expect(revokeCalls(fake)[0]!.status).toBe(204);
    // GitHub no longer takes the token.
    const user = await fetch(`${fake.apiUrl}/user`, {
      headers: { authorization: `token ${issued[0]!.token}` },
    });
    expect(user.status).toBe(401);
  });

  it('a revocation GitHub refuses is logged without the token, and the session still ends', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished, {
      env: { LOG_LEVEL: 'warn' },
      captureLogs: true,
    });
    const { fake } = harness;
    const alice = await signIn(harness, 'alice');
    const token = fake.oauth.issued.find((t) => t.login === 'alice')!.token;
    fake.inject({
      method: 'DELETE',
      path: /^\/applications\/[^/]+\/token$/,
      status: 502,
      times: Infinity,
    });

    const out = await signOut(harness.appUrl, alice);
    expect(out.status).toBe(303);
    expect(out.headers.getSetCookie()[0]).toMatch(/^cw_board_session=; Path=\/claims; Max-Age=0/);
    await expectRefused(harness.appUrl, alice);

    expect(revokeCalls(fake).map((r) => r.status)).toEqual([502]);
    const warned = harness.logLines.filter((line) => line.includes('board sign-out'));
    expect(warned.join('\n')).toMatch(/GitHub did not revoke/);
    expect(harness.logLines.join('\n')).not.toContain(token);
    expect(harness.logLines.join('\n')).not.toContain(fake.oauth.client.clientSecret);
  });
});

describe('signing out with replicas on Redis', () => {
  let cluster: Cluster | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  it('signing out on one replica makes the copy refused on the other at once', async () => {
    // Filled in by `seed`, which runs before any replica's environment is built.
    const env: Record<string, string> = {};
    cluster = await startCluster({
      replicas: 2,
      env,
      seed: (fake) => {
        env.GITHUB_CLIENT_ID = fake.oauth.client.clientId;
        env.GITHUB_CLIENT_SECRET = fake.oauth.client.clientSecret;
      },
    });
    const [one, two] = cluster.replicas;
    const on = (replica: typeof one): SignInTarget => ({
      appUrl: replica!.url,
      fake: cluster!.fake,
    });
    const alice = await signIn(on(one), 'alice');
    const copy = alice;
    expect((await get(`${two!.url}/claims/data.json`, copy)).status).toBe(200);

    expect((await signOut(one!.url, alice)).status).toBe(303);

    await expectRefused(two!.url, copy);
    await expectRefused(one!.url, copy);
    expect(cluster.fake.oauth.revocations.map((r) => r.login)).toEqual(['alice']);
  });
});
