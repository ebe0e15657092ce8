/**
 * @module apt and rpm repositories of public apps, per channel: the indexes (built from one read
 * of the channel's packages, rendered by server/protocols/, signed with the app's key) and the
 * package files (streamed like artifact downloads). A repository gives every machine the same
 * answer, so only versions rolled out to 100 % are listed.
 */
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import type { Ctx } from '../http/context.ts'
import { notFound } from '../core/problem.ts'
import { secured, withSecurityHeaders } from '../http/security-headers.ts'
import { digestHex } from '../core/crypto.ts'
import { generateRepositoryKey, indexSigner, type IndexSigner } from '../auth/repository-keys.ts'
import { rolloutAt } from '../updates/rollout.ts'
import { downloadResponse } from '../transfer/artifact-download.ts'
import type { RpmMetadata } from '../protocols/rpm-repository.ts'
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
  aptIndexFileByHash,
  listedAptIndexFiles,
  recordAptListing,
  type AptIndexFile,
} from '../storage/releases/apt-index-files.ts'
import {
  channelExists,
  findRepositoryApp,
  keepSigningKey,
  repositoryFile,
  repositoryPackages,
  signingKeyOf,
  type RepositoryPackageRow,
} from '../storage/releases/linux-repositories.ts'

type Ops =
  | 'getRepositoryKey'
  | 'getAptRelease'
  | 'getAptPackages'
  | 'getAptIndexByHash'
  | 'getAptPackageFile'
  | 'getRpmMetadata'
  | 'getRpmPackageFile'

export const INDEX_CACHE_CONTROL = 'public, max-age=60'
const KEY_CACHE_CONTROL = 'public, max-age=300'
/** A file named by its hash never changes. */
const BY_HASH_CACHE_CONTROL = 'public, max-age=31536000, immutable'
const MAX_SIGNERS = 256
/** How long an index stays at its `by-hash/` path after a `Release` lists another in its place. */
export const BY_HASH_KEEP_MS = 24 * 60 * 60 * 1000

const INDEX_TYPES: Record<AptIndexFile['file'], string> = {
  Packages: 'text/plain; charset=utf-8',
  'Packages.gz': 'application/gzip',
  'Packages.xz': 'application/x-xz',
}

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

  /**
   * The channel's apt indexes now: each architecture's `Packages` text and the hashes of its
   * compressed forms, and the `Release` listing them. A listing not seen before is recorded (with
   * the compressed files) for `by-hash/`; one seen before reuses the stored compressed files, so
   * nothing is compressed twice and a listing keeps its hashes.
   */
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
    const stored = await listedAptIndexFiles(s.db, app.slug, channel)
    const forms: Array<AptIndexFile['file']> = s.compressXz
      ? ['Packages', 'Packages.gz', 'Packages.xz']
      : ['Packages', 'Packages.gz']
    const nowIso = s.now().toISOString()
    const indexes = new Map<string, { text: string; files: Map<AptIndexFile['file'], string> }>()
    const listing: IndexFile[] = []
    const added: AptIndexFile[] = []
    for (const arch of architectures) {
      const binaryArch = `binary-${arch}`
      const text = packagesIndex(packages, arch)
      const plain = await describe(text, `main/${binaryArch}/Packages`)
      const previous = stored.filter((f) => f.binary_arch === binaryArch)
      const same = previous.some((f) => f.file === 'Packages' && f.sha256 === plain.sha256)
      const files = new Map<AptIndexFile['file'], string>()
      for (const form of forms) {
        const kept = same ? previous.find((f) => f.file === form) : undefined
        let entry: { sha256: string; size: number }
        if (kept) entry = { sha256: kept.sha256, size: kept.size }
        else {
          const body =
            form === 'Packages' ? encoder.encode(text) : form === 'Packages.gz' ? await gzip(text) : await xzOf(text)
          entry = { sha256: await digestHex('SHA-256', body), size: body.length }
          added.push({ binary_arch: binaryArch, file: form, ...entry, body, listed_at: nowIso, replaced_at: null })
        }
        files.set(form, entry.sha256)
        listing.push({ path: `main/${binaryArch}/${form}`, ...entry })
      }
      indexes.set(arch, { text, files })
    }
    const inListing = listing.map((f) => ({ binary_arch: f.path.split('/')[1] ?? '', sha256: f.sha256 }))
    const gone = stored.some((f) => !inListing.some((l) => l.binary_arch === f.binary_arch && l.sha256 === f.sha256))
    if (added.length || gone) {
      const forgetBefore = new Date(s.now().getTime() - BY_HASH_KEEP_MS).toISOString()
      await recordAptListing(s.db, app.slug, channel, inListing, added, nowIso, forgetBefore)
    }
    const release = releaseFile({ origin: app.name, label: app.name, channel, date, architectures, files: listing })
    return { indexes, release }
  }

  async function xzOf(text: string): Promise<Uint8Array> {
    if (!s.compressXz) throw new Error('Packages.xz asked of a runtime without an xz compressor')
    return s.compressXz(encoder.encode(text))
  }

  /** An index file of the channel by hash, as a listing recorded it (`aptSnapshot`). */
  function indexFile(slug: string, channel: string, binaryArch: string, sha256: string) {
    const since = new Date(s.now().getTime() - BY_HASH_KEEP_MS).toISOString()
    return aptIndexFileByHash(s.db, slug, channel, binaryArch, sha256, since)
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
      const snapshot = await aptSnapshot(app, path.channel)
      const index = snapshot.indexes.get(arch)
      if (!index) throw notFound(`The apt repository of ${app.slug} lists no architecture ${arch} on ${path.channel}.`)
      if (path.file === 'Packages') return fileResponse(index.text, INDEX_TYPES.Packages)
      const sha256 = index.files.get(path.file)
      const stored = sha256 && (await indexFile(app.slug, path.channel, path.binaryArch, sha256))
      if (!stored) throw notFound(`This Ferry does not serve ${path.file}: its runtime has no xz compressor.`)
      return fileResponse(stored.body, INDEX_TYPES[path.file])
    },

    async getAptIndexByHash(_c, { path }) {
      const app = await publicApp(path.app)
      let file = await indexFile(app.slug, path.channel, path.binaryArch, path.hash)
      // Not recorded yet (no Release was read since the index changed): the current listing may have it.
      if (!file) {
        await aptSnapshot(app, path.channel)
        file = await indexFile(app.slug, path.channel, path.binaryArch, path.hash)
      }
      if (!file)
        throw notFound(
          `No index of ${path.binaryArch} with SHA-256 ${path.hash} in the apt repository of ${app.slug} on ${path.channel}: ` +
            `an index is served by hash while a Release lists it and for ${BY_HASH_KEEP_MS / 3_600_000} hours after.`,
        )
      return fileResponse(file.body, INDEX_TYPES[file.file], BY_HASH_CACHE_CONTROL)
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
