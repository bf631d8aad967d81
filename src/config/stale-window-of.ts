import type { RepoConfigResult } from './repo-config.js';

/**
 * The resync's reading: the repository's stale window, or null when its config is invalid
 * or the repository is disabled (it is left alone). Unreadable throws, so the resync of that repository is
 * retried rather than run with a guessed window.
 */
export function staleWindowOf(result: RepoConfigResult): number | null {
  switch (result.kind) {
    case 'absent':
    case 'loaded':
      // A disabled repository (docs/protocol.md §15) is not listed either.
      return result.config.enabled ? result.config.staleAfterMs : null;
    case 'invalid':
      return null;
    case 'unreadable':
      throw new Error(`config unreadable: ${result.message}`);
  }
}

/**
 * The resync's other reading (docs/protocol.md §16): whether people's claims are on, so that
 * their commands and assignments are resynced. Unreadable throws, as above: the pass of that
 * repository is retried.
 */
export function peopleClaimsOn(result: RepoConfigResult): boolean {
  switch (result.kind) {
    case 'absent':
    case 'loaded':
      return result.config.enabled && result.config.people !== undefined;
    case 'invalid':
      return false;
    case 'unreadable':
      throw new Error(`config unreadable: ${result.message}`);
  }
}
