import { z } from 'zod';
import { CLIENT_NAME, foldText, MAX_NOTE_CHARS } from '../../claims/comment.js';
import { FIXED_STAGES, isClaimIdentity, isStage, OUTCOMES } from '../../claims/marker.js';
import { checkPathEntries, MAX_PATH_ENTRIES, renderPathLine } from '../../claims/paths.js';
import type { Outcome, Stage } from '../../claims/types.js';
import { invalidInput } from './api-error.js';

const IDENTITY_RULE =
  'a string of 1..128 letters, digits and . _ / : + @ -, starting with a letter or digit (docs/protocol.md §1)';
const Identity = z
  .string({ error: IDENTITY_RULE })
  .refine(isClaimIdentity, { error: IDENTITY_RULE });

const NOTE_RULE = `a string of at most ${MAX_NOTE_CHARS} characters after folding whitespace`;
const Note = z
  .string({ error: NOTE_RULE })
  .refine((note) => foldText(note).length <= MAX_NOTE_CHARS, { error: NOTE_RULE });

const CLIENT_RULE = '1..64 of A-Za-z0-9._- (display only, never a permission)';
const Client = z.string({ error: CLIENT_RULE }).regex(CLIENT_NAME, { error: CLIENT_RULE });

const LIVE_STAGES = FIXED_STAGES.filter((s) => s !== 'released');
const STAGE_RULE = `one of ${LIVE_STAGES.join(', ')} or fix-round-N (N 1..999); released is DELETE's`;
const LiveStage = z
  .string({ error: STAGE_RULE })
  .refine((s): s is Stage => isStage(s) && s !== 'released', { error: STAGE_RULE });

const OUTCOME_RULE = `one of ${OUTCOMES.join(', ')}`;
const ReleaseOutcome = z.enum(OUTCOMES, { error: OUTCOME_RULE });

const PATHS_RULE = `an array of 1..${MAX_PATH_ENTRIES} repository-relative paths (segments of A-Za-z0-9._@+- or %XX joined by /, a trailing / for a directory, none twice; docs/protocol.md §10)`;

/**
 * The paths a claim names (docs/protocol.md §10), checked by the core's own rules and turned
 * into their canonical form, so what is compared and written is what readers parse. Every
 * problem is reported under `paths` itself (not `paths.3`): the first one named, then the rule.
 */
export const Paths = z.array(z.unknown(), { error: PATHS_RULE }).transform((entries, ctx) => {
  const refuse = (problem: string) => {
    ctx.addIssue({ code: 'custom', message: `${problem}; ${PATHS_RULE}` });
    return z.NEVER;
  };
  const strings = entries.filter((e): e is string => typeof e === 'string');
  if (strings.length !== entries.length) return refuse('every entry must be a string');
  const checked = checkPathEntries(strings);
  if (!checked.ok) return refuse(checked.problem);
  try {
    // The whole line is capped too (1024 bytes): refused here, never cut when written.
    renderPathLine(checked.paths);
  } catch (error) {
    return refuse(
      (error as Error).message.replace(/^cannot write the path line: it/, 'the path line'),
    );
  }
  return [...checked.paths];
});

/** The body of `POST …/claim` (docs/protocol.md §8). */
export const ClaimBody = z.strictObject({
  session: Identity,
  lane: Identity,
  branch: Identity,
  paths: Paths.optional(),
  note: Note.optional(),
  client: Client.optional(),
});
export type ClaimBody = z.infer<typeof ClaimBody>;

/** The body of `POST …/claim/heartbeat`. */
export const HeartbeatBody = z.strictObject({
  session: Identity,
  stage: LiveStage.optional(),
  note: Note.optional(),
});
export type HeartbeatBody = Omit<z.infer<typeof HeartbeatBody>, 'stage'> & { stage?: Stage };

/** The body of `DELETE …/claim`. */
export const ReleaseBody = z.strictObject({
  session: Identity.optional(),
  outcome: ReleaseOutcome,
  note: Note.optional(),
});
export type ReleaseBody = Omit<z.infer<typeof ReleaseBody>, 'outcome'> & { outcome: Outcome };

/** The body of `DELETE /claims` (docs/protocol.md §17): a release of everything a session holds. */
export const ReleaseAllBody = z.strictObject({
  session: Identity,
  outcome: ReleaseOutcome.optional(),
  note: Note.optional(),
});
export type ReleaseAllBody = Omit<z.infer<typeof ReleaseAllBody>, 'outcome'> & {
  outcome?: Outcome;
};

/** Keys that name parts of JavaScript objects, never a field: refused before parsing. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Validates a JSON body against `schema`; 422 INVALID_INPUT naming every bad field and what it
 * must hold, before anything is read or written.
 */
export function parseBody<T>(schema: z.ZodType<T>, raw: unknown): T {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalidInput({ body: 'a JSON object' });
  }
  // JSON.parse makes `__proto__` an own key; assigned to a plain object it would set the
  // prototype instead of naming the field. A null-prototype map names every key.
  const fields: Record<string, string> = Object.create(null);
  for (const key of Object.keys(raw)) {
    if (RESERVED_KEYS.has(key)) fields[key] = 'absent: not a field of this request';
  }
  if (Object.keys(fields).length > 0) throw invalidInput(fields);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[key] = 'absent: not a field of this request';
      continue;
    }
    const name = issue.path.map(String).join('.') || 'body';
    // A missing field is reported with the rule it must follow, not zod's type message.
    fields[name] ??= issue.message;
  }
  throw invalidInput(fields);
}
