import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { setPagingHeaders } from '../../../runtime/resources/paging-headers.ts';

function served(total: number, limit: number, offset: number, rows = limit) {
  const app = new Koa();
  app.use((ctx) => {
    setPagingHeaders(ctx, 'https://api.example.test', total, limit, offset, rows);
    ctx.status = 204;
  });
  return app.callback();
}

describe('setPagingHeaders()', () => {
  it.each([
    [
      'first page',
      '/v1/orders',
      [45, 20, 0],
      [
        '<https://api.example.test/v1/orders?limit=20&offset=0>; rel="first"',
        '<https://api.example.test/v1/orders?limit=20&offset=20>; rel="next"',
      ],
    ],
    [
      'middle page, other parameters kept in place, limit and offset where the request put them',
      '/v1/trades?offset=20&trade_name=a%20b&limit=20',
      [45, 20, 20],
      [
        '<https://api.example.test/v1/trades?offset=0&trade_name=a+b&limit=20>; rel="first"',
        '<https://api.example.test/v1/trades?offset=40&trade_name=a+b&limit=20>; rel="next"',
        '<https://api.example.test/v1/trades?offset=0&trade_name=a+b&limit=20>; rel="prev"',
      ],
    ],
    [
      'last page, a repeated limit folded into one',
      '/v1/orders?limit=5&limit=20&offset=40',
      [45, 20, 40],
      [
        '<https://api.example.test/v1/orders?limit=20&offset=0>; rel="first"',
        '<https://api.example.test/v1/orders?limit=20&offset=20>; rel="prev"',
      ],
    ],
    [
      'last page ending at the total exactly: no next',
      '/v1/orders?offset=20',
      [40, 20, 20],
      [
        '<https://api.example.test/v1/orders?offset=0&limit=20>; rel="first"',
        '<https://api.example.test/v1/orders?offset=0&limit=20>; rel="prev"',
      ],
    ],
    [
      'a page cut short by its byte budget (7 of 20 rows): next continues after the last row served',
      '/v1/reports?limit=20',
      [45, 20, 0, 7],
      [
        '<https://api.example.test/v1/reports?limit=20&offset=0>; rel="first"',
        '<https://api.example.test/v1/reports?limit=20&offset=7>; rel="next"',
      ],
    ],
  ] as const)('%s', async (_name, path, [total, limit, offset, rows], links) => {
    const response = await request(served(total, limit, offset, rows))
      .get(path)
      .expect(204);
    expect(response.headers['x-total-count']).toBe(String(total));
    expect(response.headers.link).toBe(links.join(', '));
  });
});
