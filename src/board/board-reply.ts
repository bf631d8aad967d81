import type { ServerResponse } from 'node:http';
import { boardHeaders } from './board-headers.js';

/** Extra headers of one answer; they override the board's own. */
type ReplyHeaders = Record<string, string | string[]>;

/** The ways a board route answers; each returns true (the request is served). */
export interface BoardReply {
  send(status: number, type: string, body: string, headers?: ReplyHeaders): true;
  html(status: number, body: string, headers?: ReplyHeaders): true;
  json(status: number, body: unknown, headers?: ReplyHeaders): true;
  /** A sign-in or sign-out step: a redirect that sets or clears a cookie, never cached. */
  redirect(status: 302 | 303, location: string, setCookie: string | string[]): true;
}

/** The answers of one response, with the board's headers ({@link boardHeaders}). */
export function boardReply(res: ServerResponse, imgSources: readonly string[]): BoardReply {
  const send = (status: number, type: string, body: string, headers: ReplyHeaders = {}) => {
    res.writeHead(status, { 'content-type': type, ...boardHeaders(imgSources), ...headers });
    res.end(body);
    return true as const;
  };
  return {
    send,
    html: (status, body, headers) => send(status, 'text/html; charset=utf-8', body, headers),
    json: (status, body, headers) =>
      send(status, 'application/json; charset=utf-8', JSON.stringify(body), headers),
    redirect(status, location, setCookie) {
      res.writeHead(status, { location, 'cache-control': 'no-store', 'set-cookie': setCookie });
      res.end();
      return true;
    },
  };
}
