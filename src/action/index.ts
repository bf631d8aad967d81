// The Action's entry (action.yml `main` runs its bundle). As in GitHub's action templates, it
// only calls run() from main.ts, so @github/local-action can import main.ts and call run()
// itself (scripts/local-action.ts does, against the fake GitHub).
import { run } from './main.js';

await run();
