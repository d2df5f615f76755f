import { spawnSync } from 'node:child_process';

/**
 * How a memory limit is put on a server process: enforced by a cgroup (a transient systemd scope,
 * `systemd-run --scope -p MemoryMax=`), where this machine's systemd allows one, or else only
 * watched (the bench samples VmRSS and judges the peak against the limit).
 */
export type MemoryLimit =
  | { readonly kind: 'cgroup'; readonly command: readonly string[]; readonly description: string }
  | { readonly kind: 'watched'; readonly description: string };

/**
 * The systemd-run command that starts a process under a MemoryMax of `mib` (no swap to hide in), or
 * a watched limit when no systemd manager answers: a user manager first, then the system's. With
 * `--scope` systemd-run executes the command itself, so the process keeps systemd-run's pid and the
 * bench watches the server, not a launcher.
 */
export function memoryLimit(mib: number): MemoryLimit {
  for (const manager of [['--user'], []]) {
    const command = [
      'systemd-run',
      ...manager,
      '--scope',
      '--quiet',
      '-p',
      `MemoryMax=${mib}M`,
      '-p',
      'MemorySwapMax=0',
      '--',
    ];
    const probe = spawnSync(command[0]!, [...command.slice(1), 'true'], { stdio: 'ignore', timeout: 10_000 });
    if (probe.status === 0)
      return {
        kind: 'cgroup',
        command,
        description: `enforced: a cgroup with MemoryMax=${mib}M and no swap (${command.join(' ')})`,
      };
  }
  return {
    kind: 'watched',
    description: `watched, not enforced: no systemd manager answered systemd-run here, so VmRSS is sampled every 100 ms and judged against ${mib} MiB`,
  };
}
