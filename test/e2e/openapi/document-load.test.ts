import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api as generated } from '../../../generated/api.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';

describe('an OpenAPI document whose first load fails', () => {
  let api: TestApi;
  let loads = 0;
  beforeAll(async () => {
    const real = generated.openApi!.v1!;
    api = await startApi({
      api: {
        ...generated,
        openApi: {
          ...generated.openApi,
          // The file unreadable for a moment: the first load rejects, every later one reads it.
          v1: () => {
            loads += 1;
            return loads === 1 ? Promise.reject(new Error('EIO: the document could not be read')) : real();
          },
        },
      },
    });
  });
  afterAll(() => api?.close());

  it('answers that request 500 with the error body, and the next one with the document', async () => {
    const failed = await api.get('/services/v1/openapi');
    expectErrorBody(failed, 'internal_error');
    expect(failed.status).toBe(500);
    expect(JSON.stringify(failed.body)).not.toContain('EIO');
    const served = await api.get('/services/v1/openapi');
    expect(served.status).toBe(200);
    expect(served.body.openapi).toBe('3.1.0');
    // Made once, then kept: a third request loads nothing.
    expect((await api.get('/services/v1/openapi')).status).toBe(200);
    expect(loads).toBe(2);
  });
});
