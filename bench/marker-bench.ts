import { renderClaimComment } from '../src/claims/comment.js';
import { parseClaimMarker } from '../src/claims/marker.js';
import type { ClaimMarker } from '../src/claims/types.js';

/**
 * Throughput of the marker reader. Every comment of every thread goes through
 * parseClaimMarker, so its cost must not grow with the comment: a 64 KB comment should read
 * about as fast as a 400-byte one (docs/protocol.md §1 looks at the first line only).
 */

const WARM_UP_MS = 200;
const MEASURE_MS = 1000;

const CLAIM: ClaimMarker = {
  session: 'h:5f4dcc3b5aa7',
  lane: 'h:098f6bcd4621',
  branch: 'feat/claim-warden-marker',
  started: new Date('2026-10-08T12:00:00Z'),
  updated: new Date('2026-10-08T12:30:00Z'),
  stage: 'review',
  assignee: 'claim',
};

const TYPICAL = renderClaimComment(CLAIM, { note: 'round one: tests green, waiting for review' });
const PROSE = 'The quick brown fox jumps over the lazy dog; claims are advisory.\n'.repeat(1000);
const LONG_WITHOUT_MARKER = PROSE.slice(0, 64 * 1024);
const LONG_WITH_MARKER = `${TYPICAL}\n\n${LONG_WITHOUT_MARKER}`;

/** Calls parseClaimMarker on `body` for about `ms` milliseconds; returns calls per second. */
function measure(body: string, ms: number, expectClaim: boolean): number {
  let calls = 0;
  let claims = 0;
  const start = performance.now();
  let elapsed = 0;
  // Check the clock every 256 calls, so timing costs little next to the parse.
  while (elapsed < ms) {
    for (let i = 0; i < 256; i += 1) {
      if (parseClaimMarker(body) !== null) claims += 1;
    }
    calls += 256;
    elapsed = performance.now() - start;
  }
  // Using the result keeps the engine from dropping the calls, and checks the input.
  if ((claims === calls) !== expectClaim) {
    throw new Error(`benchmark input ${expectClaim ? 'lost' : 'gained'} its claim marker`);
  }
  return (calls / elapsed) * 1000;
}

/** Measures parseClaimMarker, in calls per second, on a typical and on 64 KB comments. */
export async function benchMarkers(): Promise<Array<{ name: string; opsPerSec: number }>> {
  const cases = [
    { name: `parseClaimMarker: claim comment (${TYPICAL.length} B)`, body: TYPICAL, claim: true },
    { name: 'parseClaimMarker: 64 KB comment, no marker', body: LONG_WITHOUT_MARKER, claim: false },
    {
      name: 'parseClaimMarker: marker + 64 KB of text',
      body: LONG_WITH_MARKER,
      claim: true,
    },
  ];
  const results: Array<{ name: string; opsPerSec: number }> = [];
  for (const { name, body, claim } of cases) {
    measure(body, WARM_UP_MS, claim);
    results.push({ name, opsPerSec: Math.round(measure(body, MEASURE_MS, claim)) });
    // Yield between cases so a caller's timers and logs are not starved.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return results;
}
