/**
 * Work measured in the bench process by its CPU time: each task does some operations and answers how
 * many it did. After `warmupCalls` uncounted calls of each (statements prepared, code compiled, files
 * grown), every round runs each task in turn until it has done at least `perRound` operations, so a
 * slow stretch of the machine lands on all of them alike. The samples: per task, per round, µs of CPU
 * (user and system, the kernel's writes and fsync included) per operation.
 */
export async function cpuPerOperationInTurns(
  tasks: readonly (() => Promise<number>)[],
  {
    rounds,
    perRound,
    warmupCalls,
  }: { readonly rounds: number; readonly perRound: number; readonly warmupCalls: number },
): Promise<number[][]> {
  for (const task of tasks) for (let call = 0; call < warmupCalls; call += 1) await task();
  const samples = tasks.map(() => [] as number[]);
  for (let round = 0; round < rounds; round += 1) {
    for (const [at, task] of tasks.entries()) {
      const before = process.cpuUsage();
      let done = 0;
      while (done < perRound) done += await task();
      const spent = process.cpuUsage(before);
      samples[at]!.push((spent.user + spent.system) / done);
    }
  }
  return samples;
}
