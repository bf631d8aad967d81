import type { BoardRequest } from './board-request.js';
import type { BoardSite } from './board-site.js';
import { readSession, signedOutHeaders } from './read-session.js';
import { signedInView } from './signed-in-view.js';

/**
 * `GET /claims/data.json` (docs/protocol.md §14): the page's refresh, the same view as JSON;
 * 401 without a session, 503 while visibility is unverifiable.
 */
export async function serveBoardData(site: BoardSite, request: BoardRequest): Promise<true> {
  const { reply } = request;
  const who = await readSession(site, request);
  if (who.kind === 'out') {
    return reply.json(
      401,
      { error: { code: 'UNAUTHENTICATED', message: 'sign in at /claims first' } },
      signedOutHeaders(request),
    );
  }
  if (who.kind === 'unverifiable') {
    // Fail closed: without a visibility answer nothing is shown.
    return reply.json(
      503,
      {
        error: {
          code: 'UNVERIFIABLE',
          message: 'GitHub did not answer the visibility check; try again shortly',
        },
      },
      { 'retry-after': '15' },
    );
  }
  return reply.json(200, await signedInView(site, request, who));
}
