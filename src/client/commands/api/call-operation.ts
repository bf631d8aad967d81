import { fillRoute, type RouteParams } from '../../../operations/fill-route.js';
import type { Operation } from '../../../operations/operation.js';
import type { ApiReply, ClaimsApi } from '../../io/claims-api-client.js';

/**
 * One operation of the claims app as API mode calls it: the method and route its catalogue
 * entry declares (src/operations/), the route's parameters filled in, and the query, if any.
 */
export function callOperation(
  api: ClaimsApi,
  operation: Operation,
  where: RouteParams,
  options: { readonly body?: unknown; readonly query?: URLSearchParams } = {},
): Promise<ApiReply> {
  const query = options.query?.toString();
  const path = `${fillRoute(operation.route, where)}${query ? `?${query}` : ''}`;
  return options.body === undefined
    ? api.call(operation.method, path)
    : api.call(operation.method, path, options.body);
}
