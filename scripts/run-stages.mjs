#!/usr/bin/env node
// `npm test`: runs the npm scripts named on its command line in order, printing each one's wall
// time as it ends and a table of all of them at the end. Stops at the first that fails, with its
// exit code. Plain JavaScript, like node-check.mjs, which is its first stage.
import { spawn } from 'node:child_process'

const stages = process.argv.slice(2)
if (!stages.length) {
  console.error('usage: node scripts/run-stages.mjs SCRIPT... (npm scripts run in this order)')
  process.exit(2)
}

const minutes = (ms) => {
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`
}

/**
 * `npm run NAME` with the npm, and the Node it runs on, that started us (npm_execpath,
 * npm_node_execpath), so node-check.mjs sees the same pair as before; the output passed through.
 */
function run(name) {
  const npm = process.env.npm_execpath
  const node = process.env.npm_node_execpath ?? process.execPath
  const [command, args] = npm ? [node, [npm, 'run', name]] : ['npm', ['run', name]]
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' })
    child.on('error', (error) => {
      console.error(`stage ${name}: could not start npm: ${error.message}`)
      resolve(1)
    })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

const results = []
const began = Date.now()
let failed = 0
for (const [i, name] of stages.entries()) {
  console.log(`\n=== stage ${i + 1}/${stages.length}: npm run ${name}`)
  const start = Date.now()
  const code = await run(name)
  const ms = Date.now() - start
  results.push({ name, ms, code })
  console.log(`=== stage ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${minutes(ms)}`)
  if (code !== 0) {
    failed = code
    break
  }
}

const width = Math.max(...stages.map((s) => s.length))
console.log(`\n${'stage'.padEnd(width + 2)}${'time'.padStart(7)}  result`)
for (const { name, ms, code } of results)
  console.log(`${name.padEnd(width + 2)}${minutes(ms).padStart(7)}  ${code === 0 ? 'passed' : `FAILED (exit ${code})`}`)
for (const name of stages.slice(results.length)) console.log(`${name.padEnd(width + 2)}${'-'.padStart(7)}  not run`)
console.log(`${'total'.padEnd(width + 2)}${minutes(Date.now() - began).padStart(7)}`)
process.exit(failed)
