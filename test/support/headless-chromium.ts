import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { chromiumPath } from './system-packages.ts';

/**
 * Flags without which Chromium's own connections are refused on a closed network, and which keep a
 * run from depending on anything but the page: no sandbox (CI runs as root), no GPU, no QUIC, no
 * first-run, background networking, component updates or sync.
 */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface HeadlessBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless Chromium (Debian's, which `.ci/run` installs when it is missing) driven by playwright-core,
 * with a fresh profile folder of its own. Tests using it are declared with describeNeeding(CHROMIUM).
 */
export async function launchHeadlessChromium(): Promise<HeadlessBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: FLAGS,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
