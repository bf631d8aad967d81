/**
 * GitHub's closing keywords (close, closes, closed, fix, fixes, fixed, resolve, resolves,
 * resolved), any case, an optional colon, then `#12` or `owner/repo#12`.
 */
const CLOSING =
  /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?[ \t]+(?:([A-Za-z\d][\w.-]*\/[\w.-]+))?#(\d+)\b/gi;

/**
 * The issue numbers of `repo` (`owner/name`) that a pull request's body links with a closing
 * keyword (docs/protocol.md §18): `Fixes #12`, `closes acme/widgets#12`; a link to another
 * repository's issue is not one of them. Distinct, in order of appearance.
 */
export function closingLinks(body: string, repo: string): number[] {
  const numbers: number[] = [];
  for (const match of body.matchAll(CLOSING)) {
    if (match[1] !== undefined && match[1].toLowerCase() !== repo.toLowerCase()) continue;
    const number = Number(match[2]);
    if (number > 0 && !numbers.includes(number)) numbers.push(number);
  }
  return numbers;
}
