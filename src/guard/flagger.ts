/**
 * The tag the store keeps for the holder that flagged a pull request (docs/protocol.md §11):
 * its comment and its paths. A holder that changes its path line gets a new tag, so the pull
 * requests it flagged are checked again, as when it stops holding. Never empty; canonical
 * entries hold no `,` or space (docs/protocol.md §10), so distinct holders never share one.
 */
export function flagger(holder: {
  readonly commentId: number;
  readonly paths: readonly string[];
}): string {
  return `${holder.commentId} ${holder.paths.join(',')}`;
}
