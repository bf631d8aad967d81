/** One bad variable and what it should hold. */
export interface SettingsProblem {
  readonly variable: string;
  readonly message: string;
}

/**
 * Thrown by readSettings when any variable is bad (docs/protocol.md §6: the process refuses to start with
 * a message naming the variable). Lists every problem at once so one restart fixes them all;
 * secret values are never quoted.
 */
export class SettingsError extends Error {
  /** The problems, one per variable, in the order of the message. */
  readonly problems: readonly SettingsProblem[];

  constructor(problems: readonly SettingsProblem[]) {
    const lines = problems.map((p) => `  ${p.variable}: ${p.message}`);
    super(`claim-warden cannot start; fix these environment variables:\n${lines.join('\n')}`);
    this.name = 'SettingsError';
    this.problems = problems;
  }
}
