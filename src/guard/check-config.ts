import { markdownCode } from '../claims/markdown-code.js';
import { REPO_CONFIG_PATH, type RepoConfigResult } from '../config/repo-config.js';
import type { CheckOutcome } from '../github/check-run.js';
import { executePlan } from '../github/execute.js';
import { rolloutOf } from '../github/rollout-of.js';
import type { RepoKey } from '../keys.js';
import type { GuardDeps } from './guard-deps.js';

/** The name of the config check run (docs/protocol.md §11). */
const CONFIG_CHECK_NAME = 'claim-warden/config';

/**
 * Puts a repository's config errors where maintainers look: a push to the default branch
 * that changed `.github/claims.yml` gets a `claim-warden/config` check run on its commit,
 * `failure` listing each bad field and what it should hold, `success` when the file is valid
 * (or gone: the defaults apply). The caller dropped the cached config first, so this reads
 * the pushed file. A GitHub failure reading it throws: no verdict on a file not read.
 * A valid file's rollout keys hold (docs/protocol.md §11), applied by the executor:
 * `enabled: false` writes nothing, `mode: observe` logs the check run and sends none. An
 * invalid file's keys are not trusted, so its failure is reported: it is what the
 * maintainers must fix.
 */
export async function checkConfig(
  deps: GuardDeps,
  repo: RepoKey,
  sha: string,
): Promise<'checked' | 'observed' | 'disabled'> {
  const octokit = await deps.octokitFor(repo.installationId);
  const result = await deps.configOf(octokit, repo);
  const outcome = configOutcome(result);
  if (outcome === null) {
    throw new Error(`${REPO_CONFIG_PATH} could not be read`, {
      cause: result.kind === 'unreadable' ? result.error : undefined,
    });
  }
  const config = result.kind === 'loaded' || result.kind === 'absent' ? result.config : null;
  const done = await executePlan(
    octokit,
    { ...repo, number: 0 },
    { actions: [{ kind: 'check-run', name: CONFIG_CHECK_NAME, sha, outcome }] },
    {
      knownLabels: deps.knownLabels,
      appLogin: deps.appLogin,
      ...(config ? { rollout: rolloutOf(config, deps) } : {}),
    },
  );
  if (done.outcome !== 'sent') return done.outcome;
  deps.log.info(
    {
      repo: `${repo.owner}/${repo.repo}`,
      sha,
      conclusion: outcome.conclusion,
      write: done.checkRuns[0],
    },
    'config checked',
  );
  return 'checked';
}

/** The check a config outcome comes to; null when GitHub failed to give the file. */
function configOutcome(result: RepoConfigResult): CheckOutcome | null {
  switch (result.kind) {
    case 'absent':
      return {
        conclusion: 'success',
        title: `No ${REPO_CONFIG_PATH}: the defaults apply`,
        summary: `The repository has no \`${REPO_CONFIG_PATH}\`; claim-warden uses its defaults.`,
      };
    case 'loaded':
      return {
        conclusion: 'success',
        title: `${REPO_CONFIG_PATH} is valid`,
        summary: `Read from ${result.sources.map((s) => markdownCode(s)).join(', ')}.`,
      };
    case 'invalid':
      return failure(result.error.split('; '));
    case 'unreadable': {
      // A YAML syntax error is the file's fault (no `status`); a GitHub failure is not.
      const fromGitHub = typeof (result.error as { status?: unknown })?.status === 'number';
      return fromGitHub ? null : failure([result.message]);
    }
  }
}

function failure(problems: readonly string[]): CheckOutcome {
  const count = problems.length;
  return {
    conclusion: 'failure',
    title: `${REPO_CONFIG_PATH} has ${count} ${count === 1 ? 'problem' : 'problems'}`,
    summary: [
      `claim-warden writes nothing on this repository until \`${REPO_CONFIG_PATH}\` is fixed:`,
      '',
      ...problems.map((p) => `- ${p}`),
    ].join('\n'),
  };
}
