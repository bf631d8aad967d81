import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Settings } from './settings.js';
import { SettingsError } from './settings-error.js';

/** Resolves a host name as `listen()` would (node:dns `lookup`, the system resolver). */
type HostLookup = (host: string) => Promise<unknown>;

/**
 * Checks at start-up that `HOST` is an IP address or a name this machine resolves, so a typo
 * stops the process naming `HOST` (docs/protocol.md §6) rather than failing in `listen()` with
 * `getaddrinfo ENOTFOUND`, which names no variable. Throws a SettingsError.
 */
export async function checkListenHost(
  settings: Pick<Settings, 'host'>,
  lookup: HostLookup = dnsLookup,
): Promise<void> {
  const host = settings.host;
  if (host === undefined || isIP(host) !== 0) return;
  try {
    await lookup(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new SettingsError([
      {
        variable: 'HOST',
        message: `must be an IP address or a host name this machine resolves; ${JSON.stringify(host)} does not resolve (${code}). Use 0.0.0.0 to listen on every interface (containers) or 127.0.0.1 for this machine only`,
      },
    ]);
  }
}

/**
 * The SettingsError naming `HOST` or `PORT` for a `listen()` failure that one of them caused
 * (an address not on this machine, a port this user may not bind), else `error` unchanged.
 * Probot already names `PORT` for a port in use.
 */
export function listenSettingsError(
  error: unknown,
  settings: Pick<Settings, 'host' | 'port'>,
): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRNOTAVAIL') {
    return new SettingsError([
      {
        variable: 'HOST',
        message: `must be an address of this machine; cannot listen on ${JSON.stringify(settings.host)} (EADDRNOTAVAIL). Use 0.0.0.0 for every interface or 127.0.0.1 for this machine only`,
      },
    ]);
  }
  if (code === 'EACCES') {
    return new SettingsError([
      {
        variable: 'PORT',
        message: `must be a port this user may listen on; ${settings.port} is refused (EACCES): ports below 1024 need privileges, use 3000 or a port above 1023`,
      },
    ]);
  }
  return error;
}
