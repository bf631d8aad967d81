import { z } from 'zod';
import { foldText, MAX_NOTE_CHARS } from '../claims/comment.js';
import { FIXED_STAGES, isClaimIdentity, isStage, OUTCOMES } from '../claims/marker.js';
import type { Outcome, Stage } from '../claims/types.js';
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
const Client = z
  .string({ error: CLIENT_RULE })
  .regex(/^[A-Za-z0-9._-]{1,64}$/, { error: CLIENT_RULE });

const LIVE_STAGES = FIXED_STAGES.filter((s) => s !== 'released');
const STAGE_RULE = `one of ${LIVE_STAGES.join(', ')} or fix-round-N (N 1..999); released is DELETE's`;
const LiveStage = z
  .string({ error: STAGE_RULE })
  .refine((s): s is Stage => isStage(s) && s !== 'released', { error: STAGE_RULE });

const OUTCOME_RULE = `one of ${OUTCOMES.join(', ')}`;
const ReleaseOutcome = z.enum(OUTCOMES, { error: OUTCOME_RULE });

/**
 * Path claims (docs/protocol.md §10) are not served yet: a request naming `paths` is refused
 * rather than accepted with its paths ignored, which would promise files it does not hold.
 */
const PATHS_RULE =
  'absent: path claims are not available on this server yet; claim the issue without paths';
const NoPaths = z.never({ error: PATHS_RULE });

/** The body of `POST …/claim` (docs/protocol.md §8). */
export const ClaimBody = z.strictObject({
  session: Identity,
  lane: Identity,
  branch: Identity,
  paths: NoPaths.optional(),
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

/**
 * Validates a JSON body against `schema`; 422 INVALID_INPUT naming every bad field and what it
 * must hold, before anything is read or written.
 */
export function parseBody<T>(schema: z.ZodType<T>, raw: unknown): T {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalidInput({ body: 'a JSON object' });
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
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
