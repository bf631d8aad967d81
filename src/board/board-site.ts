import type { BoardDeps } from './board-deps.js';
import { VisibleReposCache } from './visible-repos.js';

/** What every board route shares for the life of the handler: where GitHub is, the clock. */
export interface BoardSite {
  readonly deps: BoardDeps;
  readonly now: () => Date;
  readonly fetch: typeof fetch;
  /** GitHub's web host: `https://github.com`, or `<GHE_PROTOCOL>://<GHE_HOST>`. */
  readonly webUrl: string;
  readonly apiUrl: string;
  readonly secret: string;
  readonly visibility: VisibleReposCache;
  /** Where the page may load images from (the content security policy's `img-src`). */
  readonly imgSources: readonly string[];
}

/** The board's shared pieces, worked out once from its settings. */
export function boardSite(deps: BoardDeps): BoardSite {
  const { settings } = deps;
  const now = deps.now ?? (() => new Date());
  const fetchImpl = deps.fetch ?? fetch;
  const webUrl = settings.gheHost
    ? `${settings.gheProtocol}://${settings.gheHost}`
    : 'https://github.com';
  const apiUrl = settings.githubBaseUrl ?? 'https://api.github.com';
  return {
    deps,
    now,
    fetch: fetchImpl,
    webUrl,
    apiUrl,
    secret: settings.sessionSecret,
    visibility: new VisibleReposCache(apiUrl, now, fetchImpl),
    // Avatars come from GitHub's avatar host, or from the GHES host itself.
    imgSources: [...new Set(['https://avatars.githubusercontent.com', new URL(webUrl).origin])],
  };
}
