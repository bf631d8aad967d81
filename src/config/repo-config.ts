import { z } from 'zod';
import type { DecideConfig } from '../claims/decide-config.js';
import { durationSchema } from './duration.js';
import { BOOLEAN_MESSAGE, LABELS_MESSAGE, LabelName } from './label-schema.js';
import { checkPeopleBlock, PeopleBlock } from './people-config.js';

/** Where a repository's config lives; the org's `.github` repository holds org-wide defaults. */
export const REPO_CONFIG_PATH = '.github/claims.yml';

/** The labels used when the config names none (docs/protocol.md §4). */
export const DEFAULT_LABELS = {
  inProgress: 'status:in-progress',
  blocked: 'status:blocked',
  needsReview: 'status:needs-review',
} as const;

// A user login (1..39 letters, digits, single inner hyphens) or an app's bot account,
// `slug[bot]` (docs/protocol.md §2: agents that post as an app show up with that login).
const LOGIN = /^[a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38}(?:\[bot\])?$/i;
const LOGIN_MESSAGE = 'must be a GitHub login such as "my-agent[bot]" (no @, no spaces)';
const GitHubLogin = z.string({ error: LOGIN_MESSAGE }).regex(LOGIN, { error: LOGIN_MESSAGE });

/** `mode` in claims.yml: `observe` decides and logs what it would write, and writes nothing. */
const ROLLOUT_MODES = ['enforce', 'observe'] as const;

/** A value of `mode` in claims.yml. */
type RolloutMode = (typeof ROLLOUT_MODES)[number];

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
const PATH_GUARDS = ['fail', 'warn', 'off'] as const;

/** `pathGuard`: `failure`, `neutral`, or no check run at all. */
export type PathGuard = (typeof PATH_GUARDS)[number];

/**
 * `grace`: how long a stale claim still holds its issue against other sessions (docs/protocol.md
 * §17); at most the stale window, which parseRepoConfig checks once the window is resolved.
 */
const GraceDuration = durationSchema('0s', '720h', '30m');

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
    // docs/protocol.md §17 "Grace for the owner": YAML reads `grace: 0` as a number; it is off.
    grace: z.preprocess((value) => (value === 0 ? '0s' : value), GraceDuration).optional(),
    labels: z
      .strictObject(
        {
          inProgress: LabelName.optional(),
          blocked: LabelName.optional(),
          needsReview: LabelName.optional(),
        },
        { error: 'must be a mapping with inProgress, blocked and/or needsReview' },
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
    // docs/protocol.md §16: people's claims.
    people: PeopleBlock.optional(),
  })
  .superRefine((config, ctx) => {
    // One label for both states would be added and removed in turn: refuse it. GitHub
    // compares label names without regard to case.
    const inProgress = config.labels?.inProgress ?? DEFAULT_LABELS.inProgress;
    const blocked = config.labels?.blocked ?? DEFAULT_LABELS.blocked;
    // Runs only on well-typed labels: a wrong type is reported by its own field.
    if (config.people) checkPeopleBlock(config.people, [inProgress, blocked], ctx);
    if (typeof inProgress !== 'string' || typeof blocked !== 'string') return;
    if (inProgress.toLowerCase() === blocked.toLowerCase()) {
      ctx.addIssue({
        code: 'custom',
        path: ['labels', 'blocked'],
        message: 'must differ from labels.inProgress (GitHub compares label names without case)',
      });
    }
    const needsReview = config.labels?.needsReview ?? DEFAULT_LABELS.needsReview;
    if (typeof needsReview !== 'string') return;
    if ([inProgress, blocked].some((other) => other.toLowerCase() === needsReview.toLowerCase())) {
      ctx.addIssue({
        code: 'custom',
        path: ['labels', 'needsReview'],
        message:
          'must differ from labels.inProgress and labels.blocked (GitHub compares label names without case)',
      });
    }
  });

/** A repository's config as written, after validation. */
export type RepoConfig = z.infer<typeof RepoConfig>;

/** The settings of the pull-request guard and branch heartbeats (docs/protocol.md §11). */
interface GuardConfig {
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
  /** docs/protocol.md §17: the needs-review label (absent in settings kept before it). */
  readonly needsReview?: string;
}

/**
 * The queue settings of a resolved config: its own (resolveRepoConfig filled them in), else
 * nothing required and the blocked label excluded.
 */
export function queueSettings(config: ResolvedRepoConfig): QueueSettings {
  const base = config.queue ?? { labels: [], exclude: [config.labels.blocked] };
  return config.labels.needsReview ? { ...base, needsReview: config.labels.needsReview } : base;
}

/** What the operator sets for repositories that do not: the stale window (docs/protocol.md §3). */
export interface RepoConfigDefaults {
  readonly staleAfterMs: number;
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
