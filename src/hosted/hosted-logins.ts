/**
 * The hosted agents a repository lists by default (docs/protocol.md §18): GitHub's Copilot
 * coding agent (assigned as `Copilot`, acting as `copilot-swe-agent[bot]`), Claude's and
 * Codex's GitHub integrations.
 */
export const DEFAULT_HOSTED_AGENTS: readonly string[] = [
  'Copilot',
  'copilot-swe-agent',
  'claude',
  'chatgpt-codex-connector',
];

/** A login without its `[bot]` suffix, lowercased: how hosted agents are matched. */
function bare(login: string): string {
  return login.toLowerCase().replace(/\[bot\]$/, '');
}

/** Whether `login` is one of `hosted`, without regard to case or a `[bot]` suffix. */
export function isHostedLogin(login: string, hosted: readonly string[]): boolean {
  const name = bare(login);
  return name !== '' && hosted.some((listed) => bare(listed) === name);
}
