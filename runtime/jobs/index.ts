export { JobQueue, type JobQueueOptions, type JobTypeDefinition } from './job-queue.ts';
export { JOB_MEMBERS, jobRepresentation, type Job, type JobState } from './job.ts';
export { SqliteJobTable } from './sqlite-job-table.ts';
export { operationJobType, operationJobTypes } from './operation-jobs.ts';
export { PostgresJobTable, JOB_TABLES } from './postgres-job-table.ts';
export type { JobTable } from './job-table.ts';
