import type { Logger } from 'pino';
import { settingDefault } from '../config/settings.js';
import type { RedisClient } from '../redis/connect-redis.js';
import { fallbackNotice } from '../redis/fallback-notice.js';
import { within } from '../redis/within.js';
import { RedisScript } from '../store/redis-script.js';
import { type PacedGroup, type PacingClock, REAL_TIME, type WritePacing } from './write-pacing.js';

/**
 * Takes the next start of one schedule: the later of now and the schedule's next free
 * start, and moves that on by the spacing. Now is the caller's shared clock (ARGV[2]) or,
 * when none is given, Redis's own, so replicas whose clocks disagree still agree here.
 * Answers how long to wait, in ms. The key outlives its last start by a minute (a free
 * start in the past is the same as none), so an expiry never frees a start still ahead.
 */
const NEXT_START = new RedisScript(`
local now = tonumber(ARGV[2])
if not now then
  local t = redis.call('TIME')
  now = t[1] * 1000 + math.floor(t[2] / 1000)
end
local spacing = tonumber(ARGV[1])
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
local start = math.max(now, free)
redis.call('SET', KEYS[1], start + spacing, 'PX', start - now + spacing + 60000)
return start - now
`);

/** How long a write waits on Redis for its start before this process paces it alone. */
const PACING_TIMEOUT_MS = 500;

/** What the deployment's pacing is made of. */
interface SharedWritePacingOptions {
  readonly redis: () => Promise<RedisClient>;
  /** The app's key prefix (`claims:`). */
  readonly prefix: string;
  /** Between any two writes of one installation (default 1000: GitHub's one second). */
  readonly writeMs?: number;
  /** Between two writes that notify people (default 3 × writeMs). */
  readonly notifyingWriteMs?: number;
  /**
   * A clock every replica shares (tests): its `now()` is the schedule's time and its `wait`
   * the wait. Default: Redis's time for the schedule, timers for the wait.
   */
  readonly clock?: PacingClock;
  /** This process's own pacing, used while Redis cannot answer. */
  readonly fallback: WritePacing;
  readonly log: Logger;
}

/**
 * docs/replicas.md "Write pacing": one schedule per installation for the whole deployment.
 * Each write takes the next start of its installation's schedule in Redis, atomically (a
 * small script), then waits for it, so three replicas writing for one installation write as
 * one does: `writeMs` apart, and notifying writes `notifyingWriteMs` apart. Installations have
 * schedules of their own and never wait on each other. Starts are taken in the order writes
 * ask (the plugin's priorities do not reorder across replicas). While Redis cannot answer,
 * writes are paced by `fallback`, this process's own schedule, and the switch is logged once.
 */
export function sharedWritePacing(options: SharedWritePacingOptions): WritePacing {
  const writeMs = options.writeMs ?? settingDefault('CLAIMS_WRITE_PACING_MS');
  const notice = fallbackNotice(options.log, `${options.prefix}pacing`);
  const group = (name: string, spacingMs: number, local: PacedGroup): PacedGroup => ({
    key(id) {
      return {
        async schedule(jobOptions, job) {
          let waitMs: number;
          try {
            const redis = await within(options.redis(), PACING_TIMEOUT_MS);
            const now = options.clock ? String(Math.round(options.clock.now())) : '';
            const answer = NEXT_START.run(
              redis,
              [`${options.prefix}pacing:${name}:${id}`],
              [spacingMs, now],
            );
            waitMs = Number(await within(answer, PACING_TIMEOUT_MS));
            notice.answered();
          } catch (error) {
            notice.failed(error);
            return local.key(id).schedule(jobOptions, job);
          }
          if (waitMs > 0) await (options.clock ?? REAL_TIME).wait(waitMs);
          return job();
        },
      };
    },
  });
  return {
    write: group('write', writeMs, options.fallback.write),
    notifications: group(
      'notify',
      options.notifyingWriteMs ?? 3 * writeMs,
      options.fallback.notifications,
    ),
  };
}
