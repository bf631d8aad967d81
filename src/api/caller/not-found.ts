import { ApiError } from '../answers/api-error.js';

/**
 * docs/protocol.md §8 "Nothing leaks": what the caller cannot read answers this one 404 on
 * every issue route, word for word, whatever the reason (the repository does not exist, is
 * private to others, has no installation of the app, or the issue does not exist or is a pull
 * request), so neither repositories nor issue numbers can be probed.
 */
export function issueNotFound(): ApiError {
  return new ApiError(
    404,
    'NOT_FOUND',
    'no such issue for your token: the repository does not exist, this app is not installed on it, your token cannot read it, or the number is not an issue there (pull requests are not): check the owner, the name, the number and the token’s repository access',
  );
}

/** The one 404 of the repository routes (the paths check), as {@link issueNotFound}. */
export function repoNotFound(): ApiError {
  return new ApiError(
    404,
    'NOT_FOUND',
    'no such repository for your token: it does not exist, this app is not installed on it, or your token cannot read it: check the owner, the name and the token’s repository access',
  );
}
