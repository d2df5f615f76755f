/** A piece of code to print as is inside a literal (a reference to a definition's schema, say). */
export class Code {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export const code = (text: string) => new Code(text);

/**
 * Prints a value as a TypeScript literal: objects keep their key order, strings use single quotes,
 * `Code` is printed verbatim and undefined members are left out. Used for initializers inside
 * ts-morph structures; the formatter lays the result out.
 */
export function printLiteral(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (value instanceof Code) return value.text;
  if (value === null) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${printLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, member]) => member !== undefined);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([key, member]) => `${inner}${propertyName(key)}: ${printLiteral(member, inner)},`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  throw new TypeError(`cannot print a ${typeof value} as a literal`);
}

function quote(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;
}

function propertyName(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key);
}

/**
 * A top-level constant whose initializer is a printed literal, written as one statement. A
 * VariableStatement structure would give every line of a multi-line initializer a hanging indent
 * that only a formatting pass could take out again.
 */
export function constStatement({
  docs,
  exported = false,
  name,
  type,
  initializer,
}: {
  docs: string;
  exported?: boolean;
  name: string;
  type: string;
  initializer: string;
}): string {
  return `/** ${docs} */\n${exported ? 'export ' : ''}const ${name}: ${type} = ${initializer};`;
}
