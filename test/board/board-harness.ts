import { claimComment, harnessFor, type OnFinished } from '../e2e/e2e-helpers.js';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { type Harness, REPO } from '../helpers/app-harness.js';

/** A second organisation, installed too, that alice cannot reach and bob can. */
export const OTHER_REPO = 'globex/secret';

/**
 * The real app on the fake GitHub with the board's sign-in configured (the fake's OAuth
 * client), and a second installation on globex/secret that alice has no access to.
 */
export async function boardHarness(
  onFinished: OnFinished,
  options: { env?: Record<string, string>; board?: boolean; captureLogs?: boolean } = {},
): Promise<Harness> {
  // Filled in by `seed`, which runs before the app's environment is built.
  const env: Record<string, string> = { ...options.env };
  return harnessFor(onFinished, {
    env,
    ...(options.captureLogs ? { captureLogs: true } : {}),
    seed: (fake) => {
      fake.addInstallation({ id: nextOtherInstallation++, account: 'globex', repos: [OTHER_REPO] });
      fake.addUser('alice', { association: 'COLLABORATOR', repos: { [OTHER_REPO]: 'NONE' } });
      if (options.board !== false) {
        env.GITHUB_CLIENT_ID = fake.oauth.client.clientId;
        env.GITHUB_CLIENT_SECRET = fake.oauth.client.clientSecret;
      }
    },
  });
}

/** Installation ids differ per harness: octokit's throttling groups writes by installation. */
let nextOtherInstallation = 9_000;

/** A claim comment, optionally naming paths on its second line (docs/protocol.md §10). */
export function claimWithPaths(session: string, paths: readonly string[] = []): string {
  const [marker, ...rest] = claimComment(session, { stage: 'implementing' }).split('\n');
  const line = paths.length ? [`<!-- claim-paths v=1 paths=${paths.join(',')} -->`] : [];
  return [marker, ...line, ...rest].join('\n');
}

/** Posts an issue with `title` and a claim on it by `author`; returns the issue number. */
export function claimIssue(
  fake: FakeGitHub,
  repo: string,
  title: string,
  author: string,
  session: string,
  paths: readonly string[] = [],
): number {
  const n = fake.createIssue(repo, { title });
  fake.addComment(repo, n, { author, body: claimWithPaths(session, paths) });
  return n;
}

export { REPO };

/** The `name=value` part of a response's Set-Cookie for `name`, or undefined. */
export function setCookie(response: Response, name: string): string | undefined {
  return response.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];
}

/** Each step of a sign-in as a browser makes it, over plain HTTP (no redirects followed). */
export interface SignInSteps {
  readonly login: Response;
  readonly stateCookie: string;
  /** The callback URL GitHub redirected to, with `code` and `state`. */
  readonly callback: URL;
}

/** Where a sign-in goes: the app (any replica) and the fake GitHub it signs in with. */
export type SignInTarget = Pick<Harness, 'appUrl'> & { readonly fake: Pick<FakeGitHub, 'url'> };

/** /claims/login, then GitHub's authorize page approved as `login`. */
export async function beginSignIn(harness: SignInTarget, login: string): Promise<SignInSteps> {
  const start = await fetch(`${harness.appUrl}/claims/login`, { redirect: 'manual' });
  const authorize = new URL(start.headers.get('location') ?? '');
  const stateCookie = setCookie(start, 'cw_board_state') ?? '';
  const approved = await fetch(`${harness.fake.url}/login/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: authorize.searchParams.get('client_id') ?? '',
      redirect_uri: authorize.searchParams.get('redirect_uri') ?? '',
      state: authorize.searchParams.get('state') ?? '',
      login,
    }),
  });
  return { login: start, stateCookie, callback: new URL(approved.headers.get('location') ?? '') };
}

/** A whole sign-in as `login`: the session cookie (`cw_board_session=…`). */
export async function signIn(harness: SignInTarget, login: string): Promise<string> {
  const { stateCookie, callback } = await beginSignIn(harness, login);
  const landed = await fetch(callback, { redirect: 'manual', headers: { cookie: stateCookie } });
  const session = setCookie(landed, 'cw_board_session');
  if (landed.status !== 303 || !session) throw new Error(`sign-in failed: ${landed.status}`);
  return session;
}
