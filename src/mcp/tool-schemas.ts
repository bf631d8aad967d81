import { z } from 'zod';

/** The claim object of docs/protocol.md §8, as a tool's structured content carries it. */
export const ClaimObject = z.looseObject({
  issue: z.string(),
  commentId: z.number().int(),
  url: z.string(),
  author: z.string(),
  session: z.string(),
  lane: z.string(),
  branch: z.string(),
  stage: z.string(),
  started: z.string(),
  updated: z.string(),
  heartbeat: z.string(),
  staleAt: z.string(),
  assignee: z.string().nullable(),
  outcome: z.string().optional(),
  paths: z.array(z.string()).optional(),
});

/** The issue object of docs/protocol.md §8 and §9 (`state` only on §8's answers). */
export const IssueObject = z.looseObject({
  repo: z.string(),
  number: z.number().int(),
  title: z.string(),
  url: z.string(),
  state: z.enum(['open', 'closed']).optional(),
  labels: z.array(z.string()),
  assignees: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

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
