import { beginSignIn } from './begin-sign-in.js';
import type { BoardDeps, HttpHandler } from './board-deps.js';
import { boardNotFound } from './board-not-found.js';
import { boardOff } from './board-off.js';
import { type BoardRequest, boardRequest } from './board-request.js';
import type { BoardRoute } from './board-route.js';
import { type BoardSite, boardSite } from './board-site.js';
import { finishSignIn } from './finish-sign-in.js';
import { serveAsset } from './serve-asset.js';
import { serveBoardData } from './serve-board-data.js';
import { serveBoardPage } from './serve-board-page.js';
import { signOut } from './sign-out.js';

/** The routes behind sign-in, by path, and the methods each takes (the first is `Allow`). */
const ROUTES: ReadonlyMap<string, { methods: readonly string[]; serve: BoardRoute }> = new Map([
  ['/claims', { methods: ['GET', 'HEAD'], serve: serveBoardPage }],
  ['/claims/data.json', { methods: ['GET', 'HEAD'], serve: serveBoardData }],
  ['/claims/login', { methods: ['GET'], serve: beginSignIn }],
  ['/claims/callback', { methods: ['GET'], serve: finishSignIn }],
  ['/claims/logout', { methods: ['POST'], serve: signOut }],
]);

/**
 * The claims board's routes (docs/protocol.md §14): `GET /claims` (the page), `GET
 * /claims/data.json` (its refresh), `GET /claims/login` and `/claims/callback` (GitHub's
 * OAuth web flow), `POST /claims/logout`, and the stylesheet and script under
 * `/claims/assets/`. Without GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET every route but the
 * assets answers 404 with a page naming them.
 */
export function createBoardHandler(deps: BoardDeps): HttpHandler {
  const site = boardSite(deps);
  return async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://board.invalid');
      if (url.pathname !== '/claims' && !url.pathname.startsWith('/claims/')) return false;
      return await route(site, boardRequest(site, req, res, url));
    } catch (error) {
      // A store that does not answer (Redis away) is a 503 the user can retry, not Probot's 500.
      deps.log.error({ err: error, path: req.url?.split('?')[0] }, 'board request failed');
      if (!res.headersSent) {
        res.writeHead(503, {
          'content-type': 'text/plain; charset=utf-8',
          'retry-after': '15',
          'cache-control': 'no-store',
        });
        res.end('The claims board could not read its store; try again shortly.\n');
      } else {
        res.end();
      }
      return true;
    }
  };
}

/** Serves one request under `/claims`. */
async function route(site: BoardSite, request: BoardRequest): Promise<true> {
  const path = request.url.pathname;
  if (serveAsset(request, path)) return true;
  const oauth = site.deps.settings.boardOAuth;
  if (!oauth) return boardOff(request);
  const found = ROUTES.get(path);
  if (!found) return boardNotFound(request);
  if (!found.methods.includes(request.method)) {
    return request.reply.html(405, '', { allow: found.methods[0] ?? 'GET' });
  }
  return found.serve(site, request, { webUrl: site.webUrl, apiUrl: site.apiUrl, ...oauth });
}
