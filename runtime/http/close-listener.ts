import type { ServerResponse } from 'node:http';

/**
 * Listens for a response's 'close' and raises the response's listener limit by one for it. Each of
 * the runtime's middleware listens once per response (one shared function, no closure): five
 * listeners when all are mounted. A body Koa streams (Stream.pipeline: a gzip stream past the
 * synchronous limit, a file) adds Node's own half dozen, and the sum passed Node's default limit of
 * 10, a heuristic for listeners added without bound, which then printed "Possible EventEmitter memory
 * leak detected" for every such response. Counting ours keeps the heuristic as it was for everyone
 * else's listeners. A limit of 0 or Infinity (none) is left as it is.
 *
 * @example
 * onResponseClose(ctx.res, function responseClosed(this: ServerResponse) { ... });
 */
export function onResponseClose<Response extends ServerResponse>(
  res: Response,
  listener: (this: Response) => void,
): void {
  const limit = res.getMaxListeners();
  if (limit !== 0 && limit !== Infinity) res.setMaxListeners(limit + 1);
  res.on('close', listener);
}
