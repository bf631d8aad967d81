import type { Attributes } from '@opentelemetry/api';

/** What a webhook's span says of its delivery: its id, event, installation and issue. */
export function deliveryAttributes(context: {
  readonly id: string;
  readonly name: string;
  readonly payload: unknown;
}): Attributes {
  const payload = context.payload as {
    installation?: { id?: number };
    repository?: { full_name?: string };
    issue?: { number?: number };
    pull_request?: { number?: number };
  };
  const number = payload.issue?.number ?? payload.pull_request?.number;
  const repo = payload.repository?.full_name;
  return {
    'claims.delivery_id': context.id,
    'claims.event': context.name,
    ...(payload.installation?.id === undefined
      ? {}
      : { 'claims.installation': payload.installation.id }),
    ...(repo === undefined || number === undefined ? {} : { 'claims.issue': `${repo}#${number}` }),
  };
}
