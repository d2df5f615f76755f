// The import rules of ARCHITECTURE.md, checked by `npm run lint:layers` (part of `npm test`).
// A rule here and its sentence in ARCHITECTURE.md change together.

/**
 * The runtime's folders from the bottom up: a folder imports only folders listed before it (its own
 * files excepted). runtime/index.ts, the package's public list, may import any of them.
 */
const RUNTIME_LAYERS = [
  'node',
  'fast-path',
  'errors',
  'http',
  'routing',
  'storage',
  'caching',
  'representation',
  'versions',
  'metrics',
  'auth',
  'limits',
  'settings',
  'responses',
  'logging',
  'resources',
  'jobs',
  'docs',
  'services',
  'app',
  'server',
  'cli',
];

const upwardImports = RUNTIME_LAYERS.slice(0, -1).map((layer, index) => ({
  name: `runtime-${layer}-imports-downward`,
  severity: 'error',
  comment: `runtime/${layer} may import only ${RUNTIME_LAYERS.slice(0, index).join(', ') || 'nothing of the runtime'} (ARCHITECTURE.md, "Layers")`,
  from: { path: `^runtime/${layer}/` },
  to: { path: `^runtime/(${RUNTIME_LAYERS.slice(index + 1).join('|')})/` },
}));

/** Packages and folders of the repository, and what each may not import (design.md's directions). */
const OURS = ['dsl', 'runtime', 'codegen', 'definitions', 'generated'];
const mayImport = {
  dsl: [],
  runtime: [],
  definitions: ['dsl'],
  // The generator's CLI shares the runtime's command-line helpers (@convapi/runtime/cli), the
  // migration files' format it writes and the runtime applies (@convapi/runtime/migrations), and the
  // Node version check (@convapi/runtime/node-check), nothing else.
  codegen: ['dsl'],
  generated: ['dsl', 'runtime', 'definitions'],
};
const packageDirections = Object.entries(mayImport).map(([from, allowed]) => ({
  name: `${from}-imports-only-${allowed.join('-') || 'itself'}`,
  severity: 'error',
  comment: `${from}/ imports ${allowed.length === 0 ? 'nothing of ours but itself' : `only itself and ${allowed.join(', ')}`} (ARCHITECTURE.md, "Packages")`,
  from: { path: `^${from}/` },
  to: {
    path: `^(${OURS.filter((folder) => folder !== from && !allowed.includes(folder)).join('|')})/`,
    ...(from === 'codegen' ? { pathNot: '^runtime/((cli|storage/migrations)/|node-check[.]ts$)' } : {}),
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No module reaches itself again through its imports, types included (ARCHITECTURE.md, "Layers").',
      from: { path: '^(dsl|runtime|codegen|definitions|generated)/' },
      to: { circular: true },
    },
    ...upwardImports,
    ...packageDirections,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    // Type-only imports count: a layer that names an upper layer's types depends on it all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // The workspace packages resolve to their sources, as the repository's scripts run them.
    enhancedResolveOptions: {
      conditionNames: ['source', 'import', 'default'],
      exportsFields: ['exports'],
      extensions: ['.ts', '.js'],
    },
  },
};
