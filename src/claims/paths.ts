/**
 * The path line of a claim comment (docs/protocol.md §10): read and write the second line,
 * and tell which entries of two claims overlap. Pure: no I/O and no clock.
 *
 * Entries are kept in their canonical form: each segment percent-decoded, read as UTF-8 and
 * put in Unicode NFC, then each byte of it written as itself when it is one of
 * `A-Za-z0-9._@+-` (or the `/` between segments), else as `%XX` with uppercase hex. Canonical
 * forms are equal exactly when the normalised names are, and, because that code is
 * prefix-free and no segment holds a `/`, one entry lies under another exactly when its
 * canonical form starts with the other's followed by `/`: "compare after decoding and NFC" is
 * plain string comparison on them.
 */

/** The exact start of a path line (§10), trailing space included. */
export const PATH_LINE_PREFIX = '<!-- claim-paths ';

/** The exact end of a path line (§10), leading space included. */
const PATH_LINE_SUFFIX = ' -->';

/** The longest path line in UTF-8 bytes, after one trailing `\r` is dropped (§10). */
const MAX_PATH_LINE_BYTES = 1024;

/** The most entries one path line may carry (§10). */
export const MAX_PATH_ENTRIES = 20;

/** The longest segment of an entry, in decoded bytes (§10). */
const MAX_SEGMENT_BYTES = 255;

/** What the second line of a claim comment says about paths. */
type PathLine =
  /** No path line: the second line is absent or does not begin with PATH_LINE_PREFIX. */
  | { readonly kind: 'none' }
  | { readonly kind: 'valid'; readonly paths: readonly string[] }
  /** A path line that breaks the grammar: the claim holds no paths (§10); log `problem`. */
  | { readonly kind: 'invalid'; readonly problem: string };

/** The outcome of checking a list of entries: canonical entries, or the first problem. */
type PathEntriesResult =
  | { readonly ok: true; readonly paths: readonly string[] }
  | { readonly ok: false; readonly problem: string };

/** One overlapping pair: an entry of the first list and the entry of the second it meets. */
export type PathOverlap = readonly [ours: string, theirs: string];

/** The bytes written as themselves in an entry (§10); every other byte is `%XX`. */
const PLAIN_BYTE = /^[A-Za-z0-9._@+-]$/;
const HEX = /^[0-9A-Fa-f]{2}$/;
const SLASH = 0x2f;
const BACKSLASH = 0x5c;
/** Control characters (C0, DEL, C1): no entry names one, encoded or raw (§10). */
const CONTROL = /\p{Cc}/u;
/** Reads a segment's bytes as UTF-8, refusing bytes that are not (§10: entries are UTF-8). */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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
 * Checks a list of entries against §10 (1..20 entries, each valid, none twice after decoding
 * and NFC, `docs` and `docs/` being one entry) and returns them in canonical form, in the
 * order given. The API and the client use it to refuse bad input (422) with the problem named.
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
    // A trailing `/` only says "meant as a directory": `docs` and `docs/` cover the same.
    if (seen.has(entryKey(canonical))) {
      return { ok: false, problem: `path ${JSON.stringify(entry)} is listed twice` };
    }
    seen.add(entryKey(canonical));
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
 * a trailing `/` for a directory): put in NFC, then bytes outside `A-Za-z0-9._@+-`
 * percent-encoded. The result still has to pass checkPathEntries (no `.` or `..` segment,
 * no `\` or control character, and so on).
 */
export function encodePath(path: string): string {
  let out = '';
  for (const byte of Buffer.from(path.normalize('NFC'), 'utf8')) out += encodeByte(byte, true);
  return out;
}

/**
 * Every overlapping pair of two lists of canonical entries (§10): an entry covers itself and
 * everything under it, with or without its trailing `/`, so two entries overlap when they
 * name the same path or one lies under the other. Each pair is `[entry of a, entry of b]`, in the
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
interface PathMatcher {
  /** Whether any entry of `other` overlaps an entry of the prepared claim. */
  touches(other: readonly string[]): boolean;
}

/**
 * Prepares canonical entries for checking against many claims: each check costs a few set
 * lookups per entry of the other claim (one per `/` in it), not one comparison per pair.
 */
export function pathMatcher(entries: readonly string[]): PathMatcher {
  const exact = new Set(entries.map(entryKey));
  // Every path strictly above an entry: an entry of the other claim that is one of them
  // has this entry under it.
  const above = new Set<string>();
  for (const entry of entries) for (const dir of pathsAbove(entryKey(entry))) above.add(dir);
  return {
    touches(other) {
      for (const entry of other) {
        const key = entryKey(entry);
        if (exact.has(key) || above.has(key)) return true;
        for (const dir of pathsAbove(key)) if (exact.has(dir)) return true;
      }
      return false;
    },
  };
}

/** The paths strictly above a key (an entry without its trailing `/`): `a/b/c.ts` → `a`, `a/b`. */
function pathsAbove(key: string): string[] {
  const out: string[] = [];
  for (let i = key.indexOf('/'); i !== -1; i = key.indexOf('/', i + 1)) out.push(key.slice(0, i));
  return out;
}

/**
 * What an entry names, its trailing `/` dropped: the `/` only says it is meant as a
 * directory (§10), and an entry covers everything under it either way.
 */
function entryKey(entry: string): string {
  return entry.endsWith('/') ? entry.slice(0, -1) : entry;
}

/** Whether a key is the path `key` or lies under it. */
function keyCovers(key: string, path: string): boolean {
  return path === key || (path.length > key.length && path.startsWith(`${key}/`));
}

/** Whether two canonical entries overlap: the same path, or one under the other. */
function entriesOverlap(a: string, b: string): boolean {
  const ka = entryKey(a);
  const kb = entryKey(b);
  return keyCovers(ka, kb) || keyCovers(kb, ka);
}

/**
 * Whether a canonical entry covers a changed file, the file named as GitHub lists it (a
 * repository path, not encoded): the entry is the file, or a path above it (§10, with or
 * without its trailing `/`), compared after NFC as entries are.
 */
export function pathCovers(entry: string, file: string): boolean {
  return keyCovers(entryKey(entry), encodePath(file));
}

/** The canonical form of one entry, or the rule it breaks. */
function canonicalEntry(entry: string): string | { problem: string } {
  if (entry === '') return { problem: 'an entry must not be empty' };
  if (entry.startsWith('/')) return { problem: 'an entry must be relative: no leading /' };
  const directory = entry.endsWith('/');
  const segments = (directory ? entry.slice(0, -1) : entry).split('/');
  const out: string[] = [];
  for (const segment of segments) {
    const decoded = decodeSegment(segment);
    if (!Array.isArray(decoded)) return decoded;
    if (decoded.length === 0) return { problem: 'an entry must not have an empty segment' };
    const bytes = normalisedSegment(decoded);
    if (!Array.isArray(bytes)) return bytes;
    if (bytes.length > MAX_SEGMENT_BYTES) {
      return { problem: `a segment is ${bytes.length} bytes, at most ${MAX_SEGMENT_BYTES}` };
    }
    if (isDotSegment(bytes)) return { problem: 'an entry must not have a . or .. segment' };
    out.push(bytes.map((byte) => encodeByte(byte, false)).join(''));
  }
  return `${out.join('/')}${directory ? '/' : ''}`;
}

/**
 * The bytes of one segment as written (`A-Za-z0-9._@+-` or `%XX`), or the rule it breaks.
 * An encoded `\`, `/` or control character is refused as its raw form is (§10): decoding must
 * not let in what the grammar keeps out.
 */
function decodeSegment(segment: string): number[] | { problem: string } {
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i]!;
    if (PLAIN_BYTE.test(char)) {
      bytes.push(char.charCodeAt(0));
      continue;
    }
    if (char === '\\') return BACKSLASH_PROBLEM;
    if (CONTROL.test(char)) return controlProblem(char.charCodeAt(0));
    const hex = segment.slice(i + 1, i + 3);
    if (char !== '%' || !HEX.test(hex)) {
      return {
        problem: `${JSON.stringify(char)} must be percent-encoded (only A-Za-z0-9._@+- and %XX are written as is)`,
      };
    }
    const byte = Number.parseInt(hex, 16);
    // No Git tree entry holds a `/` in its name: an encoded one names no file.
    if (byte === SLASH) return { problem: `%${hex} names no file: no / in a segment` };
    if (byte === BACKSLASH) return BACKSLASH_PROBLEM;
    if (byte < 0x20 || byte === 0x7f) return controlProblem(byte);
    bytes.push(byte);
    i += 2;
  }
  return bytes;
}

/**
 * A decoded segment read as UTF-8 and put in NFC (§10), so that `caf%C3%A9` and
 * `cafe%CC%81` are one name as people see it; or the rule it breaks.
 */
function normalisedSegment(decoded: readonly number[]): number[] | { problem: string } {
  let text: string;
  try {
    text = UTF8.decode(Uint8Array.from(decoded));
  } catch {
    return { problem: 'the %XX bytes of a segment must spell UTF-8 text' };
  }
  // C1 controls arrive as two UTF-8 bytes: only the decoded text shows them.
  const control = CONTROL.exec(text);
  if (control) return controlProblem(control[0].codePointAt(0)!);
  return [...Buffer.from(text.normalize('NFC'), 'utf8')];
}

const BACKSLASH_PROBLEM = {
  problem: 'a \\ is refused, raw or as %5C: paths separate directories with / only',
};

function controlProblem(code: number): { problem: string } {
  const at = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return { problem: `a control character (${at}) is refused, raw or encoded` };
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
