import { answerRedirect, requestBody, setJsonBody, setResponseHeader } from '../http/index.ts';
import { jobUri, resourceUri } from '../representation/index.ts';
import type { RouteHandler } from '../routing/index.ts';
import type { ApiContext } from './api-definition.ts';
import { notFound } from '../errors/index.ts';
import { andThen } from '../storage/index.ts';
import { integerFromPath } from '../resources/index.ts';
import type { Context } from 'koa';
import { callerOf } from '../auth/index.ts';
import { anyRowRule, jobVisibleTo } from './job-visibility.ts';

/**
 * PUT /services/{v}/{queue} → 202 with Location and {job_id, state, uri}; GET /{job_id} → 200 job,
 * or 303 to the resource a finished job produced (its type declares `produces`);
 * DELETE /{job_id} → 204 (423 while running, 404 unknown); a job_id that is not a whole number from 1 → 400.
 */
export function jobQueueHandlers(context: ApiContext, name: string, version: string) {
  const queue = () => {
    const found = context.services.jobQueues.get(name);
    if (found === undefined) throw new Error(`job queue ${name} is not running`);
    return found;
  };
  const enqueue: RouteHandler = (ctx) =>
    andThen(queue().enqueue(requestBody(ctx)), (job) => {
      const uri = jobUri(context.baseUrl, version, name, job.job_id);
      ctx.status = 202;
      setResponseHeader(ctx, 'Location', uri);
      setJsonBody(ctx, queue().representation(job as never, uri));
    });
  const unknownJob = (id: string) =>
    notFound('job_not_found', `there is no job ${id}`, { resource: name, field: 'job_id' });
  // Row access: a job that would tell of a row the caller may not see is an unknown job (job-visibility.ts).
  const guarded = anyRowRule(context);
  const visible = (ctx: Context, job: object | undefined) =>
    job === undefined ? false : guarded ? jobVisibleTo(context, queue(), job, callerOf(ctx)) : true;
  const read: RouteHandler = (ctx, params) => {
    const id = String(integerFromPath('job_id', params.job_id, name));
    return andThen(queue().get(id), (job) =>
      andThen(visible(ctx, job), (known) => {
        if (!known || job === undefined) throw unknownJob(id);
        // A finished job that produced a resource sends the client on to it.
        const produced = queue().producedResource(job as never);
        if (produced !== undefined)
          return answerRedirect(
            ctx,
            303,
            'result',
            resourceUri(context.baseUrl, version, produced.collection, produced.identity),
          );
        setJsonBody(ctx, queue().representation(job as never, jobUri(context.baseUrl, version, name, id)));
      }),
    );
  };
  const remove: RouteHandler = (ctx, params) => {
    const id = String(integerFromPath('job_id', params.job_id, name));
    const removed = () =>
      andThen(queue().remove(id), () => {
        ctx.status = 204;
      });
    if (!guarded) return removed();
    return andThen(queue().get(id), (job) =>
      andThen(visible(ctx, job), (known) => {
        if (!known) throw unknownJob(id);
        return removed();
      }),
    );
  };
  return { enqueue, read, remove };
}
