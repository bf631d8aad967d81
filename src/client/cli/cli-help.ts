import { EXIT_CODES } from '../core/exit-codes.js';
import { agentsGuide } from './agents-guide.js';
import { SPECS } from './cli-specs.js';

/** The `--token` line both helps print. */
const TOKEN_OPTION =
  '  --token T            GitHub token (default: GITHUB_TOKEN, then `gh auth token`)';

/** `claim-warden --help`: every command, the options, the environment, the exit codes. */
export function help(): string {
  const codes = Object.entries(EXIT_CODES)
    .map(([status, code]) => `  ${code}  ${status}`)
    .join('\n');
  return [
    'claim-warden: claim, update and release GitHub issues (the Praetor claim protocol)',
    '',
    'Usage:',
    ...SPECS.map((spec) => `  claim-warden ${spec.usage}`),
    '  claim-warden mcp            serve the same operations as MCP tools on stdio',
    '',
    'Options for every command:',
    '  --json               print one JSON object instead of text',
    TOKEN_OPTION,
    '  --stale-after D      stale window when the repository sets none (10m..720h, default 6h)',
    '',
    ...ENVIRONMENT,
    '',
    'Exit codes:',
    codes,
    '',
    guideLine(),
  ].join('\n');
}

const ENVIRONMENT = [
  'Environment: GITHUB_TOKEN, GITHUB_API_URL (GitHub Enterprise: https://<host>/api/v3),',
  'XDG_CONFIG_HOME or CLAIM_WARDEN_CONFIG_DIR (identity key and private-names.txt),',
  'CLAIM_WARDEN_URL (the claims app’s base URL: claim, status and release ask it first;',
  'list, paths check and release --all need it).',
];

/** Where the guide is: this copy's docs/agents.md (an installed package ships it). */
function guideLine(): string {
  const guide = agentsGuide();
  return guide
    ? `Guide for agents: ${guide}`
    : 'Guide for agents: docs/agents.md in the claim-warden repository';
}

/** `claim-warden mcp --help`: the tools it serves and what it reads. */
export function mcpHelp(): string {
  const width = Math.max(...SPECS.map((spec) => spec.command.tool.length));
  return [
    'Usage: claim-warden mcp [--token T] [--stale-after D]',
    'Serves the claim operations as MCP tools on stdio (stdout carries the protocol).',
    '',
    'Tools:',
    ...SPECS.map(
      (spec) =>
        `  ${spec.command.tool.padEnd(width)}  ${spec.command.title}${spec.command.readOnly ? ' (read-only)' : ''}`,
    ),
    '',
    'Options:',
    TOKEN_OPTION,
    '  --stale-after D      stale window for calls that name none (10m..720h, default 6h)',
    '',
    ...ENVIRONMENT,
    '',
    guideLine(),
  ].join('\n');
}
