import type { ResourceStore } from '../storage/index.ts';
import type { Catalog } from './model.ts';
import type { JobsPort } from './row-writes.ts';

/** What the resource handlers need from the server that mounts them, resolved once at start-up. */
export interface ResourceContext {
  readonly store: ResourceStore;
  /** Absolute base of every URI in bodies and headers, without a trailing slash. */
  readonly baseUrl: string;
  readonly catalog: Catalog;
  /** The job queues, for jobs a rule queues inside a write's transaction; absent where none runs. */
  readonly jobs?: JobsPort;
}
