// Stops a program on a Node older than the toolkit supports, with one line saying which Node it
// needs, before anything else is loaded. Imported first, and alone, by every entry point (the CLIs
// load the rest with import() after it; the server's start script preloads it with --import): a
// newer module's named import of something Node lacks fails when the module graph is linked, before
// any of it runs, with a SyntaxError stack instead of this line; and Node before 22.18 cannot load a
// .ts file at all. So this file uses nothing newer than Node 20 has, and imports only node:module.
import { createRequire } from 'node:module';

const { engines } = createRequire(import.meta.url)('@convapi/runtime/package.json') as { engines: { node: string } };

/** The oldest supported version as [major, minor], from the runtime's `engines` (">=22.18"). */
function oldestSupported(range: string): [number, number] {
  const match = /^>=(\d+)\.(\d+)$/.exec(range);
  if (match === null) throw new Error(`@convapi/runtime: engines.node is "${range}", not ">=MAJOR.MINOR"`);
  return [Number(match[1]), Number(match[2])];
}

/** Whether `version` ("v22.18.0" or "22.18.0") is at least [major, minor]. */
function isSupported(version: string, [major, minor]: [number, number]): boolean {
  const [have, haveMinor] = version.replace(/^v/, '').split('.').map(Number) as [number, number];
  return have > major || (have === major && haveMinor >= minor);
}

if (!isSupported(process.versions.node, oldestSupported(engines.node))) {
  console.error(
    `convapi needs Node ${engines.node} (this is Node ${process.version}): install a newer Node, or run it through the project's npm scripts, which use the Node its package.json pins`,
  );
  process.exit(1);
}
