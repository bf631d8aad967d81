import { visibleLines } from './visible-lines.js';

/** What a command asks (docs/protocol.md §16); `/unclaim` is `release`. */
export type CommandVerb = 'claim' | 'release' | 'pin' | 'unpin';

/** One command of a comment; `target` is the `@login` of `/claim @login` and `/release @login`. */
export interface Command {
  readonly verb: CommandVerb;
  readonly target?: string;
}

const VERBS: Readonly<Record<string, CommandVerb>> = {
  claim: 'claim',
  release: 'release',
  unclaim: 'release',
  pin: 'pin',
  unpin: 'unpin',
};

const LOGIN = '[a-z\\d](?:[a-z\\d]|-(?=[a-z\\d])){0,38}';

/**
 * The command of a comment body: its first line that is nothing but a command, case
 * insensitive, written `/claim` or `@<slug> claim` (or `@<slug> /claim`), outside code,
 * quotes and HTML comments. Only `claim` and `release` take a `@login`. Null: no command.
 */
export function parseCommand(body: string, slug: string): Command | null {
  const prefix = `(?:@${escapeRegExp(slug)}\\s+\\/?|\\/)`;
  const pattern = new RegExp(
    `^\\s*${prefix}(claim|release|unclaim|pin|unpin)(?:\\s+@(${LOGIN}))?\\s*$`,
    'i',
  );
  for (const line of visibleLines(body)) {
    const match = pattern.exec(line);
    if (match === null) continue;
    const verb = VERBS[match[1]!.toLowerCase()]!;
    const target = match[2];
    if (target === undefined) return { verb };
    if (verb === 'claim' || verb === 'release') return { verb, target };
  }
  return null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
