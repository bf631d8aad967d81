import type { Queue } from 'bullmq';
import { type IssueKey, issueKeyString } from '../keys.js';

/** What a BullMQ job carries: the issue, and the generation its id was made with. */
export interface JobData {
  readonly key: string;
  readonly gen: number;
}

/** The per-issue records of docs/replicas.md, and those of the issue's installation. */
interface IssueJobRecords {
  readonly pending: string;
  readonly running: string;
  readonly gen: string;
  readonly lock: string;
  /** Issues of the installation with a job (admission, see bullmq-scripts.ts). */
  readonly admitted: string;
  /** Issues of the installation waiting for admission. */
  readonly parked: string;
  /** Set while the installation waits out a rate limit; its TTL is the wait. */
  readonly held: string;
}

/** gen:K outlives any job made from it; after that a reset to 0 only risks an extra job. */
export const GEN_TTL_MS = 24 * 60 * 60 * 1000;
const JOB_NAME = 'reconcile';

/** Where a queue's own records live, `<prefix>:<queue>:cw:`, and their names. */
export class QueueRecords {
  constructor(readonly namespace: string) {}

  /** The records of one issue and of its installation. */
  of(key: IssueKey): IssueJobRecords {
    const id = issueKeyString(key);
    const installation = key.installationId;
    return {
      pending: `${this.namespace}pending:${id}`,
      running: `${this.namespace}running:${id}`,
      gen: `${this.namespace}gen:${id}`,
      lock: `${this.namespace}lock:${id}`,
      admitted: `${this.namespace}admitted:${installation}`,
      parked: `${this.namespace}parked:${installation}`,
      held: `${this.namespace}held:${installation}`,
    };
  }

  /** A record shared by all issues of the queue. */
  shared(name: 'seq' | 'pending-index' | 'running-index' | 'parked-index'): string {
    return `${this.namespace}${name}`;
  }
}

/** Flat `issue, gen, issue, gen, ...` replies of the scripts: the jobs to add. */
export function jobsToAdd(flat: readonly unknown[]): Array<readonly [string, number]> {
  const jobs: Array<readonly [string, number]> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) jobs.push([String(flat[i]), Number(flat[i + 1])]);
  return jobs;
}

/** Adds the jobs (issue, generation); BullMQ ignores an add whose job id exists. */
export async function addJobs(
  queue: Queue<JobData>,
  jobs: ReadonlyArray<readonly [string, number]>,
): Promise<void> {
  for (const [id, gen] of jobs)
    await queue.add(JOB_NAME, { key: id, gen }, { jobId: jobIdFor(id, gen) });
}

/** A job id for issue `id` at generation `gen`; BullMQ forbids `:` in ids, so encode. */
function jobIdFor(id: string, gen: number): string {
  return `${encodeURIComponent(id)}.${gen}`;
}
