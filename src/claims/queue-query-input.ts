import { z } from 'zod';

/**
 * The arguments of the work-queue tool, `issues_list` (docs/protocol.md §9), shared by the
 * stdio MCP server and the app's remote one so the two describe one tool the same way.
 */
export const QueueQueryInput = {
  claimable: z
    .boolean()
    .optional()
    .describe('true: open issues nobody holds (an expired claim counts as free); false: held ones'),
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
