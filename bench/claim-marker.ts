import { renderClaimComment } from '../src/claims/comment.js';
import type { ClaimMarker } from '../src/claims/types.js';

/**
 * The body of a session's claim comment for the bench scenarios: claimed on `main` from
 * `fix/<session>`, updated now unless `fields` say otherwise.
 */
export function marker(session: string, fields: Partial<ClaimMarker> = {}): string {
  const at = fields.updated ?? new Date();
  return renderClaimComment({
    session,
    lane: 'main',
    branch: `fix/${session}`,
    started: fields.started ?? at,
    updated: at,
    stage: fields.stage ?? 'claimed',
    assignee: 'claim',
    ...(fields.outcome ? { outcome: fields.outcome } : {}),
  });
}
