/**
 * The path line of a claim comment (docs/protocol.md §10): read and write the second line,
 * and tell which entries of two claims overlap. Pure: no I/O and no clock.
 *
 * Entries are kept in their canonical form: each byte of the decoded path written as itself
 * when it is one of `A-Za-z0-9._@+-` (or the `/` between segments), else as `%XX` with
 * uppercase hex. Canonical forms are equal exactly when the decoded bytes are, and, because
 * that code is prefix-free, one is a prefix of another exactly when the decoded bytes are, so
 * "compare byte for byte after decoding" is plain string comparison on them.
 */

/** The exact start of a path line (§10), trailing space included. */
export const PATH_LINE_PREFIX = '<!-- claim-paths ';

/** The exact end of a path line (§10), leading space included. */
export const PATH_LINE_SUFFIX = ' -->';

/** The longest path line in UTF-8 bytes, after one trailing `\r` is dropped (§10). */
export const MAX_PATH_LINE_BYTES = 1024;

/** The most entries one path line may carry (§10). */
export const MAX_PATH_ENTRIES = 20;

/** The longest segment of an entry, in decoded bytes (§10). */
export const MAX_SEGMENT_BYTES = 255;

/** What the second line of a claim comment says about paths. */
export type PathLine =
  /** No path line: the second line is absent or does not begin with PATH_LINE_PREFIX. */
  | { readonly kind: 'none' }
  | { readonly kind: 'valid'; readonly paths: readonly string[] }
  /** A path line that breaks the grammar: the claim holds no paths (§10); log `problem`. */
  | { readonly kind: 'invalid'; readonly problem: string };

/** The outcome of checking a list of entries: canonical entries, or the first problem. */
export type PathEntriesResult =
  | { readonly ok: true; readonly paths: readonly string[] }
  | { readonly ok: false; readonly problem: string };

/** One overlapping pair: an entry of the first list and the entry of the second it meets. */
export type PathOverlap = readonly [ours: string, theirs: string];

/** The bytes written as themselves in an entry (§10); every other byte is `%XX`. */
const PLAIN_BYTE = /^[A-Za-z0-9._@+-]$/;
const HEX = /^[0-9A-Fa-f]{2}$/;
const SLASH = 0x2f;

/**
 * Reads the path line of a claim comment: its second line (§10). A first line alone, or a
 * second line that does not begin with `<!-- claim-paths `, is no path line.
 */
export function pathLineOf(body: string): PathLine {
  const first = body.indexOf('\n');
  if (first === -1) return { kind: 'none' };
  // Look no further than a valid line could reach, so a 64 KB body costs what a short one does.
  const head = body.slice(first + 1, first + 1 + MAX_PATH_LINE_BYTES + 2);
  const end = head.indexOf('\n');
  const line = end === -1 ? head : head.slice(0, end);
  if (!line.startsWith(PATH_LINE_PREFIX)) return { kind: 'none' };
  if (end === -1 && first + 1 + head.length < body.length) {
    return {
      kind: 'invalid',
      problem: `the path line is longer than ${MAX_PATH_LINE_BYTES} bytes`,
    };
  }
  return parsePathLine(line);
}

/**
 * Reads one path line (§10). `none` when it does not begin with `<!-- claim-paths `;
 * otherwise `valid` with the canonical entries in line order, or `invalid` naming the first
 * rule it breaks.
 */
export function parsePathLine(text: string): PathLine {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  if (!line.startsWith(PATH_LINE_PREFIX)) return { kind: 'none' };
  const invalid = (problem: string): PathLine => ({ kind: 'invalid', problem });
  if (Buffer.byteLength(line, 'utf8') > MAX_PATH_LINE_BYTES) {
    return invalid(`the path line is longer than ${MAX_PATH_LINE_BYTES} bytes`);
  }
  if (
    line.length < PATH_LINE_PREFIX.length + PATH_LINE_SUFFIX.length ||
    !line.endsWith(PATH_LINE_SUFFIX)
  ) {
    return invalid('the path line must end with " -->"');
  }
  const inner = line.slice(PATH_LINE_PREFIX.length, line.length - PATH_LINE_SUFFIX.length);
  const fields = new Map<string, string>();
  for (const token of inner.split(' ')) {
    const eq = token.indexOf('=');
    const key = eq === -1 ? token : token.slice(0, eq);
    if (key !== 'v' && key !== 'paths') {
      return invalid(`the path line holds only v=1 and paths=…, not ${JSON.stringify(token)}`);
    }
    if (fields.has(key)) return invalid(`the path line has ${key} twice`);
    fields.set(key, eq === -1 ? '' : token.slice(eq + 1));
  }
  if (fields.get('v') !== '1') return invalid('the path line must carry v=1');
  const paths = fields.get('paths');
  if (paths === undefined || paths === '') return invalid('the path line must carry paths=…');
  const result = checkPathEntries(paths.split(','));
  return result.ok ? { kind: 'valid', paths: result.paths } : invalid(result.problem);
}

/**
 * Checks a list of entries against §10 (1..20 entries, each valid, none twice after
 * decoding) and returns them in canonical form, in the order given. The API and the client
 * use it to refuse bad input (422) with the problem named.
 */
export function checkPathEntries(entries: readonly string[]): PathEntriesResult {
  if (entries.length < 1 || entries.length > MAX_PATH_ENTRIES) {
    return {
      ok: false,
      problem: `paths must hold 1..${MAX_PATH_ENTRIES} entries, not ${entries.length}`,
    };
  }
  const seen = new Set<string>();
  const paths: string[] = [];
  for (const entry of entries) {
    const canonical = canonicalEntry(entry);
    if (typeof canonical !== 'string') {
      return { ok: false, problem: `path ${JSON.stringify(entry)}: ${canonical.problem}` };
    }
    if (seen.has(canonical)) {
      return { ok: false, problem: `path ${JSON.stringify(entry)} is listed twice` };
    }
    seen.add(canonical);
    paths.push(canonical);
  }
  return { ok: true, paths };
}

/**
 * Writes the path line for `paths` (§10), each entry in canonical form. Throws, naming the
 * problem, when the entries or the line break a rule, so a writer never emits a line that
 * readers would refuse.
 */
export function renderPathLine(paths: readonly string[]): string {
  const checked = checkPathEntries(paths);
  if (!checked.ok) throw new Error(`cannot write the path line: ${checked.problem}`);
  const line = `${PATH_LINE_PREFIX}v=1 paths=${checked.paths.join(',')}${PATH_LINE_SUFFIX}`;
  const bytes = Buffer.byteLength(line, 'utf8');
  if (bytes > MAX_PATH_LINE_BYTES) {
    throw new Error(
      `cannot write the path line: it would be ${bytes} bytes, at most ${MAX_PATH_LINE_BYTES}; name a directory instead of its files`,
    );
  }
  return line;
}

/**
 * The entry for a repository path as Git and GitHub spell it (UTF-8, `/` between segments,
 * a trailing `/` for a directory): bytes outside `A-Za-z0-9._@+-` percent-encoded. The
 * result still has to pass checkPathEntries (no `.` or `..` segment, and so on).
 */
export function encodePath(path: string): string {
  let out = '';
  for (const byte of Buffer.from(path, 'utf8')) out += encodeByte(byte, true);
  return out;
}

/**
 * Every overlapping pair of two lists of canonical entries (§10): equal entries, or one
 * under a directory entry of the other. Each pair is `[entry of a, entry of b]`, in the
 * order of `a`, then `b`. Empty when the claims touch nothing in common.
 */
export function overlaps(a: readonly string[], b: readonly string[]): PathOverlap[] {
  // Most claims touch nobody: a set lookup per entry rules that out before any pairing.
  if (!pathMatcher(a).touches(b)) return [];
  const pairs: PathOverlap[] = [];
  for (const ours of a) {
    for (const theirs of b) {
      if (entriesOverlap(ours, theirs)) pairs.push([ours, theirs]);
    }
  }
  return pairs;
}

/** One claim's entries, prepared to be checked against many other claims. */
export interface PathMatcher {
  /** Whether any entry of `other` overlaps an entry of the prepared claim. */
  touches(other: readonly string[]): boolean;
}

/**
 * Prepares canonical entries for checking against many claims: each check costs a few set
 * lookups per entry of the other claim (one per `/` in it), not one comparison per pair.
 */
export function pathMatcher(entries: readonly string[]): PathMatcher {
  const exact = new Set(entries);
  const directories = new Set(entries.filter((e) => e.endsWith('/')));
  // Every directory strictly above an entry: an entry of the other claim that is one of
  // them has this entry under it.
  const above = new Set<string>();
  for (const entry of entries) for (const dir of directoriesAbove(entry)) above.add(dir);
  return {
    touches(other) {
      for (const entry of other) {
        if (exact.has(entry)) return true;
        if (entry.endsWith('/') && above.has(entry)) return true;
        for (const dir of directoriesAbove(entry)) if (directories.has(dir)) return true;
      }
      return false;
    },
  };
}

/** The directory prefixes strictly above an entry: `a/b/c.ts` → `a/`, `a/b/`. */
function directoriesAbove(entry: string): string[] {
  const out: string[] = [];
  for (
    let i = entry.indexOf('/');
    i !== -1 && i < entry.length - 1;
    i = entry.indexOf('/', i + 1)
  ) {
    out.push(entry.slice(0, i + 1));
  }
  return out;
}

/** Whether two canonical entries overlap: equal, or one under the other's directory. */
function entriesOverlap(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.endsWith('/') && b.startsWith(a)) return true;
  return b.endsWith('/') && a.startsWith(b);
}

/**
 * Whether a canonical entry covers a changed file, the file named as GitHub lists it (a
 * repository path, not encoded): the entry is the file, or a directory above it.
 */
export function pathCovers(entry: string, file: string): boolean {
  const encoded = encodePath(file);
  return entry === encoded || (entry.endsWith('/') && encoded.startsWith(entry));
}

/** The canonical form of one entry, or the rule it breaks. */
function canonicalEntry(entry: string): string | { problem: string } {
  if (entry === '') return { problem: 'an entry must not be empty' };
  if (entry.startsWith('/')) return { problem: 'an entry must be relative: no leading /' };
  const directory = entry.endsWith('/');
  const segments = (directory ? entry.slice(0, -1) : entry).split('/');
  const out: string[] = [];
  for (const segment of segments) {
    const bytes = decodeSegment(segment);
    if (!Array.isArray(bytes)) return bytes;
    if (bytes.length === 0) return { problem: 'an entry must not have an empty segment' };
    if (bytes.length > MAX_SEGMENT_BYTES) {
      return { problem: `a segment is ${bytes.length} bytes, at most ${MAX_SEGMENT_BYTES}` };
    }
    if (isDotSegment(bytes)) return { problem: 'an entry must not have a . or .. segment' };
    out.push(bytes.map((byte) => encodeByte(byte, false)).join(''));
  }
  return `${out.join('/')}${directory ? '/' : ''}`;
}

/** The bytes of one segment as written (`A-Za-z0-9._@+-` or `%XX`), or the rule it breaks. */
function decodeSegment(segment: string): number[] | { problem: string } {
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i]!;
    if (PLAIN_BYTE.test(char)) {
      bytes.push(char.charCodeAt(0));
      continue;
    }
    const hex = segment.slice(i + 1, i + 3);
    if (char !== '%' || !HEX.test(hex)) {
      return {
        problem: `${JSON.stringify(char)} must be percent-encoded (only A-Za-z0-9._@+- and %XX are written as is)`,
      };
    }
    const byte = Number.parseInt(hex, 16);
    // No Git tree entry holds a `/` or a NUL in its name: an encoded one names no file.
    if (byte === SLASH || byte === 0)
      return { problem: `%${hex} names no file: no / or NUL in a segment` };
    bytes.push(byte);
    i += 2;
  }
  return bytes;
}

function isDotSegment(bytes: readonly number[]): boolean {
  return bytes.every((byte) => byte === 0x2e) && bytes.length <= 2;
}

/** One byte as the canonical form writes it; `/` as itself only when `slashPlain`. */
function encodeByte(byte: number, slashPlain: boolean): string {
  const char = String.fromCharCode(byte);
  if (byte < 0x80 && (PLAIN_BYTE.test(char) || (slashPlain && byte === SLASH))) return char;
  return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}
