/**
 * What the rules of people's claims (docs/protocol.md §16) settled before decide() runs, so
 * that finalisations, status labels and assignees stay computed in one place. Absent: part
 * two exactly.
 */
export interface PeopleVerdict {
  /**
   * A person holds the open issue: every live agent claim is finalised, the one that held as
   * handed over when a maintainer (`handedOverBy`) assigned the person after it.
   */
  readonly person?: { readonly login: string; readonly handedOverBy?: string };
  /**
   * A hosted agent holds the open issue (docs/protocol.md §18): every live agent claim is
   * finalised with `text`, the one that held as handed over when `handedOverBy` is set.
   */
  readonly hosted?: {
    readonly login: string;
    readonly text: string;
    readonly handedOverBy?: string;
  };
  /** The holder is pinned: the oldest unreleased agent claim does not go stale. */
  readonly pinned?: boolean;
}
