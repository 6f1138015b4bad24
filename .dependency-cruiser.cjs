// Layering rules for `npm run lint:layers` (dependency-cruiser). Run in CI next to lint.
//
// The layers of docs/architecture.md: imports point down only,
//   routes/ -> plugins/app -> plugins/external -> schemas/, lib/, db/;  schemas/ -> lib/, db/;
//   lib/ -> lib/ only;  db/ -> db/ and config.ts only;  bff/ (the web proxy) never imports plugins/ or routes/;
//   a family under routes/api/ never imports another family's files; no cycles.
// Imports use NodeNext `.js` specifiers for `.ts` files: dependency-cruiser resolves `./x.js` to `./x.ts` (through the
// tsconfig below). `no-unresolvable` fails if it ever stops doing so, so the other rules cannot pass by seeing no edges.
// Type-only imports count: `import type` from a higher layer still ties a lower layer to it.

const SOURCES = '^(app|server|server-options|config)[.]ts$|^(plugins|routes|schemas|lib|db|bff)/'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-upward-from-lower-layers',
      comment: 'lib/, schemas/ and db/ are lower layers: they must never import plugins/ or routes/.',
      severity: 'error',
      from: { path: '^(lib|schemas|db)/' },
      to: { path: '^(plugins|routes)/' }
    },
    {
      name: 'no-cross-route-family',
      comment: 'A route family (routes/api/<family>/) must not import another family\'s files; share code through ' +
        'plugins/app, schemas/ or lib/.',
      severity: 'error',
      from: { path: '^routes/api/([^/]+)/' },
      to: { path: '^routes/api/[^/]+/', pathNot: '^routes/api/$1/' }
    },
    {
      name: 'no-circular',
      comment: 'No import cycle among the sources (type-only imports included).',
      severity: 'error',
      from: { path: SOURCES },
      to: { circular: true }
    },
    {
      name: 'lib-is-the-bottom',
      comment: 'lib/ holds pure helpers: it imports nothing of ours but lib/ (not schemas/, plugins/, routes/, db/, ' +
        'bff/ or the root files).',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: SOURCES, pathNot: '^lib/' }
    },
    {
      name: 'db-imports-only-db-and-config',
      comment: 'db/ may import db/ and config.ts only: not lib/, schemas/, plugins/, routes/ or anything else of ours.',
      severity: 'error',
      from: { path: '^db/' },
      to: { path: SOURCES, pathNot: '^db/|^config[.]ts$' }
    },
    {
      name: 'external-plugins-not-app-or-routes',
      comment: 'plugins/external wraps outside parties: it must not import plugins/app or routes/.',
      severity: 'error',
      from: { path: '^plugins/external/' },
      to: { path: '^(plugins/app|routes)/' }
    },
    {
      name: 'app-plugins-not-routes',
      comment: 'plugins/app must not import routes/.',
      severity: 'error',
      from: { path: '^plugins/app/' },
      to: { path: '^routes/' }
    },
    {
      name: 'bff-not-plugins-or-routes',
      comment: 'bff/ (the web proxy) must not import the API\'s plugins/ or routes/.',
      severity: 'error',
      from: { path: '^bff/' },
      to: { path: '^(plugins|routes)/' }
    },
    {
      name: 'no-unresolvable',
      comment: 'Every import must resolve to a file or package. Also guards this config: if `.js` -> `.ts` ' +
        'resolution broke, every edge would be unresolvable and the layer rules would see nothing.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true }
    }
  ],
  options: {
    // Only the sources (named on the command line): tests, benchmarks, scripts and migrations are not layered.
    exclude: { path: '^(test|bench|scripts|db/migrations|dist|data|coverage)/' },
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Keep `import type` edges (they vanish from the compiled JavaScript but are real coupling).
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts']
    },
    reporterOptions: {
      text: { highlightFocused: true }
    }
  }
}
