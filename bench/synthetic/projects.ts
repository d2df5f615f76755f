import { syntheticProject } from './project.ts';
import { runGenerator } from './generate-project.ts';

/** Generated synthetic projects by collection count, so the scaling section reuses what the generator section built. */
const generated = new Map<number, string>();

/** Records a project whose generated/ is current. */
export function rememberGenerated(count: number, root: string): void {
  generated.set(count, root);
}

/** A synthetic project with `count` collections and its generated/ written (built now if no section did yet). */
export async function generatedProject(count: number): Promise<string> {
  const known = generated.get(count);
  if (known !== undefined) return known;
  const root = syntheticProject(count);
  await runGenerator(root);
  generated.set(count, root);
  return root;
}
