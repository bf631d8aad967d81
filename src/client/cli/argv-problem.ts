/**
 * What was wrong with a command line, in the client's words: node's util.parseArgs says
 * "Unknown option '--stag'. To specify a positional argument starting with a '-', place it at
 * the end of the command after '--', as in '-- "--stag"' (its quote unbalanced), which tells a
 * person nothing they can act on. Each parse error becomes one short sentence, with the
 * nearest known option when a flag was mistyped.
 */
export function argvProblem(error: unknown, known: readonly string[]): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  const flag = /'(-{1,2}[^' <]+)/.exec(text)?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      if (flag === undefined) break;
      const near = nearest(flag.replace(/^-+/, ''), known);
      return `unknown option ${flag}${near === undefined ? '' : ` (did you mean --${near}?)`}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (flag === undefined) break;
      return /argument missing/.test(text)
        ? `${flag} needs a value`
        : `${flag} takes no value (write ${flag} alone)`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const word = /Unexpected argument '([^']*)'/.exec(text)?.[1];
      if (word !== undefined) return `unexpected argument ${JSON.stringify(word)}`;
      break;
    }
  }
  return text;
}

/** The known option closest to `typed`: a prefix of it, or at most two edits away. */
function nearest(typed: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = name.startsWith(typed) || typed.startsWith(name) ? 1 : edits(typed, name);
    if (distance <= 2 && (best === undefined || distance < best.distance))
      best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance. */
function edits(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      next[j] = Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + cost);
    }
    row = next;
  }
  return row[b.length] ?? 0;
}
