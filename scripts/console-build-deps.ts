/**
 * React, which the console's bundle includes, is a devDependency: a production install
 * (`npm ci --omit=dev --ignore-scripts`, the Docker image's and the deploy guides') lacks it, while
 * esbuild comes with tsx. Then this installs the React that package-lock.json pins into
 * node_modules/.console-build (5 packages, 5 MB), outside the server's tree, which the next `npm ci`
 * removes with the rest.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const PACKAGES = ['react', 'react-dom']

/** Where esbuild finds React beyond the usual resolution: none when the install has it. */
export function consoleBuildPaths(root: string): string[] {
  try {
    createRequire(join(root, 'package.json')).resolve('react-dom/client')
    return []
  } catch {
    // A production install: fetch React below.
  }
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>
  }
  const specs = PACKAGES.map((name) => {
    const version = lock.packages[`node_modules/${name}`]?.version
    if (!version) throw new Error(`package-lock.json pins no ${name}, which the console's bundle needs`)
    return `${name}@${version}`
  })
  const dir = join(root, 'node_modules', '.console-build')
  mkdirSync(dir, { recursive: true })
  console.log(`console: installing ${specs.join(' ')} for the build (a production install has no React)`)
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--no-package-lock',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      ...specs,
    ],
    { stdio: 'inherit' },
  )
  return [join(dir, 'node_modules')]
}
