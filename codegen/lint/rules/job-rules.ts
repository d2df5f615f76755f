import type { Rule } from './context.ts';

/** job-produces: a job type's `produces` names a declared collection, the one GET of a finished job redirects to. */
export const jobProduces: Rule = ({ model }) => {
  const collections = new Set(model.collections.map((collection) => collection.name));
  return model.services.flatMap((service) =>
    Object.entries(service.jobProduces)
      .filter(([, collection]) => !collections.has(collection))
      .map(([type, collection]) => ({
        rule: 'job-produces',
        source: service.source,
        at: ['jobs', type, 'produces'],
        message: `job type "${type}" produces "${collection}", which no definition declares as a collection: name one of ${[...collections].sort().join(', ') || 'none'}`,
      })),
  );
};
