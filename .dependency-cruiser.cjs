/* global module */
/**
 * The architecture's invariants (ARCHITECTURE.md, "Code map"), checked by
 * tests/architecture.test.ts in `npm test`. Type-only imports count (`tsPreCompilationDeps`):
 * a cycle of types is still a knot to a reader. Run by hand: `npx depcruise -c .dependency-cruiser.cjs server lib scripts`.
 */
/** The contract's generated types and operation table: the one thing every layer may import. */
const CONTRACT = '^server/generated/'

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
      comment: 'server/storage/ imports nothing of Ferry outside storage but the generated contract types.',
      severity: 'error',
      from: { path: '^server/storage/' },
      to: { path: '^(server|lib|components|scripts|tests)/', pathNot: ['^server/storage/', CONTRACT] },
    },
    {
      name: 'protocols-render-only',
      comment: 'Renderers never import storage or a query builder: protocols render, they never query.',
      severity: 'error',
      from: { path: '^server/protocols/' },
      to: { path: ['^server/storage/', '(^|/)node_modules/(kysely|pg|better-sqlite3|sql\\.js)/'] },
    },
    {
      name: 'http-on-top',
      comment: 'server/http/ is the HTTP edge: storage, updates and protocols never import it.',
      severity: 'error',
      from: { path: '^server/(storage|updates|protocols)/' },
      to: { path: '^server/http/' },
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
      comment: 'lib/ (build-time code) imports nothing from server/ but the generated contract types.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^server/', pathNot: CONTRACT },
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
      to: { path: ['^server/', '^lib/ferry-cli/'], pathNot: [CONTRACT, '^server/runtime/browser\\.ts$'] },
    },
    {
      name: 'codegen-below-changelog',
      comment: 'lib/codegen/ never imports lib/api-changelog/ (the changelog reads the contract through codegen).',
      severity: 'error',
      from: { path: '^lib/codegen/' },
      to: { path: '^lib/api-changelog/' },
    },
    {
      name: 'shared-leaves',
      comment:
        'json-pointer/, artifact-files/ and contract-check/, which server/, lib/ and the site share, import nothing of Ferry but the contract types.',
      severity: 'error',
      from: { path: '^(json-pointer|artifact-files|contract-check)/' },
      to: { path: '^(server|lib|components|scripts|tests)/', pathNot: CONTRACT },
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
