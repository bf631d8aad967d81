/** The runner's variables and the Action's inputs, read once (docs/protocol.md §15). */
import { describe, expect, it } from 'vitest';
import { ActionEnvError, readActionEnv } from '../../src/action/action-env.js';

const runner = {
  GITHUB_EVENT_NAME: 'issue_comment',
  GITHUB_EVENT_PATH: '/home/runner/work/_temp/_github_workflow/event.json',
  GITHUB_REPOSITORY: 'acme/widgets',
  GITHUB_API_URL: 'https://api.github.com',
  'INPUT_GITHUB-TOKEN': 'ghs_workflowtoken0001',
  'INPUT_STALE-AFTER': '6h',
};

function errorOf(env: Record<string, string | undefined>): string {
  try {
    readActionEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ActionEnvError);
    return (error as Error).message;
  }
  throw new Error('the environment was accepted');
}

describe('readActionEnv', () => {
  it('reads what the runner sets for one run', () => {
    expect(readActionEnv(runner)).toEqual({
      eventName: 'issue_comment',
      eventPath: runner.GITHUB_EVENT_PATH,
      owner: 'acme',
      repo: 'widgets',
      apiUrl: 'https://api.github.com',
      token: 'ghs_workflowtoken0001',
      staleAfterMs: 6 * 3_600_000,
      debug: false,
    });
  });

  it.each([
    [{ 'INPUT_GITHUB-TOKEN': undefined, GITHUB_TOKEN: 'ghs_env' }, { token: 'ghs_env' }],
    [{ 'INPUT_STALE-AFTER': '' }, { staleAfterMs: 6 * 3_600_000 }],
    [{ 'INPUT_STALE-AFTER': '90m' }, { staleAfterMs: 90 * 60_000 }],
    [
      { GITHUB_API_URL: 'https://ghe.example.com/api/v3/' },
      { apiUrl: 'https://ghe.example.com/api/v3' },
    ],
    [{ RUNNER_DEBUG: '1' }, { debug: true }],
  ])('with %j reads %j', (overrides, expected) => {
    expect(readActionEnv({ ...runner, ...overrides })).toMatchObject(expected);
  });

  it('names every bad input and variable at once, never quoting the token', () => {
    const message = errorOf({
      ...runner,
      GITHUB_REPOSITORY: 'widgets',
      'INPUT_STALE-AFTER': '5m',
      GITHUB_API_URL: 'api.github.com',
    });
    expect(message).toBe(
      'claim-warden cannot run: GITHUB_REPOSITORY: must be owner/name; GITHUB_API_URL: must be the REST API URL, such as https://api.github.com; input stale-after: must be a duration between 10m and 720h, such as 6h',
    );
    expect(message).not.toContain('ghs_');
  });

  it('without a token says how to give it one', () => {
    expect(errorOf({ ...runner, 'INPUT_GITHUB-TOKEN': undefined })).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the workflow expression it quotes
      'input github-token: is required: leave it at its default ${{ github.token }}',
    );
  });
});
