import { PublicClaim } from '../../../claims/public-claim.js';
import { type ClaimView, viewOfClaim } from '../replies/claim-view.js';
import { apiShape } from './api-shape.js';

/**
 * The client's view of a claim object of the API (docs/protocol.md §8), so API mode prints
 * what direct mode prints; an answer that is no claim object is unverifiable (apiShape).
 * `live` is the API's word: a holder it names is live, a released claim is not.
 */
export function apiClaimView(claim: unknown, live: boolean, name: string): ClaimView {
  return viewOfClaim(
    apiShape(PublicClaim, claim, name, 'a claim object (docs/protocol.md §8)'),
    live,
  );
}

/**
 * A holder of another issue as a path answer names it (docs/protocol.md §10): the issue it
 * holds and its view, live, since only a live holder holds paths.
 */
export function heldIn(holder: unknown, name: string): { heldIn: string; heldBy: ClaimView } {
  const claim = apiShape(PublicClaim, holder, name, 'a claim object (docs/protocol.md §8)');
  return { heldIn: claim.issue, heldBy: viewOfClaim(claim, true) };
}
