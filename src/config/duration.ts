import { z } from 'zod';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// One optional `<int><unit>` part per unit, largest first, so `1h30m` reads one way only and
// `30m1h` or `1h1h` (most likely a typo) are refused rather than guessed at.
const DURATION = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

const HOW_TO_WRITE =
  'write whole numbers with the units d, h, m or s, largest first, such as 90s, 10m, 6h or 1h30m';

/**
 * Parses an operator or config duration (`90s`, `10m`, `6h`, `1h30m`, `2d`) into milliseconds.
 * Throws an Error that says how to write one for anything else: bare numbers, fractions,
 * negative values, upper-case or unknown units, spaces, repeated or misordered units.
 */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text);
  if (text === '' || match === null) {
    throw new Error(`${quote(text)} is not a duration: ${HOW_TO_WRITE}`);
  }
  const [, days, hours, minutes, seconds] = match;
  const ms =
    Number(days ?? 0) * DAY +
    Number(hours ?? 0) * HOUR +
    Number(minutes ?? 0) * MINUTE +
    Number(seconds ?? 0) * SECOND;
  if (!Number.isSafeInteger(ms)) {
    throw new Error(`${quote(text)} is too long a duration`);
  }
  return ms;
}

/**
 * Renders milliseconds the way parseDuration reads them, in hours, minutes and seconds
 * (`6h`, `1h30m`, `720h`, `0s`), so messages quote the bounds as docs/protocol.md §3 writes them. A
 * sub-second rest is shown as `ms` for logs; parseDuration does not accept that form.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new RangeError(`cannot format ${ms} as a duration`);
  }
  const whole = Math.floor(ms);
  const parts: string[] = [];
  const hours = Math.floor(whole / HOUR);
  const minutes = Math.floor((whole % HOUR) / MINUTE);
  const seconds = Math.floor((whole % MINUTE) / SECOND);
  const millis = whole % SECOND;
  if (hours > 0) parts.push(`${hours}h`);
  if (minutes > 0) parts.push(`${minutes}m`);
  if (seconds > 0) parts.push(`${seconds}s`);
  if (millis > 0) parts.push(`${millis}ms`);
  return parts.length > 0 ? parts.join('') : '0s';
}

/**
 * A zod schema that reads a duration string and yields milliseconds within `[min, max]`
 * (both inclusive, written as durations). Every failure, wrong type included, carries one
 * message that tells the allowed range: "must be a duration between 10m and 720h, such as 6h".
 * The value itself is left out: callers add it where it is not a secret.
 */
export function durationSchema(
  min: string,
  max: string,
  example?: string,
): z.ZodType<number, string> {
  const minMs = parseDuration(min);
  const maxMs = parseDuration(max);
  if (minMs > maxMs) {
    throw new RangeError(`duration range ${min}..${max} is empty`);
  }
  const shown = example ?? pickExample(minMs, maxMs);
  // The bounds as the caller wrote them (`1d`, `720h`), as docs/protocol.md quotes them.
  const message = `must be a duration between ${min} and ${max}, such as ${shown}`;
  return z.string({ error: message }).transform((text, ctx) => {
    let ms: number;
    try {
      ms = parseDuration(text);
    } catch {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    if (ms < minMs || ms > maxMs) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return ms;
  });
}

/** An example inside the range: 6h (the default window) when it fits, else the minimum. */
function pickExample(minMs: number, maxMs: number): string {
  return 6 * HOUR >= minMs && 6 * HOUR <= maxMs ? '6h' : formatDuration(minMs);
}

/** Quotes a value for a message, escaped and cut short so a pasted blob stays readable. */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
