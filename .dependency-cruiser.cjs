/* global module */
/**
 * The architecture's invariants (ARCHITECTURE.md, "Code map"), checked by
 * tests/architecture.test.ts in `npm test`. Type-only imports count (`tsPreCompilationDeps`):
 * a cycle of types is still a knot to a reader. Run by hand: `npx depcruise -c .dependency-cruiser.cjs server lib scripts`.
 */
/** The contract (generated types, operation table and their helpers): the one folder every layer may import. */
const CONTRACT = '^contract/'

/**
 * The server's folders from the top down: each imports only folders below it, so no import runs up
 * and no two folders import each other. runtime/ wires a process and app.ts composes the app;
 * routes/ handle operations through the http/ edge (gate, problem responses, services); the
 * features below take their few services as small interfaces, never http/; storage/ implements
 * the interfaces of core/ (services' parts, problems, time, crypto), which imports only
 * contract/ (outside server/, below every folder of it).
 */
const FOLDER_ORDER = [
  'runtime',
  'demo',
  'app.ts',
  'routes',
  'http',
  'webhooks',
  'telemetry',
  'cache',
  'audit',
  'tuf',
  'transfer',
  'protocols',
  'updates',
  'auth',
  'storage',
  'core',
]
const place = (names) => `^server/(${names.map((n) => n.replace('.', '\\.')).join('|')})(/|$)`
/** One rule, `folder-order`, written as one entry per folder: what lies above it. */
const folderOrder = FOLDER_ORDER.slice(1).map((folder, i) => ({
  name: 'folder-order',
  comment: `server/ folders import only folders below them (${FOLDER_ORDER.join(' → ')}): no upward, no two-way folder import, no folder left out of the order.`,
  severity: 'error',
  from: { path: place([folder]) },
  to: { path: place(FOLDER_ORDER.slice(0, i + 1)) },
}))

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No import cycles, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'storage-self-contained',
      comment: 'server/storage/ imports nothing of Ferry outside storage but core/ and contract/.',
      severity: 'error',
      from: { path: '^server/storage/' },
      to: { path: '^(server|lib|mcp|components|scripts|tests)/', pathNot: '^server/(storage|core)/' },
    },
    {
      name: 'protocols-render-only',
      comment: 'Renderers never import storage or a query builder: protocols render, they never query.',
      severity: 'error',
      from: { path: '^server/protocols/' },
      to: { path: ['^server/storage/', '(^|/)node_modules/(kysely|pg|better-sqlite3|sql\\.js)/'] },
    },
    ...folderOrder,
    {
      name: 'folder-order',
      comment: folderOrder[0].comment,
      severity: 'error',
      from: { path: '^server/', pathNot: place(FOLDER_ORDER) },
      to: {},
    },
    {
      name: 'node-only-at-edges',
      comment: 'In server/, only runtime/ and *-node.ts / *-fs.ts files import node: built-ins.',
      severity: 'error',
      from: { path: '^server/', pathNot: ['^server/runtime/', '-node\\.ts$', '-fs\\.ts$'] },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'lib-not-server',
      comment:
        'lib/ (build-time code and the CLI) imports nothing from server/: what it shares with it is in contract/.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^server/' },
    },
    {
      name: 'lib-not-mcp',
      comment:
        'lib/ never imports mcp/ (scripts/ferry-mcp.ts wires `ferry mcp`): mcp/ builds on lib/, not the reverse.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^mcp/' },
    },
    {
      name: 'mcp-one-entry',
      comment:
        "mcp/ reaches the server through one entry, the browser runtime (server/runtime/browser.ts), and none of the CLI's modules.",
      severity: 'error',
      from: { path: '^mcp/' },
      to: { path: ['^server/', '^lib/ferry-cli/'], pathNot: '^server/runtime/browser\\.ts$' },
    },
    {
      name: 'codegen-below-changelog',
      comment: 'lib/codegen/ never imports lib/api-changelog/ (the changelog reads the contract through codegen).',
      severity: 'error',
      from: { path: '^lib/codegen/' },
      to: { path: '^lib/api-changelog/' },
    },
    {
      name: 'contract-self-contained',
      comment: "contract/, which the server, lib/, mcp/ and the site share, imports nothing of Ferry's.",
      severity: 'error',
      from: { path: CONTRACT },
      to: { pathNot: [CONTRACT, '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'scripts-not-tests',
      comment: 'scripts/ never import tests/.',
      severity: 'error',
      from: { path: '^scripts/' },
      to: { path: '^tests/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '^(out|\\.next)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
}
