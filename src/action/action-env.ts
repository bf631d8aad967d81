import { z } from 'zod';
import { durationSchema } from '../config/duration.js';
import { parseRepoName } from '../repo-names.js';

/** What the Actions runner tells one run of the Action, read once from its environment. */
interface ActionEnv {
  /** `GITHUB_EVENT_NAME`: `issue_comment`, `issues`, `schedule`, `workflow_dispatch`, ... */
  readonly eventName: string;
  /** `GITHUB_EVENT_PATH`: the file holding the event's webhook payload. */
  readonly eventPath: string;
  /** `GITHUB_REPOSITORY`, split. */
  readonly owner: string;
  readonly repo: string;
  /** `GITHUB_API_URL` (GitHub Enterprise Server: `https://HOST/api/v3`). */
  readonly apiUrl: string;
  /** Input `github-token`, else `GITHUB_TOKEN`. A secret: never logged. */
  readonly token: string;
  /** Input `stale-after`: the stale window where claims.yml sets none (docs/protocol.md §3). */
  readonly staleAfterMs: number;
  /** `RUNNER_DEBUG=1` (a re-run with debug logging) turns on debug logs. */
  readonly debug: boolean;
}

/** Thrown when the runner's environment or an input is wrong; names every bad one. */
export class ActionEnvError extends Error {
  override readonly name = 'ActionEnvError';
}

// The runner passes input `stale-after` as `INPUT_STALE-AFTER` (upper case, hyphens kept).
const ActionVariables = z.object({
  GITHUB_EVENT_NAME: z.string({ error: 'is required: the runner sets it for every run' }),
  GITHUB_EVENT_PATH: z.string({ error: 'is required: the runner sets it for every run' }),
  GITHUB_REPOSITORY: z
    .string({ error: 'is required: the runner sets it for every run' })
    .transform((text, ctx) => {
      const name = parseRepoName(text);
      if (name === null) ctx.addIssue({ code: 'custom', message: 'must be owner/name' });
      return name ?? z.NEVER;
    }),
  GITHUB_API_URL: z
    .url({
      protocol: /^https?$/,
      error: 'must be the REST API URL, such as https://api.github.com',
    })
    .default('https://api.github.com'),
  'INPUT_GITHUB-TOKEN': z.string().optional(),
  GITHUB_TOKEN: z.string().optional(),
  'INPUT_STALE-AFTER': durationSchema('10m', '720h', '6h').default(6 * 3_600_000),
});

/** Names a variable the way a workflow author sets it. */
function shownName(variable: string): string {
  return variable.startsWith('INPUT_') ? `input ${variable.slice(6).toLowerCase()}` : variable;
}

/**
 * Reads the runner's variables and the Action's inputs (`INPUT_*`). Throws ActionEnvError
 * naming every bad or missing one and what it must hold; token values are never quoted.
 */
export function readActionEnv(env: Readonly<Record<string, string | undefined>>): ActionEnv {
  const input: Record<string, string> = {};
  for (const name of Object.keys(ActionVariables.shape)) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') input[name] = value;
  }
  const parsed = ActionVariables.safeParse(input);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((i) => `${shownName(String(i.path[0]))}: ${i.message}`);
  const token = input['INPUT_GITHUB-TOKEN'] ?? input.GITHUB_TOKEN;
  if (token === undefined) {
    problems.push(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, quoted for the user
      'input github-token: is required: leave it at its default ${{ github.token }}, or pass a token with issues: write',
    );
  }
  if (!parsed.success || token === undefined) {
    throw new ActionEnvError(`claim-warden cannot run: ${problems.join('; ')}`);
  }
  const v = parsed.data;
  const { owner, repo } = v.GITHUB_REPOSITORY;
  return {
    eventName: v.GITHUB_EVENT_NAME,
    eventPath: v.GITHUB_EVENT_PATH,
    owner,
    repo,
    apiUrl: v.GITHUB_API_URL.replace(/\/+$/, ''),
    token,
    staleAfterMs: v['INPUT_STALE-AFTER'],
    debug: env.RUNNER_DEBUG === '1',
  };
}
