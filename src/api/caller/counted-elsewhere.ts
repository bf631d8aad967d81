const COUNTED = Symbol('counted against the caller’s limits already');

/**
 * Marks an in-process request to the claims API that its maker has already counted against
 * the caller's limits: the remote MCP server counts each of its requests once, and the API
 * calls its tools make inside one count no more (docs/protocol.md §8 "Limits"). A symbol, so
 * nothing from the network can set it.
 */
export function countedElsewhere<T extends object>(req: T): T {
  Object.defineProperty(req, COUNTED, { value: true });
  return req;
}

/** Whether {@link countedElsewhere} marked the request. */
export function isCountedElsewhere(req: object): boolean {
  return (req as { [COUNTED]?: boolean })[COUNTED] === true;
}
