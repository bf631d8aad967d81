import { isClaimTag } from '../../claims/identity.js';
import { refused } from '../core/client-error.js';

/** What a protected value is; refusals name this, never the value (docs/agents.md, "Identity tags and the text guard"). */
export type ProtectedKind = 'session' | 'lane' | 'hostname' | 'private name';

/** One value that must not appear in public text. */
export interface ProtectedValue {
  readonly kind: ProtectedKind;
  readonly value: string;
}

/** Checks text before it is written to GitHub. */
export interface TextGuard {
  /** The kind of the first protected value `text` carries, or null when it is clean. */
  find(text: string): ProtectedKind | null;
  /** Throws a refusal naming the kind when `text` carries a protected value. */
  check(text: string, what?: string): void;
}

/**
 * The public-text guard (docs/agents.md, "Identity tags and the text guard"): refuses text carrying the session or lane of the
 * operation, the hostname or a line of `private-names.txt`, matched without case and on word
 * boundaries (so the session `unit7` is found in `Unit7,` but not in `unit70`). A letter,
 * digit or `_` next to a match makes it part of a longer word. A value already written as a
 * keyed tag (`h:` + 12 hex) is public by design and is not protected.
 */
export function textGuard(values: readonly ProtectedValue[]): TextGuard {
  const patterns = values
    .filter(({ value }) => value.trim() !== '' && !isClaimTag(value))
    .map(({ kind, value }) => ({
      kind,
      pattern: new RegExp(
        `(?<![\\p{L}\\p{N}_])${escapeRegExp(value.trim())}(?![\\p{L}\\p{N}_])`,
        'iu',
      ),
    }));
  const find = (text: string): ProtectedKind | null =>
    patterns.find(({ pattern }) => pattern.test(text))?.kind ?? null;
  return {
    find,
    check(text, what = 'the text') {
      const kind = find(text);
      if (kind !== null) {
        throw refused(`${what} would publish a protected ${kind}; nothing was written`, {
          protected: kind,
        });
      }
    },
  };
}

/** Escapes the syntax characters; in a `u` pattern nothing else may be escaped (not `-`). */
function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
