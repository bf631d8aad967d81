import { resolvePeople } from './people-config.js';
import {
  DEFAULT_LABELS,
  type RepoConfig,
  type RepoConfigDefaults,
  type ResolvedRepoConfig,
} from './repo-config.js';

/** Fills the defaults into a validated config. */
export function resolveRepoConfig(
  config: RepoConfig,
  defaults: RepoConfigDefaults,
): ResolvedRepoConfig {
  const labels = {
    inProgress: config.labels?.inProgress ?? DEFAULT_LABELS.inProgress,
    blocked: config.labels?.blocked ?? DEFAULT_LABELS.blocked,
    needsReview: config.labels?.needsReview ?? DEFAULT_LABELS.needsReview,
  };
  const people = resolvePeople(config.people);
  return {
    staleAfterMs: config.staleAfter ?? defaults.staleAfterMs,
    ...(config.grace ? { graceMs: config.grace } : {}),
    labels,
    assign: config.assign ?? true,
    notifyOnExpiry: config.notifyOnExpiry ?? true,
    enforceLabels: config.enforceLabels ?? true,
    trustedBots: config.trustedBots ?? [],
    notify: config.notify ?? [],
    pathGuard: config.pathGuard ?? 'fail',
    heartbeatOnPush: config.heartbeatOnPush ?? true,
    mode: config.mode ?? 'enforce',
    enabled: config.enabled ?? true,
    ...(people ? { people } : {}),
    ...(config.queue
      ? {
          queue: {
            labels: config.queue.labels ?? [],
            exclude: config.queue.exclude ?? [labels.blocked],
          },
        }
      : {}),
  };
}
