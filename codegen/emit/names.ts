/** `queued/jobs` → `queued-jobs`: the file name of a declaration. */
export function fileNameOf(name: string): string {
  return name.replaceAll('/', '-');
}

/** Identifiers made so far: a declaration's name is asked for its identifier many times a generation. */
const camelNames = new Map<string, string>();

/** `queued/jobs` → `queuedJobs`, `gui/lang` → `guiLang`: an identifier for a declaration. */
export function camelOf(name: string): string {
  let camel = camelNames.get(name);
  if (camel === undefined) {
    camel = name.replace(/[-_/]+([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
    camelNames.set(name, camel);
  }
  return camel;
}

/** `order` → `Order`, `queued/jobs` → `QueuedJobs`. */
export function pascalOf(name: string): string {
  const camel = camelOf(name);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** A property access chain: `definition.fields.item`; non-identifier keys are bracketed. */
export function accessOf(root: string, path: readonly string[]): string {
  return path.reduce(
    (expression, key) =>
      /^[A-Za-z_$][\w$]*$/.test(key) ? `${expression}.${key}` : `${expression}[${JSON.stringify(key)}]`,
    root,
  );
}
