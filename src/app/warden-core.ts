import type { Logger } from 'pino';
import type { Settings } from '../config/settings.js';
import type { WorkQueue } from '../queue/queue.js';
import type { Store } from '../store/store.js';
import type { AppClients } from './connect-app.js';
import type { Metrics } from './metrics.js';
import type { RepoConfigSource } from './repo-config-source.js';

/** The operator settings the app itself reads (the rest are Probot's). */
export type WardenSettings = Pick<
  Settings,
  'staleAfterMs' | 'sweepIntervalMs' | 'resyncIntervalMs' | 'configCacheMs'
> &
  Partial<
    Pick<
      Settings,
      | 'redeliverIntervalMs'
      | 'redeliverMax'
      | 'eventsUrl'
      | 'eventsSecret'
      | 'redis'
      | 'redisPrefix'
      | 'eventsConcurrency'
      | 'eventsMaxPending'
      | 'queueLockMs'
      | 'metricsToken'
      | 'writePacingMs'
      | 'apiRatePerMinute'
      | 'apiConcurrency'
      | 'publicUrl'
      | 'trustProxy'
      | 'redeliverDelayMs'
    >
  >;

/** What every job of the app (webhooks, reconciles, timers) shares, wired once. */
export interface WardenCore extends AppClients {
  readonly settings: WardenSettings;
  readonly store: Store;
  readonly queue: WorkQueue;
  readonly log: Logger;
  readonly now: () => Date;
  readonly metrics: Metrics;
  /** claims.yml, cached (repo-config-source.ts). */
  readonly config: RepoConfigSource;
}
