import type { Logger } from 'pino';
import type { IssueKey } from '../keys.js';
import type { Rollout, WriteAction } from './execute.js';

/**
 * The rollout keys of a repository's config (docs/protocol.md §15) as the executor applies
 * them, with the log it tells held-back writes to and the counter of observed ones.
 */
export function rolloutOf(
  config: { readonly enabled: boolean; readonly mode: Rollout['mode'] },
  deps: { readonly log: Logger; onObserve?(action: WriteAction, key: IssueKey): void },
): Rollout {
  const onObserve = deps.onObserve?.bind(deps);
  return {
    enabled: config.enabled,
    mode: config.mode,
    log: deps.log,
    ...(onObserve ? { onObserve } : {}),
  };
}
