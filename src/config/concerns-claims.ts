import { hasName } from '../claims/names.js';
import { isHostedLogin } from '../hosted/hosted-logins.js';
import type { ResolvedRepoConfig } from './repo-config.js';

/** What an event route leaves to the repository's config (src/app/route-event.ts). */
interface ConfigDependentRoute {
  readonly label?: string;
  readonly bot?: string;
  readonly people?: true;
  /** A bot's pull request: relevant when it is one of `agents.hosted` (docs/protocol.md §18). */
  readonly hosted?: string;
  /** An (un)assignment's assignee: relevant without people's claims when a hosted agent (§18). */
  readonly assignee?: string;
}

/**
 * Whether an event concerns claims under the repository's config, so the app and the Action
 * reconcile for it: a label only when it is a status label (or, with people's claims on, the
 * pinned label, docs/protocol.md §16); a bot's marker only when the bot is in trustedBots;
 * an assignment or a command only with people's claims on, but a hosted agent's assignment
 * or pull request whenever `agents.hosted` lists it (§18). Any other route concerns claims.
 */
export function concernsClaims(config: ResolvedRepoConfig, route: ConfigDependentRoute): boolean {
  const { labels, trustedBots, people } = config;
  if (route.label !== undefined) {
    const pinned = people ? [people.pinnedLabel] : [];
    const review = labels.needsReview ? [labels.needsReview] : [];
    return hasName([labels.inProgress, labels.blocked, ...review, ...pinned], route.label);
  }
  const hosted = (login: string | undefined) =>
    login !== undefined && isHostedLogin(login, config.hosted ?? []);
  // docs/protocol.md §18 needs no §16: a hosted agent's (un)assignment or pull request
  // concerns claims whether people's claims are on or not.
  if (route.people) return people !== undefined || hosted(route.assignee);
  if (route.hosted !== undefined) return hosted(route.hosted);
  return route.bot === undefined || hasName(trustedBots, route.bot);
}
