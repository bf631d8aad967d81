import { z } from 'zod';
import type { DecideConfig } from '../claims/decide-config.js';
import { durationSchema } from './duration.js';

/** Where a repository's config lives; the org's `.github` repository holds org-wide defaults. */
export const REPO_CONFIG_PATH = '.github/claims.yml';

/** The labels used when the config names none (docs/protocol.md §4). */
export const DEFAULT_LABELS = {
  inProgress: 'status:in-progress',
  blocked: 'status:blocked',
} as const;

// GitHub refuses label names longer than 50 characters; counting code points keeps an emoji
// one character, as GitHub counts it.
const LABEL_MESSAGE =
  'must be a label name of 1 to 50 characters, without leading or trailing spaces';
const LabelName = z
  .string({ error: LABEL_MESSAGE })
  .refine((name) => name.trim() === name && [...name].length >= 1 && [...name].length <= 50, {
    error: LABEL_MESSAGE,
  });

// A user login (1..39 letters, digits, single inner hyphens) or an app's bot account,
// `slug[bot]` (docs/protocol.md §2: agents that post as an app show up with that login).
const LOGIN = /^[a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38}(?:\[bot\])?$/i;
const LOGIN_MESSAGE = 'must be a GitHub login such as "my-agent[bot]" (no @, no spaces)';
const GitHubLogin = z.string({ error: LOGIN_MESSAGE }).regex(LOGIN, { error: LOGIN_MESSAGE });

const BOOLEAN_MESSAGE = 'must be true or false';
const LABELS_MESSAGE = 'must be a list of label names such as ["good first issue"]';

/** `mode` in claims.yml: `observe` decides and logs what it would write, and writes nothing. */
export const ROLLOUT_MODES = ['enforce', 'observe'] as const;

/** A value of `mode` in claims.yml. */
export type RolloutMode = (typeof ROLLOUT_MODES)[number];

// docs/protocol.md §13: whom an expiry note mentions besides the claim's author: a login
// (with or without @) or a team as @org/team-slug.
const NOTIFY_MESSAGE =
  'must be a GitHub login such as "alice" or a team such as "@acme/maintainers"';
const NotifyTarget = z
  .string({ error: NOTIFY_MESSAGE })
  .regex(/^@?[a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38}(?:\/[a-z\d][a-z\d_.-]{0,99})?$/i, {
    error: NOTIFY_MESSAGE,
  })
  .transform((target) => target.replace(/^@/, ''));

/** What a pull request's check run concludes when it touches held paths (docs/protocol.md §11). */
export const PATH_GUARDS = ['fail', 'warn', 'off'] as const;

/** `pathGuard`: `failure`, `neutral`, or no check run at all. */
export type PathGuard = (typeof PATH_GUARDS)[number];

/** The shortest stale window a repository may set (`staleAfter`, docs/protocol.md §7). */
export const MIN_STALE_AFTER = '10m';

/**
 * `.github/claims.yml` as a repository writes it (docs/protocol.md §7). Strict: an unknown key is an error,
 * so a typo such as `stalAfter` is reported instead of silently ignored. Every field is
 * optional; resolveRepoConfig fills in the defaults.
 */
export const RepoConfig = z
  .strictObject({
    staleAfter: durationSchema(MIN_STALE_AFTER, '720h', '6h').optional(),
    labels: z
      .strictObject(
        { inProgress: LabelName.optional(), blocked: LabelName.optional() },
        { error: 'must be a mapping with inProgress and/or blocked' },
      )
      .optional(),
    assign: z.boolean({ error: BOOLEAN_MESSAGE }).optional(),
    notifyOnExpiry: z.boolean({ error: BOOLEAN_MESSAGE }).optional(),
    enforceLabels: z.boolean({ error: BOOLEAN_MESSAGE }).optional(),
    trustedBots: z
      .array(GitHubLogin, { error: 'must be a list of GitHub logins such as ["my-agent[bot]"]' })
      .optional(),
    notify: z
      .array(NotifyTarget, {
        error: 'must be a list of logins or teams such as ["alice", "@acme/maintainers"]',
      })
      .optional(),
    // docs/protocol.md §11: the pull-request guard and branch heartbeats.
    pathGuard: z.enum(PATH_GUARDS, { error: 'must be one of fail, warn or off' }).optional(),
    heartbeatOnPush: z.boolean({ error: BOOLEAN_MESSAGE }).optional(),
    // docs/protocol.md §15: roll out in observe mode first, or turn one repository off.
    mode: z
      .enum(ROLLOUT_MODES, { error: 'must be enforce or observe (decide and log, write nothing)' })
      .optional(),
    enabled: z.boolean({ error: BOOLEAN_MESSAGE }).optional(),
    queue: z
      .strictObject(
        {
          labels: z.array(LabelName, { error: LABELS_MESSAGE }).optional(),
          exclude: z.array(LabelName, { error: LABELS_MESSAGE }).optional(),
        },
        { error: 'must be a mapping with labels and/or exclude' },
      )
      .optional(),
  })
  .superRefine((config, ctx) => {
    // One label for both states would be added and removed in turn: refuse it. GitHub
    // compares label names without regard to case.
    const inProgress = config.labels?.inProgress ?? DEFAULT_LABELS.inProgress;
    const blocked = config.labels?.blocked ?? DEFAULT_LABELS.blocked;
    // Runs only on well-typed labels: a wrong type is reported by its own field.
    if (typeof inProgress !== 'string' || typeof blocked !== 'string') return;
    if (inProgress.toLowerCase() === blocked.toLowerCase()) {
      ctx.addIssue({
        code: 'custom',
        path: ['labels', 'blocked'],
        message: 'must differ from labels.inProgress (GitHub compares label names without case)',
      });
    }
  });

/** A repository's config as written, after validation. */
export type RepoConfig = z.infer<typeof RepoConfig>;

/** The settings of the pull-request guard and branch heartbeats (docs/protocol.md §11). */
export interface GuardConfig {
  readonly pathGuard: PathGuard;
  readonly heartbeatOnPush: boolean;
}

/**
 * The config the app works with: every field filled in, as decide(), the rollout and the
 * guard read it.
 */
export interface ResolvedRepoConfig extends DecideConfig, GuardConfig {
  /** `enforce` writes the plan; `observe` only logs and counts it (docs/protocol.md §15). */
  readonly mode: RolloutMode;
  /** False: the app leaves the repository alone (no reads beyond the config, no writes). */
  readonly enabled: boolean;
  /** The work queue's keys (docs/protocol.md §9), only when the file sets them. */
  readonly queue?: QueueSettings;
}

/** Which open issues the work queue offers as claimable (docs/protocol.md §9). */
export interface QueueSettings {
  /** When not empty, an issue must carry one of these to be claimable. */
  readonly labels: readonly string[];
  /** An issue carrying one of these is not claimable. */
  readonly exclude: readonly string[];
}

/**
 * The queue settings of a resolved config: its own (resolveRepoConfig filled them in), else
 * nothing required and the blocked label excluded.
 */
export function queueSettings(config: ResolvedRepoConfig): QueueSettings {
  return config.queue ?? { labels: [], exclude: [config.labels.blocked] };
}

/** What the operator sets for repositories that do not: the stale window (docs/protocol.md §3). */
export interface RepoConfigDefaults {
  readonly staleAfterMs: number;
}

/** Fills the defaults into a validated config. */
export function resolveRepoConfig(
  config: RepoConfig,
  defaults: RepoConfigDefaults,
): ResolvedRepoConfig {
  const labels = {
    inProgress: config.labels?.inProgress ?? DEFAULT_LABELS.inProgress,
    blocked: config.labels?.blocked ?? DEFAULT_LABELS.blocked,
  };
  return {
    staleAfterMs: config.staleAfter ?? defaults.staleAfterMs,
    labels,
    assign: config.assign ?? true,
    notifyOnExpiry: config.notifyOnExpiry ?? true,
    enforceLabels: config.enforceLabels ?? true,
    trustedBots: config.trustedBots ?? [],
    notify: config.notify ?? [],
    pathGuard: config.pathGuard ?? 'fail',
    heartbeatOnPush: config.heartbeatOnPush ?? true,
    mode: config.mode ?? 'enforce',
    enabled: config.enabled ?? true,
    ...(config.queue
      ? {
          queue: {
            labels: config.queue.labels ?? [],
            exclude: config.queue.exclude ?? [labels.blocked],
          },
        }
      : {}),
  };
}

/**
 * Validates a parsed claims.yml and fills in the defaults. On failure, `error` names every bad
 * field by its path (`labels.inProgress: must be ...`, `unknown key "stalAfter" (did you mean
 * "staleAfter"?)`) so the maintainer can fix the file from the log line (docs/protocol.md §6).
 */
export function parseRepoConfig(
  raw: unknown,
  defaults: RepoConfigDefaults,
): { ok: true; config: ResolvedRepoConfig } | { ok: false; error: string } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, error: 'the file must be a mapping of settings such as "staleAfter: 6h"' };
  }
  const parsed = RepoConfig.safeParse(raw);
  if (parsed.success) return { ok: true, config: resolveRepoConfig(parsed.data, defaults) };
  const problems: string[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeys(issue.path);
      for (const key of issue.keys) {
        const hint = closest(key, known);
        const where = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
        problems.push(
          `${where}unknown key ${JSON.stringify(key)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`,
        );
      }
      continue;
    }
    const value = valueAt(raw, issue.path);
    const got = value === undefined ? '' : ` (got ${show(value)})`;
    problems.push(`${formatPath(issue.path)}: ${issue.message}${got}`);
  }
  return { ok: false, error: problems.join('; ') };
}

/** The smallest part of the octokit API that loadRepoConfig needs (Probot's config plugin). */
export interface ConfigReader {
  config: {
    get(options: { owner: string; repo: string; path: string }): Promise<{
      config: Record<string, unknown>;
      files: ReadonlyArray<{
        owner: string;
        repo: string;
        path: string;
        url: string;
        config: Record<string, unknown> | null;
      }>;
    }>;
  };
}

/**
 * The outcome of loading a repository's config, three failure-aware ways apart (docs/protocol.md §6, as
 * bulldozer's loader does):
 * - `absent`: no claims.yml in the repository nor in the org's `.github`: the defaults apply;
 * - `loaded`: found and valid;
 * - `invalid`: found but wrong; `error` names the fields. Nothing is written on the repository;
 * - `unreadable`: GitHub failed (not a 404) or the YAML does not parse. The config is unknown,
 *   so the reconcile is unverifiable: nothing is written and it is retried (fail closed).
 */
export type RepoConfigResult =
  | { readonly kind: 'absent'; readonly config: ResolvedRepoConfig }
  | { readonly kind: 'loaded'; readonly config: ResolvedRepoConfig; readonly sources: string[] }
  | { readonly kind: 'invalid'; readonly error: string; readonly sources: string[] }
  | { readonly kind: 'unreadable'; readonly error: unknown; readonly message: string };

// @probot/octokit-plugin-config (dist-src/util/get-config-file.js) turns a 404 into
// `config: null` and throws everything else: octokit's RequestError (with `status`) for other
// GitHub failures, and plain Errors prefixed with this tag for content it cannot use.
const PLUGIN_TAG = '[@probot/octokit-plugin-config] ';

/**
 * Loads `.github/claims.yml` for one repository through Probot's config plugin
 * (`octokit.config.get`), which falls back to the org's `.github` repository when the
 * repository has no file and follows `_extends` (merging shallowly), and validates it.
 */
export async function loadRepoConfig(
  octokit: ConfigReader,
  where: { owner: string; repo: string },
  defaults: RepoConfigDefaults,
): Promise<RepoConfigResult> {
  let result: Awaited<ReturnType<ConfigReader['config']['get']>>;
  try {
    result = await octokit.config.get({ ...where, path: REPO_CONFIG_PATH });
  } catch (error) {
    return classifyLoadError(error);
  }
  const found = result.files.filter((file) => file.config !== null);
  if (found.length === 0) {
    return { kind: 'absent', config: resolveRepoConfig({}, defaults) };
  }
  const sources = found.map((file) => `${file.owner}/${file.repo}:${file.path}`);
  const parsed = parseRepoConfig(result.config, defaults);
  return parsed.ok
    ? { kind: 'loaded', config: parsed.config, sources }
    : { kind: 'invalid', error: parsed.error, sources };
}

/** Sorts a failed load into unreadable (retry later) or invalid (the file must change). */
function classifyLoadError(error: unknown): RepoConfigResult {
  const message = error instanceof Error ? error.message : String(error);
  const isGitHubError = typeof (error as { status?: unknown })?.status === 'number';
  if (!isGitHubError && message.startsWith(PLUGIN_TAG)) {
    const text = message.slice(PLUGIN_TAG.length);
    if (/\(invalid YAML\)$/.test(text)) {
      // A syntax error: the plugin keeps yaml's own message, with line and column, as cause.
      const cause = (error as Error).cause;
      const detail =
        cause instanceof Error ? `: ${cause.message.split('\n')[0]?.replace(/:$/, '')}` : '';
      return { kind: 'unreadable', error, message: `${text}${detail}` };
    }
    // Not a mapping, a bad or circular `_extends`, a directory in place of the file: the
    // content is wrong and will stay wrong until someone changes it.
    return { kind: 'invalid', error: text, sources: [] };
  }
  return { kind: 'unreadable', error, message };
}

/**
 * Caches each repository's config result for `ttlMs`, so the hot path does not fetch
 * claims.yml on every event. Invalid results are cached too, so a broken file is not fetched
 * again in a loop; unreadable ones are not, so the retry really retries. Concurrent loads of
 * one repository share one fetch.
 */
export class RepoConfigCache {
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, { result: RepoConfigResult; expires: number }>();
  readonly #pending = new Map<string, Promise<RepoConfigResult>>();

  constructor(options: { ttlMs: number; now?: () => number; maxEntries?: number }) {
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /** The cached result for the repository, or the result of `load()` (then cached). */
  async get(
    where: { owner: string; repo: string },
    load: () => Promise<RepoConfigResult>,
  ): Promise<RepoConfigResult> {
    // GitHub owner and repository names are case-insensitive.
    const key = `${where.owner}/${where.repo}`.toLowerCase();
    const entry = this.#entries.get(key);
    if (entry && entry.expires > this.#now()) return entry.result;
    this.#entries.delete(key);

    const pending = this.#pending.get(key);
    if (pending) return pending;
    const loading = load()
      .then((result) => {
        if (result.kind !== 'unreadable' && this.#ttlMs > 0) this.#store(key, result);
        return result;
      })
      .finally(() => this.#pending.delete(key));
    this.#pending.set(key, loading);
    return loading;
  }

  /** Forgets one repository's config, e.g. after a push that changed it. */
  invalidate(where: { owner: string; repo: string }): void {
    this.#entries.delete(`${where.owner}/${where.repo}`.toLowerCase());
  }

  #store(key: string, result: RepoConfigResult): void {
    // Bounded: drop the oldest entry (Map keeps insertion order) rather than grow without end
    // for an organisation with many repositories.
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { result, expires: this.#now() + this.#ttlMs });
  }
}

const TOP_KEYS = Object.keys(RepoConfig.shape);

/** The keys allowed at a path, for "did you mean" hints. */
function knownKeys(path: readonly PropertyKey[]): string[] {
  if (path.length === 0) return TOP_KEYS;
  if (path.length === 1 && path[0] === 'labels') return Object.keys(DEFAULT_LABELS);
  if (path.length === 1 && path[0] === 'queue') return ['labels', 'exclude'];
  return [];
}

/** The known key a typo most likely meant: same letters ignoring case, or at most 2 edits. */
function closest(key: string, known: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (best === undefined || distance < best.distance)) {
      best = { key: candidate, distance };
    }
  }
  return best?.key;
}

/** Levenshtein distance; inputs are short config keys. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** `labels.inProgress`, `trustedBots[1]`. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    text += typeof part === 'number' ? `[${part}]` : `${text === '' ? '' : '.'}${String(part)}`;
  }
  return text === '' ? '(file)' : text;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * The reconcile's reading of a config outcome (docs/protocol.md §6): the config to decide
 * with, or the error that stops every write on the repository. Unreadable throws, so the
 * reconcile is unverifiable and retried (fail closed).
 */
export function configForReconcile(
  result: RepoConfigResult,
):
  | { readonly ok: true; readonly config: ResolvedRepoConfig }
  | { readonly ok: false; readonly error: string } {
  switch (result.kind) {
    case 'absent':
    case 'loaded':
      return { ok: true, config: result.config };
    case 'invalid':
      return { ok: false, error: result.error };
    case 'unreadable':
      throw new Error(`repository config unreadable: ${result.message}`, { cause: result.error });
  }
}

/**
 * The webhook filters' reading: the config, `unknown` when it could not be read (the event
 * passes on to the reconcile, which fails closed and retries), or null when it is invalid
 * (nothing is written on the repository, so the event can be dropped).
 */
export function configForFilter(result: RepoConfigResult): ResolvedRepoConfig | 'unknown' | null {
  switch (result.kind) {
    case 'absent':
    case 'loaded':
      return result.config;
    case 'invalid':
      return null;
    case 'unreadable':
      return 'unknown';
  }
}

/**
 * The resync's reading: the repository's stale window, or null when its config is invalid
 * or the repository is disabled (it is left alone). Unreadable throws, so the resync of that repository is
 * retried rather than run with a guessed window.
 */
export function staleWindowOf(result: RepoConfigResult): number | null {
  switch (result.kind) {
    case 'absent':
    case 'loaded':
      // A disabled repository (docs/protocol.md §15) is not listed either.
      return result.config.enabled ? result.config.staleAfterMs : null;
    case 'invalid':
      return null;
    case 'unreadable':
      throw new Error(`config unreadable: ${result.message}`);
  }
}
