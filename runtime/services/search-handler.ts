import { callerOf } from '../auth/index.ts';
import { badRequest } from '../errors/index.ts';
import { expansionRequested, resultFields } from '../representation/index.ts';
import { representationNames, representBody, type CollectionModel, type ResourceContext } from '../resources/index.ts';
import { setPagingHeaders } from '../resources/paging-headers.ts';
import { rowsForCaller } from '../resources/caller-rows.ts';
import { boundedInteger } from '../resources/list-query.ts';
import type { RouteHandler } from '../routing/index.ts';
import { setJsonBody } from '../http/index.ts';
import { setVersionBody } from '../responses/index.ts';
import { runFlow, searchWords, wait } from '../storage/index.ts';
import { searchEveryCollection } from './search-every-collection.ts';

const PARAMETERS = ['q', 'category', 'limit', 'offset'];

const MAX_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * The most distinct words one search may have. Every word is a prefix term each row must match, and
 * each costs a pass over its postings, so the cost of a search grows with its words: 300 words used
 * to take seconds. Repeated words count once (`l l l` is one term).
 */
export const MAX_SEARCH_TERMS = 8;

/** The distinct words of a search text, split as the stores search them (searchWords), case folded. */
function distinctWords(text: string): string[] {
  return [...new Set(searchWords(text).map((word) => word.toLowerCase()))];
}

/** The collections that declare searchable fields and are served in `version`, by name. */
export function searchableCollections(context: ResourceContext, version?: string): CollectionModel[] {
  return Object.values(context.catalog.collections)
    .filter((model) => model.table.columns.some((column) => column.searchable))
    .filter((model) => version === undefined || model.versions[version] !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * GET /services/{version}/search?q=TEXT&category=COLLECTION: full-text search over the searchable
 * fields of one collection, answered in that collection's own representation for this version, with
 * every representation rule (X-Result-Fields, X-Expansion-Fields, null stripping, paging headers).
 * Without category, every searchable collection (search-every-collection.ts).
 */
export function searchHandler(context: ResourceContext, version: string): RouteHandler {
  return (ctx) => {
    const query = new URLSearchParams(ctx.querystring);
    for (const name of query.keys()) {
      if (!PARAMETERS.includes(name))
        throw badRequest('unknown_parameter', `${name} is not a search parameter; use q, category, limit, offset`, {
          field: name,
        });
    }
    const text = query.get('q');
    if (text === null || text.trim() === '')
      throw badRequest('missing_parameter', 'q, the text to search for, is required', { field: 'q' });
    const words = distinctWords(text);
    if (words.length === 0)
      throw badRequest('invalid_parameter', 'q has no word to search for (letters or digits)', { field: 'q' });
    if (words.length > MAX_SEARCH_TERMS)
      throw badRequest(
        'too_many_terms',
        `q has ${words.length} distinct words; a search takes at most ${MAX_SEARCH_TERMS}`,
        { field: 'q' },
      );
    const collections = searchableCollections(context, version);
    const category = query.get('category');
    // Without a category: every searchable collection, as one list of hits naming their collection.
    if (category === null) {
      // The strictest of the collections' paging (with none searchable, nothing is found whatever the page).
      const paging = {
        defaultLimit: Math.min(...collections.map((candidate) => candidate.paging.defaultLimit), MAX_LIMIT),
        maxLimit: Math.min(...collections.map((candidate) => candidate.paging.maxLimit), MAX_LIMIT),
      };
      return searchEveryCollection(ctx, context, version, collections, words.join(' '), {
        limit: bounded(query.get('limit'), 'limit', 1, paging.maxLimit, paging.defaultLimit),
        offset: bounded(query.get('offset'), 'offset', 0, Number.MAX_SAFE_INTEGER, 0),
      });
    }
    const model = collections.find((candidate) => candidate.name === category);
    if (model === undefined) {
      const names = collections.map((candidate) => candidate.name).join(', ');
      throw badRequest(
        'invalid_parameter',
        `category "${category}" is not searchable: use one of ${names}, or leave it out to search them all`,
        {
          field: 'category',
        },
      );
    }
    const versionModel = model.versions[version]!;
    const limit = bounded(query.get('limit'), 'limit', 1, model.paging.maxLimit, model.paging.defaultLimit);
    const offset = bounded(query.get('offset'), 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
    const fields = resultFields(ctx, representationNames(model, versionModel));
    const expand = expansionRequested(ctx);
    // Row access: only rows the caller may see are found and counted, and inlined references are its own.
    const rows = rowsForCaller(context.catalog, model);
    const reader = rows.reader(callerOf(ctx), context.store);
    return runFlow(
      (function* () {
        const { keys, total } = yield* wait(
          context.store.search(model.table, words.join(' '), limit, offset, rows.visible(callerOf(ctx))),
        );
        const body: Record<string, unknown>[] = [];
        // Fewer fields or expanded references: the tag is made from the whole results (responses/version-tag.ts).
        const whole: Record<string, unknown>[] | undefined = fields !== undefined || expand ? [] : undefined;
        for (const key of keys) {
          const row = yield* wait(reader.find(model.table, key));
          if (row === undefined) continue;
          const options = { baseUrl: context.baseUrl, catalog: context.catalog, reader, expand };
          body.push(yield* wait(representBody(model, versionModel, row, options, fields)));
          if (whole !== undefined)
            whole.push(yield* wait(representBody(model, versionModel, row, { ...options, expand: false }, undefined)));
        }
        setPagingHeaders(ctx, context.baseUrl, total, limit, offset);
        if (whole !== undefined) setVersionBody(ctx, whole);
        setJsonBody(ctx, body);
      })(),
    );
  };
}

function bounded(raw: string | null, name: string, min: number, max: number, fallback: number): number {
  return raw === null ? fallback : boundedInteger(name, raw, min, max);
}
