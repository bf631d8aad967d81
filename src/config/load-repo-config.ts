import { parseRepoConfig } from './parse-repo-config.js';
import { REPO_CONFIG_PATH, type RepoConfigDefaults, type RepoConfigResult } from './repo-config.js';
import { resolveRepoConfig } from './resolve-repo-config.js';

/** The smallest part of the octokit API that loadRepoConfig needs (Probot's config plugin). */
interface ConfigReader {
  config: {
    get(options: { owner: string; repo: string; path: string }): Promise<{
      config: Record<string, unknown>;
      files: ReadonlyArray<{
        owner: string;
        repo: string;
        path: string;
        url: string;
        config: Record<string, unknown> | null;
      }>;
    }>;
  };
}

// @probot/octokit-plugin-config (dist-src/util/get-config-file.js) turns a 404 into
// `config: null` and throws everything else: octokit's RequestError (with `status`) for other
// GitHub failures, and plain Errors prefixed with this tag for content it cannot use.
const PLUGIN_TAG = '[@probot/octokit-plugin-config] ';

/**
 * Loads `.github/claims.yml` for one repository through Probot's config plugin
 * (`octokit.config.get`), which falls back to the org's `.github` repository when the
 * repository has no file and follows `_extends` (merging shallowly), and validates it.
 */
export async function loadRepoConfig(
  octokit: ConfigReader,
  where: { owner: string; repo: string },
  defaults: RepoConfigDefaults,
): Promise<RepoConfigResult> {
  let result: Awaited<ReturnType<ConfigReader['config']['get']>>;
  try {
    result = await octokit.config.get({ ...where, path: REPO_CONFIG_PATH });
  } catch (error) {
    return classifyLoadError(error);
  }
  const found = result.files.filter((file) => file.config !== null);
  if (found.length === 0) {
    return { kind: 'absent', config: resolveRepoConfig({}, defaults) };
  }
  const sources = found.map((file) => `${file.owner}/${file.repo}:${file.path}`);
  const parsed = parseRepoConfig(result.config, defaults);
  return parsed.ok
    ? { kind: 'loaded', config: parsed.config, sources }
    : { kind: 'invalid', error: parsed.error, sources };
}

/** Sorts a failed load into unreadable (retry later) or invalid (the file must change). */
function classifyLoadError(error: unknown): RepoConfigResult {
  const message = error instanceof Error ? error.message : String(error);
  const isGitHubError = typeof (error as { status?: unknown })?.status === 'number';
  if (!isGitHubError && message.startsWith(PLUGIN_TAG)) {
    const text = message.slice(PLUGIN_TAG.length);
    if (/\(invalid YAML\)$/.test(text)) {
      // A syntax error: the plugin keeps yaml's own message, with line and column, as cause.
      const cause = (error as Error).cause;
      const detail =
        cause instanceof Error ? `: ${cause.message.split('\n')[0]?.replace(/:$/, '')}` : '';
      return { kind: 'unreadable', error, message: `${text}${detail}` };
    }
    // Not a mapping, a bad or circular `_extends`, a directory in place of the file: the
    // content is wrong and will stay wrong until someone changes it.
    return { kind: 'invalid', error: text, sources: [] };
  }
  return { kind: 'unreadable', error, message };
}
