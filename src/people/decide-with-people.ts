import { decide } from '../claims/decide.js';
import type { DecideConfig, PeopleConfig } from '../claims/decide-config.js';
import type { IssueFacts } from '../claims/issue-facts.js';
import type { Plan } from '../claims/plan.js';
import { expireAndRemind } from './person-liveness.js';
import { planOfRun } from './plan-of-run.js';
import { runCommand } from './run-command.js';
import { startRun } from './start-run.js';
import { isRunnable } from './thread-commands.js';
import { serveWaitlist } from './waitlist.js';

/**
 * The rules of a run with people's claims off: only `handover` is read (a hosted agent's
 * assignment by a maintainer hands an agent's claim over); no person claim, pin nor command
 * runs (startRun), so the rest is never weighed.
 */
const HOSTED_ALONE: PeopleConfig = {
  who: 'collaborators',
  labels: [],
  maxClaims: 0,
  staleAfterMs: 14 * 24 * 3_600_000,
  remindAfterMs: 0,
  expire: 'never',
  handover: 'maintain',
  pinnedLabel: '',
};

/**
 * Decides one issue with people's claims (docs/protocol.md §16), hosted agents' (§18) and
 * agents' alike. Pure. With `facts.people` absent it is decide() exactly (part two); with
 * `config.people` absent, hosted agents' claims alone are weighed beside agents'. Otherwise:
 * people's stale claims expire and quiet ones are reminded, the waitlist is served if the
 * issue is free, then each pending command (never an edited one) runs, oldest first, on the state the earlier ones
 * left, the waitlist served again whenever the issue frees.
 */
export function decideWithPeople(facts: IssueFacts, config: DecideConfig, now: Date): Plan {
  const { people } = facts;
  if (people === undefined || facts.isPullRequest) return decide(facts, config, now);
  // docs/protocol.md §18 needs no §16: with people's claims off the run weighs hosted agents
  // alone, a maintainer's assignment handing over as by §16's default.
  const rules = config.people ?? HOSTED_ALONE;
  const run = startRun(facts, people, config, rules, now);
  expireAndRemind(run);
  serveWaitlist(run);
  for (const command of run.commands.filter(isRunnable)) {
    runCommand(run, command);
    serveWaitlist(run);
  }
  return planOfRun(run);
}
