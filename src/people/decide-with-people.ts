import { decide } from '../claims/decide.js';
import type { DecideConfig } from '../claims/decide-config.js';
import type { IssueFacts } from '../claims/issue-facts.js';
import type { Plan } from '../claims/plan.js';
import { expireAndRemind } from './person-liveness.js';
import { planOfRun } from './plan-of-run.js';
import { runCommand } from './run-command.js';
import { startRun } from './start-run.js';
import { isRunnable } from './thread-commands.js';
import { serveWaitlist } from './waitlist.js';

/**
 * Decides one issue with people's claims (docs/protocol.md §16) and agents' alike. Pure. With
 * `facts.people` or `config.people` absent it is decide() exactly (part two). Otherwise:
 * people's stale claims expire and quiet ones are reminded, the waitlist is served if the
 * issue is free, then each pending command (never an edited one) runs, oldest first, on the state the earlier ones
 * left, the waitlist served again whenever the issue frees.
 */
export function decideWithPeople(facts: IssueFacts, config: DecideConfig, now: Date): Plan {
  const { people } = facts;
  const rules = config.people;
  if (people === undefined || rules === undefined || facts.isPullRequest) {
    return decide(facts, config, now);
  }
  const run = startRun(facts, people, config, rules, now);
  expireAndRemind(run);
  serveWaitlist(run);
  for (const command of run.commands.filter(isRunnable)) {
    runCommand(run, command);
    serveWaitlist(run);
  }
  return planOfRun(run);
}
