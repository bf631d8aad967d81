import type { BoardRequest } from './board-request.js';
import { BOARD_STYLES } from './board-styles.js';
import { CLIENT_SCRIPT } from './client-script.js';

/** The board's stylesheet and script, by path; served with or without sign-in. */
const ASSETS: ReadonlyMap<string, { type: string; body: string }> = new Map([
  ['/claims/assets/board.css', { type: 'text/css; charset=utf-8', body: BOARD_STYLES }],
  ['/claims/assets/board.js', { type: 'text/javascript; charset=utf-8', body: CLIENT_SCRIPT }],
]);

/** `GET /claims/assets/…`: the stylesheet or script, cached a few minutes; false for any
 * other path. */
export function serveAsset(request: BoardRequest, path: string): boolean {
  const asset = ASSETS.get(path);
  if (!asset) return false;
  const { method, reply } = request;
  if (method !== 'GET' && method !== 'HEAD') return reply.html(405, '', { allow: 'GET' });
  return reply.send(200, asset.type, asset.body, { 'cache-control': 'public, max-age=300' });
}
