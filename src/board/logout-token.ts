import { createHmac } from 'node:crypto';
import { purposeKey } from './session-cookie.js';

/**
 * The CSRF token of the sign-out form: a MAC of the session cookie, so only a page that was
 * served to this session can post it (SameSite=Lax already keeps other sites' posts out).
 */
export function logoutToken(secret: string, sessionCookie: string): string {
  return createHmac('sha256', purposeKey(secret, 'logout'))
    .update(sessionCookie)
    .digest('base64url');
}
