/** The parameters of an operation's route: owner, repo and, for an issue, its number. */
export interface RouteParams {
  readonly owner?: string;
  readonly repo?: string;
  readonly number?: number;
}

/**
 * An operation's route with its parameters filled in, each percent-encoded:
 * `/repos/{owner}/{repo}/paths` with `acme` and `widgets` is `/repos/acme/widgets/paths`. A
 * parameter the route names but `params` lacks is a bug of the caller, so it throws.
 */
export function fillRoute(route: string, params: RouteParams): string {
  return route.replace(/\{(\w+)\}/g, (_all, name: string) => {
    const value = params[name as keyof RouteParams];
    if (value === undefined) throw new Error(`fillRoute: ${route} needs ${name}`);
    return encodeURIComponent(String(value));
  });
}
