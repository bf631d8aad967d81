/**
 * A tiny router for the GitHub fake: `:name` path patterns, who may call a route, and
 * GitHub-style pagination with RFC 5988 `Link` headers.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** Who a request authenticated as. */
export type Auth =
  | { readonly kind: 'app' }
  | { readonly kind: 'installation'; readonly installationId: number; readonly login: string }
  | {
      readonly kind: 'user';
      readonly login: string;
      /** A GitHub App user token (`ghu_`, from the OAuth web flow) rather than a PAT. */
      readonly appUserToken?: boolean;
    }
  | { readonly kind: 'anonymous' };

/** What a handler sees. `path` has no `/api/v3` prefix and no query. */
export interface RouteContext {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
  readonly auth: Auth;
  readonly headers: IncomingHttpHeaders;
}

/** What a handler answers: JSON `body`, or `raw` text sent as-is. */
export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly raw?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One endpoint. `access: 'jwt'` routes need the app's JWT; others refuse it. */
export interface Route {
  readonly method: string;
  readonly pattern: string;
  readonly regex: RegExp;
  readonly access: 'jwt' | 'token';
  readonly handler: (ctx: RouteContext) => Reply;
}

/**
 * Declares a route. In `pattern`, `:number` and `:id` match digits, `:name` any one segment,
 * and `*name` the rest of the path (slashes included).
 */
export function route(
  method: string,
  pattern: string,
  handler: (ctx: RouteContext) => Reply,
  access: 'jwt' | 'token' = 'token',
): Route {
  const source = pattern
    .split('/')
    .map((segment) => {
      if (segment.startsWith('*')) return `(?<${segment.slice(1)}>.+)`;
      if (segment === ':number' || segment === ':id') return `(?<${segment.slice(1)}>\\d+)`;
      if (segment.startsWith(':')) return `(?<${segment.slice(1)}>[^/]+)`;
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { method, pattern, regex: new RegExp(`^${source}$`), access, handler };
}

/** The route for `method` and `path`, with its decoded parameters. */
export function matchRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  for (const candidate of routes) {
    if (candidate.method !== method) continue;
    const match = candidate.regex.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    for (const [key, value] of Object.entries(match.groups ?? {})) {
      params[key] = decodeURIComponent(value);
    }
    return { route: candidate, params };
  }
  return undefined;
}

/** GitHub's page size rules: `per_page` defaults to 30 and is capped at 100. */
export function pageParams(query: URLSearchParams): { perPage: number; page: number } {
  const perPage = Number.parseInt(query.get('per_page') ?? '', 10);
  const page = Number.parseInt(query.get('page') ?? '', 10);
  return {
    perPage: Number.isFinite(perPage) && perPage > 0 ? Math.min(perPage, 100) : 30,
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

/**
 * One page of `items` and its `Link` header, as GitHub writes it: `prev`, `next`, `last`,
 * `first` in that order, each URL the request's own with `page` replaced; no header when
 * everything fits on one page.
 */
export function paginate<T>(
  items: readonly T[],
  query: URLSearchParams,
  selfUrl: string,
): { items: T[]; link: string | undefined } {
  const { perPage, page } = pageParams(query);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const at = (n: number): string => {
    const params = new URLSearchParams(query);
    params.set('page', String(n));
    return `${selfUrl}?${params.toString()}`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${at(Math.min(page - 1, last))}>; rel="prev"`);
  if (page < last) {
    links.push(`<${at(page + 1)}>; rel="next"`);
    links.push(`<${at(last)}>; rel="last"`);
  }
  if (page > 1) links.push(`<${at(1)}>; rel="first"`);
  return { items: slice, link: links.length > 0 ? links.join(', ') : undefined };
}
