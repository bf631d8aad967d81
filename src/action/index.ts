// The Action's program (action.yml `main` runs its bundle): one run, then the step's exit code.
import { main } from './main.js';

process.exitCode = await main(process.env, { stdout: (line) => process.stdout.write(`${line}\n`) });
