// Import cycles, type-only imports included, fail `npm run lint` (and so `npm test`). Which layer
// may import which is ESLint's (lint/layers.js); this tool answers the one question ESLint cannot:
// whether the graph of all files has a cycle.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Modules import each other: move what both need into a module of its own.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // `import type` counts: a cycle of types still ties the two modules together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.vue', '.json'],
    },
  },
}
