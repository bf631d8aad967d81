import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseClaimMarker, parseClaimTime, renderClaimMarker } from '../../src/claims/marker.js';
import type { AssigneeMode, ClaimMarker, Outcome, Stage } from '../../src/claims/types.js';

/*
 * Property tests of the marker grammar (docs/protocol.md §1):
 * - render then parse is the identity for every valid claim;
 * - on random and mutated lines, the parser accepts exactly when an independent oracle does.
 *
 * The oracle below is written differently from the parser on purpose: whole-line regexes, a
 * character loop for identities, an enumerated stage set, and V8's Date.parse round-trip for
 * calendar validity. Agreement between two unlike implementations is the evidence.
 */

// ---------------------------------------------------------------------------------------------
// The oracle

const ORACLE_KEYS = [
  'v',
  'session',
  'lane',
  'branch',
  'started',
  'updated',
  'stage',
  'assignee',
  'outcome',
];
const ORACLE_REQUIRED = ['v', 'session', 'lane', 'branch', 'started', 'updated', 'stage'];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const IDENTITY_CHARS = `${ALNUM}._/:+@-`;
const ORACLE_STAGES = new Set([
  'claimed',
  'implementing',
  'review',
  'blocked',
  'queued',
  'landing',
  'released',
  ...Array.from({ length: 999 }, (_, i) => `fix-round-${i + 1}`),
]);
const ORACLE_TIME =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

interface OracleClaim {
  readonly fields: Readonly<Record<string, string>>;
  readonly started: number;
  readonly updated: number;
}

function oracleIdentity(value: string): boolean {
  if (value.length < 1 || value.length > 128) return false;
  if (!ALNUM.includes(value.charAt(0))) return false;
  for (const ch of value) if (!IDENTITY_CHARS.includes(ch)) return false;
  return true;
}

/** Milliseconds of a valid marker time, or null. */
function oracleTime(value: string): number | null {
  const m = ORACLE_TIME.exec(value);
  if (m === null) return null;
  // Date.parse rolls 2026-02-30 into March; a day that survives the round trip exists.
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  const dayMs = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(dayMs) || new Date(dayMs).toISOString().slice(0, 10) !== day) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  // Writers can express only four-digit UTC years.
  if (new Date(ms).toISOString().length !== 24) return null;
  return ms;
}

function oracle(body: string): OracleClaim | null {
  const line = /^[^\n]*/.exec(body)![0].replace(/\r$/, '');
  if (new TextEncoder().encode(line).length > 1024) return null;
  const framed = /^<!-- praetor-claim ([^ ]+(?: [^ ]+)*) -->$/.exec(line);
  if (framed === null) return null;
  const fields: Record<string, string> = Object.create(null);
  for (const token of framed[1]!.split(' ')) {
    const kv = /^([a-z]+)=(.+)$/s.exec(token);
    if (kv === null) return null;
    const [, key, value] = kv as unknown as [string, string, string];
    if (!ORACLE_KEYS.includes(key) || key in fields) return null;
    fields[key] = value;
  }
  if (!ORACLE_REQUIRED.every((k) => k in fields)) return null;
  if (fields.v !== '1') return null;
  if (![fields.session, fields.lane, fields.branch].every((v) => oracleIdentity(v!))) return null;
  if (!ORACLE_STAGES.has(fields.stage!)) return null;
  if ('assignee' in fields && fields.assignee !== 'claim' && fields.assignee !== 'before') {
    return null;
  }
  if ('outcome' in fields) {
    if (!['landed', 'abandoned', 'handed-over'].includes(fields.outcome!)) return null;
    if (fields.stage !== 'released') return null;
  }
  const started = oracleTime(fields.started!);
  const updated = oracleTime(fields.updated!);
  if (started === null || updated === null) return null;
  return { fields, started, updated };
}

/** Parser and oracle agree on acceptance, and on the values of an accepted claim. */
function agrees(body: string): void {
  const parsed = parseClaimMarker(body);
  const expected = oracle(body);
  expect(parsed !== null, JSON.stringify(body.slice(0, 300))).toBe(expected !== null);
  if (parsed === null || expected === null) return;
  const { fields } = expected;
  expect(parsed).toEqual({
    session: fields.session,
    lane: fields.lane,
    branch: fields.branch,
    started: new Date(expected.started),
    updated: new Date(expected.updated),
    stage: fields.stage,
    ...('assignee' in fields ? { assignee: fields.assignee } : {}),
    ...('outcome' in fields ? { outcome: fields.outcome } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// Generators of valid claims

const hex = fc.constantFrom(...'0123456789abcdef');
const tagArb = fc.string({ unit: hex, minLength: 12, maxLength: 12 }).map((h) => `h:${h}`);
const plainIdentityArb = fc
  .tuple(
    fc.constantFrom(...ALNUM),
    fc.string({ unit: fc.constantFrom(...IDENTITY_CHARS), maxLength: 127 }),
  )
  .map(([first, rest]) => first + rest);
const identityArb = fc.oneof(tagArb, plainIdentityArb);

const fixedStageArb = fc.constantFrom<Stage>(
  'claimed',
  'implementing',
  'review',
  'blocked',
  'queued',
  'landing',
  'released',
);
const fixRoundArb = fc.integer({ min: 1, max: 999 }).map((n): Stage => `fix-round-${n}`);
const stageArb = fc.oneof(fixedStageArb, fixRoundArb);

// Whole seconds, years 1970..2199: the times writers produce.
const wholeSecondDateArb = fc
  .integer({ min: 0, max: Date.UTC(2199, 11, 31, 23, 59, 59) / 1000 })
  .map((s) => new Date(s * 1000));

const assigneeArb = fc.option(fc.constantFrom<AssigneeMode>('claim', 'before'), {
  nil: undefined,
});
const outcomeArb = fc.option(fc.constantFrom<Outcome>('landed', 'abandoned', 'handed-over'), {
  nil: undefined,
});

const claimArb: fc.Arbitrary<ClaimMarker> = fc
  .record({
    session: identityArb,
    lane: identityArb,
    branch: identityArb,
    started: wholeSecondDateArb,
    updated: wholeSecondDateArb,
    stage: stageArb,
    assignee: assigneeArb,
    outcome: outcomeArb,
  })
  .map(({ assignee, outcome, ...claim }) => ({
    ...claim,
    ...(assignee === undefined ? {} : { assignee }),
    // docs/protocol.md §1: an outcome only with stage released.
    ...(outcome === undefined || claim.stage !== 'released' ? {} : { outcome }),
  }));

// ---------------------------------------------------------------------------------------------
// Generators of lines that are mostly almost valid

/** Characters a mutation inserts: separators, time and identity characters, non-ASCII. */
const mutationCharArb = fc.constantFrom(
  ' ',
  '=',
  '\r',
  '\n',
  '\t',
  '\u00A0',
  '-',
  ':',
  '.',
  '+',
  '/',
  '@',
  '_',
  '>',
  'T',
  't',
  'Z',
  'z',
  'h',
  'a',
  '0',
  '1',
  '2',
  '5',
  '9',
  'é',
  '😀',
);

type Mutation = (line: string) => fc.Arbitrary<string>;

const insertChar: Mutation = (line) =>
  fc
    .tuple(fc.nat({ max: line.length }), mutationCharArb)
    .map(([i, ch]) => line.slice(0, i) + ch + line.slice(i));
const deleteChar: Mutation = (line) =>
  fc.nat({ max: line.length - 1 }).map((i) => line.slice(0, i) + line.slice(i + 1));
const replaceChar: Mutation = (line) =>
  fc
    .tuple(fc.nat({ max: line.length - 1 }), mutationCharArb)
    .map(([i, ch]) => line.slice(0, i) + ch + line.slice(i + 1));

/** Mutations over the tokens inside the frame. */
function tokenMutation(edit: (tokens: string[], i: number, j: number) => string[]): Mutation {
  return (line) => {
    const tokens = line.slice(19, -4).split(' ');
    return fc
      .tuple(fc.nat({ max: tokens.length - 1 }), fc.nat({ max: tokens.length - 1 }))
      .map(([i, j]) => `<!-- praetor-claim ${edit([...tokens], i, j).join(' ')} -->`);
  };
}
const duplicateToken = tokenMutation((t, i) => [...t.slice(0, i + 1), t[i]!, ...t.slice(i + 1)]);
const dropToken = tokenMutation((t, i) => t.filter((_, k) => k !== i));
const swapTokens = tokenMutation((t, i, j) => {
  [t[i], t[j]] = [t[j]!, t[i]!];
  return t;
});
const doubleSpace = tokenMutation((t, i) => [...t.slice(0, i), '', ...t.slice(i)]);
const swapValues = tokenMutation((t, i, j) => {
  const [ki, vi] = [t[i]!.split('=')[0], t[i]!.split('=').slice(1).join('=')];
  const vj = t[j]!.split('=').slice(1).join('=');
  t[i] = `${ki}=${vj}`;
  t[j] = `${t[j]!.split('=')[0]}=${vi}`;
  return t;
});
/** Replaces one digit of the line with another: hits month, day, hour and offset ranges. */
const replaceDigit: Mutation = (line) => {
  const digits = [...line.matchAll(/\d/g)].map((m) => m.index);
  return fc
    .tuple(fc.constantFrom(...digits), fc.integer({ min: 0, max: 9 }))
    .map(([i, d]) => line.slice(0, i) + String(d) + line.slice(i + 1));
};

/** Flips the case of one letter: `T`/`Z` of a time, a key, a stage or outcome. */
const flipCase: Mutation = (line) => {
  const letters = [...line.matchAll(/[A-Za-z]/g)].map((m) => m.index);
  return fc.constantFrom(...letters).map((i) => {
    const ch = line.charAt(i);
    const flipped = ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase();
    return line.slice(0, i) + flipped + line.slice(i + 1);
  });
};

const mutations: Mutation[] = [
  flipCase,
  insertChar,
  deleteChar,
  replaceChar,
  duplicateToken,
  dropToken,
  swapTokens,
  doubleSpace,
  swapValues,
  replaceDigit,
];

/** A valid marker line, then one to three mutations. */
const mutatedLineArb = claimArb
  .map(renderClaimMarker)
  .chain((line) => fc.integer({ min: 1, max: 3 }).map((n) => [line, n] as const))
  .chain(([line, n]) => {
    let arb = fc.constant(line);
    for (let k = 0; k < n; k += 1) {
      arb = arb.chain((l) => fc.constantFrom(...mutations).chain((m) => m(l)));
    }
    return arb;
  });

/** One part of a boundary time: a valid spelling four times in five. */
const part = (valid: string[], invalid: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constantFrom(...invalid) },
  );

/** Times built from boundary parts: valid and invalid months, days, hours, zones. */
const boundaryTimeArb = fc
  .tuple(
    part(['0000', '0001', '1900', '2000', '2024', '2026', '9999'], ['026', '20260']),
    part(['01', '02', '04', '12'], ['00', '13', '1']),
    part(['01', '28', '29', '30', '31'], ['00', '32']),
    part(['00', '23'], ['24']),
    part(['00', '59'], ['60']),
    part(['00', '59'], ['60']),
    part(['', '.5', '.999', '.123456789'], ['.', ',5']),
    part(['Z', '+02:00', '-00:00', '+23:59', '-01:00'], ['z', '+24:00', '+02:60', '+0200', '']),
    part(['T'], ['t', ' ']),
  )
  .map(([y, mo, d, h, mi, s, f, z, t]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`);

/** Times from boundary parts chosen uniformly: leap days, range edges and zones collide often. */
const uniformTimeArb = fc
  .tuple(
    fc.constantFrom('0000', '0001', '1900', '2000', '2024', '2026', '2100', '9999'),
    fc.constantFrom('00', '01', '02', '04', '12', '13'),
    fc.constantFrom('00', '01', '28', '29', '30', '31', '32'),
    fc.constantFrom('T00:00', 'T00:30', 'T23:30', 'T23:59', 'T24:00', 't12:00', 'T12:60'),
    fc.constantFrom(':00', ':59', ':60'),
    fc.constantFrom('', '.5', '.9999', '.'),
    fc.constantFrom('Z', 'z', '+01:00', '-01:00', '+23:59', '-23:59', '-00:00', '+24:00', '+01:60'),
  )
  .map(([y, mo, d, hm, sec, f, z]) => `${y}-${mo}-${d}${hm}${sec}${f}${z}`);

/** Valid times in every allowed spelling: Z or an offset, with or without a fraction. */
const validTimeArb = fc
  .tuple(
    wholeSecondDateArb,
    fc.constantFrom('', '.5', '.123', '.123456789'),
    fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
    fc.boolean(),
  )
  .map(([date, fraction, offset, utc]) => {
    if (utc) return `${date.toISOString().slice(0, 19)}${fraction}Z`;
    const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 19);
    const abs = Math.abs(offset);
    const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
    return `${local}${fraction}${offset < 0 ? '-' : '+'}${hhmm}`;
  });

/**
 * The tokens of one key: usually one, sometimes none, sometimes two (a duplicate key).
 * `absent` weighs how often the key is left out.
 */
function keyTokensArb(
  key: string,
  value: fc.Arbitrary<string>,
  absent = 1,
): fc.Arbitrary<string[]> {
  return fc.oneof(
    { weight: 30, arbitrary: value.map((v) => [`${key}=${v}`]) },
    { weight: absent, arbitrary: fc.constant<string[]>([]) },
    {
      weight: 1,
      arbitrary: fc.tuple(value, value).map(([a, b]) => [`${key}=${a}`, `${key}=${b}`]),
    },
  );
}

/** Mostly valid values, sometimes a broken one. */
const mostly = (valid: fc.Arbitrary<string>, invalid: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 15, arbitrary: valid }, { weight: 1, arbitrary: invalid });

const badIdentityArb = fc.constantFrom('', '-x', '.x', 'a#b', 'é', 'a'.repeat(129), 'a=b');

/** Every key with a mostly valid value, in a random order: many accepted, many not. */
const tokenSoupArb = fc
  .tuple(
    keyTokensArb('v', mostly(fc.constant('1'), fc.constantFrom('2', '01', ''))),
    keyTokensArb('session', mostly(identityArb, badIdentityArb)),
    keyTokensArb('lane', mostly(identityArb, badIdentityArb)),
    keyTokensArb('branch', mostly(identityArb, badIdentityArb)),
    keyTokensArb('started', mostly(validTimeArb, boundaryTimeArb)),
    keyTokensArb('updated', mostly(validTimeArb, boundaryTimeArb)),
    keyTokensArb(
      'stage',
      mostly(
        fc.oneof(stageArb, fc.constant('released')),
        fc.constantFrom('fix-round-0', 'fix-round-1000', 'fix-round-01', 'done', 'Released'),
      ),
    ),
    keyTokensArb('assignee', mostly(fc.constantFrom('claim', 'before'), fc.constant('none')), 20),
    keyTokensArb(
      'outcome',
      mostly(fc.constantFrom('landed', 'abandoned', 'handed-over'), fc.constant('merged')),
      20,
    ),
    fc.oneof(
      { weight: 30, arbitrary: fc.constant([]) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(['note=x'], ['Stage=review'], ['=x'], ['stage'], ['']),
      },
    ),
  )
  .chain((groups) => {
    const tokens = groups.flat();
    return fc.shuffledSubarray(tokens, { minLength: tokens.length, maxLength: tokens.length });
  })
  .map((tokens) => `<!-- praetor-claim ${tokens.join(' ')} -->`);

/** Any string, alone or inside the marker frame. */
const randomLineArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 200 }).map((s) => `<!-- praetor-claim ${s} -->`),
  fc
    .string({ unit: fc.constantFrom('v', '=', '1', ' ', 's', 'a', '-', 'x'), maxLength: 40 })
    .map((s) => `<!-- praetor-claim ${s} -->`),
);

/** A line as the first line of a body: alone, with `\r\n` and text, or with `\r` only. */
function inBody(lineArb: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(lineArb, fc.constantFrom('', '\n', '\r\n', '\r', '\nmore text', '\r\r\n'))
    .map(([line, end]) => line + end);
}

// ---------------------------------------------------------------------------------------------

const RUNS = { numRuns: 1000 };

describe('marker grammar properties (docs/protocol.md §1)', () => {
  it('render then parse is the identity for every valid claim', () => {
    fc.assert(
      fc.property(claimArb, (claim) => {
        expect(parseClaimMarker(renderClaimMarker(claim))).toEqual(claim);
      }),
      RUNS,
    );
  });

  it('parse then render gives the line back for every rendered claim', () => {
    fc.assert(
      fc.property(claimArb, (claim) => {
        const line = renderClaimMarker(claim);
        expect(renderClaimMarker(parseClaimMarker(line)!)).toBe(line);
      }),
      RUNS,
    );
  });

  it('the oracle accepts every rendered claim (the oracle is not vacuous)', () => {
    fc.assert(
      fc.property(claimArb, (claim) => {
        expect(oracle(renderClaimMarker(claim))).not.toBeNull();
      }),
      RUNS,
    );
  });

  it('reads a time exactly when the oracle does, to the millisecond', () => {
    fc.assert(
      fc.property(uniformTimeArb, (time) => {
        expect(parseClaimTime(time)?.getTime() ?? null, time).toBe(oracleTime(time));
      }),
      { numRuns: 20_000 },
    );
  });

  it('accepts a random string exactly when the oracle does', () => {
    fc.assert(fc.property(inBody(randomLineArb), agrees), RUNS);
  });

  it('accepts a mutated valid line exactly when the oracle does', () => {
    fc.assert(fc.property(inBody(mutatedLineArb), agrees), { numRuns: 3000 });
  });

  it('accepts a soup of valid and invalid tokens exactly when the oracle does', () => {
    fc.assert(fc.property(inBody(tokenSoupArb), agrees), { numRuns: 3000 });
  });

  it('reads only the first line: a valid marker on a later line is never a claim', () => {
    fc.assert(
      fc.property(
        claimArb,
        // At most 40 characters: too short to be a marker itself.
        fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).filter((s) => !s.includes('\n')),
        (claim, first) => {
          expect(parseClaimMarker(`${first}\n${renderClaimMarker(claim)}`)).toBeNull();
        },
      ),
      RUNS,
    );
  });
});
