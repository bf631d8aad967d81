import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * Tool schemas every MCP client reads alike. zod writes a nullable field as
 * `type: ["string", "null"]` and an open object as `additionalProperties: {}`; both are valid
 * JSON Schema, but the official MCP Inspector warns on each, and clients that build forms from
 * the schema skip such fields. Each schema is said in the portable form with the same meaning:
 * `anyOf` of one schema per type, and no `additionalProperties` where any is allowed.
 */
export function portableJsonSchema(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && isEmptySchema(value)) continue;
    if (SCHEMA_MAPS.has(key) && isRecord(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [name, portableJsonSchema(inner)]),
      );
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map(portableJsonSchema);
    } else if (SUBSCHEMAS.has(key)) {
      out[key] = portableJsonSchema(value);
    } else {
      out[key] = value;
    }
  }
  const { type } = out;
  if (!Array.isArray(type) || type.length < 2) return out;
  // One branch per type; annotations stay outside, the type's own keywords go with each
  // non-null branch (a null has none).
  const outer: Record<string, unknown> = {};
  const inner: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(out)) {
    if (key === 'type') continue;
    (ANNOTATIONS.has(key) ? outer : inner)[key] = value;
  }
  outer.anyOf = type.map((t) => (t === 'null' ? { type: 'null' } : { type: t, ...inner }));
  return outer;
}

/**
 * Makes `server`'s tools/list answer with portable schemas. Call it once every tool is
 * registered: McpServer answers tools/list itself, converting its zod schemas on each call,
 * and this wraps that answer.
 */
export function listPortableToolSchemas(server: McpServer): void {
  const handlers = (
    server.server as unknown as {
      _requestHandlers: Map<string, (request: unknown, extra: unknown) => Promise<unknown>>;
    }
  )._requestHandlers;
  const list = handlers.get(ListToolsRequestSchema.shape.method.value);
  if (list === undefined) throw new Error('listPortableToolSchemas: no tool is registered yet');
  server.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const answer = (await list(request, extra)) as ListToolsResult;
    return {
      ...answer,
      tools: answer.tools.map((tool) => ({
        ...tool,
        inputSchema: portableJsonSchema(tool.inputSchema) as typeof tool.inputSchema,
        ...(tool.outputSchema
          ? { outputSchema: portableJsonSchema(tool.outputSchema) as typeof tool.outputSchema }
          : {}),
      })),
    };
  });
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SUBSCHEMAS = new Set([
  'items',
  'additionalProperties',
  'propertyNames',
  'not',
  'contains',
  'if',
  'then',
  'else',
]);
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{}` (or `true`): a schema that allows anything. */
function isEmptySchema(value: unknown): boolean {
  return value === true || (isRecord(value) && Object.keys(value).length === 0);
}
