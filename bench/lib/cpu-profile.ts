/** The parts of a V8 .cpuprofile the summary reads. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string };
  }[];
  /** Microseconds on the monotonic clock (the same clock as process.hrtime in any process of this machine). */
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Native functions that are the socket write itself: the kernel's share, the same for every server. */
const SOCKET_WRITES = new Set(['writev', 'writeUtf8String', 'writeBuffer', 'writeLatin1String']);

/**
 * Which part of the code a profiled function belongs to: a runtime/ folder, a package, a Node
 * module, or a named native bucket (idle, garbage collector, socket writes).
 */
export function areaOf({ functionName, url }: { functionName: string; url: string }): string {
  if (url === '') {
    if (SOCKET_WRITES.has(functionName)) return 'socket writes (kernel)';
    if (functionName.startsWith('RegExp:')) return 'regular expressions';
    return functionName.startsWith('(') ? functionName : `native ${functionName || '(anonymous)'}`;
  }
  if (url.startsWith('node:')) return url;
  const inPackage = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (inPackage !== null) return inPackage[1]!;
  const inRepo = /\/(runtime|generated|definitions|dsl|bench)\/(?:([^/]+)\/)?/.exec(url);
  if (inRepo !== null)
    return inRepo[1] === 'runtime' && inRepo[2] !== undefined ? `runtime/${inRepo[2]}` : `${inRepo[1]}/`;
  return url.replace(/^.*\//, '');
}

/** Self time by area, in µs, over the samples taken between `fromUs` and `toUs` (monotonic clock). */
export function selfTimeByArea(profile: CpuProfile, fromUs: number, toUs: number): Map<string, number> {
  const areas = new Map(profile.nodes.map((node) => [node.id, areaOf(node.callFrame)]));
  const totals = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (at < fromUs || at > toUs) return;
    const area = areas.get(id) ?? 'unknown';
    totals.set(area, (totals.get(area) ?? 0) + delta);
  });
  return totals;
}
