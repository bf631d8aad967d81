// The Action's program (action.yml `main` runs its bundle): one run, then the step's exit code.
import { appendFileSync } from 'node:fs';
import { main } from './main.js';

const summaryFile = process.env.GITHUB_STEP_SUMMARY;
process.exitCode = await main(process.env, {
  stdout: (line) => process.stdout.write(`${line}\n`),
  ...(summaryFile ? { summary: (markdown: string) => appendFileSync(summaryFile, markdown) } : {}),
});
