import { claimTag, isClaimTag, sameIdentity } from './identity.js';
import type { ClaimComment } from './liveness.js';
import type { ClaimMarker } from './types.js';

/** The two identities the protocol tags (docs/agents.md, "Identity tags and the text guard"). */
export type IdentityKind = 'session' | 'lane';

/**
 * How an identity is written in public text: its keyed tag. A value that already is a tag
 * (`h:` + 12 hex) is written as it is, so `--session h:5f4dcc3b5aa7` names that tag rather
 * than the tag of a tag. There is no plain fallback: claimTag throws on a missing key.
 */
export function publicIdentity(key: Uint8Array, kind: IdentityKind, value: string): string {
  return isClaimTag(value) ? value : claimTag(key, kind, value);
}

/**
 * A test for "this claim is the requested session's": a stored tag compares with the tag of
 * the request, a stored legacy plain value compares plain (docs/protocol.md §1: legacy plain values still compare).
 */
export function ownedBy(key: Uint8Array, session: string): (claim: ClaimComment) => boolean {
  return (claim) => sameIdentity(claim.marker.session, session, key, 'session');
}

/** The marker with its session and lane written as they are published: keyed tags. */
export function taggedMarker(marker: ClaimMarker, key: Uint8Array): ClaimMarker {
  return {
    ...marker,
    session: publicIdentity(key, 'session', marker.session),
    lane: publicIdentity(key, 'lane', marker.lane),
  };
}
