import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editClaimBody } from '../../src/claims/claim-body.js';
import { renderClaimComment } from '../../src/claims/comment.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { pathLineOf } from '../../src/claims/paths.js';
import type { ClaimMarker } from '../../src/claims/types.js';

const started = new Date('2030-01-01T08:00:00Z');
const marker: ClaimMarker = {
  session: 'h:5f4dcc3b5aa7',
  lane: 'h:098f6bcd4621',
  branch: 'feat/x',
  started,
  updated: started,
  stage: 'implementing',
  assignee: 'claim',
};
const at = new Date('2030-01-01T10:30:00Z');

/** A push renewal's edit (docs/protocol.md §11), as renewOnPush makes it. */
const renewedClaimBody = (body: string, claim: ClaimMarker, when: Date) =>
  editClaimBody(body, { marker: { ...claim, updated: when } });

describe('editClaimBody renewing (docs/protocol.md §11 branch heartbeat)', () => {
  it('moves the marker and the Updated line to the push time, nothing else', () => {
    const body = renderClaimComment(marker, { paths: ['src/a.ts', 'docs/'], note: 'halfway' });
    const renewed = renewedClaimBody(body, marker, at);
    expect(parseClaimMarker(renewed)).toEqual({ ...marker, updated: at });
    const before = body.split('\n');
    const after = renewed.split('\n');
    const changed = after.flatMap((line, i) => (line === before[i] ? [] : [i]));
    expect(changed).toEqual([0, before.findIndex((l) => l.startsWith('- Updated:'))]);
    expect(after).toContain('- Updated: 2030-01-01T10:30:00Z');
    expect(pathLineOf(renewed)).toEqual(pathLineOf(body));
  });

  it.each([
    ['CRLF line endings are kept', (b: string) => b.replace(/\n/g, '\r\n')],
    [
      'a body without an Updated line keeps its text',
      (b: string) => b.replace(/\n- Updated:[^\n]*/, ''),
    ],
    ['only the first Updated line is the claim’s', (b: string) => `${b}\n\n- Updated: by hand`],
  ])('%s', (_, shape) => {
    const body = shape(renderClaimComment(marker));
    const renewed = renewedClaimBody(body, marker, at);
    expect(parseClaimMarker(renewed)?.updated).toEqual(at);
    expect(renewed.split('\n').length).toBe(body.split('\n').length);
    expect(renewed.includes('\r\n')).toBe(body.includes('\r\n'));
    if (body.includes('by hand')) expect(renewed.endsWith('- Updated: by hand')).toBe(true);
  });

  it('renewing twice at the same time is the same as once', () => {
    fc.assert(
      fc.property(
        fc.date({ min: started, max: new Date('2099-01-01T00:00:00Z'), noInvalidDate: true }),
        (when) => {
          const t = new Date(Math.floor(when.getTime() / 1000) * 1000);
          const once = renewedClaimBody(renderClaimComment(marker), marker, t);
          expect(renewedClaimBody(once, parseClaimMarker(once)!, t)).toBe(once);
          expect(parseClaimMarker(once)?.updated).toEqual(t);
        },
      ),
    );
  });
});
