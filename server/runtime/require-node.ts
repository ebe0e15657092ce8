/**
 * @module The Node entry's first import: stops on a Node older than package.json's `engines`
 * before anything else loads. better-sqlite3, built for the Node that `npm ci` ran scripts on,
 * crashes an older Node (status 139, no message) as soon as it is loaded.
 */
import pkg from '../../package.json' with { type: 'json' }

const wanted = Number(/\d+/.exec(pkg.engines.node)?.[0] ?? 0)
if (Number(process.versions.node.split('.')[0]) < wanted) {
  console.error(
    `Ferry needs Node ${pkg.engines.node} (package.json engines); this is Node ${process.version} at ${process.execPath}. Start it with the Node that npm ci installed (node_modules/.bin/node) or another Node ${wanted}.`,
  )
  process.exit(1)
}
