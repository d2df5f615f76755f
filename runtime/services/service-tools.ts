import type { ResourceContext } from '../resources/index.ts';
import type { ServiceTools } from './api-definition.ts';
import { andThen, runFlow, wait } from '../storage/index.ts';
import { searchableCollections } from './search-handler.ts';
import { createResource } from '../resources/index.ts';
import { rowsForCaller } from '../resources/caller-rows.ts';
import type { Caller } from '../auth/index.ts';

/**
 * What service handlers and jobs may ask of the server: the searchable collections, reindexing them,
 * creating a resource. With a `caller` (a job is run as whoever queued it) a resource is created as
 * that caller: the collection's rules judge the write as theirs and its row access holds; without
 * one, as the server itself.
 */
export function serviceTools(context: ResourceContext, caller?: Caller): ServiceTools {
  return {
    searchableCollections: () => searchableCollections(context).map((model) => model.name),
    reindex: (names) => {
      const models = searchableCollections(context).filter(
        (model) => names === undefined || names.includes(model.name),
      );
      const indexed: Record<string, number> = {};
      // One transaction: a search never sees a half-rebuilt index.
      const done = context.store.transaction((tx) =>
        runFlow(
          (function* () {
            for (const model of models) indexed[model.name] = yield* wait(tx.reindex(model.table));
          })(),
        ),
      );
      return andThen(done, () => ({ indexed }));
    },
    createResource: (collection, representation, version) => {
      const model = Object.hasOwn(context.catalog.collections, collection)
        ? context.catalog.collections[collection]
        : undefined;
      if (model === undefined) throw new Error(`there is no collection ${collection}`);
      const versions = Object.keys(model.versions);
      return andThen(
        runFlow(
          createResource(
            context,
            model,
            version ?? versions[versions.length - 1]!,
            representation,
            caller,
            caller === undefined ? undefined : rowsForCaller(context.catalog, model),
          ),
        ),
        (row) => ({ identity: row[model.identifier.name] as string | number }),
      );
    },
  };
}
