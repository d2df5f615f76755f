/**
 * The source of a caller of the v1 SDK @hey-api/openapi-ts wrote into `./v1/`, as a user writes
 * one by hand: a create, a GET of one, a list with a filter, a PUT and a PATCH, a service call, a
 * setting, a DELETE, each reading what the typed answers hold. The `const x: T = ...` lines are for
 * tsc: they fail the type check when the SDK types an answer otherwise (an identity typed
 * `number | string`, a member of a representation typed optional).
 */
export const HEY_API_SCENARIO = `import type { Client } from './v1/client/index.ts';
import * as sdk from './v1/sdk.gen.ts';

export async function scenario(client: Client) {
  const created = await sdk.createTrade({ client, body: { trade_name: 'harvest festival' } });
  const id: number = created.data!.identity;
  const other = await sdk.createTrade({ client, body: { trade_name: 'spring fair' } });
  const one = await sdk.getTrade({ client, path: { trade_id: id } });
  const name: string = one.data!.trade_name;
  const listed = await sdk.listTrades({ client, query: { trade_name: 'spring fair', limit: 10 } });
  const listedIds: number[] = listed.data!.map((trade) => trade.trade_id);
  const replaced = await sdk.replaceTrade({ client, path: { trade_id: id }, body: { trade_name: 'autumn harvest' } });
  const patched = await sdk.updateTrade({ client, path: { trade_id: id }, body: { trade_name: 'harvest market' } });
  const found = await sdk.search({ client, query: { q: 'market', category: 'trades' } });
  const lang = await sdk.setGuiLang({ client, body: { lang: 'fr-fr' } });
  const removed = await sdk.deleteTrade({ client, path: { trade_id: other.data!.identity } });
  const gone = await sdk.getTrade({ client, path: { trade_id: other.data!.identity } });
  return {
    created: [created.response?.status, id],
    read: [one.response?.status, name],
    listed: [listed.response?.status, listedIds, other.data!.identity],
    replaced: [replaced.response?.status, replaced.data?.trade_name],
    patched: [patched.response?.status, patched.data?.trade_name],
    found: [found.response?.status, found.data],
    lang: [lang.response?.status, lang.data?.lang],
    removed: removed.response?.status,
    gone: [gone.response?.status, gone.error?.errors[0]?.code],
  };
}
`;
