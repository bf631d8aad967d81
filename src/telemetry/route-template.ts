/**
 * The route template of a GitHub request, for a metric label with few values. Endpoint
 * methods pass templates (`/repos/{owner}/{repo}/issues/{issue_number}`); pagination passes
 * full URLs, whose owners, names, numbers and queries would make a series per issue.
 */
export function routeTemplate(url: string): string {
  if (url.includes('{')) return url.split('?')[0]!;
  let path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0]!;
  path = path.replace(/^\/api\/v3(?=\/)/, '');
  return path
    .replace(/^\/repos\/[^/]+\/[^/]+/, '/repos/{owner}/{repo}')
    .replace(/\/\d+(?=\/|$)/g, '/{id}');
}
