import type { ProbotOctokit } from 'probot';
import type { Store } from '../store/store.js';
import { statusOf } from './errors.js';

/**
 * How long an answer is kept for a conditional request. GitHub ties an ETag to the token
 * that read it, and installation tokens last an hour, so an older one only costs the bytes
 * of sending it (GitHub answers 200); a day covers repeats under any resync interval.
 */
const CACHED_READ_TTL_MS = 24 * 3_600_000;

/**
 * The shape of what conditional reads keep. Kept answers are looked up under it, so a release
 * that changes what a `keep` function returns bumps it, and replicas of two releases running
 * side by side (a rolling deploy) never read each other's copies.
 */
const KEPT_SHAPE = 'v1';

/** Where conditional reads keep GitHub's answers: the store, under one token scope. */
export interface ReadCache {
  readonly store: Store;
  /** The token the reads are made with, as {@link tokenScope} names it. */
  readonly scope: string;
}

/**
 * The token scope of an installation's reads. GitHub's ETags are tied to the token, so each
 * installation keeps its own answers and never sends another's ETag (nor reuses its answer).
 */
export function tokenScope(installationId: number): string {
  return `installation-${installationId}`;
}

/** The conditional reads of an installation's token, kept in `store`. */
export function installationReads(store: Store, installationId: number): ReadCache {
  return { store, scope: tokenScope(installationId) };
}

/** How a conditional read keeps its answers. */
interface ConditionalOptions {
  /** How long an answer is kept (default {@link CACHED_READ_TTL_MS}). */
  readonly ttlMs?: number;
  /** Sends no `If-None-Match`, so GitHub answers in full; the answer is kept as usual. */
  readonly fresh?: boolean;
  /**
   * Sent once: a failure is not retried by the client (its retry plugin repeats a 5xx up to
   * three times), for a read whose caller comes back for it later anyway.
   */
  readonly once?: boolean;
}

/** What a conditional read came to. */
interface ConditionalAnswer<T> {
  readonly value: T;
  /** False when GitHub answered 304: the value is what it was at the last read. */
  readonly changed: boolean;
}

/**
 * One GET with `If-None-Match` and the ETag of the last answer to the same URL with the same
 * token scope (docs/api-budget.md). GitHub answers an unchanged resource 304, which does not
 * count against the rate limit, and the value is then the one kept from that answer: what
 * the 200 said, reduced by `keep` (all that is kept). Any other failure throws as the plain
 * request would.
 */
export async function conditionalGet<T>(
  octokit: ProbotOctokit,
  cache: ReadCache,
  route: string,
  params: Record<string, string | number>,
  keep: (response: { data: unknown; headers: { link?: string } }) => T,
  options: ConditionalOptions = {},
): Promise<ConditionalAnswer<T>> {
  const url = octokit.request.endpoint(route, params).url;
  const keptAs = `${KEPT_SHAPE} ${url}`;
  const kept = options.fresh ? null : await cache.store.cachedRead(cache.scope, keptAs);
  try {
    const response = await octokit.request(route, {
      ...params,
      headers: kept ? { 'if-none-match': kept.etag } : {},
      ...(options.once ? { request: { retries: 0 } } : {}),
    });
    const value = keep(response);
    const etag = response.headers.etag;
    if (typeof etag === 'string') {
      await cache.store.setCachedRead(
        cache.scope,
        keptAs,
        { etag, value: JSON.stringify(value) },
        options.ttlMs ?? CACHED_READ_TTL_MS,
      );
    }
    return { value, changed: true };
  } catch (error) {
    if (statusOf(error) !== 304 || !kept) throw error;
    return { value: JSON.parse(kept.value) as T, changed: false };
  }
}

/** One page of a conditional listing. */
interface ConditionalPage<T> {
  readonly items: readonly T[];
  /** False when GitHub answered 304: the page is what it was at the last read. */
  readonly changed: boolean;
}

/** What a page's answer is kept as: its items and the next page's URL. */
interface KeptPage<T> {
  readonly items: readonly T[];
  readonly next: string | null;
}

/**
 * Reads every page of a GET list with `If-None-Match` ({@link conditionalGet}), page by
 * page: an unchanged page is answered 304 and its items and next page are those kept from
 * the last read. Answers are kept per token `scope` (an installation), so one installation's
 * ETag is never sent with another's token. `pick` reduces a page to what the caller needs,
 * which is all that is kept.
 */
export async function* conditionalPages<T>(
  octokit: ProbotOctokit,
  store: Store,
  scope: string,
  route: string,
  params: Record<string, string | number>,
  pick: (data: unknown) => readonly T[],
  options: ConditionalOptions = {},
): AsyncGenerator<ConditionalPage<T>> {
  const keep = (response: { data: unknown; headers: { link?: string } }): KeptPage<T> => ({
    items: pick(response.data),
    next: nextLink(response.headers.link),
  });
  let page = await conditionalGet(octokit, { store, scope }, route, params, keep, options);
  for (;;) {
    yield { items: page.value.items, changed: page.changed };
    if (page.value.next === null) return;
    page = await conditionalGet(
      octokit,
      { store, scope },
      `GET ${page.value.next}`,
      {},
      keep,
      options,
    );
  }
}

/** The `rel="next"` URL of a `Link` header, or null on the last page. */
export function nextLink(link: string | undefined): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="next"/.exec(part);
    if (match) return match[1] ?? null;
  }
  return null;
}
