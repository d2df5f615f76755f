import { writeFileSync } from 'node:fs';
import { ENDPOINTS } from './endpoints.ts';
import { expectStatus } from './raw-request.ts';
import { conventionHeadersToCopy } from '../servers/convention-headers.ts';

/**
 * Asks the generated server at `url` for GET one and writes the headers it sent, those a peer copies
 * (conventionHeadersToCopy), to `file`: what `CONVENTION_HEADERS_FILE` points b, f and o at.
 */
export async function writeConventionHeadersFile(
  url: string,
  headers: Readonly<Record<string, string>>,
  file: string,
): Promise<void> {
  const getOne = await expectStatus(url, { method: 'GET', path: ENDPOINTS['get-one'].path, headers }, 200);
  writeFileSync(file, JSON.stringify(conventionHeadersToCopy(getOne.headers)));
}
