import { answerRedirect, requestBody, setJsonBody, setResponseHeader } from '../http/index.ts';
import { expansionRequested, jobUri, project, resourceUri, resultFields } from '../representation/index.ts';
import { JOB_MEMBERS } from '../jobs/index.ts';
import { refusingQuery, type RouteHandler } from '../routing/index.ts';
import type { ApiContext } from './api-definition.ts';
import { notFound } from '../errors/index.ts';
import { andThen } from '../storage/index.ts';
import { integerFromPath } from '../resources/index.ts';
import { setPagingHeaders } from '../resources/paging-headers.ts';
import type { Context } from 'koa';
import { callerOf } from '../auth/index.ts';
import { anyRowRule, jobVisibleTo } from './job-visibility.ts';

/**
 * PUT /services/{v}/{queue} → 202 with Location and {job_id, state, uri}, the job kept with its
 * caller; GET /services/{v}/{queue} → the caller's own jobs, a page with X-Total-Count and Link;
 * GET /{job_id} → 200 job, or 303 to the resource a finished job produced (its type declares
 * `produces`); DELETE /{job_id} → 204 (423 while running, 404 unknown); a job_id that is not a whole
 * number from 1 → 400. A job another caller queued answers as an unknown one (job-visibility.ts).
 */
export function jobQueueHandlers(context: ApiContext, name: string, version: string) {
  const queue = () => {
    const found = context.services.jobQueues.get(name);
    if (found === undefined) throw new Error(`job queue ${name} is not running`);
    return found;
  };
  const enqueue: RouteHandler = (ctx) =>
    andThen(queue().enqueue(requestBody(ctx), callerOf(ctx)), (job) => {
      const uri = jobUri(context.baseUrl, version, name, job.job_id);
      ctx.status = 202;
      setResponseHeader(ctx, 'Location', uri);
      setJsonBody(ctx, queue().representation(job as never, uri));
    });
  const list: RouteHandler = (ctx) => {
    const caller = callerOf(ctx);
    const names = jobFields(ctx);
    // Every route of a queue needs a credential; without one there is no caller, who queued nothing.
    const page =
      caller === undefined ? { jobs: [], total: 0, limit: 1, offset: 0 } : queue().list(caller, ctx.querystring);
    return andThen(page, ({ jobs, total, limit, offset }) => {
      setPagingHeaders(ctx, context.baseUrl, total, limit, offset);
      setJsonBody(
        ctx,
        jobs.map((job) =>
          project(
            queue().representation(
              job as never,
              jobUri(context.baseUrl, version, name, (job as { job_id: number }).job_id),
            ),
            names,
          ),
        ),
      );
    });
  };
  const unknownJob = (id: string) =>
    notFound('job_not_found', `there is no job ${id}`, { resource: name, field: 'job_id' });
  const rowRules = anyRowRule(context);
  const visible = (ctx: Context, job: object | undefined) =>
    job === undefined ? false : jobVisibleTo(context, queue(), job, callerOf(ctx), rowRules);
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
        // Checked only for the job's own answer: a 303's client sends the header on to the resource.
        setJsonBody(
          ctx,
          project(queue().representation(job as never, jobUri(context.baseUrl, version, name, id)), jobFields(ctx)),
        );
      }),
    );
  };
  const remove: RouteHandler = (ctx, params) => {
    const id = String(integerFromPath('job_id', params.job_id, name));
    return andThen(queue().get(id), (job) =>
      andThen(visible(ctx, job), (known) => {
        if (!known) throw unknownJob(id);
        return andThen(queue().remove(id), () => {
          ctx.status = 204;
        });
      }),
    );
  };
  // A queue's list alone takes query parameters.
  return { enqueue: refusingQuery(enqueue), read: refusingQuery(read), remove: refusingQuery(remove), list };
}

/**
 * The job members X-Result-Fields names (400 for one a job does not have), X-Expansion-Fields checked
 * as on any read though a job refers to nothing to expand: a job is answered as the conventions
 * answer any resource.
 */
function jobFields(ctx: Context): string[] | undefined {
  expansionRequested(ctx);
  return resultFields(ctx, JOB_MEMBERS);
}
