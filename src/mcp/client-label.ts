/**
 * `initialize`'s `clientInfo.name` folded to the `client` grammar of docs/protocol.md §8 (1 to
 * 64 of `A-Za-z0-9._-`): every run of other characters becomes one `-`, the ends are trimmed,
 * and the rest cut at 64. "Claude Code" is `Claude-Code`; a name with nothing usable is none.
 * Display metadata only: it never grants anything.
 */
export function clientLabel(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const folded = name
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return folded === '' ? undefined : folded;
}
