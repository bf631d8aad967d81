import { z } from 'zod';
import { durationSchema } from './duration.js';

/** What docs/configuration.md says of one variable, written beside its schema and nowhere else. */
interface SettingDoc {
  /** What the variable does, in the operator's words (Markdown). */
  readonly about: string;
  /** The value used when it is unset, as the operator would write it; absent: none. */
  readonly default?: string;
  /** The values it accepts, when a range says it (`10m` … `720h`). */
  readonly range?: string;
  /** A secret: never quoted in an error nor logged. */
  readonly secret?: boolean;
  /** A URL that may carry credentials: quoted with its user, password and query as `***`. */
  readonly url?: boolean;
}

/** The docs of every operator variable, keyed by its schema (read by readSettings and the docs). */
export const settingDocs = z.registry<SettingDoc>();

/** Registers `doc` for `schema` and returns the schema. */
export function documented<T extends z.ZodType>(schema: T, doc: SettingDoc): T {
  settingDocs.add(schema as z.ZodType, doc);
  return schema;
}

/**
 * A duration variable (`90s`, `10m`, `6h`) in `[min, max]`, in milliseconds, defaulting to
 * `fallback`: the default is parsed by the same schema, so it is written once, as text.
 */
export function durationSetting(min: string, max: string, fallback: string, about: string) {
  return documented(durationSchema(min, max, fallback).prefault(fallback), {
    about,
    default: fallback,
    range: `\`${min}\` … \`${max}\``,
  });
}

/**
 * A whole-number variable in `[min, max]`, written in plain digits (no `1e3`, no `0x10`, no
 * sign), defaulting to `fallback`; `what` names it in the error.
 */
export function integerSetting(
  min: number,
  max: number,
  fallback: number,
  what: string,
  about: string,
) {
  const message = `must be ${what}, a whole number between ${min} and ${max}`;
  const schema = z
    .string({ error: message })
    .regex(/^\d{1,9}$/, { error: message })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: message })
    .prefault(String(fallback));
  return documented(schema, {
    about,
    default: String(fallback),
    range: `\`${min}\` … \`${max}\``,
  });
}

/** One of `values`, defaulting to `fallback`; refused with `error` (default: `must be a or b`). */
export function choiceSetting<const T extends readonly [string, ...string[]]>(
  values: T,
  fallback: T[number],
  about: string,
  error = `must be ${values.join(', ').replace(/, ([^,]*)$/, ' or $1')}`,
) {
  const schema = z.enum(values, { error }).prefault(fallback);
  return documented(schema, {
    about,
    default: fallback,
    range: values.map((value) => `\`${value}\``).join(', '),
  });
}
