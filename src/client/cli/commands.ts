import { z } from 'zod';
import { OUTCOMES } from '../../claims/marker.js';
import { checkPathEntries } from '../../claims/paths.js';
import {
  ADMINISTRATIVE_RELEASE,
  claimOperation,
  listOperation,
  pathsOperation,
  RELEASE_ALL_OUTCOME,
  releaseAllOperation,
  releaseOperation,
} from '../../operations/catalogue.js';
import {
  IssueField,
  NoteField,
  PathsField,
  PathsToCheckField,
  QueueQueryInput,
  RepoField,
} from '../../operations/fields.js';
import { apiClaim } from '../commands/api/api-claim.js';
import { apiRelease } from '../commands/api/api-release.js';
import { apiReleaseAll } from '../commands/api/api-release-all.js';
import { apiStatus } from '../commands/api/api-status.js';
import { list } from '../commands/api/list.js';
import { pathsCheck } from '../commands/api/paths-check.js';
import { check } from '../commands/check/check.js';
import { claim } from '../commands/direct/claim.js';
import { release } from '../commands/direct/release.js';
import { status } from '../commands/direct/status.js';
import { migrate } from '../commands/migrate/migrate.js';
import { usageError } from '../core/client-error.js';
import type { CommandResult } from '../core/command-result.js';
import { parseIssueRef, parseRepoName } from '../core/issue-ref.js';
import type { ClaimsApi } from '../io/claims-api-client.js';
import type { Desk } from '../io/desk.js';
import type { ProtectedValue } from '../io/text-guard.js';
import { requireIdentity, requireNote, requireStage, staleAfterMs } from './validate-input.js';

/** What a command gets from whoever runs it (the CLI or the MCP server). */
interface CommandContext {
  /**
   * Opens the desk: key, token, octokit. Called only when the command needs GitHub, so the
   * gate's no-issue path needs no token and makes no call. `identities` are the session and
   * lane of the operation, which the text guard protects.
   */
  readonly desk: (options: {
    readonly staleAfterMs: number;
    readonly identities?: readonly ProtectedValue[];
  }) => Promise<Desk>;
  /**
   * The claims API base `CLAIM_WARDEN_URL` names, or null (direct mode). Read without a
   * token, so a command that needs the app says so before anything else.
   */
  readonly claimsApiUrl: () => string | null;
}

/**
 * One operation of the client, shared by the CLI and the MCP server (docs/agents.md,
 * "MCP": the CLI subcommands and the MCP tools run the same command on the same desk, so
 * they cannot drift): a name for each, one input schema, one run.
 */
export interface ClientCommand {
  /** The CLI subcommand. */
  readonly name:
    | 'claim'
    | 'status'
    | 'release'
    | 'release-all'
    | 'check'
    | 'migrate'
    | 'list'
    | 'paths';
  /** The MCP tool name. */
  readonly tool: string;
  readonly title: string;
  readonly description: string;
  /** The input fields, as a zod shape: the MCP input schema and the CLI's validation. */
  readonly input: z.ZodRawShape;
  /** True when the command never writes (MCP `readOnlyHint`). */
  readonly readOnly: boolean;
  /** Validates `input` against the schema (a usage error otherwise) and runs. */
  run(input: unknown, context: CommandContext): Promise<CommandResult>;
}

const issue = IssueField;
const session = z
  .string()
  .describe(
    'The session identifier (1..128 letters, digits and . _ / : + @ -); published only as a keyed tag',
  );
const staleAfter = z
  .string()
  .optional()
  .describe('Stale window when the repository config sets none: 10m..720h, default 6h');
const note = NoteField;
/** What the commands that live only in the app say besides the operation's description. */
const NEEDS_APP = 'Needs CLAIM_WARDEN_URL.';
const paths = PathsField;

/** Path entries as docs/protocol.md §10 allows them, canonical; a usage error naming the bad one. */
function requirePaths(entries: readonly string[]): readonly string[] {
  const checked = checkPathEntries(entries);
  if (!checked.ok) throw usageError(`${checked.problem}; nothing was written`);
  return checked.paths;
}

/** The app's claims API, or the usage error of a command that lives only there. */
function requireApp(context: CommandContext, what: string): void {
  if (context.claimsApiUrl() === null) {
    throw usageError(
      `${what} needs the claims app: set CLAIM_WARDEN_URL to its base URL, such as https://claims.example.com`,
    );
  }
}

function defineCommand<Shape extends z.ZodRawShape>(spec: {
  name: ClientCommand['name'];
  tool: string;
  title: string;
  description: string;
  readOnly: boolean;
  input: Shape;
  run(input: z.output<z.ZodObject<Shape>>, context: CommandContext): Promise<CommandResult>;
}): ClientCommand {
  const schema = z.strictObject(spec.input);
  return {
    ...spec,
    run(raw, context) {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) =>
          i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message,
        );
        throw usageError(`invalid input: ${problems.join('; ')}`);
      }
      return spec.run(parsed.data, context);
    },
  };
}

/** The desk of one operation, its guard protecting the session (and the lane). */
function deskFor(
  context: CommandContext,
  staleAfter: string | undefined,
  sessionValue: string,
  lane?: string,
): ReturnType<CommandContext['desk']> {
  const identities: ProtectedValue[] = [
    { kind: 'session', value: sessionValue },
    ...(lane === undefined ? [] : [{ kind: 'lane' as const, value: lane }]),
  ];
  return context.desk({ staleAfterMs: staleAfterMs(staleAfter), identities });
}

/** The issue and the session of a command on the session's own claim, checked in that order. */
function ownClaim(input: { readonly issue: string; readonly session: string }) {
  return { ref: parseIssueRef(input.issue), session: requireIdentity(input.session, 'session') };
}

/**
 * Runs a command through the claims app when CLAIM_WARDEN_URL names it (API mode,
 * docs/protocol.md §8), else on GitHub itself (direct mode).
 */
function inMode<Request>(
  desk: Desk,
  request: Request,
  viaApp: (desk: Desk, api: ClaimsApi, request: Request) => Promise<CommandResult>,
  direct: (desk: Desk, request: Request) => Promise<CommandResult>,
): Promise<CommandResult> {
  return desk.api ? viaApp(desk, desk.api, request) : direct(desk, request);
}

/** `claim <ref> --session --lane --branch`. */
const claimCommand = defineCommand({
  name: 'claim',
  tool: claimOperation.tool,
  title: claimOperation.title,
  description: claimOperation.description,
  readOnly: false,
  input: {
    issue,
    session,
    lane: z
      .string()
      .describe('The lane (work stream) of the session; published only as a keyed tag'),
    branch: z.string().describe('The branch the work happens on; published as it is'),
    paths,
    staleAfter,
  },
  async run(input, context) {
    const request = {
      ...ownClaim(input),
      lane: requireIdentity(input.lane, 'lane'),
      branch: requireIdentity(input.branch, 'branch'),
      ...(input.paths === undefined ? {} : { paths: requirePaths(input.paths) }),
    };
    const desk = await deskFor(context, input.staleAfter, request.session, request.lane);
    return inMode(desk, request, apiClaim, claim);
  },
});

/** `status <ref> --session [--stage] [--note]`. */
const statusCommand = defineCommand({
  name: 'status',
  tool: 'issue_status',
  title: 'Record or report the stage of a claim',
  description:
    'With a stage: record it on this session’s claim comment, in place (blocked adds the status:blocked label, other stages remove it). Without a stage: report the claim and write nothing. Refused, saying why, when the session does not hold the issue (taken over, stale, released, held by another).',
  readOnly: false,
  input: {
    issue,
    session,
    stage: z
      .string()
      .optional()
      .describe(
        'claimed, implementing, review, blocked, queued, landing or fix-round-N (1..999); omit to only report',
      ),
    note,
    staleAfter,
  },
  async run(input, context) {
    const request = {
      ...ownClaim(input),
      stage: input.stage === undefined ? undefined : requireStage(input.stage),
      note: requireNote(input.note),
    };
    const desk = await deskFor(context, input.staleAfter, request.session);
    return inMode(desk, request, apiStatus, status);
  },
});

/** `release <ref> --session --outcome [--note]`. */
const releaseCommand = defineCommand({
  name: 'release',
  tool: releaseOperation.tool,
  title: releaseOperation.title,
  // The client always names its session: the administrative release is the API's alone.
  description: releaseOperation.description.replace(` ${ADMINISTRATIVE_RELEASE}`, ''),
  readOnly: false,
  input: {
    issue,
    session,
    outcome: z.enum(OUTCOMES).describe('landed, abandoned or handed-over'),
    note,
    staleAfter,
  },
  async run(input, context) {
    const request = {
      ...ownClaim(input),
      outcome: input.outcome,
      note: requireNote(input.note),
    };
    const desk = await deskFor(context, input.staleAfter, request.session);
    return inMode(desk, request, apiRelease, release);
  },
});

/** `release --all --session [--outcome] [--note]`: everything the session holds, through the app. */
const releaseAllCommand = defineCommand({
  name: 'release-all',
  tool: releaseAllOperation.tool,
  title: releaseAllOperation.title,
  description: `${releaseAllOperation.description} ${NEEDS_APP}`,
  readOnly: false,
  input: {
    session,
    outcome: z
      .enum(OUTCOMES)
      .optional()
      .describe(`landed, abandoned or handed-over; default ${RELEASE_ALL_OUTCOME}`),
    note,
  },
  async run(input, context) {
    const request = {
      session: requireIdentity(input.session, 'session'),
      ...(input.outcome === undefined ? {} : { outcome: input.outcome }),
      ...(input.note === undefined ? {} : { note: requireNote(input.note) }),
    };
    // docs/protocol.md §17: only the app knows every claim of a session (its index).
    requireApp(context, 'release --all');
    const desk = await deskFor(context, undefined, request.session);
    return apiReleaseAll(desk, desk.api!, request);
  },
});

/** `check` (the brief on stdin; `brief` for MCP). */
const checkCommand = defineCommand({
  name: 'check',
  tool: 'dispatch_check',
  title: 'Check a subagent brief before dispatch',
  description:
    'The dispatch gate: reads the brief’s column-0 "issue: owner/repo#N, …" and "session: S" lines and allows only when every named issue is held by that session. Denies naming the holder, or with the claim command to run first. A brief naming no issue is allowed without any network call.',
  readOnly: true,
  input: {
    brief: z.string().describe('The whole brief text'),
    staleAfter,
  },
  async run(input, context) {
    const windowMs = staleAfterMs(input.staleAfter);
    return check(input.brief, () => context.desk({ staleAfterMs: windowMs }));
  },
});

/** `migrate --repo o/r --issue N… [--apply]`. */
const migrateCommand = defineCommand({
  name: 'migrate',
  tool: 'claims_migrate',
  title: 'Migrate legacy claim comments to keyed tags',
  description:
    'Rewrite legacy claim comments whose marker carries a plain session or lane to keyed tags. A dry run unless asked to apply (`--apply` on the command line, `apply: true` as an MCP tool); applying posts each replacement, deletes the legacy comment and verifies by reading the thread back.',
  readOnly: false,
  input: {
    repo: RepoField,
    issues: z.array(z.number().int().positive()).min(1).describe('The issue numbers to migrate'),
    apply: z.boolean().optional().describe('Write the migration; without it, a dry run'),
    staleAfter,
  },
  async run(input, context) {
    const { owner, repo } = parseRepoName(input.repo);
    const desk = await context.desk({ staleAfterMs: staleAfterMs(input.staleAfter) });
    return migrate(desk, { owner, repo, issues: input.issues, apply: input.apply ?? false });
  },
});

/** `list [filters]`: the app's work queue. */
const listCommand = defineCommand({
  name: 'list',
  tool: listOperation.tool,
  title: listOperation.title,
  description: `${listOperation.description} ${NEEDS_APP}`,
  readOnly: true,
  input: QueueQueryInput,
  async run(input, context) {
    requireApp(context, 'list');
    if (input.repo !== undefined) parseRepoName(input.repo);
    const desk = await context.desk({ staleAfterMs: staleAfterMs(undefined) });
    return list(desk.api!, input);
  },
});

/** `paths check a,b --repo o/r`: who holds these paths. */
const pathsCommand = defineCommand({
  name: 'paths',
  tool: pathsOperation.tool,
  title: pathsOperation.title,
  // The CLI exits 1 on a held path, so a script can branch on it.
  description: `${pathsOperation.description} Refused when another live claim holds one. ${NEEDS_APP}`,
  readOnly: true,
  input: {
    repo: RepoField,
    paths: PathsToCheckField,
  },
  async run(input, context) {
    const { owner, repo } = parseRepoName(input.repo);
    const checked = requirePaths(input.paths);
    requireApp(context, 'paths check');
    const desk = await context.desk({ staleAfterMs: staleAfterMs(undefined) });
    return pathsCheck(desk.api!, { owner, repo, paths: checked });
  },
});

/** Every command, in the order help lists them. */
export const commands: readonly ClientCommand[] = [
  claimCommand,
  statusCommand,
  releaseCommand,
  releaseAllCommand,
  checkCommand,
  migrateCommand,
  listCommand,
  pathsCommand,
];
