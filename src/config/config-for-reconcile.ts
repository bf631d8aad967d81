import type { RepoConfigResult, ResolvedRepoConfig } from './repo-config.js';

/**
 * The reconcile's reading of a config outcome (docs/protocol.md §6): the config to decide
 * with, or the error that stops every write on the repository. Unreadable throws, so the
 * reconcile is unverifiable and retried (fail closed).
 */
export function configForReconcile(
  result: RepoConfigResult,
):
  | { readonly ok: true; readonly config: ResolvedRepoConfig }
  | { readonly ok: false; readonly error: string } {
  switch (result.kind) {
    case 'absent':
    case 'loaded':
      return { ok: true, config: result.config };
    case 'invalid':
      return { ok: false, error: result.error };
    case 'unreadable':
      throw new Error(`repository config unreadable: ${result.message}`, { cause: result.error });
  }
}
