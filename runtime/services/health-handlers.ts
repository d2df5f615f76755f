import { ApiError, type ErrorEntry } from '../errors/index.ts';
import { setJsonBody } from '../http/index.ts';
import type { RouteHandler } from '../routing/index.ts';
import type { ApiContext } from '../app/api-definition.ts';

/**
 * One dependency readiness depends on: `check()` returns (or resolves) when it answers and throws
 * (or rejects) when it does not. The store's is built in; a server with Redis adds Redis's.
 */
export interface ReadinessCheck {
  /** Named in the readiness body and in the 503's error entry (`resource`). */
  readonly name: string;
  readonly check: () => unknown;
}

/** How long a check may take before it counts as failing, in ms. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * GET /services/{version}/health: 200 `{"status": "alive"}` whenever the process can answer at all.
 * GET /services/{version}/health/ready: 200 `{"status": "ready", "checks": {"store": "ok"}}` when
 * every readiness check passes, else 503 with one error entry (`dependency_unavailable`) per failing
 * check. During a shutdown both answer 503 `service_unavailable` (the drain refuses every new request).
 */
export function healthHandlers(context: ApiContext): { live: RouteHandler; ready: RouteHandler } {
  const checks = context.services.readiness;
  return {
    live: (ctx) => setJsonBody(ctx, { status: 'alive' }),
    ready: async (ctx) => {
      const outcomes = await Promise.all(checks.map(async ({ name, check }) => ({ name, problem: await problemOf(check) })));
      const failing: ErrorEntry[] = outcomes
        .filter((outcome) => outcome.problem !== undefined)
        .map(({ name, problem }) => ({ code: 'dependency_unavailable', message: `${name}: ${problem}`, resource: name }));
      if (failing.length > 0) {
        const [first, ...more] = failing;
        throw new ApiError(503, first!.code, first!.message, { resource: first!.resource!, more });
      }
      setJsonBody(ctx, { status: 'ready', checks: Object.fromEntries(outcomes.map(({ name }) => [name, 'ok'])) });
    },
  };
}

/** Why a check fails (its error's message, or a timeout), or undefined when it passes. */
async function problemOf(check: () => unknown): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([Promise.resolve().then(check).then(() => undefined), timeout]);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}
