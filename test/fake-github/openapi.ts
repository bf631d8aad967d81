/**
 * GitHub's own REST description (`@octokit/openapi`, GitHub Enterprise Server's, as the fake
 * serves the GHES layout under `/api/v3`), compiled into a route table the fake checks every
 * request against: a request GitHub would refuse is refused here too, so a test cannot pass
 * on a call that fails against the real API.
 *
 * Checked: the method and path template exist; path and query parameters that are required
 * are present and of their type and enum; a JSON body has its required properties, no unknown
 * ones where the schema says `additionalProperties: false`, and each value its type, enum and
 * length bounds. Not checked: formats and patterns of strings, and bounds of query numbers
 * (GitHub clamps `per_page`, it does not refuse it).
 *
 * The description is 11 MB; the compiled table (schemas stripped to what is checked) is
 * cached on disk per package version, and held once per process.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Which of the package's descriptions the fake follows. */
export const REST_DESCRIPTION = 'ghes-3.19';

/** A JSON schema reduced to the keywords the validator reads. */
export interface Schema {
  readonly type?: string;
  readonly nullable?: boolean;
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  /** Only `false` is kept: a schema for extra properties is not checked. */
  readonly additionalProperties?: false;
  readonly items?: Schema;
  readonly oneOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
  readonly allOf?: readonly Schema[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
}

/** One path or query parameter of an operation. */
export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly schema: Schema;
}

/** One operation (method and path template) of the description. */
export interface Operation {
  readonly method: string;
  readonly template: string;
  readonly operationId: string;
  readonly parameters: readonly Parameter[];
  /** The JSON body's schema; absent when the operation takes no JSON body. */
  readonly body?: { readonly required: boolean; readonly schema: Schema };
}

/** What the validator says about one request. */
export type Verdict =
  | { readonly ok: true; readonly operation: Operation }
  | {
      readonly ok: false;
      /** 404: no such route; 422: a route, but GitHub would refuse this request. */
      readonly status: 404 | 422;
      readonly problems: readonly string[];
      readonly operation?: Operation;
    };

interface CompiledRoute {
  readonly operation: Operation;
  readonly regex: RegExp;
  /** The same with its last parameter spanning slashes, when it may (`contents/{path}`). */
  readonly greedy: RegExp | undefined;
  readonly names: readonly string[];
  /** 1 for a literal segment, 0 for a parameter: literal segments win over parameters. */
  readonly rank: string;
}

/** The compiled table on disk: bump when the compiled shape changes. */
const CACHE_FORMAT = 1;

let table: Map<string, CompiledRoute[]> | undefined;

/** The compiled route table, built (or read from the disk cache) once per process. */
function routeTable(): Map<string, CompiledRoute[]> {
  if (table) return table;
  const operations = loadOperations();
  const byMethod = new Map<string, CompiledRoute[]>();
  for (const operation of operations) {
    const list = byMethod.get(operation.method) ?? [];
    list.push(compileRoute(operation));
    byMethod.set(operation.method, list);
  }
  for (const list of byMethod.values()) list.sort((a, b) => b.rank.localeCompare(a.rank));
  table = byMethod;
  return table;
}

function loadOperations(): Operation[] {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve('@octokit/openapi/package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const root = dirname(packageJson);
  const cache = join(
    root,
    '..',
    '..',
    '.cache',
    'fake-github-openapi',
    `${REST_DESCRIPTION}-${version}-v${CACHE_FORMAT}.json`,
  );
  try {
    return JSON.parse(readFileSync(cache, 'utf8')) as Operation[];
  } catch {
    // Not cached yet (or unreadable): compile from the description.
  }
  const description = JSON.parse(
    readFileSync(join(root, 'generated', `${REST_DESCRIPTION}.json`), 'utf8'),
  ) as Description;
  const operations = compileOperations(description);
  try {
    mkdirSync(dirname(cache), { recursive: true });
    // Written aside and renamed: test files compiling at once never read half a file.
    const partial = `${cache}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(operations));
    renameSync(partial, cache);
  } catch {
    // A read-only tree only costs the compile next time.
  }
  return operations;
}

interface Description {
  readonly paths: Record<string, Record<string, RawOperation>>;
  readonly components: Record<string, Record<string, unknown>>;
}

interface RawOperation {
  readonly operationId?: string;
  readonly parameters?: readonly unknown[];
  readonly requestBody?: unknown;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head']);

/** Every operation of `description`, its `$ref`s resolved and its schemas reduced. */
export function compileOperations(description: Description): Operation[] {
  const resolve = (node: unknown): Record<string, unknown> => {
    let current = node as Record<string, unknown>;
    for (let hops = 0; typeof current?.$ref === 'string' && hops < 20; hops++) {
      const [, group, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(current.$ref as string) ?? [];
      current = description.components[group ?? '']?.[name ?? ''] as Record<string, unknown>;
    }
    return current ?? {};
  };
  const reduce = (node: unknown, seen: readonly unknown[]): Schema => {
    const raw = resolve(node);
    // A recursive schema is checked to the depth where it recurs, then accepted as is.
    if (seen.includes(raw)) return {};
    const inner = [...seen, raw];
    const schema: Record<string, unknown> = {};
    if (typeof raw.type === 'string') schema.type = raw.type;
    if (raw.nullable === true) schema.nullable = true;
    if (Array.isArray(raw.enum)) schema.enum = raw.enum;
    if (raw.additionalProperties === false) schema.additionalProperties = false;
    if (Array.isArray(raw.required)) schema.required = raw.required;
    for (const bound of ['minItems', 'maxItems', 'minLength', 'maxLength'] as const) {
      if (typeof raw[bound] === 'number') schema[bound] = raw[bound];
    }
    if (raw.properties && typeof raw.properties === 'object') {
      schema.properties = Object.fromEntries(
        Object.entries(raw.properties).map(([name, value]) => [name, reduce(value, inner)]),
      );
    }
    if (raw.items) schema.items = reduce(raw.items, inner);
    for (const combinator of ['oneOf', 'anyOf', 'allOf'] as const) {
      const branches = raw[combinator];
      if (Array.isArray(branches)) schema[combinator] = branches.map((b) => reduce(b, inner));
    }
    return schema;
  };

  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(description.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      if (!METHODS.has(method)) continue;
      const parameters: Parameter[] = [];
      for (const node of raw.parameters ?? []) {
        const parameter = resolve(node);
        if (parameter.in !== 'path' && parameter.in !== 'query') continue;
        parameters.push({
          name: String(parameter.name),
          in: parameter.in,
          required: parameter.required === true,
          schema: reduce(parameter.schema, []),
        });
      }
      const requestBody = resolve(raw.requestBody);
      const content = requestBody.content as Record<string, { schema?: unknown }> | undefined;
      const json = content?.['application/json'];
      operations.push({
        method: method.toUpperCase(),
        template,
        operationId: raw.operationId ?? `${method} ${template}`,
        parameters,
        ...(json
          ? { body: { required: requestBody.required === true, schema: reduce(json.schema, []) } }
          : {}),
      });
    }
  }
  return operations;
}

/** Parameters whose values GitHub reads with their slashes (`contents/docs/a.md`, `heads/x`). */
const SLASHED_PARAMETERS = new Set(['path', 'ref', 'basehead', 'branch']);

function compileRoute(operation: Operation): CompiledRoute {
  const segments = operation.template.split('/').slice(1);
  const names: string[] = [];
  const parts = segments.map((segment) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    if (name === undefined) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(name);
    return '([^/]+)';
  });
  const source = `^/${parts.join('/')}$`;
  const last = /^\{(.+)\}$/.exec(segments.at(-1) ?? '')?.[1];
  const lastIsParam = last !== undefined && SLASHED_PARAMETERS.has(last);
  return {
    operation,
    regex: new RegExp(source),
    greedy: lastIsParam ? new RegExp(`^/${[...parts.slice(0, -1), '(.+)'].join('/')}$`) : undefined,
    names,
    rank: segments.map((s) => (s.startsWith('{') ? '0' : '1')).join(''),
  };
}

/** The operation `method path` calls, with its path parameters decoded; undefined: none. */
export function findOperation(
  method: string,
  path: string,
): { operation: Operation; params: Record<string, string> } | undefined {
  const routes = routeTable().get(method.toUpperCase()) ?? [];
  // Single-segment parameters first; only then may a last parameter span slashes.
  for (const key of ['regex', 'greedy'] as const) {
    for (const route of routes) {
      const match = route[key]?.exec(path);
      if (!match) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = safeDecode(match[i + 1] ?? '');
      });
      return { operation: route.operation, params };
    }
  }
  return undefined;
}

/**
 * Checks one request as GitHub would: `path` without `/api/v3` and without the query, `body`
 * the parsed JSON (undefined when there was none).
 */
export function validateRequest(
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): Verdict {
  const found = findOperation(method, path);
  if (!found) return { ok: false, status: 404, problems: [`no route ${method} ${path}`] };
  const { operation, params } = found;
  const problems: string[] = [];
  for (const parameter of operation.parameters) {
    const value = parameter.in === 'path' ? params[parameter.name] : query.get(parameter.name);
    if (value === undefined || value === null) {
      if (parameter.required) {
        problems.push(`${parameter.in} parameter "${parameter.name}" wasn't supplied`);
      }
      continue;
    }
    const problem = checkParameter(value, parameter.schema);
    if (problem) problems.push(`${parameter.in} parameter "${parameter.name}" ${problem}`);
  }
  if (operation.body) {
    if (body === undefined) {
      if (operation.body.required) problems.push('the JSON body wasn\u2019t supplied');
    } else {
      checkValue(body, operation.body.schema, 'body', problems);
    }
  }
  return problems.length === 0
    ? { ok: true, operation }
    : { ok: false, status: 422, problems, operation };
}

/** A query or path parameter's text against its schema: a problem, or undefined. */
function checkParameter(value: string, schema: Schema): string | undefined {
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches) {
    const problems = branches.map((branch) => checkParameter(value, branch));
    return problems.some((p) => p === undefined) ? undefined : problems[0];
  }
  switch (schema.type) {
    case 'integer':
      if (!/^-?\d+$/.test(value)) return `must be an integer, got ${JSON.stringify(value)}`;
      break;
    case 'number':
      if (value.trim() === '' || !Number.isFinite(Number(value))) {
        return `must be a number, got ${JSON.stringify(value)}`;
      }
      break;
    case 'boolean':
      if (value !== 'true' && value !== 'false') {
        return `must be true or false, got ${JSON.stringify(value)}`;
      }
      break;
  }
  if (schema.enum && !schema.enum.includes(value)) {
    // An enum of integers (or booleans) is written as text in a query.
    if (!schema.enum.map(String).includes(value)) {
      return `must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`;
    }
  }
  return undefined;
}

/** Appends to `problems` each way `value` breaks `schema`, naming where (`body.labels[0]`). */
export function checkValue(value: unknown, schema: Schema, at: string, problems: string[]): void {
  if (value === null) {
    if (!schema.nullable && schema.type !== undefined && schema.type !== 'null') {
      problems.push(`${at} must not be null`);
    }
    return;
  }
  for (const branch of schema.allOf ?? []) checkValue(value, branch, at, problems);
  // oneOf is read as anyOf: GitHub's own branches overlap (a string, or an object with it).
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches && branches.length > 0) {
    const attempts = branches.map((branch) => {
      const found: string[] = [];
      checkValue(value, branch, at, found);
      return found;
    });
    if (!attempts.some((found) => found.length === 0)) {
      problems.push(...attempts.reduce((a, b) => (b.length < a.length ? b : a)));
    }
  }
  if (schema.type !== undefined && !hasType(value, schema.type)) {
    problems.push(`${at} must be ${article(schema.type)}, got ${describeValue(value)}`);
    return;
  }
  if (schema.enum && !schema.enum.includes(value)) {
    problems.push(
      `${at} must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`,
    );
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) {
      problems.push(`${at} must be at least ${schema.minLength} characters long`);
    }
    if (schema.maxLength !== undefined && value.length > schema.maxLength) {
      problems.push(`${at} must be at most ${schema.maxLength} characters long`);
    }
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      problems.push(`${at} must have at least ${schema.minItems} items`);
    }
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      problems.push(`${at} must have at most ${schema.maxItems} items`);
    }
    if (schema.items) {
      value.forEach((item, i) => {
        checkValue(item, schema.items!, `${at}[${i}]`, problems);
      });
    }
    return;
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (!(name in record)) problems.push(`${at}.${name} wasn\u2019t supplied`);
    }
    for (const [name, item] of Object.entries(record)) {
      const property = schema.properties?.[name];
      if (property) checkValue(item, property, `${at}.${name}`, problems);
      else if (schema.additionalProperties === false) {
        problems.push(`${at}.${name} is not a permitted key`);
      }
    }
  }
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
