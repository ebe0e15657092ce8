/**
 * Real `.deb` and `.rpm` packages for the repository tests, built with Debian's `dpkg-deb` and
 * `rpmbuild` (fixtures only: Ferry reads packages itself).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A `.deb` of `name` `version` for `arch`; `compression` picks control.tar's (and data.tar's) compressor. */
export function buildDeb(
  name: string,
  version: string,
  arch = 'amd64',
  compression: 'xz' | 'gzip' | 'zstd' = 'xz',
): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-deb-'))
  try {
    const root = join(dir, 'root')
    mkdirSync(join(root, 'DEBIAN'), { recursive: true })
    mkdirSync(join(root, 'usr/share/doc', name), { recursive: true })
    writeFileSync(join(root, 'usr/share/doc', name, 'README'), `${name} ${version}\n`)
    writeFileSync(
      join(root, 'DEBIAN/control'),
      [
        `Package: ${name}`,
        `Version: ${version}`,
        `Architecture: ${arch}`,
        'Maintainer: Ferry Tests <tests@ferry.test>',
        'Section: utils',
        'Priority: optional',
        `Description: ${name} for the repository tests`,
        ' A second description line.',
        '',
      ].join('\n'),
    )
    const out = join(dir, 'out.deb')
    execFileSync('dpkg-deb', ['--root-owner-group', `-Z${compression}`, '--build', root, out], { stdio: 'pipe' })
    return readFileSync(out)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A publisher's own OpenPGP key (GnuPG, throwaway) that signs fixture `.rpm` files, as a release pipeline's `rpmsign` would. */
export function publisherKey(): { home: string; name: string; publicKey: string; remove(): void } {
  const home = mkdtempSync(join(tmpdir(), 'ferry-gpg-'))
  const name = 'Ferry Test Publisher <publisher@ferry.test>'
  execFileSync(
    'gpg',
    ['--homedir', home, '--batch', '--passphrase', '', '--quick-gen-key', name, 'rsa2048', 'sign', 'never'],
    { stdio: 'pipe' },
  )
  const publicKey = execFileSync('gpg', ['--homedir', home, '--armor', '--export', name], { encoding: 'utf8' })
  return { home, name, publicKey, remove: () => rmSync(home, { recursive: true, force: true }) }
}

/** A noarch `.rpm` of `name` `version`-1 with one file and no dependencies, signed by `signer` when given. */
export function buildRpm(name: string, version: string, signer?: { home: string; name: string }): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-rpm-'))
  try {
    const spec = join(dir, `${name}.spec`)
    writeFileSync(
      spec,
      [
        `Name: ${name}`,
        `Version: ${version}`,
        'Release: 1',
        `Summary: ${name} for the repository tests`,
        'License: MIT',
        'BuildArch: noarch',
        'AutoReqProv: no',
        '',
        '%description',
        'A package built by the Ferry tests.',
        '',
        '%install',
        `mkdir -p %{buildroot}/usr/share/${name}`,
        `echo ${version} > %{buildroot}/usr/share/${name}/VERSION`,
        '',
        '%files',
        `/usr/share/${name}/VERSION`,
        '',
      ].join('\n'),
    )
    execFileSync('rpmbuild', ['-bb', '--define', `_topdir ${dir}`, '--define', '_build_id_links none', spec], {
      stdio: 'pipe',
    })
    const file = join(dir, 'RPMS/noarch', `${name}-${version}-1.noarch.rpm`)
    if (signer)
      execFileSync(
        'rpmsign',
        [
          '--addsign',
          '--define',
          '__gpg /usr/bin/gpg',
          '--define',
          `_gpg_name ${signer.name}`,
          '--define',
          `_gpg_path ${signer.home}`,
          file,
        ],
        { stdio: 'pipe' },
      )
    return readFileSync(file)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
