import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { OUTCOMES } from '../claims/marker.js';
import {
  IssueField,
  NoteField,
  PathsField,
  QueueQueryInput,
  RepoField,
} from '../claims/tool-inputs.js';
import { parseIssueName, parseRepoName } from '../repo-names.js';
import {
  type ApiReply,
  type ApiRequest,
  type ClaimsApiHandler,
  callClaimsApi,
} from './call-claims-api.js';
import {
  ClaimAnswer,
  GetAnswer,
  HeartbeatAnswer,
  ListAnswer,
  PathsAnswer,
  ReleaseAnswer,
} from './tool-schemas.js';
import { CallCancelled, type ToolExtra, whileWaiting } from './while-waiting.js';

/** What the tools of one MCP request share. */
interface RemoteToolContext {
  readonly api: ClaimsApiHandler;
  /** The request's `Authorization` header: each tool call is the caller's own API call. */
  readonly authorization: string | undefined;
  /** The session's client label (`initialize`'s `clientInfo.name`, folded), if any. */
  readonly client: string | undefined;
  /** How often a waiting call reports progress, when the client asked for it. */
  readonly progressEveryMs: number;
}

// The shared field descriptions are in src/claims/tool-inputs.ts; `session` differs: the
// remote server writes it as given, the stdio one as a keyed tag.
const issue = IssueField;
const session = z
  .string()
  .describe(
    'The session identifier (1..128 letters, digits and . _ / : + @ -); written on the claim marker as given, so pass a keyed tag (h:…) to keep a private name out of the thread',
  );
const note = NoteField;
const paths = PathsField;
const repo = RepoField;

/** The API's route of an issue's claim; null for text that names no issue. */
function claimRoute(ref: string): string | null {
  const name = parseIssueName(ref);
  if (!name) return null;
  return `/repos/${encodeURIComponent(name.owner)}/${encodeURIComponent(name.repo)}/issues/${name.number}/claim`;
}

/** The error object of a 422 naming one field (docs/protocol.md §8), as the API words it. */
function invalidField(field: string, rule: string): ApiReply {
  return {
    status: 422,
    headers: {},
    body: {
      error: {
        code: 'INVALID_INPUT',
        message: `fix ${field} and send the request again`,
        details: { fields: { [field]: rule } },
      },
    },
  };
}

/**
 * The API's answer as a tool result: a success's body is the structured content (it validates
 * against the tool's outputSchema); a refusal (403, 404, 409, 422, 429, 503 …) is a result with
 * `isError: true` whose text is the API's error object, never a protocol error, and whose
 * `_meta` carries the status and, for 429 and 503, when to retry.
 */
function toolResult(reply: ApiReply): CallToolResult {
  const text = JSON.stringify(reply.body);
  if (reply.status >= 200 && reply.status < 300) {
    return { content: [{ type: 'text', text }], structuredContent: reply.body };
  }
  const retryAfter = Number(reply.headers['retry-after']);
  return {
    content: [{ type: 'text', text }],
    isError: true,
    _meta: {
      'claim-warden/status': reply.status,
      ...(Number.isFinite(retryAfter) ? { 'claim-warden/retryAfterSeconds': retryAfter } : {}),
    },
  };
}

/**
 * Registers the remote tools (docs/agents.md): each a thin adapter that turns its arguments into one
 * claims API request (docs/protocol.md §8–§10) and its answer into a tool result. Names, input
 * fields and descriptions agree with the stdio server's where a tool exists in both.
 */
export function registerRemoteTools(server: McpServer, context: RemoteToolContext): void {
  const call = (request: Omit<ApiRequest, 'authorization'>, extra: ToolExtra) => {
    // Cancelled before it began (or between the pages of `all`): nothing more is asked.
    if (extra.signal.aborted) throw new CallCancelled('the client cancelled the call');
    return whileWaiting(
      callClaimsApi(context.api, { ...request, authorization: context.authorization }),
      extra,
      context.progressEveryMs,
    );
  };
  const onIssue = async (
    ref: string,
    extra: ToolExtra,
    request: (route: string) => Omit<ApiRequest, 'authorization'>,
  ) => {
    const route = claimRoute(ref);
    if (route === null) return toolResult(invalidField('issue', '<owner>/<repo>#<number>'));
    return toolResult(await call(request(route), extra));
  };

  server.registerTool(
    'issue_claim',
    {
      title: 'Claim an issue',
      description:
        'Claim a GitHub issue for this session: refused (naming the holder) while another session holds a live claim; resumes this session’s own claim; takes over a stale one. Confirms by reading the thread back.',
      inputSchema: {
        issue,
        session,
        lane: z
          .string()
          .describe('The lane (work stream) of the session; written on the claim marker as given'),
        branch: z.string().describe('The branch the work happens on; published as it is'),
        paths,
        note,
        client: z
          .string()
          .optional()
          .describe(
            'The client named in the comment ("via <client>"), 1..64 of A-Za-z0-9._-; default: this MCP client’s name',
          ),
      },
      outputSchema: ClaimAnswer,
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args, extra) => {
      const client = args.client ?? context.client;
      const body = { ...args, issue: undefined, ...(client === undefined ? {} : { client }) };
      return onIssue(args.issue, extra, (path) => ({ method: 'POST', path, body }));
    },
  );

  server.registerTool(
    'issue_heartbeat',
    {
      title: 'Renew a claim, recording its stage',
      description:
        'Move this session’s claim’s heartbeat to now, optionally recording a stage (blocked adds the status:blocked label, other stages remove it). Never revives a stale or released claim: refused, saying why, when the session does not hold the issue.',
      inputSchema: {
        issue,
        session,
        stage: z
          .string()
          .optional()
          .describe(
            'claimed, implementing, review, blocked, queued, landing or fix-round-N (1..999); omit to only renew',
          ),
        note,
      },
      outputSchema: HeartbeatAnswer,
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args, extra) =>
      onIssue(args.issue, extra, (path) => ({
        method: 'POST',
        path: `${path}/heartbeat`,
        body: { ...args, issue: undefined },
      })),
  );

  server.registerTool(
    'issue_release',
    {
      title: 'Release a claim',
      description:
        'Finalise this session’s claim with an outcome: removes the status labels and the assignee the claim added, then marks the comment released. Works on closed issues; a retry after a partial failure succeeds. Without a session: an administrative release of whoever holds it (maintain or admin only).',
      inputSchema: {
        issue,
        session: session.optional(),
        outcome: z.enum(OUTCOMES).describe('landed, abandoned or handed-over'),
        note,
      },
      outputSchema: ReleaseAnswer,
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    async (args, extra) =>
      onIssue(args.issue, extra, (path) => ({
        method: 'DELETE',
        path,
        body: { ...args, issue: undefined },
      })),
  );

  server.registerTool(
    'issue_get',
    {
      title: 'Get an issue’s claim',
      description:
        'The issue and its live claim, read from its thread: claim is null when the issue is free, or its claim is stale or released. Writes nothing.',
      inputSchema: { issue },
      outputSchema: GetAnswer,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    },
    async (args, extra) => onIssue(args.issue, extra, (path) => ({ method: 'GET', path })),
  );

  server.registerTool(
    'issues_list',
    {
      title: 'List the work queue',
      description:
        'List issues from the claims app’s work queue, oldest first: claimable ones, the caller’s claims, issues assigned to the caller, by repository and label. The same queue the app’s API serves.',
      inputSchema: QueueQueryInput,
      outputSchema: ListAnswer,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    },
    async (args, extra) => {
      const { all, ...filters } = args;
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(filters)) {
        if (value !== undefined) query.set(name, String(value));
      }
      const items: unknown[] = [];
      for (;;) {
        const reply = await call({ method: 'GET', path: `/issues?${query}` }, extra);
        if (reply.status !== 200) return toolResult(reply);
        items.push(...reply.body.items);
        if (!all || reply.body.nextCursor === null) {
          return toolResult({ ...reply, body: { items, nextCursor: reply.body.nextCursor } });
        }
        query.set('cursor', reply.body.nextCursor);
      }
    },
  );

  server.registerTool(
    'paths_check',
    {
      title: 'Check who holds paths',
      description:
        'Ask the claims app whether paths of a repository are held by a live claim, without claiming anything: per path available, or the holding claim (yours or another session’s, stale or not).',
      inputSchema: {
        repo,
        paths: z
          .array(z.string())
          .describe('The paths to check (1..20; a trailing / is a directory)'),
      },
      outputSchema: PathsAnswer,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    },
    async (args, extra) => {
      const name = parseRepoName(args.repo);
      if (!name) return toolResult(invalidField('repo', '<owner>/<repo>'));
      const query = new URLSearchParams({ paths: args.paths.join(',') });
      const path = `/repos/${encodeURIComponent(name.owner)}/${encodeURIComponent(name.repo)}/paths?${query}`;
      return toolResult(await call({ method: 'GET', path }, extra));
    },
  );
}
