import type { QueueSettings } from '../config/repo-config.js';

/**
 * What each repository's claims.yml says the work queue offers (docs/protocol.md §9), as the
 * last read of it found it.
 */
export interface RepoQueueSettings {
  /**
   * Records what the repository's claims.yml says the work queue offers, as a read of it
   * found it; null: nothing is claimable there (the file is invalid, or the app is turned
   * off). Kept for QUEUE_SETTINGS_TTL_MS, renewed by every read, so a queue query costs no
   * GitHub call for the repositories the app has read lately.
   */
  setQueueSettings(repo: RepoName, settings: QueueSettings | null): Promise<void>;
  /** What {@link RepoQueueSettings.setQueueSettings} recorded; undefined when nothing is known. */
  queueSettings(repo: RepoName): Promise<QueueSettings | null | undefined>;
}

/** A repository by name, as its claims.yml is read: `owner` and `repo`, case-insensitive. */
export interface RepoName {
  readonly owner: string;
  readonly repo: string;
}

/** How long a repository's queue settings are kept unread (docs/protocol.md §9). */
export const QUEUE_SETTINGS_TTL_MS = 24 * 3_600_000;

/** The name settings are kept under: `owner/repo`, lower case (GitHub's names are not cased). */
export function repoNameKey(repo: RepoName): string {
  return `${repo.owner}/${repo.repo}`.toLowerCase();
}
