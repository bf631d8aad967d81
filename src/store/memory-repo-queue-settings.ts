import type { QueueSettings } from '../config/repo-config.js';
import {
  QUEUE_SETTINGS_TTL_MS,
  type RepoName,
  type RepoQueueSettings,
  repoNameKey,
} from './repo-queue-settings.js';

/** {@link RepoQueueSettings} in the process: a map of repository name to settings and expiry. */
export class MemoryRepoQueueSettings implements RepoQueueSettings {
  private readonly byRepo = new Map<
    string,
    { settings: QueueSettings | null; expiresAt: number }
  >();

  constructor(private readonly now: () => number) {}

  async setQueueSettings(repo: RepoName, settings: QueueSettings | null): Promise<void> {
    this.byRepo.set(repoNameKey(repo), { settings, expiresAt: this.now() + QUEUE_SETTINGS_TTL_MS });
  }

  async queueSettings(repo: RepoName): Promise<QueueSettings | null | undefined> {
    const kept = this.byRepo.get(repoNameKey(repo));
    return kept && kept.expiresAt > this.now() ? kept.settings : undefined;
  }
}
