/** A response header that must be present, as a string (fails the test with its name when absent). */
export function headerOf(response: { headers: Record<string, unknown> }, name: string): string {
  const value = response.headers[name.toLowerCase()];
  if (typeof value !== 'string') throw new Error(`response has no ${name} header`);
  return value;
}
