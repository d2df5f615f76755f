/** The job type of one asynchronous operation of a collection: `batches.create`, `batches.delete`. */
export const operationJobType = (collection: string, operation: string) => `${collection}.${operation}`;
