import type { IssueFacts } from '../../src/claims/issue-facts.js';
import type { Plan } from '../../src/claims/plan.js';
import { APP_LOGIN } from '../helpers/thread-builder.js';

/**
 * GitHub after the plan's writes, as far as the pure tests need it: notes become the app's
 * comments, reactions the app's 👍, assignments timeline events by the app, labels and
 * finalisations what GitHub would show. Ids of new comments follow the thread's highest.
 */
export function applyPlan(facts: IssueFacts, plan: Plan, at: Date): IssueFacts {
  let comments = [...facts.comments];
  let assignees = [...facts.assignees];
  let labels = [...facts.labels];
  const people = facts.people;
  const timeline = [...(people?.timeline ?? [])];
  const reacted = new Set(people?.reacted ?? []);
  let next = Math.max(0, ...comments.map((c) => c.id)) + 1;
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  for (const action of plan.actions) {
    switch (action.kind) {
      case 'post-note':
        comments.push({
          id: next++,
          author: APP_LOGIN,
          authorAssociation: 'NONE',
          body: action.body,
          createdAt: at,
          updatedAt: at,
        });
        break;
      case 'react':
        reacted.add(action.commentId);
        break;
      case 'assign':
        if (!assignees.some((l) => same(l, action.login))) assignees.push(action.login);
        timeline.push({ event: 'assigned', login: action.login, actor: APP_LOGIN, at });
        break;
      case 'unassign':
        assignees = assignees.filter((l) => !same(l, action.login));
        timeline.push({ event: 'unassigned', login: action.login, actor: APP_LOGIN, at });
        break;
      case 'add-label':
        labels.push(action.label);
        break;
      case 'remove-label':
        labels = labels.filter((l) => !same(l, action.label));
        break;
      case 'finalise':
        comments = comments.map((c) =>
          c.id === action.commentId ? { ...c, body: action.body, updatedAt: at } : c,
        );
        break;
    }
  }
  return {
    ...facts,
    comments,
    assignees,
    labels,
    hints: [],
    ...(people ? { people: { ...people, timeline, reacted } } : {}),
  };
}
