import type { DecideConfig, PeopleConfig } from '../../src/claims/decide-config.js';
import type { IssueFacts } from '../../src/claims/issue-facts.js';
import type { AssignmentEvent, PeopleFacts, Role } from '../../src/claims/people-facts.js';
import type { Action, Plan } from '../../src/claims/plan.js';
import type { Hint, ThreadComment } from '../../src/claims/types.js';
import { APP_LOGIN, DEFAULT_CONFIG, facts, NOW } from '../helpers/thread-builder.js';

export const DAY = 86_400_000;

export const PEOPLE: PeopleConfig = {
  who: 'collaborators',
  labels: [],
  maxClaims: 0,
  staleAfterMs: 14 * DAY,
  remindAfterMs: 10 * DAY,
  expire: 'commands',
  handover: 'maintain',
  pinnedLabel: 'claim:pinned',
};

/** The operator defaults with people's claims on, as a repository without a `people:` block. */
export function config(
  people: Partial<PeopleConfig> = {},
  rest: Partial<DecideConfig> = {},
): DecideConfig {
  return { ...DEFAULT_CONFIG, ...rest, people: { ...PEOPLE, ...people } };
}

/** A comment by a person, `agoMs` before NOW. */
export function said(id: number, body: string, by = 'bob', agoMs = 0): ThreadComment {
  const at = new Date(NOW.getTime() - agoMs);
  return { id, author: by, authorAssociation: 'CONTRIBUTOR', body, createdAt: at, updatedAt: at };
}

export function assigned(login: string, actor: string, agoMs: number): AssignmentEvent {
  return { event: 'assigned', login, actor, at: new Date(NOW.getTime() - agoMs) };
}

export interface IssueSpec extends Partial<Omit<IssueFacts, 'people' | 'hints'>> {
  readonly hints?: Hint[];
  readonly people?: Partial<PeopleFacts>;
  readonly roles?: Record<string, Role>;
}

/** An open issue with people's facts; every login is a reader unless `roles` says otherwise. */
export function issue(spec: IssueSpec = {}): IssueFacts {
  const { people, roles, ...rest } = spec;
  return facts({
    ...rest,
    people: {
      timeline: [],
      pulls: [],
      roles: new Map(
        Object.entries(roles ?? {}).map(([login, role]) => [login.toLowerCase(), role]),
      ),
      members: new Set(),
      heldElsewhere: new Map(),
      reacted: new Set(),
      appSlug: 'claim-warden',
      issue: 'acme/widgets#12',
      issueUrl: 'https://github.com/acme/widgets/issues/12',
      createdAt: new Date(NOW.getTime() - 60 * DAY),
      ...people,
    },
  });
}

export function kinds(plan: Plan): string[] {
  return plan.actions.map((a) => describe(a));
}

function describe(action: Action): string {
  switch (action.kind) {
    case 'finalise':
      return `finalise ${action.commentId} ${action.reason} ${action.outcome}`;
    case 'add-label':
    case 'remove-label':
      return `${action.kind} ${action.label}`;
    case 'assign':
    case 'unassign':
      return `${action.kind} ${action.login}`;
    case 'react':
      return `react ${action.commentId}`;
    case 'post-note':
      return `note ${action.body.split('\n')[0]}`;
    default:
      return action.kind;
  }
}

/** The text of the notes the plan posts, without their tag lines. */
export function noteTexts(plan: Plan): string[] {
  return plan.actions.flatMap((a) =>
    a.kind === 'post-note' ? [a.body.split('\n').slice(1).join('\n')] : [],
  );
}

export { APP_LOGIN, NOW };
