import type { BoardRequest } from './board-request.js';
import type { BoardSite } from './board-site.js';
import type { OAuthEndpoints } from './exchange-code.js';

/** One of the board's routes, served once sign-in is configured (`endpoints`). */
export type BoardRoute = (
  site: BoardSite,
  request: BoardRequest,
  endpoints: OAuthEndpoints,
) => Promise<true>;
