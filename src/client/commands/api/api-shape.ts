import type { z } from 'zod';
import { unverifiable } from '../../core/client-error.js';
import type { ApiReply } from '../../io/claims-api-client.js';
import { apiFailure } from './api-failure.js';

/**
 * `value`, an answer of the claims app, read by `schema` (docs/protocol.md §8, §9). An answer
 * of another shape (an older app, a proxy's JSON) is unverifiable, naming what is wrong:
 * never read as held or free, and never a crash.
 */
export function apiShape<T>(schema: z.ZodType<T>, value: unknown, name: string, what: string): T {
  const read = schema.safeParse(value);
  if (read.success) return read.data;
  const wrong = read.error.issues
    .flatMap(ofItsKind)
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'it'}: ${issue.message}`)
    .join('; ');
  throw unverifiable(
    `${name}: the claims app answered with ${what} of another shape (${wrong}); is CLAIM_WARDEN_URL the app’s base URL, and is the app up to date?`,
    { issue: name },
  );
}

/**
 * The body of a 200 answer, read by `schema` as apiShape reads it; any other status is the
 * app's failure (apiFailure), never read as an answer.
 */
export function okAnswer<T>(schema: z.ZodType<T>, reply: ApiReply, name: string, what: string): T {
  if (reply.status !== 200) throw apiFailure(name, reply);
  return apiShape(schema, reply.body, name, what);
}

/**
 * A claim object's issues as the kind it says it is (docs/protocol.md §16): of a union, the
 * branch whose `kind` matched, so the answer names the missing keys, not "invalid input".
 */
function ofItsKind(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union') return [issue];
  const branch = issue.errors.find((issues) => !issues.some((i) => i.path[0] === 'kind'));
  if (!branch) return [issue];
  return branch.map((i) => ({ ...i, path: [...issue.path, ...i.path] }));
}
