import type { ProbotOctokit } from 'probot';
import type { Store } from '../store/store.js';
import { statusOf } from './errors.js';

/**
 * How long an answer is kept for a conditional request. GitHub ties an ETag to the token
 * that read it, and installation tokens last an hour, so an older one only costs the bytes
 * of sending it (GitHub answers 200); a day covers repeats under any resync interval.
 */
export const CACHED_READ_TTL_MS = 24 * 3_600_000;

/** One page of a conditional listing. */
export interface ConditionalPage<T> {
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
 * Reads every page of a GET list with `If-None-Match` (docs/api-budget.md): GitHub answers an
 * unchanged page 304, which does not count against the rate limit, and the page's items are
 * then those kept from the last read. Answers are kept per token `scope` (an installation),
 * so one installation's ETag is never sent with another's token. `pick` reduces a page to
 * what the caller needs, which is all that is kept.
 */
export async function* conditionalPages<T>(
  octokit: ProbotOctokit,
  store: Store,
  scope: string,
  route: string,
  params: Record<string, string | number>,
  pick: (data: unknown) => readonly T[],
): AsyncGenerator<ConditionalPage<T>> {
  let url: string | null = octokit.request.endpoint(route, params).url;
  while (url !== null) {
    const kept = await store.cachedRead(scope, url);
    let page: KeptPage<T>;
    let changed = true;
    try {
      const response = await octokit.request({
        method: 'GET',
        url,
        headers: kept ? { 'if-none-match': kept.etag } : {},
      });
      page = { items: pick(response.data), next: nextLink(response.headers.link) };
      const etag = response.headers.etag;
      if (typeof etag === 'string') {
        await store.setCachedRead(
          scope,
          url,
          { etag, value: JSON.stringify(page) },
          CACHED_READ_TTL_MS,
        );
      }
    } catch (error) {
      if (statusOf(error) !== 304 || !kept) throw error;
      page = JSON.parse(kept.value) as KeptPage<T>;
      changed = false;
    }
    yield { items: page.items, changed };
    url = page.next;
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
