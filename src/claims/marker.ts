import type { AssigneeMode, ClaimMarker, Outcome, Stage } from './types.js';

/**
 * The claim marker grammar, version 1 (docs/protocol.md §1): read and write the first line of a claim
 * comment. Pure: no I/O and no clock.
 *
 * The reader is an allow-list. Every rule of docs/protocol.md §1 is checked and anything else is "not a
 * claim" (null), never an error: a malformed marker is skipped silently, exactly like a
 * comment that has no marker at all.
 */

/** The exact start of a marker line (docs/protocol.md §1), trailing space included. */
export const MARKER_PREFIX = '<!-- praetor-claim ';

/** The exact end of a marker line (docs/protocol.md §1), leading space included. */
export const MARKER_SUFFIX = ' -->';

/** The longest marker line in UTF-8 bytes, after one trailing `\r` is dropped (docs/protocol.md §1). */
export const MAX_MARKER_BYTES = 1024;

/** The marker keys in the order writers render them (docs/protocol.md §1). */
const MARKER_KEYS = [
  'v',
  'session',
  'lane',
  'branch',
  'started',
  'updated',
  'stage',
  'assignee',
  'outcome',
] as const;

/** One marker key. */
type MarkerKey = (typeof MARKER_KEYS)[number];

/** The stages other than `fix-round-N` (docs/protocol.md §1). */
export const FIXED_STAGES = [
  'claimed',
  'implementing',
  'review',
  'blocked',
  'queued',
  'landing',
  'released',
] as const satisfies readonly Stage[];

/** The outcomes a released marker may carry (docs/protocol.md §1). */
export const OUTCOMES = [
  'landed',
  'abandoned',
  'handed-over',
] as const satisfies readonly Outcome[];

/** The assignee modes (docs/protocol.md §1). */
const ASSIGNEE_MODES = ['claim', 'before'] as const satisfies readonly AssigneeMode[];

/**
 * How many UTF-16 code units of a body the reader looks at to find the first line: a line of
 * at most 1024 bytes has at most 1024 code units, plus one `\r` and the `\n`. Looking no
 * further keeps the cost of reading a 64 KB comment the same as a 100-byte one.
 */
const SCAN_LIMIT = MAX_MARKER_BYTES + 2;

const KEY_SET: ReadonlySet<string> = new Set(MARKER_KEYS);
const FIXED_STAGE_SET: ReadonlySet<string> = new Set(FIXED_STAGES);
const OUTCOME_SET: ReadonlySet<string> = new Set(OUTCOMES);
const ASSIGNEE_SET: ReadonlySet<string> = new Set(ASSIGNEE_MODES);

/**
 * docs/protocol.md §1: 1..128 of letters, digits and `. _ / : + @ -`, the first a letter or digit.
 * A keyed identity tag (`h:` + 12 lowercase hex) passes as it is.
 */
const IDENTITY = /^[A-Za-z0-9][A-Za-z0-9._/:+@-]{0,127}$/;

/** docs/protocol.md §1: `fix-round-N`, N in 1..999 without leading zeros. */
const FIX_ROUND = /^fix-round-[1-9][0-9]{0,2}$/;

/**
 * RFC 3339 `date-time`, strict spelling: uppercase `T` and `Z` only. RFC 3339 §5.6 lets
 * readers accept lowercase `t`/`z`, but Praetor's reader (Go `time.RFC3339`) refuses them, and
 * one accepted spelling keeps both readers agreeing on which comments are claims. Fractional
 * seconds take any number of digits (RFC 3339 `time-secfrac`); the line limit bounds them.
 * Ranges are checked after the match, by numbers, not here.
 */
const RFC3339 =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?(?:Z|([+-])([0-9]{2}):([0-9]{2}))$/;

/** True when `s` is a stage of docs/protocol.md §1, `fix-round-N` included. */
export function isStage(s: string): s is Stage {
  return FIXED_STAGE_SET.has(s) || FIX_ROUND.test(s);
}

/** True when `s` is an outcome of docs/protocol.md §1. */
function isOutcome(s: string): s is Outcome {
  return OUTCOME_SET.has(s);
}

/** True when `s` is an assignee mode of docs/protocol.md §1. */
function isAssigneeMode(s: string): s is AssigneeMode {
  return ASSIGNEE_SET.has(s);
}

/** True when `s` is a valid `session`, `lane` or `branch` value (docs/protocol.md §1). */
export function isClaimIdentity(s: string): boolean {
  return IDENTITY.test(s);
}

/**
 * Reads an RFC 3339 time as the marker allows it (docs/protocol.md §1), or null.
 *
 * Date.parse is not used: V8 accepts `2026-02-30` (rolling it into March), hour 24 and
 * lowercase `t`, all of which the allow-list refuses. Fractional seconds beyond milliseconds
 * are truncated, not rounded, so `23:59:59.9999Z` never becomes the next day.
 */
export function parseClaimTime(s: string): Date | null {
  const m = RFC3339.exec(s);
  if (m === null) return null;
  const [, y, mo, d, h, mi, sec, frac, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(sec);
  if (month < 1 || month > 12) return null;
  if (day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59) return null;
  // A leap second (:60, which RFC 3339 allows) is refused: JavaScript dates cannot hold it,
  // and Go's time.Parse, Praetor's reader, refuses it too.
  if (second > 59) return null;
  let offsetMinutes = 0;
  if (sign !== undefined) {
    const offsetHours = Number(oh);
    const offsetMins = Number(om);
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const millis = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0..99 to 1900..1999.
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, millis);
  const instant = new Date(local.getTime() - offsetMinutes * 60_000);
  // An offset can carry 0000-01-01 or 9999-12-31 out of the four-digit years; such a time
  // could never be written back (formatClaimTime), so finalising it would be impossible.
  const utcYear = instant.getUTCFullYear();
  if (utcYear < 0 || utcYear > 9999) return null;
  return instant;
}

/** The Gregorian month length, leap years included (RFC 3339 §5.7). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * A time as writers render it (docs/protocol.md §1): `YYYY-MM-DDTHH:MM:SSZ`, UTC, fractional seconds
 * dropped. Throws for an invalid Date or one outside the years 0000..9999, which the format
 * cannot express.
 */
export function formatClaimTime(d: Date): string {
  const iso = Number.isNaN(d.getTime()) ? '' : d.toISOString();
  // toISOString writes `YYYY-MM-DDTHH:mm:ss.sssZ` (24 chars) exactly for years 0000..9999
  // and a six-digit signed year otherwise.
  if (iso.length !== 24) {
    throw new Error(`claim time must be a valid date in the years 0000..9999, got ${String(d)}`);
  }
  return `${iso.slice(0, 19)}Z`;
}

/**
 * Reads the claim marker from the first line of a comment body (docs/protocol.md §1), or null when the
 * first line is not exactly a version-1 marker. Only the first line counts: a marker further
 * down is not a claim.
 */
export function parseClaimMarker(body: string): ClaimMarker | null {
  const line = readMarkerLine(body);
  if (line === null) return null;
  const inner = markerInner(line);
  if (inner === null) return null;
  const fields = readFields(inner);
  if (fields === null) return null;
  return toClaim(fields);
}

/**
 * The first line of `body` with one trailing `\r` dropped, or null when it is longer than
 * 1024 UTF-8 bytes (docs/protocol.md §1): the only line that may be a marker. Looks at no more than the
 * first 1026 code units of the body, so its cost does not grow with the body.
 */
export function readMarkerLine(body: string): string | null {
  const head = body.length > SCAN_LIMIT ? body.slice(0, SCAN_LIMIT) : body;
  const newline = head.indexOf('\n');
  // No newline in the head of a longer body: the first line is longer than any marker.
  if (newline === -1 && head.length < body.length) return null;
  let line = newline === -1 ? head : head.slice(0, newline);
  if (line.endsWith('\r')) line = line.slice(0, -1);
  // Bytes, not characters: the limit is the wire size (docs/protocol.md §1). Every valid marker is
  // ASCII, so a multibyte character is refused by the value shapes as well.
  if (Buffer.byteLength(line, 'utf8') > MAX_MARKER_BYTES) return null;
  return line;
}

/** The text between MARKER_PREFIX and MARKER_SUFFIX, or null when the frame is not exact. */
function markerInner(line: string): string | null {
  // The length check stops `<!-- praetor-claim -->` matching prefix and suffix on one space.
  if (line.length < MARKER_PREFIX.length + MARKER_SUFFIX.length) return null;
  if (!line.startsWith(MARKER_PREFIX) || !line.endsWith(MARKER_SUFFIX)) return null;
  return line.slice(MARKER_PREFIX.length, line.length - MARKER_SUFFIX.length);
}

/**
 * Splits the inside of a marker into its keyed values (docs/protocol.md §1): tokens separated by single
 * spaces, each `key=value` with a known key, a non-empty value and no key twice. Null when
 * any token breaks a rule. A value's shape is checked later, per key; no shape admits `=`.
 */
function readFields(inner: string): Map<MarkerKey, string> | null {
  const fields = new Map<MarkerKey, string>();
  // An empty token is a double space, or a space at either end of the inside.
  for (const token of inner.split(' ')) {
    const eq = token.indexOf('=');
    if (eq <= 0 || eq === token.length - 1) return null;
    const key = token.slice(0, eq);
    if (!isMarkerKey(key) || fields.has(key)) return null;
    fields.set(key, token.slice(eq + 1));
  }
  return fields;
}

function isMarkerKey(key: string): key is MarkerKey {
  return KEY_SET.has(key);
}

/** Checks every value against its shape (docs/protocol.md §1) and builds the claim, or null. */
function toClaim(fields: ReadonlyMap<MarkerKey, string>): ClaimMarker | null {
  if (fields.get('v') !== '1') return null;
  const session = fields.get('session');
  const lane = fields.get('lane');
  const branch = fields.get('branch');
  if (session === undefined || !isClaimIdentity(session)) return null;
  if (lane === undefined || !isClaimIdentity(lane)) return null;
  if (branch === undefined || !isClaimIdentity(branch)) return null;
  const started = parseOptionalTime(fields.get('started'));
  const updated = parseOptionalTime(fields.get('updated'));
  if (started === null || updated === null) return null;
  const stage = fields.get('stage');
  if (stage === undefined || !isStage(stage)) return null;
  const assignee = fields.get('assignee');
  if (assignee !== undefined && !isAssigneeMode(assignee)) return null;
  const outcome = fields.get('outcome');
  // An outcome belongs to a released claim only; a released claim may lack one (docs/protocol.md §1).
  if (outcome !== undefined && (!isOutcome(outcome) || stage !== 'released')) return null;
  return {
    session,
    lane,
    branch,
    started,
    updated,
    stage,
    ...(assignee === undefined ? {} : { assignee }),
    ...(outcome === undefined ? {} : { outcome }),
  };
}

/** Both times are required (docs/protocol.md §1), so a missing one is as bad as a malformed one. */
function parseOptionalTime(value: string | undefined): Date | null {
  return value === undefined ? null : parseClaimTime(value);
}

/**
 * Writes the marker line for `claim` (docs/protocol.md §1): keys in the order of MARKER_KEYS, times as
 * `YYYY-MM-DDTHH:MM:SSZ`. Throws when the claim breaks a rule of docs/protocol.md §1, so a writer never
 * emits a marker that readers would skip.
 */
export function renderClaimMarker(claim: ClaimMarker): string {
  assertWritable(claim);
  const tokens = [
    'v=1',
    `session=${claim.session}`,
    `lane=${claim.lane}`,
    `branch=${claim.branch}`,
    `started=${formatClaimTime(claim.started)}`,
    `updated=${formatClaimTime(claim.updated)}`,
    `stage=${claim.stage}`,
  ];
  if (claim.assignee !== undefined) tokens.push(`assignee=${claim.assignee}`);
  if (claim.outcome !== undefined) tokens.push(`outcome=${claim.outcome}`);
  const line = `${MARKER_PREFIX}${tokens.join(' ')}${MARKER_SUFFIX}`;
  // Belt and braces: whatever the checks above missed, the reader must accept what we write.
  if (parseClaimMarker(line) === null) {
    throw new Error(`refusing to write a claim marker that does not parse back: ${line}`);
  }
  return line;
}

/** Throws an Error naming the first rule of docs/protocol.md §1 that `claim` breaks. */
function assertWritable(claim: ClaimMarker): void {
  for (const key of ['session', 'lane', 'branch'] as const) {
    const value: unknown = claim[key];
    if (typeof value !== 'string' || !isClaimIdentity(value)) {
      throw new Error(
        `claim ${key} must be 1..128 of letters, digits and . _ / : + @ -, starting with a letter or digit`,
      );
    }
  }
  if (typeof claim.stage !== 'string' || !isStage(claim.stage)) {
    throw new Error(
      `claim stage ${JSON.stringify(claim.stage)} is not a stage of docs/protocol.md §1`,
    );
  }
  if (claim.assignee !== undefined && !isAssigneeMode(claim.assignee)) {
    throw new Error(
      `claim assignee must be claim or before, got ${JSON.stringify(claim.assignee)}`,
    );
  }
  if (claim.outcome !== undefined) {
    if (!isOutcome(claim.outcome)) {
      throw new Error(`claim outcome must be one of ${OUTCOMES.join(', ')}`);
    }
    if (claim.stage !== 'released') {
      throw new Error(`claim outcome is allowed only with stage released, not ${claim.stage}`);
    }
  }
  if (!(claim.started instanceof Date) || !(claim.updated instanceof Date)) {
    throw new Error('claim started and updated must be Dates');
  }
}
