import { describe } from 'vitest';
import { runsTestsNeeding, skipLine, type SystemPackage } from './system-packages.ts';

/** `describe` for tests that need a system package: skipped with one line where it is absent, unless CI=true. */
export function describeNeeding(system: SystemPackage, name: string, body: () => void): void {
  if (runsTestsNeeding(system)) {
    describe(name, body);
    return;
  }
  console.warn(skipLine(system, `"${name}"`));
  describe.skip(name, body);
}
