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
 * The resync's other reading (docs/protocol.md §16, §18): whether people's claims are on, so
 * that their commands and assignments are resynced, and which hosted agents are listed, whose
 * assignments are resynced with people's claims off too. Unreadable throws, as above: the
 * pass of that repository is retried.
 */
export function resyncedWorkOf(result: RepoConfigResult): {
  readonly people: boolean;
  readonly hosted: readonly string[];
} {
  switch (result.kind) {
    case 'absent':
    case 'loaded': {
      const { enabled, people, hosted } = result.config;
      return { people: enabled && people !== undefined, hosted: enabled ? (hosted ?? []) : [] };
    }
    case 'invalid':
      return { people: false, hosted: [] };
    case 'unreadable':
      throw new Error(`config unreadable: ${result.message}`);
  }
}
