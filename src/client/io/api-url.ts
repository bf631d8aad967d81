import { setupError } from '../core/client-error.js';
import type { ConfigEnv } from './config-dir.js';

/** GitHub.com's REST API, used when `GITHUB_API_URL` is unset. */
const DEFAULT_API_URL = 'https://api.github.com';

/**
 * The REST API base: `GITHUB_API_URL` (Actions sets it; GitHub Enterprise Server serves the
 * API under `https://<host>/api/v3`), else api.github.com. A value that is not an http(s)
 * URL is a setup error naming the variable (docs/protocol.md §6: bad settings are named).
 */
export function apiUrl(env: ConfigEnv): string {
  const raw = env.GITHUB_API_URL;
  if (raw === undefined || raw === '') return DEFAULT_API_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw setupError('GITHUB_API_URL is not a URL; set it to https://<host>/api/v3 or unset it');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw setupError(
      'GITHUB_API_URL must be an http(s) URL such as https://ghe.example.com/api/v3',
    );
  }
  return raw.replace(/\/+$/, '');
}

/**
 * The host `gh` knows the API by: `github.com` for api.github.com, else the API's host
 * (GitHub Enterprise Server), as `gh auth token --hostname` expects it.
 */
export function ghHostOf(api: string): string {
  const host = new URL(api).host;
  return host === 'api.github.com' ? 'github.com' : host;
}
