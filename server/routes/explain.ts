/**
 * @module Explains an update check: the same `decideUpdate` as the update check
 * (the planner records why it passed over each release), plus the filters that run before it
 * (catalog, drafts, pulls), so the explanation cannot disagree with the answer.
 */
import type { Handlers } from '../http/respond.ts'
import type { Schemas } from '../http/spec.ts'
import type { Services } from '../http/services.ts'
import { currentUser } from '../auth/auth-user.ts'
import { findTeamApp } from './api-objects.ts'
import { versionQuery, type VersionRow } from '../storage/releases/versions.ts'
import { visibleApps } from '../auth/permissions.ts'
import { notFound } from '../core/problem.ts'
import { PROTOCOLS } from '../protocols/index.ts'
import { decideUpdate } from '../updates/decide.ts'
import type { Release } from '../updates/offer.ts'
import { gateProgress, parseGate, parseSteps, policyOf, rolloutAt, tallyReports } from '../updates/rollout.ts'
import { stepEvidence } from '../updates/ramp-gate.ts'
import type { PlanNote } from '../updates/update-logic.ts'
import { versionInput } from '../http/version-input.ts'
import { identityOf } from '../protocols/identity.ts'
import { reading } from './update.ts'
import { signerChangeNote, storedSigner } from '../transfer/signers/signer-continuity.ts'

type Explained = Schemas['VersionExplanation']

/** A public key, short enough for a sentence: its last 12 characters (a minisign key's start is the same for every key). */
const keyLabel = (key: string) => (key.length > 12 ? `…${key.slice(-12)}` : key)

/** Versions listed at most (newest first). */
const MAX_LISTED = 500

export function explainHandlers(s: Services): Pick<Handlers, 'explainUpdate'> {
  return {
    async explainUpdate(c, { path, query }, respond) {
      const user = currentUser(c.get('user'))
      const visible = visibleApps(user)
      if (visible && !visible.has(path.app)) throw notFound(`No app with slug ${path.app}.`)
      const app = await findTeamApp(s, user, path.app)
      const current = versionInput('version', query.version)
      const notes: Array<PlanNote<Release>> = []
      const decision = await decideUpdate(s, PROTOCOLS, {
        slug: app.slug,
        channel: query.channel,
        platform: query.platform,
        arch: query.arch,
        current,
        format: query.format ?? 'platform',
        deviceId: query.deviceId,
        deviceKey: query.deviceId,
        ...identityOf({}, query, reading),
        notes,
      })
      if (!decision) throw notFound(`No app with slug ${app.slug}.`)
      const { target: t, format, offer, protocol } = decision
      const mode = protocol.rolloutMode
      const installable = offer ? protocol.installs(offer.release) : false
      const byId = new Map(notes.map((n) => [n.candidate.row.id, n]))
      const now = s.now().getTime()

      const untrusted = notes.filter((n) => n.rule === 'untrusted-key').map((n) => n.candidate)
      const bridge = offer && installable && !offer.downgrade ? offer.release.version : null
      const untrustedReason = (r: Release) =>
        `${r.version} is signed by key ${keyLabel(r.row.update_key ?? '')}, which ${current.raw} does not trust; ` +
        (bridge ? `offering the bridge ${bridge}.` : 'no release it trusts is offered.')
      const newestHeld = untrusted.reduce<Release | undefined>(
        (top, r) => (top && top.parsed.compare(r.parsed) >= 0 ? top : r),
        undefined,
      )
      const keyHold = newestHeld
        ? {
            keyHold: {
              version: newestHeld.version,
              signedBy: newestHeld.row.update_key ?? '',
              bridge,
              reason: untrustedReason(newestHeld),
            },
          }
        : {}
      const held = new Map<string, string>()
      const rampNote = (row: VersionRow) => {
        const steps = parseSteps(row.ramp_steps)
        if (!steps) return ''
        const { step, hold } = rolloutAt(row, now)
        const waits = hold
          ? `; it holds before step ${hold.step + 1}${hold.expired ? ', past its deadline' : ''}: ${held.get(row.id) ?? ''}`
          : ''
        return (
          (step === null ? ' (its ramp has not reached its first step' : ` (ramp step ${step + 1} of ${steps.length}`) +
          `${waits})`
        )
      }
      const explain = (row: VersionRow): Omit<Explained, 'id' | 'version' | 'rolloutPercentage'> => {
        const excluded = (rule: Explained['rule'], reason: string) => ({
          verdict: 'excluded' as const,
          rule,
          reason,
          bucket: null,
        })
        if (row.channel !== t.channel)
          return excluded('channel', `Released on channel ${row.channel}, not ${t.channel}.`)
        if (row.platform !== t.platform)
          return excluded('platform', `Built for platform ${row.platform}, not ${t.platform}.`)
        if (row.arch !== t.arch) return excluded('arch', `Built for architecture ${row.arch}, not ${t.arch}.`)
        if (row.published !== 1) return excluded('draft', 'A draft: never offered.')
        if (row.pulled_at !== null)
          return excluded('pulled', `Pulled, so offered to nobody: ${row.pull_reason ?? 'no reason given'}`)
        const note = byId.get(row.id)
        if (!note)
          return excluded('unreadable', 'Its version is not semver: it cannot be compared, so it is never offered.')
        const bucket = mode === 'server' ? note.bucket : null
        const skipped = (rule: Explained['rule'], reason: string) => ({
          verdict: 'skipped' as const,
          rule,
          reason,
          bucket,
        })
        if (offer?.release.row.id === row.id) {
          if (!installable)
            return skipped(
              'no-installable-file',
              `Chosen by the planner, but it has no file a ${format} client installs, so the answer is "no update".`,
            )
          if (offer.downgrade && decision.ruled.pinnedBack)
            return {
              verdict: 'offered',
              rule: 'pin',
              reason: `${decision.ruled.pinnedBack.reason}, below ${current.raw}: the newest version within it.`,
              bucket: null,
            }
          if (offer.downgrade)
            return {
              verdict: 'offered',
              rule: 'rollback',
              reason: `${current.raw} is pulled; this is the newest good version below it.`,
              bucket: null,
            }
          if (decision.ruled.lifted.has(row.id))
            return {
              verdict: 'offered',
              rule: 'manual',
              reason: `The newest version above ${current.raw}: a person asked, so its rollout percentage (${rolloutAt(row, now).percentage} %) is skipped.`,
              bucket: null,
            }
          const how =
            note.candidate.rolloutPercentage >= 100
              ? 'rolled out to every device'
              : mode === 'client'
                ? `rolled out to ${note.candidate.rolloutPercentage} %: the ${format} client stages itself`
                : `the device's bucket ${bucket} is below the rollout percentage ${note.candidate.rolloutPercentage}${rampNote(row)}`
          return {
            verdict: 'offered',
            rule: 'offered',
            reason: `The newest version above ${current.raw} that this device may install: ${how}.`,
            bucket,
          }
        }
        switch (note.rule) {
          case 'not-newer':
            return skipped('not-newer', `Not newer than ${current.raw}.`)
          case 'gate':
            return skipped('gate', 'Above an intermediate version the device must install first.')
          case 'lower-offer':
            return skipped('lower-offer', 'A newer version is offered.')
          case 'untrusted-key':
            return skipped('gate', untrustedReason(note.candidate))
          case 'bucket':
            return skipped(
              'bucket',
              `The device's bucket ${bucket} is not below the rollout percentage ${note.candidate.rolloutPercentage}${rampNote(row)}.`,
            )
          case 'zero-percent':
            if (note.candidate.paused && row.paused_at === null) {
              return skipped(
                'paused',
                `Paused, so offered to no new device: its gated ramp held past its deadline${rampNote(row)}.`,
              )
            }
            if (note.candidate.paused)
              return skipped('paused', `Paused, so offered to no new device: ${row.pause_reason ?? 'no reason given'}`)
            return skipped('zero-percent', `Rolled out to 0 %${rampNote(row)}.`)
          case 'offered':
            return skipped('no-installable-file', 'Chosen by the planner, but not what the answer carries.')
          case 'hold':
          case 'pin':
          case 'targeting':
            return skipped(
              note.rule,
              `${decision.ruled.withheld.get(row.id)?.reason ?? 'Withheld by a rule.'} (rule ${decision.ruled.withheld.get(row.id)?.rule.id ?? ''})`,
            )
        }
      }

      const rows = await versionQuery(s.db)
        .where('v.app_slug', '=', app.slug)
        .orderBy('v.version_key', 'desc')
        .orderBy('v.seq', 'desc')
        .limit(MAX_LISTED)
        .execute()
      // Why a gated ramp holds ("12 of 50 installs reported"), from the same evidence as its gate: its step's reports.
      const holding = rows.filter((r) => rolloutAt(r, now).hold !== null)
      const reports = await stepEvidence(s.db, holding, now)
      for (const r of holding) {
        const gate = parseGate(r.ramp_gate)
        if (gate)
          held.set(
            r.id,
            gateProgress(tallyReports(reports.get(r.id) ?? [], policyOf(r, s.config.healthPolicy).policy), gate),
          )
      }
      const versions = rows.map((row) => ({
        id: row.id,
        version: row.version,
        rolloutPercentage: rolloutAt(row, now).percentage,
        ...explain(row),
      }))
      const offered = offer && installable ? offer : null
      const offeredRow = offered ? rows.find((r) => r.id === offered.release.row.id) : undefined
      const signerChange =
        offeredRow && offeredRow.signer_change_note !== null
          ? {
              signerChange: signerChangeNote(
                storedSigner(offeredRow.signer),
                storedSigner(offeredRow.signer_previous),
                offeredRow.signer_change_note,
              ),
            }
          : {}
      return respond(
        200,
        {
          app: app.slug,
          channel: t.channel,
          platform: t.platform,
          arch: t.arch,
          currentVersion: current.raw,
          format,
          rolloutMode: mode,
          inCatalog: t.inCatalog,
          offered: offered?.release.version ?? null,
          critical: offered?.critical ?? false,
          downgrade: offered?.downgrade ?? false,
          ...signerChange,
          ...keyHold,
          versions,
        },
        { 'cache-control': 'no-store' },
      )
    },
  }
}
