import { redisProblems } from './redis-settings.js';
import { settingDocs } from './setting-doc.js';
import { Settings, SettingsEnv } from './settings.js';
import { SettingsError, type SettingsProblem } from './settings-error.js';

/**
 * Reads and checks the operator's settings (docs/protocol.md §7) from `env`, once, at start-up. Throws a
 * SettingsError naming every bad variable and what it should hold, without quoting secrets.
 * `PRIVATE_KEY` wins over `PRIVATE_KEY_PATH` when both are set, as in Probot.
 */
export function readSettings(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Settings {
  const input: Record<string, string> = {};
  for (const name of Object.keys(SettingsEnv.shape)) {
    const value = env[name];
    if (value !== undefined && value !== '') input[name] = value;
  }
  // Probot ignores the path when PRIVATE_KEY is set; so do we, rather than fail on a file
  // that would never be read.
  if (input.PRIVATE_KEY !== undefined) delete input.PRIVATE_KEY_PATH;

  const problems: SettingsProblem[] = [];
  const parsed = Settings.safeParse(input);
  if (!parsed.success) {
    const named = new Set<string>();
    for (const issue of parsed.error.issues) {
      const variable = String(issue.path[0] ?? '(environment)');
      if (named.has(variable)) continue;
      named.add(variable);
      const together = issue.code === 'custom' && issue.params?.together === true;
      const value = together ? undefined : input[variable];
      problems.push({ variable, message: withValue(variable, issue.message, value) });
    }
  }
  problems.push(...redisProblems(new Set(Object.keys(input))));
  if (input.PRIVATE_KEY === undefined && input.PRIVATE_KEY_PATH === undefined) {
    problems.push({
      variable: 'PRIVATE_KEY',
      message:
        "is required: the GitHub App's private key (PEM), or set PRIVATE_KEY_PATH to the file that holds it",
    });
  }
  // docs/protocol.md §13: events are signed, so a receiver can tell them from anyone's POST.
  if (input.CLAIMS_EVENTS_URL !== undefined && input.CLAIMS_EVENTS_SECRET === undefined) {
    problems.push({
      variable: 'CLAIMS_EVENTS_SECRET',
      message:
        'is required when CLAIMS_EVENTS_URL is set: the secret that signs each event (X-Claims-Signature-256), shared with the receiver',
    });
  }
  // A secret with nothing to sign is a setting that silently does nothing: say so.
  if (input.CLAIMS_EVENTS_SECRET !== undefined && input.CLAIMS_EVENTS_URL === undefined) {
    problems.push({
      variable: 'CLAIMS_EVENTS_URL',
      message:
        'is required when CLAIMS_EVENTS_SECRET is set: the http(s) URL that receives the signed claim events (or unset CLAIMS_EVENTS_SECRET to send none)',
    });
  }
  // The board's sign-in needs both halves of the OAuth credentials (docs/protocol.md §14).
  for (const [present, missing] of [
    ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
    ['GITHUB_CLIENT_SECRET', 'GITHUB_CLIENT_ID'],
  ] as const) {
    if (input[present] !== undefined && input[missing] === undefined) {
      problems.push({
        variable: missing,
        message: `is required with ${present}: the GitHub App's OAuth ${missing.endsWith('ID') ? 'client ID' : 'client secret'} from its settings page (or unset both to turn the claims board off)`,
      });
    }
  }
  if (!parsed.success || problems.length > 0) {
    throw new SettingsError(problems);
  }

  return parsed.data;
}

/** Adds `(got "...")` to a problem, except for secret variables, whose values are never shown. */
function withValue(variable: string, message: string, value: string | undefined): string {
  // Values that may hold secrets are never quoted (docs/protocol.md §6); a Redis URL can carry
  // a password (`redis://:secret@host`), so it is one.
  const doc = settingDocs.get(SettingsEnv.shape[variable as keyof typeof SettingsEnv.shape]);
  if (value === undefined || doc?.secret) return message;
  // A URL's user name, password and query may be credentials: shown as `***`.
  const quoted = doc?.url
    ? value.replace(/\/\/[^/?#]*@/, '//***@').replace(/[?#].*$/s, '?***')
    : value;
  const shown = quoted.length > 60 ? `${quoted.slice(0, 60)}…` : quoted;
  return `${message} (got ${JSON.stringify(shown)})`;
}
