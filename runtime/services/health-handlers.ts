import { DependencyUnavailableError, dependencyFaultOf, type DependencyFault } from '../errors/index.ts';
import { setJsonBody } from '../http/index.ts';
import type { RouteHandler } from '../routing/index.ts';
import type { ApiContext } from './api-definition.ts';

/** How long a check may take before it counts as failing, in ms. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * GET /services/{version}/health: 200 `{"status": "alive"}` whenever the process can answer at all.
 * GET /services/{version}/health/ready: 200 `{"status": "ready", "checks": {"store": "ok"}}` when
 * every required readiness check passes (an optional one that fails shows `"degraded: <fault>"`),
 * else 503 `dependency_unavailable` with Retry-After, one error entry per failing required check,
 * each naming the dependency and its fault (unreachable, disk full...) but never its address: the
 * same error a request that met the fault is answered with. Both routes are open: a bearer token
 * sent with them is not even looked up, so the answer is the same with or without one. During a
 * shutdown both answer 503 `service_unavailable` (the drain refuses every new request).
 */
export function healthHandlers(context: ApiContext): { live: RouteHandler; ready: RouteHandler } {
  const checks = context.services.readiness;
  return {
    live: (ctx) => setJsonBody(ctx, { status: 'alive' }),
    ready: async (ctx) => {
      const outcomes = await Promise.all(
        checks.map(async ({ name, check, optional }) => ({ name, optional, fault: await faultOf(check) })),
      );
      const failing = outcomes
        .filter((outcome) => outcome.fault !== undefined && outcome.optional !== true)
        .map(({ name, fault }) => new DependencyUnavailableError(name, fault!));
      if (failing.length > 0) {
        const [first, ...more] = failing;
        throw new DependencyUnavailableError(first!.resource!, first!.fault, {
          more: more.flatMap((error) => error.entries),
        });
      }
      setJsonBody(ctx, {
        status: 'ready',
        checks: Object.fromEntries(
          outcomes.map(({ name, fault }) => [name, fault === undefined ? 'ok' : `degraded: ${fault}`]),
        ),
      });
    },
  };
}

/**
 * Why a check fails, or undefined when it passes. A check that does not answer in time counts as
 * unreachable; an error no engine code explains (its message may hold an address) counts as an
 * input/output error, and its message stays out of the answer.
 */
async function faultOf(check: () => unknown): Promise<DependencyFault | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<DependencyFault>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(check)
        .then(() => undefined),
      timeout,
    ]);
  } catch (error) {
    return error instanceof DependencyUnavailableError ? error.fault : (dependencyFaultOf(error) ?? 'io_error');
  } finally {
    clearTimeout(timer);
  }
}
