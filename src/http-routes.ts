import type { IncomingMessage, ServerResponse } from 'node:http';

/** Answers one request that its route matched. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/**
 * The app's own HTTP routes on Probot's server (same port as the webhooks). Rooms (the claims
 * API, the board, the MCP server) register theirs here; it lives outside `app/` so a room can
 * take routes without importing the app that wires it.
 */
export interface HttpRoutes {
  /**
   * Serves `method path`. A path ending in `/` also serves everything under it
   * (`/api/claims/v1/`); an exact path wins over a prefix, a longer prefix over a shorter.
   */
  route(method: string, path: string, handler: RouteHandler): void;
  /** Answers the request when a route matches; false leaves it to Probot (its 404). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
}
