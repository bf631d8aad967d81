import type { IncomingMessage } from 'node:http';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The MCP Streamable HTTP transport's DNS-rebinding rule: a request whose `Origin` is present
 * and not the app's own is refused (403). A page that rebinds a name to this server still sends
 * its own origin, so only the app's public origin (`CLAIMS_PUBLIC_URL`) and pages served from
 * loopback pass. Agents (no browser) send no `Origin` and are not affected.
 */
export function originAllowed(req: IncomingMessage, publicUrl: string | undefined): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (publicUrl !== undefined && parsed.origin === new URL(publicUrl).origin) return true;
  return (
    (parsed.protocol === 'http:' || parsed.protocol === 'https:') && LOOPBACK.has(parsed.hostname)
  );
}
