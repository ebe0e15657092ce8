/**
 * @module apt and rpm repositories of public apps, per channel: the indexes (built from one read
 * of the channel's packages, rendered by server/protocols/, signed with the app's key) and the
 * package files (streamed like artifact downloads). A repository gives every machine the same
 * answer, so only versions rolled out to 100 % are listed.
 */
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import type { Ctx } from '../http/context.ts'
import { notFound } from '../http/problem.ts'
import { secured, withSecurityHeaders } from '../http/security-headers.ts'
import { digestHex } from '../auth/crypto.ts'
import { generateRepositoryKey, indexSigner, type IndexSigner } from '../auth/repository-keys.ts'
import { rolloutAt } from '../updates/rollout.ts'
import { downloadResponse } from '../transfer/artifact-download.ts'
import type { RpmMetadata } from '../transfer/linux-packages.ts'
import {
  aptArchitectures,
  packagesIndex,
  releaseFile,
  type AptPackage,
  type IndexFile,
} from '../protocols/apt-repository.ts'
import {
  filelistsXml,
  otherXml,
  primaryXml,
  repomdXml,
  type RepomdEntry,
  type RpmPackage,
} from '../protocols/rpm-repository.ts'
import {
  channelExists,
  findRepositoryApp,
  keepSigningKey,
  repositoryFile,
  repositoryPackages,
  signingKeyOf,
  type RepositoryPackageRow,
} from '../storage/linux-repositories.ts'

type Ops =
  'getRepositoryKey' | 'getAptRelease' | 'getAptPackages' | 'getAptPackageFile' | 'getRpmMetadata' | 'getRpmPackageFile'

export const INDEX_CACHE_CONTROL = 'public, max-age=60'
const KEY_CACHE_CONTROL = 'public, max-age=300'
const MAX_SIGNERS = 256

const encoder = new TextEncoder()

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([new Uint8Array(encoder.encode(text))]).stream().pipeThrough(new CompressionStream('gzip'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

function fileResponse(body: string | Uint8Array, contentType: string, cacheControl = INDEX_CACHE_CONTROL): Response {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body
  return secured(
    new Response(new Blob([new Uint8Array(bytes)]), {
      status: 200,
      headers: withSecurityHeaders({
        'content-type': contentType,
        'cache-control': cacheControl,
        'content-length': String(bytes.length),
      }),
    }),
  )
}

const isFieldList = (v: unknown): v is Array<[string, string]> =>
  Array.isArray(v) &&
  v.every((f) => Array.isArray(f) && f.length === 2 && typeof f[0] === 'string' && typeof f[1] === 'string')

export function linuxRepositoryHandlers(s: Services): Pick<Handlers, Ops> {
  /** The app, when it exists and is public (private apps have no repositories). */
  async function publicApp(slug: string) {
    const app = await findRepositoryApp(s.db, slug)
    if (!app || app.private === 1)
      throw notFound(`No public app ${slug}: apt and rpm repositories are served for public apps only.`)
    return app
  }

  // Unlocked signers by app and key, so a request signs (~8 ms) without unlocking (~250 ms).
  const signers = new Map<string, Promise<IndexSigner>>()
  async function signerOf(app: { slug: string; name: string }): Promise<IndexSigner> {
    const key = await keyOf(app)
    const id = `${app.slug} ${key.fingerprint}`
    let signer = signers.get(id)
    if (!signer) {
      if (signers.size >= MAX_SIGNERS) signers.delete(signers.keys().next().value ?? '')
      signer = indexSigner(s.config.jwtSecret, key)
      signers.set(id, signer)
      signer.catch(() => signers.delete(id))
    }
    return signer
  }

  async function keyOf(app: { slug: string; name: string }) {
    return (
      (await signingKeyOf(s.db, app.slug)) ??
      (await keepSigningKey(s.db, await generateRepositoryKey(s.config.jwtSecret, app.slug, app.name, s.now())))
    )
  }

  /** The channel's listed packages of `kind`: published, neither pulled nor paused, at 100 %. */
  async function listed(app: { slug: string; team_id: string }, channel: string, kind: 'deb' | 'rpm') {
    if (!(await channelExists(s.db, app.team_id, channel)))
      throw notFound(`No channel ${channel} in the team of ${app.slug}.`)
    const now = s.now().getTime()
    const rows = (await repositoryPackages(s.db, app.slug, channel, kind)).filter(
      (r) => rolloutAt(r, now).percentage >= 100,
    )
    // The index's date: the newest change among what it lists, so the same listing keeps its date.
    const changed = rows.map((r) => Date.parse(r.published_at ?? r.created_at)).filter((t) => !Number.isNaN(t))
    return { rows, date: new Date(changed.length ? Math.max(...changed) : 0) }
  }

  const describe = async (text: string, path: string): Promise<IndexFile> => ({
    path,
    size: encoder.encode(text).length,
    sha256: await digestHex('SHA-256', text),
  })

  async function aptSnapshot(app: { slug: string; team_id: string; name: string }, channel: string) {
    const { rows, date } = await listed(app, channel, 'deb')
    const packages: AptPackage[] = rows.map((r: RepositoryPackageRow) => {
      const parsed: unknown = JSON.parse(r.metadata)
      return {
        fields: isFieldList(parsed) ? parsed : [],
        arch: r.arch,
        filename: `pool/${r.artifact_id}/${r.file_name}`,
        size: r.size,
        sha1: r.sha1,
        sha256: r.sha256,
        sha512: r.sha512,
      }
    })
    const architectures = aptArchitectures(packages)
    const indexes = new Map<string, { text: string; gz: Uint8Array }>()
    const files: IndexFile[] = []
    for (const arch of architectures) {
      const text = packagesIndex(packages, arch)
      const gz = await gzip(text)
      indexes.set(arch, { text, gz })
      files.push(await describe(text, `main/binary-${arch}/Packages`))
      files.push({ path: `main/binary-${arch}/Packages.gz`, size: gz.length, sha256: await digestHex('SHA-256', gz) })
    }
    const release = releaseFile({ origin: app.name, label: app.name, channel, date, architectures, files })
    return { indexes, release }
  }

  async function rpmSnapshot(app: { slug: string; team_id: string }, channel: string) {
    const { rows, date } = await listed(app, channel, 'rpm')
    const packages: RpmPackage[] = rows.map((r) => {
      const meta = JSON.parse(r.metadata) as RpmMetadata // written by readLinuxPackages at upload, never by a client
      return {
        meta,
        href: `packages/${r.artifact_id}/${r.file_name}`,
        size: r.size,
        sha256: r.sha256,
        fileTime: Math.floor(Date.parse(r.created_at) / 1000),
      }
    })
    const revision = Math.floor(date.getTime() / 1000)
    const open = { primary: primaryXml(packages), filelists: filelistsXml(packages), other: otherXml(packages) }
    const files = new Map<string, Uint8Array>()
    const entries: RepomdEntry[] = []
    for (const type of ['primary', 'filelists', 'other'] as const) {
      const gz = await gzip(open[type])
      files.set(`${type}.xml.gz`, gz)
      entries.push({
        type,
        href: `repodata/${type}.xml.gz`,
        sha256: await digestHex('SHA-256', gz),
        size: gz.length,
        openSha256: await digestHex('SHA-256', open[type]),
        openSize: encoder.encode(open[type]).length,
      })
    }
    return { files, repomd: repomdXml(revision, entries) }
  }

  async function packageFile(c: Ctx, slug: string, artifact: string, file: string, kind: 'deb' | 'rpm') {
    await publicApp(slug)
    const row = await repositoryFile(s.db, slug, artifact, file, kind)
    if (!row || row.published !== 1 || row.pulled_at !== null)
      throw notFound(
        `No published package ${file} (${artifact}) in the ${kind === 'deb' ? 'apt' : 'rpm'} repository of ${slug}.`,
      )
    return downloadResponse(
      s.blobs,
      {
        id: row.id,
        fileName: row.file_name,
        blobKey: row.blob_key,
        sha256: row.sha256,
        size: row.size,
        isPublic: true,
      },
      { range: c.req.header('range'), ifNoneMatch: c.req.header('if-none-match') },
    )
  }

  return {
    async getRepositoryKey(_c, { path }) {
      const app = await publicApp(path.app)
      return fileResponse((await keyOf(app)).public_key, 'application/pgp-keys', KEY_CACHE_CONTROL)
    },

    async getAptRelease(_c, { path }) {
      const app = await publicApp(path.app)
      const { release } = await aptSnapshot(app, path.channel)
      if (path.file === 'Release') return fileResponse(release, 'text/plain; charset=utf-8')
      const signer = await signerOf(app)
      if (path.file === 'InRelease')
        return fileResponse(await signer.clearSign(release, s.now()), 'text/plain; charset=utf-8')
      return fileResponse(await signer.detachSign(release, s.now()), 'application/pgp-signature')
    },

    async getAptPackages(_c, { path }) {
      const app = await publicApp(path.app)
      const arch = path.binaryArch.slice('binary-'.length)
      const index = (await aptSnapshot(app, path.channel)).indexes.get(arch)
      if (!index) throw notFound(`The apt repository of ${app.slug} lists no architecture ${arch} on ${path.channel}.`)
      return path.file === 'Packages'
        ? fileResponse(index.text, 'text/plain; charset=utf-8')
        : fileResponse(index.gz, 'application/gzip')
    },

    async getAptPackageFile(c, { path }) {
      return packageFile(c, path.app, path.artifact, path.file, 'deb')
    },

    async getRpmMetadata(_c, { path }) {
      const app = await publicApp(path.app)
      const snapshot = await rpmSnapshot(app, path.channel)
      if (path.file === 'repomd.xml') return fileResponse(snapshot.repomd, 'application/xml')
      if (path.file === 'repomd.xml.asc') {
        return fileResponse(
          await (await signerOf(app)).detachSign(snapshot.repomd, s.now()),
          'application/pgp-signature',
        )
      }
      const gz = snapshot.files.get(path.file)
      if (!gz) throw notFound(`No ${path.file} in the rpm repository of ${app.slug}.`)
      return fileResponse(gz, 'application/gzip')
    },

    async getRpmPackageFile(c, { path }) {
      return packageFile(c, path.app, path.artifact, path.file, 'rpm')
    },
  }
}
