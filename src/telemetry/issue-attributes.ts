import type { Attributes } from '@opentelemetry/api';
import { type IssueKey, issueKeyString } from '../keys.js';

/** The span attributes that name an issue and its installation (and why it is reconciled). */
export function issueAttributes(key: IssueKey, reason?: string): Attributes {
  return {
    'claims.issue': issueKeyString(key),
    'claims.installation': key.installationId,
    ...(reason === undefined ? {} : { 'claims.reason': reason }),
  };
}
