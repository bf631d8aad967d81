import type { IncomingMessage } from 'node:http';
import { ApiError } from '../answers/api-error.js';
import type { LimitCounters } from './limit-counters.js';

/** How many tokens the app may look up with `GET /user` (docs/security.md "Limits"). */
interface IdentityLookupLimits {
  /** Unknown tokens looked up a minute for one client address. */
  readonly perAddressPerMinute: number;
  /** Unknown tokens looked up a minute in all (the deployment's, on Redis). */
  readonly perMinute: number;
}

/** The fixed bounds: far above any team's new tokens, far below a flood's. */
export const IDENTITY_LOOKUP_LIMITS: IdentityLookupLimits = {
  perAddressPerMinute: 60,
  perMinute: 600,
};

/** Admits one `GET /user` for a token the app does not know yet. */
export interface IdentityLookups {
  /** Rejects with 429 RATE_LIMITED (and `retry-after`) past either bound; asks GitHub nothing. */
  admit(req: IncomingMessage): Promise<void>;
}

/**
 * docs/security.md "Limits": a token the app has not seen costs GitHub a `GET /user`, so a
 * flood of made-up tokens would cost one each. Such lookups are counted per client address
 * (the connection's peer: behind a proxy, the proxy's) and in all; known tokens are answered
 * from the cache and count for nothing here.
 */
export function identityLookups(
  counters: LimitCounters,
  limits: IdentityLookupLimits = IDENTITY_LOOKUP_LIMITS,
): IdentityLookups {
  const perAddress = counters.rate('identity-address', limits.perAddressPerMinute);
  const overall = counters.rate('identity-all', limits.perMinute);
  return {
    async admit(req) {
      const address = req.socket?.remoteAddress ?? 'unknown';
      const mine = await perAddress.take(address);
      const all = mine.admitted ? await overall.take('all') : mine;
      if (all.admitted) return;
      throw new ApiError(
        429,
        'RATE_LIMITED',
        `too many tokens the app does not know yet ${mine.admitted ? 'are being checked' : 'come from your address'}: retry in ${all.retryAfterS} s with a valid token`,
        undefined,
        { 'retry-after': String(all.retryAfterS) },
      );
    },
  };
}
