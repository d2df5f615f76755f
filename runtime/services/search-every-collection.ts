import type { Context } from 'koa';
import { callerOf } from '../auth/index.ts';
import { setJsonBody } from '../http/index.ts';
import { expansionRequested, resourceUri, resultFields } from '../representation/index.ts';
import { representationNames, representBody, type CollectionModel, type ResourceContext } from '../resources/index.ts';
import { rowsForCaller } from '../resources/caller-rows.ts';
import { setPagingHeaders } from '../resources/paging-headers.ts';
import { setVersionBody } from '../responses/index.ts';
import { runFlow, wait, type Maybe } from '../storage/index.ts';

/** One hit of a search without category: the collection it is of, its URI, and the resource as the version represents it. */
export interface SearchHit {
  readonly collection: string;
  readonly uri: string;
  readonly resource: Record<string, unknown>;
}

/**
 * A search of every searchable collection the version serves (`collections`, sorted by name), as
 * one list: the hits of the first collection, then of the next... and within one collection the
 * store's order (best match first, then the identifier). Ranks are not compared across collections:
 * each table's index weighs a word by how rare it is in that table, so a rank from one says nothing
 * against a rank from another. Row access holds in each collection: a row the caller may not see is
 * no hit and is not counted. `limit` and `offset` page through the whole list; X-Total-Count counts
 * every visible hit.
 */
export function searchEveryCollection(
  ctx: Context,
  context: ResourceContext,
  version: string,
  collections: readonly CollectionModel[],
  text: string,
  page: { readonly limit: number; readonly offset: number },
): Maybe<void> {
  // X-Result-Fields names fields of any of the collections; each resource carries those it has.
  const known = [...new Set(collections.flatMap((model) => representationNames(model, model.versions[version]!)))];
  const fields = resultFields(ctx, known);
  const expand = expansionRequested(ctx);
  const caller = callerOf(ctx);
  return runFlow(
    (function* () {
      const hits: SearchHit[] = [];
      // Fewer fields or expanded references: the tag is made from the whole results (responses/version-tag.ts).
      const whole: SearchHit[] | undefined = fields !== undefined || expand ? [] : undefined;
      let skip = page.offset;
      let total = 0;
      for (const model of collections) {
        const versionModel = model.versions[version]!;
        const rows = rowsForCaller(context.catalog, model);
        const room = page.limit - hits.length;
        // Every collection is asked, if only for its count: X-Total-Count and Link count every visible hit.
        const found = yield* wait(
          context.store.search(model.table, text, room, room > 0 ? skip : 0, rows.visible(caller)),
        );
        const count = Number(found.total);
        total += count;
        if (room > 0) skip = Math.max(0, skip - count);
        const reader = rows.reader(caller, context.store);
        const own = fields?.filter((name) => representationNames(model, versionModel).includes(name));
        for (const key of found.keys) {
          const row = yield* wait(reader.find(model.table, key));
          // Deleted between the search and the read.
          if (row === undefined) continue;
          const options = { baseUrl: context.baseUrl, catalog: context.catalog, reader, expand };
          const hit = (resource: Record<string, unknown>): SearchHit => ({
            collection: model.name,
            uri: resourceUri(context.baseUrl, version, model.name, row[model.identifier.name]),
            resource,
          });
          hits.push(hit(yield* wait(representBody(model, versionModel, row, options, own))));
          if (whole !== undefined)
            whole.push(
              hit(yield* wait(representBody(model, versionModel, row, { ...options, expand: false }, undefined))),
            );
        }
      }
      setPagingHeaders(ctx, context.baseUrl, total, page.limit, page.offset);
      if (whole !== undefined) setVersionBody(ctx, whole);
      setJsonBody(ctx, hits);
    })(),
  );
}
