export interface FamilyLimit {
  readonly points: number;
  readonly durationSeconds: number;
}

export type FamilyLimits = Readonly<Record<'resource' | 'service' | 'setting', FamilyLimit>>;

/** Defaults: settings stricter than the other two families (conventions: limits 5). */
export const DEFAULT_LIMITS: FamilyLimits = {
  resource: { points: 600, durationSeconds: 60 },
  service: { points: 300, durationSeconds: 60 },
  setting: { points: 60, durationSeconds: 60 },
};

/** RATE_LIMIT_RESOURCE / RATE_LIMIT_SERVICE / RATE_LIMIT_SETTING as `<calls>/<seconds>`. */
export function limitsFromEnvironment(env: NodeJS.ProcessEnv): FamilyLimits {
  const read = (name: string, fallback: FamilyLimit): FamilyLimit => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
    const points = Number(match?.[1]);
    const durationSeconds = Number(match?.[2]);
    if (
      match === null ||
      points < 1 ||
      durationSeconds < 1 ||
      !Number.isSafeInteger(points) ||
      !Number.isSafeInteger(durationSeconds)
    ) {
      throw new Error(`${name} must be <calls>/<seconds> with both at least 1, for example 600/60; got "${raw}"`);
    }
    return { points, durationSeconds };
  };
  return {
    resource: read('RATE_LIMIT_RESOURCE', DEFAULT_LIMITS.resource),
    service: read('RATE_LIMIT_SERVICE', DEFAULT_LIMITS.service),
    setting: read('RATE_LIMIT_SETTING', DEFAULT_LIMITS.setting),
  };
}
