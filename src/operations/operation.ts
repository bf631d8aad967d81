import type { z } from 'zod';

/** The operations of the claims app, by the name each door knows them under. */
export type OperationName =
  | 'claim'
  | 'heartbeat'
  | 'release'
  | 'release-all'
  | 'get'
  | 'list'
  | 'paths';

/**
 * What an operation's route names: an issue, a repository, or nothing (the whole queue, or
 * every claim of a session).
 */
type OperationTarget = 'issue' | 'repo' | 'none';

/** The MCP hints of an operation's tool (the MCP specification's tool annotations). */
interface OperationHints {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * One operation of the claims app, declared once (docs/architecture.md, "Operations"): the
 * REST router reads its method and route, both MCP servers its tool name, title, description
 * and schemas, the CLI its description, and the client's API mode its route and answer schema.
 * A declaration holds no code that runs it: the app binds each name to its handler.
 */
export interface Operation<
  Shape extends z.ZodRawShape = z.ZodRawShape,
  Answer extends z.ZodType = z.ZodType,
> {
  readonly name: OperationName;
  /** The MCP tool's name. */
  readonly tool: string;
  readonly title: string;
  readonly description: string;
  /** The remote MCP tool's arguments, as a zod shape (the input schema of `tools/list`). */
  readonly input: Shape;
  /** The answer of a success, as the API renders it (the tool's output schema). */
  readonly answer: Answer;
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The route under `/api/claims/v1`, its parameters in braces: `/repos/{owner}/{repo}/paths`. */
  readonly route: string;
  /** What the route names; a tool names it in its `issue` or `repo` argument. */
  readonly target: OperationTarget;
  readonly hints: OperationHints;
}

/** An operation's declaration, its schema types kept for the doors that read them. */
export function defineOperation<Shape extends z.ZodRawShape, Answer extends z.ZodType>(
  operation: Operation<Shape, Answer>,
): Operation<Shape, Answer> {
  return operation;
}
