import { hasName } from '../claims/names.js';
import type { ResolvedRepoConfig } from './repo-config.js';

/** What an event route leaves to the repository's config (src/app/route-event.ts). */
interface ConfigDependentRoute {
  readonly label?: string;
  readonly bot?: string;
  readonly people?: true;
}

/**
 * Whether an event concerns claims under the repository's config, so the app and the Action
 * reconcile for it: a label only when it is a status label (or, with people's claims on, the
 * pinned label, docs/protocol.md §16); a bot's marker only when the bot is in trustedBots;
 * an assignment or a command only with people's claims on. Any other route concerns claims.
 */
export function concernsClaims(config: ResolvedRepoConfig, route: ConfigDependentRoute): boolean {
  const { labels, trustedBots, people } = config;
  if (route.label !== undefined) {
    const pinned = people ? [people.pinnedLabel] : [];
    const review = labels.needsReview ? [labels.needsReview] : [];
    return hasName([labels.inProgress, labels.blocked, ...review, ...pinned], route.label);
  }
  if (route.people) return people !== undefined;
  return route.bot === undefined || hasName(trustedBots, route.bot);
}
