/** The second line of a claim comment that names its paths (docs/protocol.md §10). */
const PATHS_PREFIX = '<!-- claim-paths v=1 paths=';
const PATHS_SUFFIX = ' -->';
const MAX_LINE_BYTES = 1024;
const MAX_ENTRIES = 20;
const SEGMENT = /^(?:[A-Za-z0-9._@+-]|%[0-9A-Fa-f]{2}){1,255}$/;

/**
 * The path entries of a claim comment, for display on the board: its second line as
 * docs/protocol.md §10 writes it. A line that breaks the grammar names no paths (§10: the
 * claim still claims its issue), so the board shows none rather than a guess.
 */
export function claimPaths(body: string): string[] {
  const line = body.split('\n')[1]?.replace(/\r$/, '');
  if (line === undefined || Buffer.byteLength(line, 'utf8') > MAX_LINE_BYTES) return [];
  if (!line.startsWith(PATHS_PREFIX) || !line.endsWith(PATHS_SUFFIX)) return [];
  const list = line.slice(PATHS_PREFIX.length, line.length - PATHS_SUFFIX.length);
  const entries = list.split(',');
  if (entries.length > MAX_ENTRIES || new Set(entries).size !== entries.length) return [];
  return entries.every(isPathEntry) ? entries : [];
}

/** A repository-relative path; a trailing `/` marks a directory. */
function isPathEntry(entry: string): boolean {
  const segments = (entry.endsWith('/') ? entry.slice(0, -1) : entry).split('/');
  return segments.every((s) => s !== '.' && s !== '..' && SEGMENT.test(s));
}
