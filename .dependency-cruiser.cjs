/**
 * Import rules checked in CI (issue #38), by `pnpm lint`: no import circle anywhere in the sources
 * (services, gateway, shared packages, scripts), and a service's slices (`services/<svc>/src/<slice>/`,
 * one folder per use case) use each other only through the other slice's `index.ts`; `schema/` (the
 * service's entities and migrations) is shared by all. Tests may reach into any slice.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module that reaches itself through its imports: split the shared part into its own module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'slice-insides',
      severity: 'error',
      comment:
        "A slice's files are its own: another slice imports what the slice exports in its index.ts (docs/architecture.md).",
      from: { path: '^services/(warehouse|invoicing)/src/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^services/$1/src/[^/]+/',
        pathNot: ['^services/$1/src/$2/', '^services/$1/src/[^/]+/index\\.ts$', '^services/$1/src/schema/'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|\\.d\\.ts$' },
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js'],
    },
  },
};
