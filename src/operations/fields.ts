import { z } from 'zod';

// The fields the operations (catalogue.ts) and the client's own commands share, so every door
// describes a field the same way where it means the same.

/** An issue reference. */
export const IssueField = z
  .string()
  .describe('The issue, as <owner>/<repo>#<number>, e.g. acme/widgets#7');

/** A claim's note (docs/protocol.md §8). */
export const NoteField = z
  .string()
  .optional()
  .describe('Free text for people, folded to one line; at most 280 characters');

/** A claim's path entries (docs/protocol.md §10). */
export const PathsField = z
  .array(z.string())
  .optional()
  .describe(
    'Repository paths the claim will change (1..20; a trailing / names a directory and everything under it), written on the claim comment’s path line',
  );

/** A repository name. */
export const RepoField = z.string().describe('The repository, as <owner>/<repo>');

/** The paths a paths check asks about (docs/protocol.md §10). */
export const PathsToCheckField = z
  .array(z.string())
  .describe('The paths to check (1..20; a trailing / is a directory)');

/** The arguments of the work-queue tool, `issues_list` (docs/protocol.md §9). */
export const QueueQueryInput = {
  claimable: z
    .boolean()
    .optional()
    .describe(
      'true: open issues nobody holds and none awaiting review (an expired claim counts as free once its branch is checked); false: held ones',
    ),
  needsReview: z
    .boolean()
    .optional()
    .describe(
      'true: exactly the open issues labelled for review (a stale session left work); false: the others',
    ),
  claimedBy: z.string().optional().describe('me, or a login: that account’s live claims'),
  assignedToMe: z.boolean().optional().describe('Only issues assigning the caller'),
  repo: z.string().optional().describe('Only this repository, as <owner>/<repo>'),
  label: z.string().optional().describe('Only issues carrying this label'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe('Issues per page, 1..100 (default 50)'),
  cursor: z.string().optional().describe('The nextCursor of a previous page'),
  all: z.boolean().optional().describe('Follow nextCursor to the last page'),
};
