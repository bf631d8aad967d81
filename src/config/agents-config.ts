import { z } from 'zod';
import { DEFAULT_HOSTED_AGENTS } from '../hosted/hosted-logins.js';

// A bot's login as GitHub shows it: `Copilot`, `claude`, or an app's `slug[bot]`.
const BOT_LOGIN = /^[a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38}(?:\[bot\])?$/i;
const BOT_MESSAGE = 'must be a bot login such as "Copilot" or "claude[bot]" (no @, no spaces)';

/**
 * The `agents:` block of `.github/claims.yml` (docs/protocol.md §18): `hosted` lists the bot
 * logins that take issues without a marker. Strict, like the rest of the file.
 */
export const AgentsBlock = z.strictObject(
  {
    hosted: z
      .array(z.string({ error: BOT_MESSAGE }).regex(BOT_LOGIN, { error: BOT_MESSAGE }), {
        error: 'must be a list of bot logins such as ["Copilot", "claude"]; [] turns it off',
      })
      .optional(),
  },
  { error: 'must be a mapping with hosted' },
);

/** The hosted agents of a config as written: the default list when it names none. */
export function resolveHosted(agents: z.infer<typeof AgentsBlock> | undefined): readonly string[] {
  return agents?.hosted ?? DEFAULT_HOSTED_AGENTS;
}
