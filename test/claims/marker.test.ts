import { describe, expect, it } from 'vitest';
import {
  formatClaimTime,
  isStage,
  MAX_MARKER_BYTES,
  parseClaimMarker,
  parseClaimTime,
  readMarkerLine,
  renderClaimMarker,
} from '../../src/claims/marker.js';
import type { ClaimMarker } from '../../src/claims/types.js';

/** The marker of the Praetor protocol's own example. */
const SEED_LINE =
  '<!-- praetor-claim v=1 session=h:5f4dcc3b5aa7 lane=h:098f6bcd4621 branch=feat/x started=2026-10-08T12:00:00Z updated=2026-10-08T12:30:00Z stage=review assignee=claim -->';

const SEED_CLAIM: ClaimMarker = {
  session: 'h:5f4dcc3b5aa7',
  lane: 'h:098f6bcd4621',
  branch: 'feat/x',
  started: new Date('2026-10-08T12:00:00Z'),
  updated: new Date('2026-10-08T12:30:00Z'),
  stage: 'review',
  assignee: 'claim',
};

type Fields = Record<string, string | null>;

const BASE: Fields = {
  v: '1',
  session: 'h:5f4dcc3b5aa7',
  lane: 'h:098f6bcd4621',
  branch: 'feat/x',
  started: '2026-10-08T12:00:00Z',
  updated: '2026-10-08T12:30:00Z',
  stage: 'review',
  assignee: 'claim',
};

/** A marker line from BASE with `changes` applied; a null value drops the key. */
function marker(changes: Fields = {}): string {
  const fields = { ...BASE, ...changes };
  const tokens = Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([k, v]) => `${k}=${v}`);
  return `<!-- praetor-claim ${tokens.join(' ')} -->`;
}

/** A marker line with exactly these raw tokens. */
function raw(...tokens: string[]): string {
  return `<!-- praetor-claim ${tokens.join(' ')} -->`;
}

const accepts = (body: string) => expect(parseClaimMarker(body)).not.toBeNull();
const refuses = (body: string) => expect(parseClaimMarker(body)).toBeNull();

describe('parseClaimMarker: the line (docs/protocol.md §1)', () => {
  it('reads the Praetor example into a claim', () => {
    expect(parseClaimMarker(SEED_LINE)).toEqual(SEED_CLAIM);
  });

  it.each([
    ['the marker alone', SEED_LINE],
    ['the marker and human text', `${SEED_LINE}\n**Praetor claim**\n\n- Stage: review`],
    ['a \\r\\n line ending', `${SEED_LINE}\r\n**Praetor claim**\r\n`],
    ['one trailing \\r and no newline', `${SEED_LINE}\r`],
    ['an empty second line', `${SEED_LINE}\n`],
  ])('accepts %s', (_name, body) => accepts(body));

  it.each([
    ['an empty body', ''],
    ['a marker on line 2', `Claiming this.\n${SEED_LINE}`],
    ['a marker after a blank first line', `\n${SEED_LINE}`],
    ['a leading space', ` ${SEED_LINE}`],
    ['a leading BOM', `\uFEFF${SEED_LINE}`],
    ['text after the marker on its line', `${SEED_LINE} claimed`],
    ['a trailing space', `${SEED_LINE} `],
    ['two trailing \\r', `${SEED_LINE}\r\r\n`],
    ['a \\r inside the line', SEED_LINE.replace(' stage=', '\rstage=')],
    ['no space before -->', SEED_LINE.replace(' -->', '-->')],
    ['no closing -->', SEED_LINE.replace(' -->', '')],
    ['<!--praetor-claim without the space', SEED_LINE.replace('<!-- praetor', '<!--praetor')],
    ['an upper-case PRAETOR-CLAIM', SEED_LINE.replace('praetor-claim', 'PRAETOR-CLAIM')],
    ['another protocol name', SEED_LINE.replace('praetor-claim', 'praetor-claims')],
    ['the frame with nothing inside', '<!-- praetor-claim -->'],
    ['the frame with one space inside', '<!-- praetor-claim  -->'],
    ['the prefix alone', '<!-- praetor-claim '],
    ['a marker inside a code fence', `\`\`\`\n${SEED_LINE}\n\`\`\``],
  ])('refuses %s', (_name, body) => refuses(body));
});

describe('parseClaimMarker: the 1024-byte limit (docs/protocol.md §1)', () => {
  /** A valid marker padded with fractional-second digits to exactly `bytes` bytes. */
  function markerOfBytes(bytes: number): string {
    const short = marker({ started: '2026-10-08T12:00:00.1Z' });
    const padding = '0'.repeat(bytes - short.length);
    return marker({ started: `2026-10-08T12:00:00.1${padding}Z` });
  }

  it.each([
    ['exactly 1024 bytes', markerOfBytes(1024), true],
    ['1025 bytes', markerOfBytes(1025), false],
    ['1024 bytes and a dropped \\r', `${markerOfBytes(1024)}\r`, true],
    ['1024 bytes, \\r\\n and text', `${markerOfBytes(1024)}\r\n${'x'.repeat(2000)}`, true],
    ['1025 bytes and \\r\\n', `${markerOfBytes(1025)}\r\n`, false],
  ])('%s: accepted=%s', (_name, body, ok) => {
    expect(Buffer.byteLength(body.split(/\r?\n/)[0]!.replace(/\r$/, ''))).toBeGreaterThanOrEqual(
      1024,
    );
    expect(parseClaimMarker(body) !== null).toBe(ok);
  });

  // Every valid marker is ASCII, so a line with a multibyte character is refused by the value
  // shapes too; the line limit itself is observable through readMarkerLine.
  it.each([
    ['1024 ASCII bytes', 'a'.repeat(1024), true],
    ['1025 ASCII bytes', 'a'.repeat(1025), false],
    ['1024 bytes of which 512 two-byte chars', 'é'.repeat(512), true],
    ['1026 bytes in 513 two-byte chars', 'é'.repeat(513), false],
    ['1024 bytes of which 256 four-byte chars', '😀'.repeat(256), true],
    ['1025 bytes: 1022 ASCII and one three-byte char', `${'a'.repeat(1022)}€`, false],
    ['1024 bytes: 1021 ASCII and one three-byte char', `${'a'.repeat(1021)}€`, true],
    ['1024 bytes and \\r\\n', `${'é'.repeat(512)}\r\nmore`, true],
  ])('the line limit counts UTF-8 bytes: %s -> kept=%s', (_name, body, kept) => {
    expect(readMarkerLine(body) !== null).toBe(kept);
  });

  it('states the limit as 1024 bytes', () => {
    expect(MAX_MARKER_BYTES).toBe(1024);
  });

  it('refuses a line of 1000 chars that is over 1024 bytes', () => {
    const line = marker({ branch: `feat/${'é'.repeat(60)}` });
    expect(line.length).toBeLessThanOrEqual(1024);
    refuses(line);
  });
});

describe('parseClaimMarker: a long body (docs/protocol.md §1 first line only)', () => {
  const text = 'lorem ipsum dolor sit amet '.repeat(2500); // ~66 KB

  it.each([
    ['a marker followed by 64 KB of text', `${SEED_LINE}\n${text}`, true],
    ['64 KB without a marker', text, false],
    ['64 KB with a marker on line 2', `hello\n${SEED_LINE}\n${text}`, false],
    ['a 64 KB first line that starts like a marker', `${SEED_LINE}${text}`, false],
    ['a 64 KB first line without any newline', `<!-- praetor-claim ${text}`, false],
  ])('%s: accepted=%s', (_name, body, ok) => {
    expect(body.length).toBeGreaterThan(64 * 1024);
    expect(parseClaimMarker(body) !== null).toBe(ok);
  });
});

describe('parseClaimMarker: tokens (docs/protocol.md §1)', () => {
  it.each([
    ['keys in reverse order', raw(...marker().slice(19, -4).split(' ').reverse())],
    [
      'stage and v first',
      raw(
        'stage=review',
        'v=1',
        'branch=feat/x',
        'updated=2026-10-08T12:30:00Z',
        'session=h:5f4dcc3b5aa7',
        'started=2026-10-08T12:00:00Z',
        'lane=h:098f6bcd4621',
      ),
    ],
  ])('accepts %s', (_name, line) => {
    expect(parseClaimMarker(line)).toMatchObject({ session: 'h:5f4dcc3b5aa7', stage: 'review' });
  });

  it.each([
    ['two spaces between tokens', marker().replace(' lane=', '  lane=')],
    ['two spaces after the prefix', marker().replace('claim v=1', 'claim  v=1')],
    ['two spaces before -->', marker().replace(' -->', '  -->')],
    ['a tab between tokens', marker().replace(' lane=', '\tlane=')],
    ['a non-breaking space between tokens', marker().replace(' lane=', '\u00A0lane=')],
    ['an empty value', marker({ lane: '' })],
    ['a token without =', marker().replace(' assignee=claim', ' assignee')],
    ['a token with an empty key', marker().replace(' assignee=claim', ' =claim')],
    [
      'a duplicate key with the same value',
      marker().replace(' stage=', ' lane=h:098f6bcd4621 stage='),
    ],
    ['a duplicate key with another value', marker().replace(' stage=', ' stage=claimed stage=')],
    ['a duplicate v', marker().replace(' session=', ' v=1 session=')],
    ['an unknown key', marker({ note: 'x' })],
    ['an upper-case key', marker().replace('session=', 'Session=')],
    ['a key with a space before =', marker().replace('lane=', 'lane =')],
    ['a value with =', marker({ branch: 'feat=x' })],
    ['an inherited object key', marker().replace(' -->', ' __proto__=x -->')],
    ['a toString key', marker().replace(' -->', ' toString=x -->')],
  ])('refuses %s', (_name, line) => refuses(line));

  it.each([
    ['v=1', '1', true],
    ['v=2', '2', false],
    ['v=0', '0', false],
    ['v=01', '01', false],
    ['v=1.0', '1.0', false],
    ['v=one', 'one', false],
    ['no v', null, false],
  ])('version %s: accepted=%s', (_name, v, ok) => {
    expect(parseClaimMarker(marker({ v })) !== null).toBe(ok);
  });
});

describe('parseClaimMarker: session, lane, branch (docs/protocol.md §1)', () => {
  const identities: Array<[string, string, boolean]> = [
    ['one letter', 'a', true],
    ['one digit', '7', true],
    ['an upper-case letter first', 'Unit7', true],
    ['every allowed character', 'a0._/:+@-Z9', true],
    ['a keyed tag h: + 12 hex', 'h:5f4dcc3b5aa7', true],
    ['128 characters', `a${'b'.repeat(127)}`, true],
    ['129 characters', `a${'b'.repeat(128)}`, false],
    ['a dot first', '.hidden', false],
    ['an underscore first', '_x', false],
    ['a dash first', '-x', false],
    ['a slash first', '/x', false],
    ['a colon first', ':x', false],
    ['a plus first', '+x', false],
    ['an at first', '@x', false],
    ['a #', 'feat#1', false],
    ['a backtick', 'feat`x', false],
    ['a comma', 'a,b', false],
    ['a quote', 'a"b', false],
    ['a non-ASCII letter', 'séance', false],
    ['a non-ASCII digit', '٣', false],
    ['a > (ending the comment early)', 'a-->', false],
  ];
  const cases = ['session', 'lane', 'branch'].flatMap((key) =>
    identities.map(([name, value, ok]) => [key, name, value, ok] as const),
  );

  it.each(cases)('%s with %s: accepted=%s', (key, _name, value, ok) => {
    const claim = parseClaimMarker(marker({ [key]: value }));
    expect(claim !== null).toBe(ok);
    if (ok) expect(claim).toMatchObject({ [key]: value });
  });

  it.each(['session', 'lane', 'branch'])('refuses a marker without %s', (key) => {
    refuses(marker({ [key]: null }));
  });
});

describe('parseClaimMarker: started and updated (docs/protocol.md §1, RFC 3339)', () => {
  const times: Array<[string, string, string | null]> = [
    ['UTC Z', '2026-10-08T12:00:00Z', '2026-10-08T12:00:00.000Z'],
    ['milliseconds', '2026-10-08T12:00:00.123Z', '2026-10-08T12:00:00.123Z'],
    ['one fractional digit', '2026-10-08T12:00:00.5Z', '2026-10-08T12:00:00.500Z'],
    ['nanoseconds, truncated', '2026-10-08T12:00:00.123456789Z', '2026-10-08T12:00:00.123Z'],
    ['.9999 truncated, not rounded', '2026-12-31T23:59:59.9999Z', '2026-12-31T23:59:59.999Z'],
    ['a + offset', '2026-10-08T14:00:00+02:00', '2026-10-08T12:00:00.000Z'],
    ['a - offset with minutes', '2026-10-08T06:30:00-05:30', '2026-10-08T12:00:00.000Z'],
    ['-00:00', '2026-10-08T12:00:00-00:00', '2026-10-08T12:00:00.000Z'],
    ['+23:59', '2026-10-09T11:59:00+23:59', '2026-10-08T12:00:00.000Z'],
    ['an offset and fraction', '2026-10-08T14:00:00.250+02:00', '2026-10-08T12:00:00.250Z'],
    ['2024-02-29 (leap year)', '2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29 (400-year leap)', '2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['0000-02-29 (year 0 is leap)', '0000-02-29T00:00:00Z', '0000-02-29T00:00:00.000Z'],
    ['year 0050, not 1950', '0050-01-01T00:00:00Z', '0050-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59Z', '9999-12-31T23:59:59.000Z'],
    ['April 30', '2026-04-30T00:00:00Z', '2026-04-30T00:00:00.000Z'],
    ['23:59:59', '2026-10-08T23:59:59Z', '2026-10-08T23:59:59.000Z'],
    ['2026-02-29 (not a leap year)', '2026-02-29T00:00:00Z', null],
    ['1900-02-29 (century, not leap)', '1900-02-29T00:00:00Z', null],
    ['2026-02-30', '2026-02-30T00:00:00Z', null],
    ['2026-04-31', '2026-04-31T00:00:00Z', null],
    ['day 32', '2026-01-32T00:00:00Z', null],
    ['day 00', '2026-01-00T00:00:00Z', null],
    ['month 13', '2026-13-01T00:00:00Z', null],
    ['month 00', '2026-00-01T00:00:00Z', null],
    ['hour 24', '2026-10-08T24:00:00Z', null],
    ['minute 60', '2026-10-08T12:60:00Z', null],
    ['a leap second :60', '2016-12-31T23:59:60Z', null],
    ['offset hour 24', '2026-10-08T12:00:00+24:00', null],
    ['offset minute 60', '2026-10-08T12:00:00+02:60', null],
    ['an offset without colon', '2026-10-08T12:00:00+0200', null],
    ['an offset without minutes', '2026-10-08T12:00:00+02', null],
    ['no zone', '2026-10-08T12:00:00', null],
    ['no seconds', '2026-10-08T12:00Z', null],
    ['an empty fraction', '2026-10-08T12:00:00.Z', null],
    ['a comma fraction', '2026-10-08T12:00:00,5Z', null],
    ['lower-case t', '2026-10-08t12:00:00Z', null],
    ['lower-case z', '2026-10-08T12:00:00z', null],
    ['a date only', '2026-10-08', null],
    ['a two-digit year', '26-10-08T12:00:00Z', null],
    ['a five-digit year', '12026-10-08T12:00:00Z', null],
    ['a signed year', '+2026-10-08T12:00:00Z', null],
    ['one-digit month and day', '2026-1-8T12:00:00Z', null],
    ['basic format', '20261008T120000Z', null],
    ['non-ASCII digits', '٢٠٢٦-10-08T12:00:00Z', null],
    ['a Unix time', '1791460800', null],
    ['before year 0000 in UTC', '0000-01-01T00:30:00+01:00', null],
    ['after year 9999 in UTC', '9999-12-31T23:30:00-01:00', null],
  ];

  it.each(times)('parseClaimTime reads %s (%s) as %s', (_name, value, iso) => {
    expect(parseClaimTime(value)?.toISOString() ?? null).toBe(iso);
  });

  const cases = ['started', 'updated'].flatMap((key) =>
    times.map(([name, value, iso]) => [key, name, value, iso !== null] as const),
  );

  it.each(cases)('%s as %s: accepted=%s', (key, _name, value, ok) => {
    expect(parseClaimMarker(marker({ [key]: value })) !== null).toBe(ok);
  });

  it.each(['started', 'updated'])('refuses a marker without %s', (key) => {
    refuses(marker({ [key]: null }));
  });
});

describe('parseClaimMarker: stage (docs/protocol.md §1)', () => {
  it.each([
    ['claimed', true],
    ['implementing', true],
    ['review', true],
    ['blocked', true],
    ['queued', true],
    ['landing', true],
    ['released', true],
    ['fix-round-1', true],
    ['fix-round-9', true],
    ['fix-round-10', true],
    ['fix-round-99', true],
    ['fix-round-100', true],
    ['fix-round-999', true],
    ['fix-round-0', false],
    ['fix-round-1000', false],
    ['fix-round-01', false],
    ['fix-round-001', false],
    ['fix-round--1', false],
    ['fix-round-', false],
    ['fix-round-1a', false],
    ['fix-round-1.5', false],
    ['fix-round-١', false],
    ['Fix-round-1', false],
    ['fix-round', false],
    ['Released', false],
    ['done', false],
    ['in-progress', false],
  ])('stage=%s: accepted=%s', (stage, ok) => {
    expect(parseClaimMarker(marker({ stage })) !== null).toBe(ok);
    expect(isStage(stage)).toBe(ok);
  });

  it('refuses a marker without stage', () => refuses(marker({ stage: null })));
});

describe('parseClaimMarker: assignee (docs/protocol.md §1)', () => {
  it.each([
    ['claim', 'claim', true],
    ['before', 'before', true],
    ['absent (an old marker)', null, true],
    ['Claim', 'Claim', false],
    ['none', 'none', false],
    ['after', 'after', false],
  ])('assignee %s: accepted=%s', (_name, assignee, ok) => {
    const claim = parseClaimMarker(marker({ assignee }));
    expect(claim !== null).toBe(ok);
    if (ok) expect(claim?.assignee).toBe(assignee ?? undefined);
  });

  it('leaves the assignee key out of a claim whose marker lacks it', () => {
    expect(parseClaimMarker(marker({ assignee: null }))).not.toHaveProperty('assignee');
  });
});

describe('parseClaimMarker: outcome (docs/protocol.md §1)', () => {
  it.each([
    ['released', 'landed', true],
    ['released', 'abandoned', true],
    ['released', 'handed-over', true],
    ['released', null, true],
    ['released', 'merged', false],
    ['released', 'Landed', false],
    ['released', 'handed_over', false],
    ['claimed', 'abandoned', false],
    ['implementing', 'landed', false],
    ['review', 'landed', false],
    ['blocked', 'abandoned', false],
    ['queued', 'handed-over', false],
    ['landing', 'landed', false],
    ['fix-round-3', 'landed', false],
    ['review', null, true],
  ])('stage=%s outcome=%s: accepted=%s', (stage, outcome, ok) => {
    const claim = parseClaimMarker(marker({ stage, outcome }));
    expect(claim !== null).toBe(ok);
    if (ok) expect(claim?.outcome).toBe(outcome ?? undefined);
  });

  it('reads a released marker without an outcome as released', () => {
    const claim = parseClaimMarker(marker({ stage: 'released' }));
    expect(claim?.stage).toBe('released');
    expect(claim).not.toHaveProperty('outcome');
  });
});

describe('renderClaimMarker (docs/protocol.md §1 writers)', () => {
  it('writes the Praetor example back exactly', () => {
    expect(renderClaimMarker(SEED_CLAIM)).toBe(SEED_LINE);
  });

  it('writes keys in the order of docs/protocol.md §1, outcome last', () => {
    const line = renderClaimMarker({ ...SEED_CLAIM, stage: 'released', outcome: 'landed' });
    expect(
      line
        .slice(19, -4)
        .split(' ')
        .map((t) => t.split('=')[0]),
    ).toEqual([
      'v',
      'session',
      'lane',
      'branch',
      'started',
      'updated',
      'stage',
      'assignee',
      'outcome',
    ]);
  });

  it('writes a marker read in another key order in canonical order', () => {
    const reversed = raw(...SEED_LINE.slice(19, -4).split(' ').reverse());
    expect(renderClaimMarker(parseClaimMarker(reversed)!)).toBe(SEED_LINE);
  });

  it('writes times in UTC as YYYY-MM-DDTHH:MM:SSZ, dropping fractions', () => {
    const read = parseClaimMarker(
      marker({ started: '2026-10-08T14:00:00.987+02:00', updated: '2026-10-08T07:30:00-05:00' }),
    )!;
    expect(renderClaimMarker(read)).toContain(
      'started=2026-10-08T12:00:00Z updated=2026-10-08T12:30:00Z',
    );
  });

  it('leaves out an absent assignee', () => {
    const { assignee: _, ...claim } = SEED_CLAIM;
    expect(renderClaimMarker(claim)).not.toContain('assignee=');
  });

  it.each<[string, Partial<Record<keyof ClaimMarker, unknown>>, RegExp]>([
    ['an empty session', { session: '' }, /session must be/],
    ['a session starting with -', { session: '-x' }, /session must be/],
    ['a lane of 129 characters', { lane: 'a'.repeat(129) }, /lane must be/],
    ['a branch with a space', { branch: 'feat x' }, /branch must be/],
    ['a branch with a newline', { branch: 'feat\nx' }, /branch must be/],
    ['an unknown stage', { stage: 'done' }, /stage "done"/],
    ['fix-round-0', { stage: 'fix-round-0' }, /stage "fix-round-0"/],
    ['an unknown assignee', { assignee: 'maybe' }, /assignee must be/],
    ['an unknown outcome', { stage: 'released', outcome: 'merged' }, /outcome must be/],
    ['an outcome without released', { outcome: 'landed' }, /only with stage released/],
    ['an invalid started', { started: new Date(Number.NaN) }, /valid date/],
    [
      'an updated after year 9999',
      { updated: new Date('+010000-01-01T00:00:00Z') },
      /0000\.\.9999/,
    ],
    ['a started before year 0', { started: new Date('-000001-01-01T00:00:00Z') }, /0000\.\.9999/],
    ['a started that is not a Date', { started: '2026-10-08T12:00:00Z' }, /must be Dates/],
  ])('refuses to write a claim with %s', (_name, change, message) => {
    const claim = { ...SEED_CLAIM, ...change } as ClaimMarker;
    expect(() => renderClaimMarker(claim)).toThrow(message);
  });
});

describe('formatClaimTime', () => {
  it.each([
    ['a whole second', '2026-10-08T12:00:00.000Z', '2026-10-08T12:00:00Z'],
    ['milliseconds dropped', '2026-10-08T12:00:00.999Z', '2026-10-08T12:00:00Z'],
    ['year 0000', '0000-01-01T00:00:00.000Z', '0000-01-01T00:00:00Z'],
    ['year 9999', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59Z'],
  ])('writes %s', (_name, iso, text) => {
    expect(formatClaimTime(new Date(iso))).toBe(text);
  });

  it.each([
    ['an invalid date', new Date(Number.NaN)],
    ['year 10000', new Date('+010000-01-01T00:00:00Z')],
    ['year -1', new Date('-000001-12-31T23:59:59Z')],
  ])('refuses %s', (_name, date) => {
    expect(() => formatClaimTime(date)).toThrow(/0000\.\.9999/);
  });
});
