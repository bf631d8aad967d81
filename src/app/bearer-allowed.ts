import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * A check that a request carries `Authorization: Bearer <token>` (the scheme in any case, as
 * RFC 9110 §11.1 allows). Without a token every request passes. The comparison takes the same
 * time whatever the guess: both sides are hashed to 32 bytes and compared with
 * timingSafeEqual, so neither the token's bytes nor its length leak through timing.
 */
export function bearerAllowed(token: string | undefined): (req: IncomingMessage) => boolean {
  if (token === undefined) return () => true;
  const expected = digest(token);
  return (req) => {
    const match = /^bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
    const given = digest(match?.[1] ?? '');
    return timingSafeEqual(given, expected) && match !== null;
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
