/**
 * Real `.deb` and `.rpm` packages for the repository tests, built with Debian's `dpkg-deb` and
 * `rpmbuild` (fixtures only: Ferry reads packages itself).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A `.deb` of `name` `version` for `arch`; `compression` picks control.tar's (and data.tar's) compressor. */
export function buildDeb(name: string, version: string, arch = 'amd64', compression: 'xz' | 'gzip' | 'zstd' = 'xz'): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-deb-'))
  try {
    const root = join(dir, 'root')
    mkdirSync(join(root, 'DEBIAN'), { recursive: true })
    mkdirSync(join(root, 'usr/share/doc', name), { recursive: true })
    writeFileSync(join(root, 'usr/share/doc', name, 'README'), `${name} ${version}\n`)
    writeFileSync(join(root, 'DEBIAN/control'), [
      `Package: ${name}`, `Version: ${version}`, `Architecture: ${arch}`, 'Maintainer: Ferry Tests <tests@ferry.test>',
      'Section: utils', 'Priority: optional', `Description: ${name} for the repository tests`, ' A second description line.', '',
    ].join('\n'))
    const out = join(dir, 'out.deb')
    execFileSync('dpkg-deb', ['--root-owner-group', `-Z${compression}`, '--build', root, out], { stdio: 'pipe' })
    return readFileSync(out)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A noarch `.rpm` of `name` `version`-1 with one file and no dependencies. */
export function buildRpm(name: string, version: string): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-rpm-'))
  try {
    const spec = join(dir, `${name}.spec`)
    writeFileSync(spec, [
      `Name: ${name}`, `Version: ${version}`, 'Release: 1', `Summary: ${name} for the repository tests`, 'License: MIT',
      'BuildArch: noarch', 'AutoReqProv: no', '', '%description', 'A package built by the Ferry tests.', '',
      '%install', `mkdir -p %{buildroot}/usr/share/${name}`, `echo ${version} > %{buildroot}/usr/share/${name}/VERSION`, '',
      '%files', `/usr/share/${name}/VERSION`, '',
    ].join('\n'))
    execFileSync('rpmbuild', ['-bb', '--define', `_topdir ${dir}`, '--define', '_build_id_links none', spec], { stdio: 'pipe' })
    return readFileSync(join(dir, 'RPMS/noarch', `${name}-${version}-1.noarch.rpm`))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
