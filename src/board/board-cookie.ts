import type { BoardRequest } from './board-request.js';
import { cookieHeader } from './cookies.js';

/** The signed session (session-cookie.ts). */
export const SESSION_COOKIE = 'cw_board_session';
/** The OAuth state of a sign-in under way (oauth-state.ts). */
export const STATE_COOKIE = 'cw_board_state';

/** A `Set-Cookie` value for one of the board's cookies, scoped to the board's path; an empty
 * value with no lifetime clears it. */
export function boardCookie(
  request: BoardRequest,
  name: string,
  value = '',
  maxAgeSeconds = 0,
): string {
  return cookieHeader(name, value, {
    path: request.cookiePath,
    maxAgeSeconds,
    secure: request.secure,
  });
}
