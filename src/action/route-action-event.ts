import { routeEvent } from '../app/route-event.js';
import { sameName } from '../claims/names.js';
import type { ReconcileRequest } from '../queue/queue.js';

/** The login GitHub gives writes made with a workflow's `GITHUB_TOKEN`. */
export const ACTIONS_LOGIN = 'github-actions[bot]';

/**
 * The one "installation" of a run: the workflow's token reaches one repository, so issue keys
 * carry this placeholder where the app carries an installation id.
 */
export const ACTION_INSTALLATION_ID = 0;

/** What one workflow run is asked to do; derived from the event without any API call. */
type ActionRoute =
  | {
      readonly kind: 'issue';
      readonly request: ReconcileRequest;
      /** Relevant only if this is one of the repository's status labels. */
      readonly label?: string;
      /** Relevant only if this bot is one of the repository's trustedBots. */
      readonly bot?: string;
      /** Relevant only with people's claims on (docs/protocol.md §16). */
      readonly people?: true;
    }
  | { readonly kind: 'sweep' }
  | { readonly kind: 'ignore'; readonly why: string }
  | { readonly kind: 'malformed'; readonly problem: string };

/**
 * Routes the run's event (docs/protocol.md §15): `issue_comment` and `issues` reconcile the
 * triggering issue, through the app's own router so hints and guards are the same;
 * `schedule` and `workflow_dispatch` sweep the repository. The Action's own writes come back
 * as `github-actions[bot]` events and are dropped first, before any call.
 */
export function routeActionEvent(
  eventName: string,
  payload: unknown,
  repository: { owner: string; repo: string },
  now: Date,
): ActionRoute {
  const sender = (payload as { sender?: { login?: unknown } } | null)?.sender?.login;
  if (typeof sender === 'string' && sameName(sender, ACTIONS_LOGIN)) {
    return { kind: 'ignore', why: 'own write' };
  }
  if (eventName === 'schedule' || eventName === 'workflow_dispatch') return { kind: 'sweep' };
  if (eventName !== 'issue_comment' && eventName !== 'issues') {
    return { kind: 'ignore', why: `the ${eventName} event is not one the Action handles` };
  }
  // Workflow payloads carry no installation; the app's router wants one.
  const withInstallation = {
    ...(payload as object),
    installation: { id: ACTION_INSTALLATION_ID },
  };
  const route = routeEvent(
    { name: eventName, payload: withInstallation } as Parameters<typeof routeEvent>[0],
    ACTIONS_LOGIN,
    now,
  );
  switch (route.kind) {
    case 'malformed':
    case 'ignore':
      return route;
    case 'reconcile': {
      const { key } = route.request;
      // A transfer elsewhere: the token writes to this repository only.
      if (!sameName(`${key.owner}/${key.repo}`, `${repository.owner}/${repository.repo}`)) {
        return { kind: 'ignore', why: 'the issue moved to another repository' };
      }
      return {
        kind: 'issue',
        request: route.request,
        ...(route.label !== undefined ? { label: route.label } : {}),
        ...(route.bot !== undefined ? { bot: route.bot } : {}),
        ...(route.people ? { people: route.people } : {}),
      };
    }
    case 'forget':
      return { kind: 'ignore', why: 'the issue was deleted' };
    case 'resync':
    case 'uninstalled':
      return { kind: 'ignore', why: 'installation events do not reach workflows' };
    case 'guard':
      // Not reached: pull_request and push are refused above (the guard is the app's, §11).
      return { kind: 'ignore', why: 'the pull-request guard runs in the app only' };
  }
}
