import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The system packages some tests start or drive, none of which npm installs. On a machine without
 * one (a newcomer's, with only Node and npm) the tests that need it are skipped with one line naming
 * the package; under CI (CI=true, which `.ci/run` sets after installing them) they never are, so a
 * missing package fails them instead of hiding them.
 */
export interface SystemPackage {
  /** Debian's package name, as `apt-get install` takes it. */
  readonly name: string;
  /** The variable that points at it when it lives elsewhere. */
  readonly variable: string;
  installed(): boolean;
}

/** Debian's Chromium, or CHROMIUM_PATH. */
export const CHROMIUM: SystemPackage = {
  name: 'chromium',
  variable: 'CHROMIUM_PATH',
  installed: () => existsSync(chromiumPath()),
};

export const chromiumPath = (): string => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** redis-server, on the PATH or at REDIS_SERVER. */
export const REDIS: SystemPackage = {
  name: 'redis-server',
  variable: 'REDIS_SERVER',
  installed: () => spawnSync(redisServerPath(), ['--version'], { encoding: 'utf8' }).status === 0,
};

export const redisServerPath = (): string => process.env.REDIS_SERVER || 'redis-server';

/** PostgreSQL's server binaries (initdb, postgres), in POSTGRES_BIN or the newest /usr/lib/postgresql/N/bin. */
export const POSTGRESQL: SystemPackage = {
  name: 'postgresql',
  variable: 'POSTGRES_BIN',
  installed: () => postgresBinaries() !== undefined,
};

export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  const debian = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const candidates = process.env.POSTGRES_BIN
    ? [process.env.POSTGRES_BIN]
    : debian.map((version) => join(root, version, 'bin'));
  return candidates.find((bin) => existsSync(join(bin, 'postgres')));
}

/**
 * jemalloc's shared library, which `npm start` preloads where it finds it (runtime/bin/with-allocator.sh):
 * at JEMALLOC_PATH, or where Debian and Ubuntu (libjemalloc2) and Fedora put it.
 */
export const JEMALLOC: SystemPackage = {
  name: 'libjemalloc2',
  variable: 'JEMALLOC_PATH',
  installed: () => jemallocPath() !== undefined,
};

export function jemallocPath(): string | undefined {
  const candidates = process.env.JEMALLOC_PATH
    ? [process.env.JEMALLOC_PATH]
    : [`/usr/lib/${machine()}-linux-gnu/libjemalloc.so.2`, '/usr/lib64/libjemalloc.so.2'];
  return candidates.find((path) => existsSync(path));
}

const machine = (): string => spawnSync('uname', ['-m'], { encoding: 'utf8' }).stdout.trim();

/** Whether tests needing `system` run here: it is installed, or CI requires it. */
export const runsTestsNeeding = (system: SystemPackage): boolean => system.installed() || process.env.CI === 'true';

/** The one line a skip prints. */
export const skipLine = (system: SystemPackage, what: string): string =>
  `SKIPPED ${what}: needs ${system.name} (apt-get install -y ${system.name}, or set ${system.variable}); CI=true makes it required`;
