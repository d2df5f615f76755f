import type { Rule } from './context.ts';

/** job-produces: a job type's `produces` names a declared collection, the one GET of a finished job redirects to. */
export const jobProduces: Rule = ({ model, published }) => {
  const collections = new Set(model.collections.map((collection) => collection.name));
  // A published collection that disappeared is published-declaration-removed's to report, once.
  const removedPublished = new Set(Object.keys(published ?? {}));
  return model.services.flatMap((service) =>
    Object.entries(service.jobProduces)
      .filter(([, collection]) => !collections.has(collection) && !removedPublished.has(collection))
      .map(([type, collection]) => ({
        rule: 'job-produces',
        source: service.source,
        at: ['jobs', type, 'produces'],
        message: `job type "${type}" produces "${collection}", which no definition declares as a collection: name one of ${[...collections].sort().join(', ') || 'none'}`,
      })),
  );
};

/**
 * asynchronous-queue: a collection's asynchronous operations are queued on a declared job queue
 * served in every version the collection is, and each is an operation the collection serves.
 */
export const asynchronousQueue: Rule = ({ model }) =>
  model.collections.flatMap((collection) => {
    const declared = collection.asynchronous;
    if (declared === undefined) return [];
    const queue = model.services.find((service) => service.handler === 'job-queue' && service.name === declared.queue);
    const missing = collection.versions
      .map((version) => version.name)
      .filter((version) => !queue?.versions.some((served) => served.name === version));
    const findings = [];
    if (queue === undefined || missing.length > 0) {
      const queues = model.services
        .filter((service) => service.handler === 'job-queue')
        .map((service) => service.name)
        .sort();
      findings.push({
        rule: 'asynchronous-queue',
        source: collection.source,
        at: ['asynchronous', 'queue'],
        message:
          queue === undefined
            ? `collection "${collection.name}" queues its asynchronous operations on "${declared.queue}", which is not a declared job queue: name one of ${queues.join(', ') || 'none (declare a jobQueue)'}`
            : `job queue "${declared.queue}" is not served in ${missing.join(', ')}, where "${collection.name}" queues jobs: serve it there too`,
      });
    }
    for (const operation of declared.operations.filter((name) => collection.operations[name] !== 'served')) {
      findings.push({
        rule: 'asynchronous-queue',
        source: collection.source,
        at: ['asynchronous', 'operations'],
        message: `collection "${collection.name}" declares ${operation} asynchronous but does not serve it: serve it, or leave it out of asynchronous.operations`,
      });
    }
    return findings;
  });
