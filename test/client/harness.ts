import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { renderClaimComment } from '../../src/claims/comment.js';
import { claimTag } from '../../src/claims/identity.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { ClaimMarker, Stage } from '../../src/claims/types.js';
import { type CliIo, cli } from '../../src/client/cli/cli.js';
import { type ClientCommand, commands } from '../../src/client/cli/commands.js';
import { runCommand } from '../../src/client/cli/run-command.js';
import type { CommandResult } from '../../src/client/core/command-result.js';
import { loadClaimKey } from '../../src/client/io/claim-key.js';
import type { ClientRuntime } from '../../src/client/io/runtime.js';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/fake-github.js';
import { type Harness as AppHarness, startHarness } from '../helpers/app-harness.js';

/** The repository every client test works in. */
export const REPO = 'acme/widgets';

/** One test's world: a fake GitHub, a repository, accounts and a config directory. */
export interface Harness {
  readonly fake: FakeGitHub;
  /** The config directory of the default machine (identity key, private names). */
  readonly configDir: string;
  /** The identity key of the default machine. */
  readonly key: Uint8Array;
  /** A runtime acting as `login` on the default machine, with overrides. */
  runtime(login: string, overrides?: Partial<ClientRuntime>): ClientRuntime;
  /** Runs a command through runCommand, as the MCP server does. */
  run(
    name: ClientCommand['name'],
    input: Record<string, unknown>,
    as?: { login?: string; runtime?: Partial<ClientRuntime> },
  ): Promise<CommandResult>;
  /** Runs the CLI in-process. */
  cli(
    argv: readonly string[],
    as?: { login?: string; stdin?: string | null; runtime?: Partial<ClientRuntime> },
  ): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Opens an issue and returns its reference `acme/widgets#N`. */
  issue(options?: Parameters<FakeGitHub['createIssue']>[1]): string;
  /** Posts a claim comment as `author`, backdated by `ageMinutes` (marker and GitHub times). */
  seedClaim(
    ref: string,
    options: {
      author: string;
      session: string;
      lane?: string;
      branch?: string;
      stage?: Stage;
      ageMinutes?: number;
      assignee?: 'claim' | 'before';
      outcome?: ClaimMarker['outcome'];
      plain?: boolean;
      note?: string;
      /** The marker's `updated` instead of the age: a client clock running ahead, say. */
      updated?: Date;
    },
  ): number;
  /** The parsed marker of a comment, or null when it is gone or not a claim. */
  marker(commentId: number): ClaimMarker | null;
  /** The tag of a session (or lane) with the default machine's key. */
  tag(kind: 'session' | 'lane', value: string): string;
  /** The app, when the world runs one (`app: true`): the client then speaks its claims API. */
  readonly app?: AppHarness;
  close(): Promise<void>;
}

/**
 * A fresh fake GitHub with `acme/widgets`, members alice and bob, and mallory (no access).
 * `sameMachineAs` shares another harness's config directory, and so its identity key.
 */
export async function harness(
  options: { sameMachineAs?: Harness; app?: boolean; claimsYml?: string } = {},
): Promise<Harness> {
  // `claimsYml`: the repository's .github/claims.yml, there before the app first reads it.
  const seed = (fake: FakeGitHub) => {
    if (options.claimsYml !== undefined) {
      fake.setFile(REPO, '.github/claims.yml', options.claimsYml);
    }
  };
  // With `app`, the real app runs against the fake (alice and bob collaborators there) and
  // every runtime names it in CLAIM_WARDEN_URL: API mode.
  const app = options.app
    ? await startHarness({ fake: { log: () => undefined }, seed })
    : undefined;
  const fake = app?.fake ?? (await startFakeGitHub({ log: () => undefined }));
  if (!app) {
    fake.addRepo(REPO);
    fake.addUser('alice', { association: 'MEMBER' });
    fake.addUser('bob', { association: 'MEMBER' });
    fake.addUser('mallory');
    seed(fake);
  }
  const shared = options.sameMachineAs?.configDir;
  const configDir = shared ?? (await mkdtemp(join(tmpdir(), 'claim-warden-client-')));
  const key = await loadClaimKey(configDir);
  const noGh = async () => null;

  const runtime = (login: string, overrides: Partial<ClientRuntime> = {}): ClientRuntime => ({
    env: {
      GITHUB_TOKEN: fake.tokenFor(login),
      GITHUB_API_URL: fake.apiUrl,
      CLAIM_WARDEN_CONFIG_DIR: configDir,
      ...(app ? { CLAIM_WARDEN_URL: app.appUrl } : {}),
    },
    now: () => new Date(),
    hostname: () => 'build-host-7',
    deadlineMs: 10_000,
    gh: noGh,
    ...overrides,
  });

  return {
    fake,
    configDir,
    key,
    runtime,
    run(name, input, as = {}) {
      const command = commands.find((c) => c.name === name)!;
      return runCommand(command, input, { runtime: runtime(as.login ?? 'alice', as.runtime) });
    },
    async cli(argv, as = {}) {
      let stdout = '';
      let stderr = '';
      const io: CliIo = {
        runtime: runtime(as.login ?? 'alice', as.runtime),
        readStdin: async () => (as.stdin === undefined ? null : as.stdin),
        stdout: (text) => {
          stdout += text;
        },
        stderr: (text) => {
          stderr += text;
        },
        serveMcp: async () => undefined,
      };
      const code = await cli(argv, io);
      return { code, stdout, stderr };
    },
    issue(options) {
      return `${REPO}#${fake.createIssue(REPO, options)}`;
    },
    seedClaim(ref, options) {
      const at = new Date(Date.now() - (options.ageMinutes ?? 1) * 60_000);
      const tagged = (kind: 'session' | 'lane', value: string) =>
        options.plain ? value : claimTag(key, kind, value);
      const marker: ClaimMarker = {
        session: tagged('session', options.session),
        lane: tagged('lane', options.lane ?? 'lane-a'),
        branch: options.branch ?? 'feat/x',
        started: at,
        updated: options.updated ?? at,
        stage: options.stage ?? 'implementing',
        ...(options.assignee ? { assignee: options.assignee } : {}),
        ...(options.outcome ? { outcome: options.outcome } : {}),
      };
      const body = renderClaimComment(marker, options.note ? { note: options.note } : {});
      return fake.addComment(REPO, issueNumber(ref), {
        author: options.author,
        body,
        createdAt: at,
        updatedAt: at,
      }).id;
    },
    marker(commentId) {
      const comment = fake.comment(commentId);
      return comment ? parseClaimMarker(comment.body ?? '') : null;
    },
    tag: (kind, value) => claimTag(key, kind, value),
    ...(app ? { app } : {}),
    async close() {
      if (app) await app.close();
      else await fake.close();
      if (!shared) await rm(configDir, { recursive: true, force: true });
      // A test passes only on requests GitHub would accept (test/fake-github/openapi.ts).
      fake.assertValid();
    },
  };
}

/**
 * A `world(options)` that starts a {@link harness} and closes it after the test. Newest first:
 * a world sharing another's config directory closes before its owner. Call it at the top
 * level of the test file.
 */
export function worldsPerTest(): (options?: Parameters<typeof harness>[0]) => Promise<Harness> {
  let worlds: Harness[] = [];
  afterEach(async () => {
    for (const w of worlds.reverse()) await w.close();
    worlds = [];
  });
  return async (options = {}) => {
    const h = await harness(options);
    worlds.push(h);
    return h;
  };
}

/**
 * A fixed clock for a clock-skew test (whole seconds, as markers write them) and a marker
 * `updated` one stale window (the default 6h) plus `extraMs` ahead of it.
 */
export function windowAhead(extraMs: number): { now: Date; updated: Date } {
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  return { now, updated: new Date(now.getTime() + 6 * 3_600_000 + extraMs) };
}

/** The number of an `acme/widgets#N` reference. */
/**
 * The argv of `claim <ref>` for `session` on lane-a (its own branch: feat/x for unit7, feat/y
 * for any other), with `--paths` when given.
 */
export function claimArgs(ref: string, session: string, paths?: string): string[] {
  const branch = session === 'unit7' ? 'feat/x' : 'feat/y';
  const args = ['claim', ref, '--session', session, '--lane', 'lane-a', '--branch', branch];
  return paths === undefined ? args : [...args, '--paths', paths];
}

export function issueNumber(ref: string): number {
  return Number(ref.slice(ref.indexOf('#') + 1));
}

/** One rule of `interpose`: what to do around the requests a session sends. */
export interface FetchRule {
  readonly method: string;
  /** Tested on the path after `/api/v3`. */
  readonly path: RegExp;
  /** The matching request (1-based) the rule applies to; every one when absent. */
  readonly nth?: number;
  /** Runs before the request is sent: await a latch here to order sessions. */
  readonly before?: () => Promise<void> | void;
  /** Runs after the answer arrived, before the session sees it. */
  readonly after?: () => Promise<void> | void;
  /** Answer with this status instead of sending the request. */
  readonly status?: number;
}

/**
 * A fetch for one session that runs `rules` around its requests: the way a test orders two
 * sessions' requests exactly (a race written down), or fails one precise request.
 */
export function interpose(rules: readonly FetchRule[]): typeof fetch {
  const seen = new Map<FetchRule, number>();
  return async (input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api\/v3/, '');
    const matching = rules.filter((rule) => {
      if (rule.method !== method || !rule.path.test(path)) return false;
      const count = (seen.get(rule) ?? 0) + 1;
      seen.set(rule, count);
      return rule.nth === undefined || rule.nth === count;
    });
    for (const rule of matching) await rule.before?.();
    const failing = matching.find((rule) => rule.status !== undefined);
    const response = failing
      ? new Response(JSON.stringify({ message: 'injected failure' }), {
          status: failing.status!,
          headers: { 'content-type': 'application/json' },
        })
      : await fetch(input, init);
    for (const rule of matching) await rule.after?.();
    return response;
  };
}

/** A one-shot latch: `fire()` once, `wait` resolves for everyone after. */
export function latch(): { wait: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const wait = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { wait, fire };
}
