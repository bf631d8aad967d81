import { z } from 'zod';
import { PublicClaim, PublicIssue } from '../claims/public-claim.js';

// The claim and issue objects are the API's own schema (docs/protocol.md §8, §9): a tool's
// structured content is the API's answer, so it validates against what the API renders.
const ClaimObject = PublicClaim;
const IssueObject = PublicIssue;

/** `POST …/claim`'s 201 and 200 (docs/protocol.md §8). */
export const ClaimAnswer = z.looseObject({
  issue: IssueObject,
  claim: ClaimObject,
  alreadyHeld: z.boolean(),
  assigned: z.boolean(),
  replaced: z.array(ClaimObject),
});

/** `POST …/claim/heartbeat`'s 200. */
export const HeartbeatAnswer = z.looseObject({ issue: IssueObject, claim: ClaimObject });

/** `DELETE …/claim`'s 200: the finalised claim. */
export const ReleaseAnswer = z.looseObject({ released: z.literal(true), claim: ClaimObject });

/**
 * `DELETE /claims`'s 200 (docs/protocol.md §17): the claims released, and the issues that could
 * not be, each with the error object its own release answered; both ordered by repository
 * and number.
 */
export const ReleaseAllAnswer = z.looseObject({
  released: z.array(ClaimObject),
  failed: z.array(
    z.looseObject({
      issue: z.string(),
      error: z.looseObject({
        code: z.string(),
        message: z.string(),
        details: z.record(z.string(), z.unknown()).optional(),
      }),
    }),
  ),
});

/** `GET …/claim`'s 200: `claim` null when the issue is free. */
export const GetAnswer = z.looseObject({ issue: IssueObject, claim: ClaimObject.nullable() });

/** `GET /issues`'s 200 (docs/protocol.md §9). */
export const ListAnswer = z.looseObject({
  items: z.array(z.looseObject({ issue: IssueObject, claim: ClaimObject.nullable() })),
  nextCursor: z.string().nullable(),
});

/** `GET …/paths`'s 200 (docs/protocol.md §10). */
export const PathsAnswer = z.looseObject({
  paths: z.array(
    z.looseObject({
      path: z.string(),
      available: z.boolean(),
      heldPath: z.string().optional(),
      heldBy: ClaimObject.optional(),
      isSelf: z.boolean().optional(),
      isStale: z.boolean().optional(),
      claimedAt: z.string().optional(),
    }),
  ),
});
