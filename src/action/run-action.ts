import { readFileSync } from 'node:fs';
import { type Logger, pino } from 'pino';
import type { Action } from '../claims/plan.js';
import { concernsClaims } from '../config/concerns-claims.js';
import { loadRepoConfig } from '../config/load-repo-config.js';
import { statusOf } from '../github/errors.js';
import { KnownLabels } from '../github/execute.js';
import type { ReconcileRequest } from '../queue/queue.js';
import { reconcile } from '../reconcile/reconcile.js';
import { MemoryStore } from '../store/memory-store.js';
import { readActionEnv } from './action-env.js';
import { actionOctokit } from './action-octokit.js';
import { ACTION_INSTALLATION_ID, ACTIONS_LOGIN, routeActionEvent } from './route-action-event.js';
import { sweepRepository } from './sweep-repository.js';

/** How one run of the Action ended; `exitCode` 1 fails the workflow step. */
export interface ActionRun {
  readonly exitCode: 0 | 1;
  /** What the run did, or why it did nothing, for the step's log. */
  readonly summary: string;
  /** Why the step failed, one line per problem (each becomes an error annotation). */
  readonly errors: readonly string[];
  /** Issues reconciled to the end. */
  readonly reconciled: readonly number[];
  /** Writes sent, and writes that observe mode decided and did not send. */
  readonly writes: number;
  readonly observed: number;
}

/** What runAction takes besides the environment; tests pass their own clock and log. */
interface RunActionOptions {
  readonly now?: () => Date;
  readonly log?: Logger;
}

/**
 * One run of the Action (docs/protocol.md §15), on the app's core: route the event (the
 * Action's own writes cost no call), read `.github/claims.yml` through the contents API,
 * then reconcile the triggering issue, or sweep the repository on `schedule` and
 * `workflow_dispatch`. Fails closed like the app (docs/protocol.md §6): an unreadable
 * config, a failed listing or an unverifiable thread fails the step with the reason, and
 * nothing is written on an issue from partial facts. Throws ActionEnvError for a bad
 * environment or input.
 */
export async function runAction(
  env: Readonly<Record<string, string | undefined>>,
  options: RunActionOptions = {},
): Promise<ActionRun> {
  const settings = readActionEnv(env);
  const now = options.now ?? (() => new Date());
  const log =
    options.log ?? pino({ level: settings.debug ? 'debug' : 'info', name: 'claim-warden' });
  const where = { owner: settings.owner, repo: settings.repo };
  let writes = 0;
  let observed = 0;
  const done = (summary: string, reconciled: readonly number[] = []): ActionRun => ({
    exitCode: 0,
    summary,
    errors: [],
    reconciled,
    writes,
    observed,
  });
  const failed = (errors: readonly string[], reconciled: readonly number[] = []): ActionRun => ({
    exitCode: 1,
    summary: `failed: ${errors.length} problem(s)`,
    errors,
    reconciled,
    writes,
    observed,
  });

  let payload: unknown;
  try {
    payload = JSON.parse(readFileSync(settings.eventPath, 'utf8'));
  } catch (error) {
    return failed([`GITHUB_EVENT_PATH: the event payload could not be read (${reason(error)})`]);
  }
  const route = routeActionEvent(settings.eventName, payload, where, now());
  if (route.kind === 'ignore') return done(`nothing to do: ${route.why}`);
  if (route.kind === 'malformed') {
    return failed([`the ${settings.eventName} payload is not what GitHub sends: ${route.problem}`]);
  }

  const octokit = actionOctokit(settings.token, settings.apiUrl, log);
  const loaded = await loadRepoConfig(octokit, where, { staleAfterMs: settings.staleAfterMs });
  if (loaded.kind === 'unreadable') {
    return failed([`.github/claims.yml could not be read, so nothing was done: ${loaded.message}`]);
  }
  if (loaded.kind === 'invalid') {
    return failed([`.github/claims.yml is invalid, so nothing was written: ${loaded.error}`]);
  }
  const config = loaded.config;
  if (!config.enabled) return done('nothing to do: claims.yml says enabled: false');

  let requests: ReconcileRequest[];
  if (route.kind === 'issue') {
    // As the app does: label events matter only for status labels (and the pinned label),
    // a bot's marker only when the bot is trusted, assignments and commands only with people's
    // claims on; each is known from the config alone.
    if (!concernsClaims(config, route)) {
      return done(`nothing to do: ${notConcerning(route)}`);
    }
    requests = [route.request];
  } else {
    let numbers: number[];
    try {
      numbers = await sweepRepository(octokit, where, {
        staleAfterMs: config.staleAfterMs,
        labels: Object.values(config.labels),
        now: now(),
      });
    } catch (error) {
      return failed([`the sweep could not list the repository's claims: ${reason(error)}`]);
    }
    requests = numbers.map((number) => ({
      key: { installationId: ACTION_INSTALLATION_ID, ...where, number },
      hints: [],
      reason: settings.eventName,
    }));
  }

  const deps = {
    octokitFor: async () => octokit,
    configFor: async () => ({ ok: true as const, config }),
    store: new MemoryStore(),
    log,
    now,
    appLogin: ACTIONS_LOGIN,
    knownLabels: new KnownLabels(),
    onWrite: () => {
      writes += 1;
    },
    onObserve: (_action: Action) => {
      observed += 1;
    },
  };
  const reconciled: number[] = [];
  const errors: string[] = [];
  // One issue at a time: the token's writes are paced by GitHub anyway, and a failure on one
  // issue must not stop the others, which are verified on their own.
  for (const request of requests) {
    const { number } = request.key;
    try {
      await reconcile(deps, request);
      reconciled.push(number);
    } catch (error) {
      log.error(
        { issue: number, err: error },
        'issue not reconciled: nothing written from partial facts',
      );
      errors.push(
        `#${number} could not be verified, so nothing was written on it: ${reason(error)}`,
      );
    }
  }
  if (errors.length > 0) return failed(errors, reconciled);
  const mode = config.mode === 'observe' ? ` (observe mode: ${observed} writes not sent)` : '';
  return done(`reconciled ${reconciled.length} issue(s), ${writes} write(s)${mode}`, reconciled);
}

/** Why a route the config makes irrelevant was dropped, for the step's log. */
function notConcerning(route: { label?: string; bot?: string }): string {
  if (route.label !== undefined) return `${route.label} is not a status label`;
  if (route.bot !== undefined) return `${route.bot} is not in trustedBots`;
  return "people's claims are off (people.enabled: false)";
}

/** An error as one line: GitHub's status and message, never a token. */
function reason(error: unknown): string {
  const status = statusOf(error);
  const message = error instanceof Error ? error.message : String(error);
  const cause =
    error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${message}${cause}${status !== undefined && !message.includes(String(status)) ? ` (HTTP ${status})` : ''}`;
}
