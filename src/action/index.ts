// The Action's entry (action.yml `main` runs its bundle). As in GitHub's action templates, it
// only calls run() from main.ts, so `npx @github/local-action run . src/action/main.ts .env`
// can import main.ts and call run() itself (see "Debug the Action locally" in README.md).
import { run } from './main.js';

await run();
