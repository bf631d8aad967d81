import type { BoardRequest } from './board-request.js';
import { renderNotice } from './render-notice.js';

/** The 404 of a path under `/claims/` the board does not serve. */
export function boardNotFound(request: BoardRequest): true {
  return request.reply.html(
    404,
    renderNotice({
      root: request.root,
      title: 'Not found',
      text: 'The board has no page here.',
      html: '<p><a href="claims">Go to the claims board</a></p>',
    }),
  );
}
