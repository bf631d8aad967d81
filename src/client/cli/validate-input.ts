import { foldText, MAX_NOTE_CHARS } from '../../claims/comment.js';
import { FIXED_STAGES, isClaimIdentity, isStage } from '../../claims/marker.js';
import type { Stage } from '../../claims/types.js';
import { durationSchema } from '../../config/duration.js';
import { usageError } from '../core/client-error.js';
import { DEFAULT_STALE_AFTER } from '../io/runtime.js';

const IDENTITY_RULE = '1..128 letters, digits and . _ / : + @ -, starting with a letter or digit';

// The same bounds as the app's staleAfter (docs/protocol.md §3): 10m .. 720h.
const StaleAfter = durationSchema('10m', '720h', DEFAULT_STALE_AFTER);

/**
 * A session, lane or branch as the marker allows it (docs/protocol.md §1). The value is not echoed: a
 * session or lane may be a private name, and a usage error is printed.
 */
export function requireIdentity(value: string, what: 'session' | 'lane' | 'branch'): string {
  if (!isClaimIdentity(value)) {
    throw usageError(
      `the ${what} must be ${IDENTITY_RULE}${what === 'branch' ? ` (got ${JSON.stringify(value)})` : ''}`,
    );
  }
  return value;
}

/** A stage `status` may record: any stage of docs/protocol.md §1 but `released`, which is release's. */
export function requireStage(value: string): Stage {
  if (value === 'released') {
    throw usageError('stage released is written by release, with an outcome; use release');
  }
  if (!isStage(value)) {
    const stages = FIXED_STAGES.filter((s) => s !== 'released').join(', ');
    throw usageError(
      `${JSON.stringify(value)} is not a stage: use one of ${stages} or fix-round-N (N 1..999)`,
    );
  }
  return value;
}

/**
 * A note: newlines and whitespace runs fold to single spaces first, then a note longer than
 * 280 characters is refused, not cut (docs/agents.md, "Commands": `status`). No note is no note.
 */
export function requireNote(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const folded = foldText(value);
  if (folded.length > MAX_NOTE_CHARS) {
    throw usageError(
      `the note is ${folded.length} characters after folding whitespace; at most ${MAX_NOTE_CHARS} (it is refused, not cut)`,
    );
  }
  return value;
}

/** The stale window in milliseconds: a duration from 10m to 720h, default 6h. */
export function staleAfterMs(value: string | undefined): number {
  const parsed = StaleAfter.safeParse(value ?? DEFAULT_STALE_AFTER);
  if (!parsed.success) {
    throw usageError(`the stale window ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  }
  return parsed.data;
}
