import type { Logger } from 'pino';
import type { Probot, ProbotOctokit } from 'probot';
import { InstallationOctokits } from '../github/octokit.js';
import type { WritePacing } from '../github/write-pacing.js';
import { traceCalls } from '../telemetry/trace-calls.js';
import { countCalls } from './count-calls.js';
import type { Metrics } from './metrics.js';

/** The app's GitHub clients: as the app itself (JWT) and per installation. */
export interface AppClients {
  /** The app's own login, `slug[bot]`. */
  readonly appLogin: string;
  readonly appOctokit: ProbotOctokit;
  /** The installation's octokit (cached), its calls counted in the metrics. */
  octokitFor(installationId: number): Promise<ProbotOctokit>;
  /** Drops the installation's octokit (the app was uninstalled or suspended). */
  forget(installationId: number): void;
}

/**
 * Authenticates as the app and learns its login; every client's calls are counted, and each
 * installation's writes are spaced by `pacing`.
 */
export async function connectApp(
  app: Probot,
  metrics: Metrics,
  log: Logger,
  pacing: WritePacing,
): Promise<AppClients> {
  const octokits = new InstallationOctokits(app, { pacing });
  const appOctokit = await app.auth();
  countCalls(appOctokit, metrics, log, 'app');
  traceCalls(appOctokit, 'app');
  // Own writes come back as webhooks; knowing our login lets them be dropped before any call.
  // No retries of its own: start-up (connectToGitHub) retries it with backoff and says so in
  // the log, where @octokit/plugin-retry's three silent attempts took 15 s per failure.
  const { data: self } = await appOctokit.rest.apps.getAuthenticated({ request: { retries: 0 } });
  return {
    appLogin: `${self?.slug ?? 'claim-warden'}[bot]`,
    appOctokit,
    async octokitFor(installationId) {
      const octokit = await octokits.get(installationId);
      countCalls(octokit, metrics, log, String(installationId));
      traceCalls(octokit, String(installationId));
      return octokit;
    },
    forget: (installationId) => octokits.forget(installationId),
  };
}
