import { z } from 'zod';
import type { PeopleConfig } from '../claims/decide-config.js';
import { durationSchema, formatDuration, parseDuration } from './duration.js';
import { BOOLEAN_MESSAGE, LABELS_MESSAGE, LabelName } from './label-schema.js';

/** The keys of `people:` in claims.yml (docs/protocol.md §16), for "did you mean" hints. */
export const PEOPLE_KEYS = [
  'enabled',
  'who',
  'labels',
  'maxClaims',
  'staleAfter',
  'remindAfter',
  'expire',
  'handover',
  'pinnedLabel',
] as const;

const DAY = parseDuration('1d');
const STALE_AFTER = { min: '1d', max: '90d', default: parseDuration('14d') } as const;
const REMIND_AFTER_DEFAULT = parseDuration('10d');
const REMIND_MESSAGE = `must be 0 (no reminder) or a duration below people.staleAfter, such as 10d`;
const DEFAULT_PINNED_LABEL = 'claim:pinned';

/** `remindAfter`: 0 (a number or "0") for no reminder, else a duration up to 90d. */
const RemindAfter = z.unknown().transform((value, ctx) => {
  if (value === 0 || value === '0') return 0;
  const parsed = durationSchema('0s', STALE_AFTER.max).safeParse(value);
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: 'custom', message: REMIND_MESSAGE });
  return z.NEVER;
});

/** `people:` as a repository writes it. Strict: a typo is an error, not a silent default. */
export const PeopleBlock = z.strictObject(
  {
    enabled: z.boolean({ error: BOOLEAN_MESSAGE }).optional(),
    who: z
      .enum(['collaborators', 'members', 'anyone'], {
        error: 'must be one of collaborators, members or anyone',
      })
      .optional(),
    labels: z.array(LabelName, { error: LABELS_MESSAGE }).optional(),
    maxClaims: z
      .int({ error: 'must be a whole number from 0 (no cap) to 1000' })
      .min(0, { error: 'must be a whole number from 0 (no cap) to 1000' })
      .max(1000, { error: 'must be a whole number from 0 (no cap) to 1000' })
      .optional(),
    staleAfter: durationSchema(STALE_AFTER.min, STALE_AFTER.max, '14d').optional(),
    remindAfter: RemindAfter.optional(),
    expire: z
      .enum(['commands', 'all', 'never'], { error: 'must be one of commands, all or never' })
      .optional(),
    handover: z
      .enum(['maintain', 'triage'], {
        error: 'must be maintain or triage (the lowest role that may hand an agent’s issue over)',
      })
      .optional(),
    pinnedLabel: LabelName.optional(),
  },
  { error: `must be a mapping of people's settings such as "who: collaborators"` },
);

export type PeopleBlock = z.infer<typeof PeopleBlock>;

/**
 * The checks that span fields of `people:`, on the values as they will be resolved, so a
 * default that clashes with a written value is named too. `statusLabels` are the repository's
 * status labels: the pinned label must not be one of them.
 */
export function checkPeopleBlock(
  block: PeopleBlock,
  statusLabels: readonly unknown[],
  ctx: z.RefinementCtx,
): void {
  const issue = (key: string, message: string) =>
    ctx.addIssue({ code: 'custom', path: ['people', key], message });
  const { staleAfterMs, remindAfterMs } = peopleDurations(block);
  if (remindAfterMs >= staleAfterMs) {
    issue(
      'remindAfter',
      `must be below people.staleAfter (${inDays(staleAfterMs)}), or 0 for no reminder`,
    );
  }
  if (block.who === 'anyone' && (block.labels ?? []).length === 0) {
    issue(
      'labels',
      'must name at least one label with who: anyone: the issues outsiders may claim',
    );
  }
  const pinned = (block.pinnedLabel ?? DEFAULT_PINNED_LABEL).toLowerCase();
  if (statusLabels.some((label) => typeof label === 'string' && label.toLowerCase() === pinned)) {
    issue(
      'pinnedLabel',
      'must differ from the status labels (GitHub compares label names without case)',
    );
  }
}

/** A window as people write it: whole days as `14d`, else hours and minutes. */
function inDays(ms: number): string {
  return ms % DAY === 0 ? `${ms / DAY}d` : formatDuration(ms);
}

/**
 * The reminder defaults to 10d, or, under a `staleAfter` of 14d or less, to 5/7 of it in whole
 * hours (10d of 14d), so a shorter window still reminds before it expires.
 */
function peopleDurations(block: PeopleBlock): { staleAfterMs: number; remindAfterMs: number } {
  const staleAfterMs = block.staleAfter ?? STALE_AFTER.default;
  const scaled = Math.floor((staleAfterMs * 5) / 7 / (DAY / 24)) * (DAY / 24);
  return {
    staleAfterMs,
    remindAfterMs: block.remindAfter ?? Math.min(REMIND_AFTER_DEFAULT, scaled),
  };
}

/** The resolved `people:` block; absent with `enabled: false` (part two exactly). */
export function resolvePeople(block: PeopleBlock | undefined): PeopleConfig | undefined {
  const written = block ?? {};
  if (written.enabled === false) return undefined;
  return {
    who: written.who ?? 'collaborators',
    labels: written.labels ?? [],
    maxClaims: written.maxClaims ?? 0,
    ...peopleDurations(written),
    expire: written.expire ?? 'commands',
    handover: written.handover ?? 'maintain',
    pinnedLabel: written.pinnedLabel ?? DEFAULT_PINNED_LABEL,
  };
}
