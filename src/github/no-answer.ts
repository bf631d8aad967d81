/**
 * The host a GitHub request was sent to when no HTTP answer came at all (the name did not
 * resolve, the connection was refused or reset, TLS failed), with the network's reason.
 * @octokit/request reports those as a RequestError with status 500 and no `response`, so
 * "status 500" in a message would claim an answer that never came. Undefined for an error
 * that carries an answer, or for a cancelled request (an AbortError).
 */
export function noAnswer(error: unknown): { host: string; reason: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as {
    name?: unknown;
    status?: unknown;
    response?: unknown;
    message?: unknown;
    request?: { url?: unknown };
  };
  if (e.name === 'AbortError' || e.status !== 500 || e.response !== undefined) return undefined;
  if (typeof e.request?.url !== 'string') return undefined;
  let host: string;
  try {
    host = new URL(e.request.url).host;
  } catch {
    return undefined;
  }
  return { host, reason: typeof e.message === 'string' ? e.message : 'no answer' };
}
