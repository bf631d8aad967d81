import { formatDuration } from './duration.js';
import { PEOPLE_KEYS } from './people-config.js';
import {
  DEFAULT_LABELS,
  RepoConfig,
  type RepoConfigDefaults,
  type ResolvedRepoConfig,
} from './repo-config.js';
import { resolveRepoConfig } from './resolve-repo-config.js';

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
  if (parsed.success) {
    const config = resolveRepoConfig(parsed.data, defaults);
    // docs/protocol.md §17: the grace lasts at most one stale window, the repository's or
    // the operator's default, known only once resolved.
    if ((config.graceMs ?? 0) > config.staleAfterMs) {
      const window = formatDuration(config.staleAfterMs);
      return {
        ok: false,
        error: `grace: must be at most the stale window (${window}), or 0 to turn it off (got ${show(valueAt(raw, ['grace']))})`,
      };
    }
    return { ok: true, config };
  }
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

const TOP_KEYS = Object.keys(RepoConfig.shape);

/** The keys allowed at a path, for "did you mean" hints. */
function knownKeys(path: readonly PropertyKey[]): string[] {
  if (path.length === 0) return TOP_KEYS;
  if (path.length === 1 && path[0] === 'labels') return Object.keys(DEFAULT_LABELS);
  if (path.length === 1 && path[0] === 'queue') return ['labels', 'exclude'];
  if (path.length === 1 && path[0] === 'people') return [...PEOPLE_KEYS];
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
