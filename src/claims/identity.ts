import { createHmac } from 'node:crypto';

/**
 * Keyed identity tags of the Praetor claim protocol: sessions and lanes are published as
 * `h:` + 12 hex of an HMAC, so internal names never reach public issue text. Legacy markers
 * carry plain values, which still parse (docs/protocol.md §1) and still compare (sameIdentity).
 */

const CLAIM_TAG = /^h:[0-9a-f]{12}$/;

/**
 * The keyed tag of an identity: `h:` + the first 12 lowercase hex characters of
 * HMAC-SHA256(key, kind + "\0" + value). `kind` (`session`, `lane`) keeps a session and a
 * lane of the same name apart. Throws on an empty key: Praetor never falls back to an unkeyed
 * tag when its key is missing, and neither do we.
 */
export function claimTag(key: Uint8Array, kind: string, value: string): string {
  if (key.length === 0) throw new Error('claim tag key is empty; refusing to compute a tag');
  const mac = createHmac('sha256', key).update(`${kind}\0${value}`, 'utf8').digest('hex');
  return `h:${mac.slice(0, 12)}`;
}

/** True when `value` has the shape of a keyed identity tag: `h:` + 12 lowercase hex. */
export function isClaimTag(value: string): boolean {
  return CLAIM_TAG.test(value);
}

/**
 * True when a stored identity (from a marker) and a requested one name the same identity.
 * A stored tag compares with the tag of the request; a stored plain value compares plain
 * (docs/protocol.md §1). When the request is itself already a tag, tags are compared: a
 * stored tag directly, a stored plain value through its tag. An empty identity never matches,
 * as no valid marker carries one.
 */
export function sameIdentity(
  stored: string,
  requested: string,
  key: Uint8Array,
  kind: string,
): boolean {
  if (stored === '' || requested === '') return false;
  const storedIsTag = isClaimTag(stored);
  const requestedIsTag = isClaimTag(requested);
  if (storedIsTag === requestedIsTag) return stored === requested;
  if (storedIsTag) return stored === claimTag(key, kind, requested);
  return claimTag(key, kind, stored) === requested;
}
