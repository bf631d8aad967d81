import type { ProbotOctokit } from 'probot';
import { loadRepoConfig } from '../../config/load-repo-config.js';
import type { ResolvedRepoConfig } from '../../config/repo-config.js';
import { KnownLabels } from '../../github/execute.js';
import { unverifiable } from '../core/client-error.js';
import { apiUrl, ghHostOf } from './api-url.js';
import { claimsApiUrl } from './app-url.js';
import { loadClaimKey } from './claim-key.js';
import { type ClaimsApi, claimsApiClient } from './claims-api-client.js';
import { configDir } from './config-dir.js';
import { describeFailure } from './describe-failure.js';
import { githubClient } from './github-client.js';
import { loadPrivateNames } from './private-names.js';
import { resolveToken } from './resolve-token.js';
import type { ClientRuntime } from './runtime.js';
import { type ProtectedValue, type TextGuard, textGuard } from './text-guard.js';

/** What one command runs on: GitHub, the key, the guard, a clock. */
export interface Desk {
  readonly octokit: ProbotOctokit;
  /** The HMAC key of identity tags; never printed. */
  readonly key: Uint8Array;
  /** Guards every write of this command: the operation's identities plus `baseline`. */
  readonly guard: TextGuard;
  /** The hostname and private names, protected in every operation. */
  readonly baseline: readonly ProtectedValue[];
  readonly now: () => Date;
  readonly signal: AbortSignal;
  /** The operator's stale window (`--stale-after`), which a repository's config overrides. */
  readonly staleAfterMs: number;
  readonly knownLabels: KnownLabels;
  /**
   * The claims API of the app `CLAIM_WARDEN_URL` names, with this desk's token; null when it
   * is unset and the commands talk to GitHub directly (docs/protocol.md §8).
   */
  readonly api: ClaimsApi | null;
  /** The login the token belongs to (`GET /user`), asked once. */
  login(): Promise<string>;
  /** The repository's `.github/claims.yml`, resolved and validated, asked once per repo. */
  repoConfig(owner: string, repo: string): Promise<ResolvedRepoConfig>;
}

/** What a command brings to its desk. */
interface DeskOptions {
  /** `--token`, which beats GITHUB_TOKEN and `gh auth token`. */
  readonly token?: string | undefined;
  readonly signal: AbortSignal;
  readonly staleAfterMs: number;
  /** The session and lane of the operation, protected from public text. */
  readonly identities?: readonly ProtectedValue[];
}

/**
 * Opens a desk: reads the identity key and private names, finds the token, and builds the
 * octokit. Local setup problems surface here as setup errors, before any request is made.
 */
export async function openDesk(runtime: ClientRuntime, options: DeskOptions): Promise<Desk> {
  const baseUrl = apiUrl(runtime.env);
  const appApi = claimsApiUrl(runtime.env);
  const dir = configDir(runtime.env, runtime.platform);
  const [key, privateNames, token] = await Promise.all([
    loadClaimKey(dir),
    loadPrivateNames(dir),
    resolveToken({
      flag: options.token,
      env: runtime.env,
      gh: runtime.gh,
      host: ghHostOf(baseUrl),
      signal: options.signal,
    }),
  ]);
  const baseline: ProtectedValue[] = [
    { kind: 'hostname', value: runtime.hostname() },
    ...privateNames.map((value) => ({ kind: 'private name' as const, value })),
  ];
  const guard = textGuard([...(options.identities ?? []), ...baseline]);
  const octokit = githubClient({
    token,
    baseUrl,
    signal: options.signal,
    guard,
    ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
  });

  let login: Promise<string> | undefined;
  const configs = new Map<string, Promise<ResolvedRepoConfig>>();
  return {
    octokit,
    key,
    guard,
    baseline,
    now: runtime.now,
    signal: options.signal,
    staleAfterMs: options.staleAfterMs,
    knownLabels: new KnownLabels(),
    api:
      appApi === null
        ? null
        : claimsApiClient({
            baseUrl: appApi,
            token,
            signal: options.signal,
            ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
          }),
    login() {
      login ??= octokit.rest.users.getAuthenticated().then(
        ({ data }) => data.login,
        (error: unknown) => {
          // A GitHub App installation token cannot read /user: claims are made by a user.
          throw unverifiable(
            `could not tell which account the token belongs to (GET /user): ${describeFailure(error)}; claims need a user token, such as gh's or a personal access token`,
            {},
            error,
          );
        },
      );
      return login;
    },
    repoConfig(owner, repo) {
      const id = `${owner}/${repo}`.toLowerCase();
      let config = configs.get(id);
      if (!config) {
        config = readRepoConfig(octokit, owner, repo, options.staleAfterMs);
        configs.set(id, config);
      }
      return config;
    },
  };
}

/**
 * The repository's config through the app's own loader, so the client and the app agree on
 * the stale window, the label names and the trusted bots. docs/protocol.md §6: a config that is invalid
 * or unreadable leaves the facts unknown, so the command is unverifiable, naming the field.
 */
async function readRepoConfig(
  octokit: ProbotOctokit,
  owner: string,
  repo: string,
  staleAfterMs: number,
): Promise<ResolvedRepoConfig> {
  const result = await loadRepoConfig(octokit, { owner, repo }, { staleAfterMs });
  switch (result.kind) {
    case 'absent':
    case 'loaded':
      return result.config;
    case 'invalid':
      throw unverifiable(`the claims config of ${owner}/${repo} is invalid: ${result.error}`, {
        config: 'invalid',
      });
    case 'unreadable':
      throw unverifiable(
        `the claims config of ${owner}/${repo} could not be read: ${result.message}`,
        { config: 'unreadable' },
        result.error,
      );
  }
}
