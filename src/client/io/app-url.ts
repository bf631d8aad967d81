import { setupError } from '../core/client-error.js';
import type { ConfigEnv } from './config-dir.js';

/** Where the claims API lives under an app's base URL (docs/protocol.md §8). */
const CLAIMS_API_PATH = '/api/claims/v1';

/**
 * The claims API of the app `CLAIM_WARDEN_URL` names (its base URL, such as
 * `https://claims.example.com`), or null when it is unset: the client then talks to GitHub
 * directly. A value that is not an http(s) URL is a setup error naming the variable.
 */
export function claimsApiUrl(env: ConfigEnv): string | null {
  const raw = env.CLAIM_WARDEN_URL?.trim();
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw setupError(
      'CLAIM_WARDEN_URL is not a URL; set it to the app’s base URL, such as https://claims.example.com, or unset it to talk to GitHub directly',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw setupError('CLAIM_WARDEN_URL must be an http(s) URL such as https://claims.example.com');
  }
  return `${raw.replace(/\/+$/, '')}${CLAIMS_API_PATH}`;
}
