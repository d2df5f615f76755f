/** The absolute URI of one resource: {base_url}/{version}/{collection}/{id}. */
export function resourceUri(baseUrl: string, version: string, collection: string, id: unknown): string {
  return `${baseUrl}/${version}/${collection}/${encodeURIComponent(String(id))}`;
}

/** The URI of one job: {base}/services/{version}/{queue}/{job_id}. */
export function jobUri(baseUrl: string, version: string, queue: string, id: unknown): string {
  return `${baseUrl}/services/${version}/${queue}/${encodeURIComponent(String(id))}`;
}

/** The absolute URI of a collection: {base_url}/{version}/{collection}. */
export function collectionUri(baseUrl: string, version: string, collection: string): string {
  return `${baseUrl}/${version}/${collection}`;
}
