import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Settings } from '../config/settings.js';
import type { BoardSessions } from '../store/board-sessions.js';
import type { BoardSource } from './board-source.js';

/** The settings the board reads. */
export type BoardSettings = Pick<
  Settings,
  'boardOAuth' | 'publicUrl' | 'sessionSecret' | 'gheHost' | 'gheProtocol' | 'githubBaseUrl'
> &
  Partial<Pick<Settings, 'trustProxy'>>;

/** What the board's HTTP routes need. */
export interface BoardDeps {
  readonly settings: BoardSettings;
  readonly source: BoardSource;
  /** The live sessions, shared by every replica: sign-out ends one for every cookie copy. */
  readonly sessions: BoardSessions;
  readonly log: Logger;
  readonly now?: () => Date;
  /** GitHub's HTTP client (tests and benchmarks pass their own). */
  readonly fetch?: typeof fetch;
}

/** A Probot `addHandler` handler: answers what it serves, false for every other path. */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
