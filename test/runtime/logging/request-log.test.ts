import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { badRequest } from '../../../runtime/errors/index.ts';
import { createLogger, requestLog } from '../../../runtime/logging/index.ts';
import { conventionalResponse } from '../../../runtime/responses/index.ts';
import { sequence } from '../../../runtime/fast-path/sequence.ts';
import { until } from '../../support/poll.ts';

function appLogging(level: 'info' | 'warn', handler: Koa.Middleware) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    level,
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const app = new Koa();
  app.use(sequence([requestLog({ logger }), conventionalResponse({ report: () => {} }), handler]));
  return { app, lines };
}

describe('requestLog()', () => {
  it('logs a 500 at error with the stack of its cause; the response says nothing of it', async () => {
    const { app, lines } = appLogging('info', () => {
      throw new Error('the disk is on fire');
    });
    const response = await request(app.callback()).get('/boom').expect(500);
    expect(JSON.stringify(response.body)).not.toContain('fire');
    const [line] = await until(
      async () => lines,
      (found) => found.length > 0,
      2000,
    );
    expect(line).toMatchObject({
      level: 'error',
      msg: 'request failed',
      status: 500,
      error_code: 'internal_error',
      err: { message: 'the disk is on fire' },
    });
    expect((line!.err as { stack: string }).stack).toContain('request-log.test.ts');
  });

  it('at LOG_LEVEL=warn writes no line for answered requests, still one for a 500', async () => {
    let fail = false;
    const { app, lines } = appLogging('warn', (ctx) => {
      if (fail) throw new Error('broken');
      if (ctx.path === '/bad') throw badRequest('missing_parameter', 'q is required', { field: 'q' });
      ctx.body = { ok: true };
    });
    await request(app.callback()).get('/fine').expect(200);
    await request(app.callback()).get('/bad').expect(400);
    fail = true;
    await request(app.callback()).get('/broken').expect(500);
    const found = await until(
      async () => lines,
      (all) => all.length > 0,
      2000,
    );
    expect(found.map((line) => [line.path, line.level])).toEqual([['/broken', 'error']]);
  });
});
