import { sameName } from '../claims/names.js';
import { isPersonClaim } from '../claims/public-claim.js';
import { type IssueKey, issueRef } from '../keys.js';
import type { Store } from '../store/store.js';
import { isLiveClaim } from './live-claims.js';

/**
 * For `people.maxClaims` (docs/protocol.md §16): per login asked about (lowercased), the
 * other open issues of `key`'s installation where that login holds a live person claim, as
 * `owner/repo#n`, sorted. Read from the open-issue index, so it costs no GitHub call; every
 * login asked about has an entry, empty when it holds nothing elsewhere.
 */
export async function personClaimsElsewhere(
  store: Pick<Store, 'openIssues'>,
  key: IssueKey,
  logins: readonly string[],
  now: Date,
): Promise<ReadonlyMap<string, readonly string[]>> {
  const held = new Map<string, string[]>(logins.map((login) => [login.toLowerCase(), []]));
  const self = issueRef(key).toLowerCase();
  for (const { issue, claim } of await store.openIssues()) {
    if (issue.key.installationId !== key.installationId) continue;
    if (!isLiveClaim(claim, now) || !isPersonClaim(claim)) continue;
    const ref = issueRef(issue.key);
    if (ref.toLowerCase() === self) continue;
    for (const [login, refs] of held) if (sameName(login, claim.author)) refs.push(ref);
  }
  for (const refs of held.values()) refs.sort();
  return held;
}
