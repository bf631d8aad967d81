import { describe, expect, it } from 'vitest';
import { durationSchema, formatDuration, parseDuration } from '../../src/config/duration.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;

describe('parseDuration', () => {
  it.each([
    ['0s', 0],
    ['90s', 90 * s],
    ['10m', 10 * m],
    ['6h', 6 * h],
    ['1h30m', 90 * m],
    ['1h30m15s', h + 30 * m + 15 * s],
    ['2d', 48 * h],
    ['1d12h', 36 * h],
    ['720h', 720 * h],
    ['06h', 6 * h],
  ])('reads %s', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ['an empty string', ''],
    ['a bare number', '60'],
    ['a fraction', '1.5h'],
    ['a negative', '-6h'],
    ['an upper-case unit', '6H'],
    ['an unknown unit', '6w'],
    ['milliseconds', '500ms'],
    ['a space', '1h 30m'],
    ['surrounding spaces', ' 6h'],
    ['units out of order', '30m1h'],
    ['a repeated unit', '1h1h'],
    ['a unit alone', 'h'],
    ['words', 'six hours'],
    ['an ISO 8601 duration', 'PT6H'],
  ])('refuses %s', (_name, text) => {
    expect(() => parseDuration(text)).toThrow(/is not a duration: write whole numbers/);
  });

  it('quotes the text in its error', () => {
    expect(() => parseDuration('6 hours')).toThrow('"6 hours" is not a duration');
  });

  it('refuses a number too large to count in milliseconds', () => {
    expect(() => parseDuration('9999999999999999d')).toThrow(/too long/);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [90 * s, '1m30s'],
    [10 * m, '10m'],
    [6 * h, '6h'],
    [90 * m, '1h30m'],
    [720 * h, '720h'],
    [1500, '1s500ms'],
  ])('renders %d ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it.each([0, s, 59 * s, 61 * m, 25 * h + 1 * s, 720 * h])(
    'parseDuration reads back what it renders: %d',
    (ms) => {
      expect(parseDuration(formatDuration(ms))).toBe(ms);
    },
  );

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('refuses %d', (ms) => {
    expect(() => formatDuration(ms)).toThrow(RangeError);
  });
});

describe('durationSchema', () => {
  const window = durationSchema('10m', '720h');
  const message = 'must be a duration between 10m and 720h, such as 6h';

  it.each([
    ['10m', 10 * m],
    ['6h', 6 * h],
    ['720h', 720 * h],
    ['30d', 720 * h],
  ])('accepts %s within the bounds, yielding ms', (text, ms) => {
    expect(window.parse(text)).toBe(ms);
  });

  it.each([
    ['just below the minimum', '9m'],
    ['one second below the minimum', '9m59s'],
    ['just above the maximum', '721h'],
    ['one second above the maximum', '720h1s'],
    ['unparseable', '6 hours'],
    ['a number', 6],
    ['null', null],
  ])('refuses a value %s with the allowed range', (_name, value) => {
    const result = window.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([message]);
  });

  it('names an example that is in range', () => {
    const result = durationSchema('1s', '1h').safeParse('2h');
    expect(result.error?.issues[0]?.message).toBe(
      'must be a duration between 1s and 1h, such as 1s',
    );
  });

  it('uses the example it is given', () => {
    const result = durationSchema('1s', '24h', '60s').safeParse('25h');
    expect(result.error?.issues[0]?.message).toBe(
      'must be a duration between 1s and 24h, such as 60s',
    );
  });

  it('refuses an empty range', () => {
    expect(() => durationSchema('1h', '1m')).toThrow(RangeError);
  });
});
