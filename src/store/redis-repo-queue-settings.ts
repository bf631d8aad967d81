import type { QueueSettings } from '../config/repo-config.js';
import { RedisPart } from './redis-connection.js';
import {
  QUEUE_SETTINGS_TTL_MS,
  type RepoName,
  type RepoQueueSettings,
  repoNameKey,
} from './repo-queue-settings.js';

/** {@link RepoQueueSettings} on Redis: one JSON string `queue-settings:<owner/repo>` with a TTL. */
export class RedisRepoQueueSettings extends RedisPart implements RepoQueueSettings {
  async setQueueSettings(repo: RepoName, settings: QueueSettings | null): Promise<void> {
    await (await this.client()).set(
      this.key('queue-settings', repoNameKey(repo)),
      JSON.stringify({ settings }),
      'PX',
      QUEUE_SETTINGS_TTL_MS,
    );
  }

  async queueSettings(repo: RepoName): Promise<QueueSettings | null | undefined> {
    const value = await (await this.client()).get(this.key('queue-settings', repoNameKey(repo)));
    return value === null
      ? undefined
      : (JSON.parse(value) as { settings: QueueSettings | null }).settings;
  }
}
