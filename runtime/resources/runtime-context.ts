import type { Caller } from '../auth/index.ts';
import type { Maybe, ResourceStore, StoreTransaction } from '../storage/index.ts';
import type { Catalog } from './model.ts';

/** What the resource handlers need from the server that mounts them, resolved once at start-up. */
export interface ResourceContext {
  readonly store: ResourceStore;
  /** Absolute base of every URI in bodies and headers, without a trailing slash. */
  readonly baseUrl: string;
  readonly catalog: Catalog;
  /** The job queues, for jobs a rule queues inside a write's transaction; absent where none runs. */
  readonly jobs?: JobsPort;
}

/**
 * Job queues as rules reach them: a job queued inside a write's transaction, kept or dropped with it,
 * and the caller's whose write queued it (it runs as them, and only they see it), if any.
 */
export interface JobsPort {
  enqueueWithin(
    tx: StoreTransaction,
    queue: string,
    type: string,
    payload: Record<string, unknown>,
    caller: Caller | undefined,
  ): Maybe<{ readonly job_id: number }>;
}
