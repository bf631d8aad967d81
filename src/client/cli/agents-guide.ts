import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ownPackage } from './own-package.js';

/**
 * Where this copy of claim-warden keeps docs/agents.md: the checkout's, or the copy the client
 * package ships (`<install folder>/docs/agents.md`). Undefined when the guide is not there.
 */
export function agentsGuide(): string | undefined {
  const own = ownPackage();
  if (!own) return undefined;
  const guide = join(own.dir, 'docs', 'agents.md');
  return existsSync(guide) ? guide : undefined;
}
