export type JobState = 'queued' | 'running' | 'succeeded' | 'failed';

/** Every state a job can be in, in the order a job goes through them. */
export const JOB_STATES: readonly JobState[] = ['queued', 'running', 'succeeded', 'failed'];

/**
 * Who queued a job, as the row rules see a caller: the client named by the token, the user it acts
 * for, the scopes it held. The job runs as this caller, and only this caller (the same client and
 * user) knows of it. Absent on the server's own jobs and on jobs stored before callers were kept.
 */
export interface JobCaller {
  readonly client: string;
  readonly user?: string;
  readonly scopes: readonly string[];
}

/** A persisted job. Times are ISO 8601 UTC; result and error are JSON values. */
export interface Job {
  readonly job_id: number;
  readonly queue: string;
  readonly type: string;
  readonly payload: Record<string, unknown>;
  readonly state: JobState;
  readonly attempts: number;
  readonly created_at: string;
  readonly caller?: JobCaller;
  readonly started_at?: string;
  readonly finished_at?: string;
  readonly result?: unknown;
  /** The error entry of a failed job: code and message, and the field and resource when the error names them. */
  readonly error?: {
    readonly code: string;
    readonly message: string;
    readonly field?: string;
    readonly resource?: string;
  };
}

/** The members of a job's representation, in order: what X-Result-Fields may name on a job's answer. */
export const JOB_MEMBERS: readonly string[] = [
  'job_id',
  'type',
  'state',
  'uri',
  'created_at',
  'started_at',
  'finished_at',
  'result',
  'errors',
];

/** The public body of a job: what GET /services/{v}/{queue}/{id} answers. */
export function jobRepresentation(job: Job, uri: string): Record<string, unknown> {
  return {
    job_id: job.job_id,
    type: job.type,
    state: job.state,
    uri,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    result: job.result,
    errors: job.error === undefined ? undefined : [job.error],
  };
}
