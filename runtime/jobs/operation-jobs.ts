import { z } from 'zod';
import { runFlow } from '../storage/index.ts';
import { changeResource, deleteResource } from '../resources/change-resource.ts';
import { createResource } from '../resources/create-resource.ts';
import { rowsForCaller } from '../resources/caller-rows.ts';
import type { CollectionModel, ResourceContext } from '../resources/index.ts';
import type { JobTypeDefinition } from './job-queue.ts';

import { operationJobType } from '../resources/operation-job-type.ts';

export { operationJobType };

/**
 * What an asynchronous operation queues: the version it was sent to, the identifier, the body. The
 * caller is kept with the job; jobs queued before that carry it here.
 */
const OPERATION_PAYLOAD = z.object({
  version: z.string(),
  key: z.union([z.string(), z.number()]).optional(),
  body: z.unknown().optional(),
  /** Who sent the request, in jobs stored before the caller was kept with the job. */
  caller: z
    .looseObject({ client: z.string(), user: z.string().optional(), scopes: z.array(z.string()).optional() })
    .optional(),
});

/**
 * The job types that carry out a collection's asynchronous operations (`asynchronous` in its
 * declaration). Internal: clients cannot queue them through the queue's PUT. A create, replace or
 * update produces the resource (GET of the finished job answers 303 to it); a delete produces none.
 */
export function operationJobTypes<Tools>(
  context: ResourceContext,
  model: CollectionModel,
): Record<string, JobTypeDefinition<Tools>> {
  const types: Record<string, JobTypeDefinition<Tools>> = {};
  const rows = rowsForCaller(context.catalog, model);
  for (const operation of model.asynchronous?.operations ?? []) {
    types[operationJobType(model.name, operation)] = {
      payload: OPERATION_PAYLOAD,
      internal: true,
      writes: model.name,
      ...(operation === 'delete' ? {} : { produces: model.name }),
      run: ({ version, key, body, caller: sent }: z.output<typeof OPERATION_PAYLOAD>, _tools, queuedBy) =>
        runFlow(
          (function* () {
            // The job writes as its caller: the collection's row access holds for it as for the request.
            const caller = queuedBy ?? (sent === undefined ? undefined : { ...sent, scopes: sent.scopes ?? [] });
            const asCaller = { caller, rows };
            if (operation === 'create')
              return {
                identity: (yield* createResource(context, model, version, body, caller, rows))[model.identifier.name],
              };
            if (key === undefined) throw new Error(`${operation} of ${model.name} needs an identifier`);
            if (operation === 'delete') yield* deleteResource(context, model, key, undefined, asCaller);
            else yield* changeResource(context, model, version, key, body, operation, undefined, asCaller);
            return { identity: key };
          })(),
        ),
    };
  }
  return types;
}
