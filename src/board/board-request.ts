import type { IncomingMessage, ServerResponse } from 'node:http';
import { baseUrl } from './base-url.js';
import { type BoardReply, boardReply } from './board-reply.js';
import type { BoardSite } from './board-site.js';
import { readCookies } from './cookies.js';

/** One request to the board, with what its routes read of it and the ways to answer. */
export interface BoardRequest {
  readonly req: IncomingMessage;
  readonly url: URL;
  readonly method: string;
  /** The app's address as the browser used it, without a trailing slash. */
  readonly base: string;
  /** The path of the app's root, ending in `/`: the pages' links are relative to it. */
  readonly root: string;
  /** The path the board's cookies are scoped to. */
  readonly cookiePath: string;
  /** Served over https: the cookies are Secure. */
  readonly secure: boolean;
  readonly cookies: ReadonlyMap<string, string>;
  readonly reply: BoardReply;
}

/** The board's view of one request. */
export function boardRequest(
  site: BoardSite,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): BoardRequest {
  const base = baseUrl(req, site.deps.settings);
  const root = `${new URL(base).pathname.replace(/\/$/, '')}/`;
  return {
    req,
    url,
    method: req.method ?? 'GET',
    base,
    root,
    cookiePath: `${root}claims`,
    secure: base.startsWith('https:'),
    cookies: readCookies(req),
    reply: boardReply(res, site.imgSources),
  };
}
