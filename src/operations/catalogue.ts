import { z } from 'zod';
import { OUTCOMES } from '../claims/marker.js';
import {
  ClaimAnswer,
  GetAnswer,
  HeartbeatAnswer,
  ListAnswer,
  PathsAnswer,
  ReleaseAllAnswer,
  ReleaseAnswer,
} from './answers.js';
import {
  IssueField,
  NoteField,
  PathsField,
  PathsToCheckField,
  QueueQueryInput,
  RepoField,
} from './fields.js';
import { defineOperation, type Operation } from './operation.js';

// The session as the app's own doors take it: written on the marker as given. The stdio
// server and the CLI take a private name and publish a keyed tag instead (their own field).
const session = z
  .string()
  .describe(
    'The session identifier (1..128 letters, digits and . _ / : + @ -); written on the claim marker as given, so pass a keyed tag (h:…) to keep a private name out of the thread',
  );

/** `POST …/claim` (docs/protocol.md §8): claim an issue for a session. */
export const claimOperation = defineOperation({
  name: 'claim',
  tool: 'issue_claim',
  title: 'Claim an issue',
  description:
    'Claim a GitHub issue for this session: refused (naming the holder) while another session holds a live claim; resumes this session’s own claim; takes over a stale one. Confirms by reading the thread back.',
  input: {
    issue: IssueField,
    session,
    lane: z
      .string()
      .describe('The lane (work stream) of the session; written on the claim marker as given'),
    branch: z.string().describe('The branch the work happens on; published as it is'),
    paths: PathsField,
    note: NoteField,
    client: z
      .string()
      .optional()
      .describe(
        'The client named in the comment ("via <client>"), 1..64 of A-Za-z0-9._-; default: this MCP client’s name',
      ),
  },
  answer: ClaimAnswer,
  method: 'POST',
  route: '/repos/{owner}/{repo}/issues/{number}/claim',
  target: 'issue',
  hints: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
});

/** `POST …/claim/heartbeat` (docs/protocol.md §8): renew a claim, recording its stage. */
export const heartbeatOperation = defineOperation({
  name: 'heartbeat',
  tool: 'issue_heartbeat',
  title: 'Renew a claim, recording its stage',
  description:
    'Move this session’s claim’s heartbeat to now, optionally recording a stage (blocked adds the status:blocked label, other stages remove it). Never revives a stale or released claim: refused, saying why, when the session does not hold the issue.',
  input: {
    issue: IssueField,
    session,
    stage: z
      .string()
      .optional()
      .describe(
        'claimed, implementing, review, blocked, queued, landing or fix-round-N (1..999); omit to only renew',
      ),
    note: NoteField,
  },
  answer: HeartbeatAnswer,
  method: 'POST',
  route: '/repos/{owner}/{repo}/issues/{number}/claim/heartbeat',
  target: 'issue',
  hints: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
});

/** The release's words for what only the API's whole input allows (no session). */
export const ADMINISTRATIVE_RELEASE =
  'Without a session: an administrative release of whoever holds it (maintain or admin only).';

/** `DELETE …/claim` (docs/protocol.md §8): finalise a claim with an outcome. */
export const releaseOperation = defineOperation({
  name: 'release',
  tool: 'issue_release',
  title: 'Release a claim',
  description: `Finalise this session’s claim with an outcome: removes the status labels and the assignee the claim added, then marks the comment released. Works on closed issues, and on this session’s stale claim in its grace (the issue is free at once); a retry after a partial failure succeeds. ${ADMINISTRATIVE_RELEASE}`,
  input: {
    issue: IssueField,
    session: session.optional(),
    outcome: z.enum(OUTCOMES).describe('landed, abandoned or handed-over'),
    note: NoteField,
  },
  answer: ReleaseAnswer,
  method: 'DELETE',
  route: '/repos/{owner}/{repo}/issues/{number}/claim',
  target: 'issue',
  hints: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
});

/** The outcome a release of everything a session holds writes when none is given. */
export const RELEASE_ALL_OUTCOME = 'abandoned';

/** `DELETE /claims` (docs/protocol.md §17): release everything a session holds. */
export const releaseAllOperation = defineOperation({
  name: 'release-all',
  tool: 'release_all_claims',
  title: 'Release every claim of a session',
  description: `Finalise every live claim this session holds (and its stale claims in grace), in every repository of the app that the caller can read, each exactly as releasing it alone would (labels and the assignee it added removed, the comment marked released). Answers the claims released and the issues that could not be verified, each with its error; a session holding nothing releases nothing. The last call of a session. Outcome default: ${RELEASE_ALL_OUTCOME}.`,
  input: {
    session,
    outcome: z
      .enum(OUTCOMES)
      .optional()
      .describe(`landed, abandoned or handed-over; default ${RELEASE_ALL_OUTCOME}`),
    note: NoteField,
  },
  answer: ReleaseAllAnswer,
  method: 'DELETE',
  route: '/claims',
  target: 'none',
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
});

/** `GET …/claim` (docs/protocol.md §8): an issue and its live claim. */
export const getOperation = defineOperation({
  name: 'get',
  tool: 'issue_get',
  title: 'Get an issue’s claim',
  description:
    'The issue and its live claim, read from its thread: claim is null when the issue is free, or its claim is stale or released. Writes nothing.',
  input: { issue: IssueField },
  answer: GetAnswer,
  method: 'GET',
  route: '/repos/{owner}/{repo}/issues/{number}/claim',
  target: 'issue',
  hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
});

/** `GET /issues` (docs/protocol.md §9): the work queue. */
export const listOperation = defineOperation({
  name: 'list',
  tool: 'issues_list',
  title: 'List the work queue',
  description:
    'List issues from the claims app’s work queue, oldest first: claimable ones, the caller’s claims, issues assigned to the caller, by repository and label. The same queue the app’s API serves.',
  input: QueueQueryInput,
  answer: ListAnswer,
  method: 'GET',
  route: '/issues',
  target: 'none',
  hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
});

/** `GET …/paths` (docs/protocol.md §10): who holds paths, without claiming. */
export const pathsOperation = defineOperation({
  name: 'paths',
  tool: 'paths_check',
  title: 'Check who holds paths',
  description:
    'Ask the claims app whether paths of a repository are held by a live claim, without claiming anything: per path available, or the holding claim (yours or another session’s, stale or not).',
  input: { repo: RepoField, paths: PathsToCheckField },
  answer: PathsAnswer,
  method: 'GET',
  route: '/repos/{owner}/{repo}/paths',
  target: 'repo',
  hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
});

/** Every operation, in the order `tools/list` names them. */
export const OPERATIONS: readonly Operation[] = [
  claimOperation,
  heartbeatOperation,
  releaseOperation,
  releaseAllOperation,
  getOperation,
  listOperation,
  pathsOperation,
];
