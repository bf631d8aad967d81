import type { IncomingMessage } from 'node:http';
import { type BaseUrlSettings, requestBaseUrl } from '../request-base-url.js';

/**
 * The app's address as the browser used it (requestBaseUrl: CLAIMS_PUBLIC_URL, else the
 * request's validated host); a Host that is no host name gets the loopback default.
 */
export function baseUrl(req: IncomingMessage, settings: BaseUrlSettings): string {
  return requestBaseUrl(req, settings) ?? 'http://localhost';
}
