import type { Finding } from '../finding.ts';
import type { Rule } from './context.ts';

const shapeOf = (path: string) => path.replace(/:[^/]+/g, ':id');

/**
 * moved-path: a former name (versions.{v}.movedFrom) must not be a path something serves now, nor
 * the former name of another declaration: its GET would either never redirect or redirect away from
 * a live resource.
 */
export const movedPath: Rule = ({ routes }) => {
  const served = new Map<string, { declaration: string; source: string }>();
  for (const route of routes.filter((candidate) => candidate.handler.kind !== 'moved'))
    served.set(`${route.method} ${shapeOf(route.path)}`, route);
  const claimed = new Map<string, { declaration: string; source: string }>();
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (const route of routes) {
    if (route.handler.kind !== 'moved') continue;
    const signature = `${route.method} ${shapeOf(route.path)}`;
    const former = route.handler.from
      .split('/')
      .slice(route.family === 'resource' ? 2 : 3)
      .join('/');
    const at = ['versions', route.version, 'movedFrom'];
    const key = `${route.source}|${route.version}|${former}`;
    const live = served.get(signature);
    const other = claimed.get(signature);
    if (live !== undefined && !reported.has(key)) {
      reported.add(key);
      findings.push({
        rule: 'moved-path',
        source: route.source,
        at,
        message: `former name "${former}" of "${route.declaration}" in ${route.version} is a path "${live.declaration}" (${live.source}) serves now: GET ${route.path} cannot both serve and redirect; remove it from movedFrom`,
      });
    } else if (other !== undefined && other.declaration !== route.declaration && !reported.has(key)) {
      reported.add(key);
      findings.push({
        rule: 'moved-path',
        source: route.source,
        at,
        message: `former name "${former}" of "${route.declaration}" in ${route.version} is also a former name of "${other.declaration}" (${other.source}): a former path redirects to one place; keep it on one of them`,
      });
    }
    if (!claimed.has(signature)) claimed.set(signature, route);
  }
  return findings;
};
