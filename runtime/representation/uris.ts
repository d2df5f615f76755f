/** The absolute URI of one resource: {base_url}/{version}/{collection}/{id}. */
export function resourceUri(baseUrl: string, version: string, collection: string, id: unknown): string {
  return `${baseUrl}/${version}/${collection}/${encodeURIComponent(String(id))}`;
}

/** The absolute URI of a collection: {base_url}/{version}/{collection}. */
export function collectionUri(baseUrl: string, version: string, collection: string): string {
  return `${baseUrl}/${version}/${collection}`;
}
