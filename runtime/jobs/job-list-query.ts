import { badRequest, repeatedParameter } from '../errors/index.ts';
import { boundedInteger } from '../resources/list-query.ts';
import { JOB_STATES, type JobState } from './job.ts';
import type { JobListQuery } from './job-table.ts';

/** A page of a caller's jobs: 50 unless `limit` says otherwise, at most 500 (a collection's defaults). */
export const JOB_PAGING = { defaultLimit: 50, maxLimit: 500 } as const;

/** The filters a list of jobs takes, besides `limit` and `offset`. */
export const JOB_FILTERS = ['state', 'type'] as const;

/**
 * Reads GET /services/{v}/{queue}'s query: `state` (one of JOB_STATES), `type` (a type of this queue,
 * its asynchronous operations' included), `limit` and `offset`. Any other parameter, one given
 * twice, or a value that is none of those allowed is 400 naming the parameter, as a collection's list.
 */
export function parseJobListQuery(query: string, types: readonly string[], resource: string): JobListQuery {
  let state: JobState | undefined;
  let type: string | undefined;
  let limit: number = JOB_PAGING.defaultLimit;
  let offset = 0;
  const seen = new Set<string>();
  for (const [name, raw] of new URLSearchParams(query)) {
    if (seen.has(name)) throw repeatedParameter(name);
    seen.add(name);
    if (name === 'limit') limit = boundedInteger(name, raw, 1, JOB_PAGING.maxLimit);
    else if (name === 'offset') offset = boundedInteger(name, raw, 0, Number.MAX_SAFE_INTEGER);
    else if (name === 'state') state = oneOf(name, raw, JOB_STATES);
    else if (name === 'type') type = oneOf(name, raw, types);
    else
      throw badRequest(
        'unknown_parameter',
        `${name} is not a filter of the jobs of ${resource}; use one of ${[...JOB_FILTERS, 'limit', 'offset'].join(', ')}`,
        { field: name },
      );
  }
  return { ...(state === undefined ? {} : { state }), ...(type === undefined ? {} : { type }), limit, offset };
}

function oneOf<T extends string>(name: string, raw: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(raw))
    throw badRequest('invalid_parameter', `${name} must be one of ${allowed.join(', ')}`, { field: name });
  return raw as T;
}
