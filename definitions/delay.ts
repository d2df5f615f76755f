import { z } from 'zod';
import { service } from '@convapi/dsl';

/**
 * A slow operation, for trying clients against one: GET /services/{v}/delay?ms=1500 answers
 * {"waited_ms": 1500} after that long. Past 500 ms of waiting the server sends `102 Processing`,
 * then again every PROCESSING_INTERVAL_MS, until the answer.
 */
export default service({
  name: 'delay',
  versions: { v1: {}, v2: {} },
  operations: [
    {
      method: 'GET',
      description: 'Answers {"waited_ms": ms} after ms milliseconds (0 to 5,000); 102 Processing after 500 ms.',
      query: z.object({ ms: z.coerce.number().int().min(0).max(5_000) }).strict(),
      processingAfterMs: 500,
      successes: [200],
      handle: async ({ query }: { query: { ms: number } }) => {
        await new Promise((resolve) => setTimeout(resolve, query.ms));
        return { body: { waited_ms: query.ms } };
      },
    },
  ],
});
