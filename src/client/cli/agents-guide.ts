import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where this copy of claim-warden keeps docs/agents.md (package.json `files` ships it), found
 * by walking up from this file to claim-warden's package.json: a checkout runs from
 * `src/client/cli/`, an installed package from `dist/src/client/cli/` under its
 * node_modules folder. Undefined when the guide is not there.
 */
export function agentsGuide(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 7; depth += 1) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'claim-warden') {
        const guide = join(dir, 'docs', 'agents.md');
        return existsSync(guide) ? guide : undefined;
      }
    } catch {
      // No package.json at this level: keep walking up.
    }
    dir = dirname(dir);
  }
  return undefined;
}
