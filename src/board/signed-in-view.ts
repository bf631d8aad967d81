import type { BoardRequest } from './board-request.js';
import type { BoardSite } from './board-site.js';
import { type BoardView, boardView, readFilters } from './board-view.js';
import type { SessionRead } from './read-session.js';

/** The board a signed-in user sees, filtered as the request's query asks. */
export function signedInView(
  site: BoardSite,
  request: BoardRequest,
  who: Extract<SessionRead, { kind: 'in' }>,
): Promise<BoardView> {
  const user = { login: who.session.login, avatarUrl: who.session.avatarUrl };
  const filters = readFilters(request.url.searchParams, who.visible);
  return boardView(site.deps.source, who.visible, user, filters, site.now());
}
