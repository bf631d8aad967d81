import { appendFileSync } from 'node:fs';
import { ActionEnvError } from './action-env.js';
import { type ActionRun, runAction } from './run-action.js';

/** Where the Action writes, as the runner reads it. */
interface ActionIo {
  /** The step's log; workflow commands such as `::error::` go here. */
  stdout(line: string): void;
  /** Appends to the file named by GITHUB_STEP_SUMMARY (Markdown shown on the run's page). */
  summary?(markdown: string): void;
}

/**
 * The Action's entry: one run, its problems printed as `::error::` workflow commands (the
 * runner shows them as annotations on the run), and the exit code the step ends with.
 */
async function main(
  env: Readonly<Record<string, string | undefined>>,
  io: ActionIo,
): Promise<number> {
  let run: ActionRun;
  try {
    run = await runAction(env);
  } catch (error) {
    const message =
      error instanceof ActionEnvError ? error.message : `claim-warden failed: ${String(error)}`;
    io.stdout(`::error title=claim-warden::${escapeCommand(message)}`);
    return 1;
  }
  for (const line of run.errors) io.stdout(`::error title=claim-warden::${escapeCommand(line)}`);
  io.stdout(`claim-warden: ${run.summary}`);
  io.summary?.(
    [`### claim-warden`, '', run.summary, ...run.errors.map((line) => `- ${line}`), ''].join('\n'),
  );
  return run.exitCode;
}

/** Workflow command data escapes `%`, CR and LF (actions/toolkit's escapeData). */
function escapeCommand(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * One run as the Actions runner starts it: the runner's variables and inputs from
 * `process.env`, the log on stdout, the summary appended to GITHUB_STEP_SUMMARY, and the
 * step's exit code in `process.exitCode`. The exported `run()` of GitHub's action templates,
 * which `@github/local-action` imports and calls; importing this module runs nothing.
 */
export async function run(): Promise<void> {
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  process.exitCode = await main(process.env, {
    stdout: (line) => process.stdout.write(`${line}\n`),
    ...(summaryFile
      ? { summary: (markdown: string) => appendFileSync(summaryFile, markdown) }
      : {}),
  });
}
