import { readFileSync } from 'node:fs';
import type { JwtOptions } from './jwt-verifier.ts';

/**
 * JWT verification from the environment, off unless JWT_ISSUER is set: JWT_ISSUER, JWT_AUDIENCE,
 * JWT_ALGORITHMS (comma-separated, required), and JWT_SECRET or JWT_JWKS_FILE (a JSON key set).
 */
export function jwtOptionsFromEnvironment(env: NodeJS.ProcessEnv): JwtOptions | undefined {
  if (!env.JWT_ISSUER) return undefined;
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`${name} is required when JWT_ISSUER is set`);
    return value;
  };
  const algorithms = required('JWT_ALGORITHMS')
    .split(',')
    .map((alg) => alg.trim())
    .filter((alg) => alg !== '');
  const base = { issuer: env.JWT_ISSUER, audience: required('JWT_AUDIENCE'), algorithms };
  if (env.JWT_SECRET) return { ...base, secret: env.JWT_SECRET };
  return { ...base, jwks: JSON.parse(readFileSync(required('JWT_JWKS_FILE'), 'utf8')) };
}
