/**
 * The App Installer file's schema as Microsoft documents it (MicrosoftDocs/winrt-related
 * `winrt-related-src/schemas/appinstallerschema/` element pages, MicrosoftDocs/msix-docs
 * `msix-src/app-installer/update-settings.md`), for the elements Ferry writes. Microsoft publishes
 * no XSD in a public repository, so `xmllint --schema` has nothing to check against; this checks
 * the documented structure instead and returns every deviation.
 */
import { xml2js, type Element } from 'xml-js'

export const NAMESPACE_2018 = 'http://schemas.microsoft.com/appx/appinstaller/2018'
const QUAD = /^(0|[1-9]\d{0,4})\.(0|[1-9]\d{0,4})\.(0|[1-9]\d{0,4})\.(0|[1-9]\d{0,4})$/
const isQuad = (v: unknown) => typeof v === 'string' && QUAD.test(v) && v.split('.').every((p) => Number(p) <= 65535)
const isAbsoluteUri = (v: unknown) => typeof v === 'string' && URL.canParse(v)
const BOOLEAN = new Set(['true', 'false'])
const ARCHITECTURES = new Set(['x86', 'x64', 'arm', 'arm64', 'neutral'])
/** Children of `AppInstaller` in schema order (element-appinstaller.md). */
const ROOT_ORDER = [
  'OptionalPackages',
  'MainBundle',
  'MainPackage',
  'RelatedPackages',
  'Dependencies',
  'UpdateSettings',
]
/** Children of `UpdateSettings` in schema order (element-update-settings.md, update-settings.md). */
const SETTINGS_ORDER = ['OnLaunch', 'AutomaticBackgroundTask', 'ForceUpdateFromAnyVersion']

const elements = (e: Element | undefined) => (e?.elements ?? []).filter((c) => c.type === 'element')

export interface ParsedAppInstaller {
  uri: string
  version: string
  main: { element: 'MainPackage' | 'MainBundle'; attributes: Record<string, string> }
  settings: { onLaunch?: Record<string, string>; automaticBackgroundTask: boolean; forceUpdateFromAnyVersion: boolean }
}

/** Problems with `xml` as an App Installer file (empty when it conforms), and what it says. */
export function checkAppInstaller(xml: string): { problems: string[]; parsed?: ParsedAppInstaller } {
  const problems: string[] = []
  const doc = xml2js(xml, { compact: false }) as Element
  const roots = elements(doc)
  const root = roots[0]
  if (roots.length !== 1 || root?.name !== 'AppInstaller') return { problems: ['the root element is not AppInstaller'] }
  const a = (root.attributes ?? {}) as Record<string, string>
  if (a.xmlns !== NAMESPACE_2018) problems.push(`AppInstaller's namespace is ${a.xmlns}, not ${NAMESPACE_2018}`)
  for (const name of Object.keys(a))
    if (!['xmlns', 'Uri', 'Version'].includes(name)) problems.push(`AppInstaller has an undocumented attribute ${name}`)
  if (!isAbsoluteUri(a.Uri)) problems.push('AppInstaller Uri is not an absolute URI')
  if (!isQuad(a.Version)) problems.push(`AppInstaller Version ${a.Version} is not a four-part version`)
  const children = elements(root)
  const order = children.map((c) => ROOT_ORDER.indexOf(c.name ?? ''))
  if (order.includes(-1))
    problems.push(`AppInstaller has undocumented children: ${children.map((c) => c.name).join(', ')}`)
  if (order.some((v, i) => i > 0 && v < order[i - 1]!)) problems.push('AppInstaller children are out of schema order')
  const mains = children.filter((c) => c.name === 'MainPackage' || c.name === 'MainBundle')
  if (mains.length !== 1) problems.push(`AppInstaller has ${mains.length} MainPackage/MainBundle elements, not one`)
  const main = mains[0]
  const m = (main?.attributes ?? {}) as Record<string, string>
  if (main) {
    const allowed =
      main.name === 'MainPackage'
        ? ['Name', 'Publisher', 'Version', 'ProcessorArchitecture', 'Uri', 'ResourceId']
        : ['Name', 'Publisher', 'Version', 'Uri']
    for (const name of Object.keys(m))
      if (!allowed.includes(name)) problems.push(`${main.name} has an attribute ${name} its schema does not list`)
    for (const name of ['Name', 'Publisher', 'Version', 'Uri'])
      if (!m[name]) problems.push(`${main.name} lacks ${name}`)
    if (!isQuad(m.Version)) problems.push(`${main.name} Version ${m.Version} is not a four-part version`)
    if (!isAbsoluteUri(m.Uri)) problems.push(`${main.name} Uri is not an absolute URI`)
    if (m.ProcessorArchitecture !== undefined && !ARCHITECTURES.has(m.ProcessorArchitecture))
      problems.push(`ProcessorArchitecture ${m.ProcessorArchitecture} is not one of x86, x64, arm, arm64, neutral`)
  }
  const settingsElement = children.find((c) => c.name === 'UpdateSettings')
  const settingChildren = elements(settingsElement)
  const settingOrder = settingChildren.map((c) => SETTINGS_ORDER.indexOf(c.name ?? ''))
  if (settingOrder.includes(-1))
    problems.push(`UpdateSettings has undocumented children: ${settingChildren.map((c) => c.name).join(', ')}`)
  if (settingOrder.some((v, i) => i > 0 && v <= settingOrder[i - 1]!))
    problems.push('UpdateSettings children are out of order or repeated')
  const onLaunch = settingChildren.find((c) => c.name === 'OnLaunch')
  const o = (onLaunch?.attributes ?? {}) as Record<string, string>
  for (const name of Object.keys(o))
    if (!['HoursBetweenUpdateChecks', 'ShowPrompt', 'UpdateBlocksActivation'].includes(name))
      problems.push(`OnLaunch has an undocumented attribute ${name}`)
  if (
    o.HoursBetweenUpdateChecks !== undefined &&
    !(/^\d{1,3}$/.test(o.HoursBetweenUpdateChecks) && Number(o.HoursBetweenUpdateChecks) <= 255)
  ) {
    problems.push(`HoursBetweenUpdateChecks ${o.HoursBetweenUpdateChecks} is not 0–255`)
  }
  for (const name of ['ShowPrompt', 'UpdateBlocksActivation'])
    if (o[name] !== undefined && !BOOLEAN.has(o[name])) problems.push(`${name} is not a boolean`)
  if (o.UpdateBlocksActivation === 'true' && o.ShowPrompt !== 'true')
    problems.push('UpdateBlocksActivation="true" needs ShowPrompt="true"')
  const background = settingChildren.find((c) => c.name === 'AutomaticBackgroundTask')
  if (background && elements(background).length + (background.elements?.length ?? 0) > 0)
    problems.push('AutomaticBackgroundTask is not empty')
  const force = settingChildren.find((c) => c.name === 'ForceUpdateFromAnyVersion')
  const forceText = force?.elements?.find((c) => c.type === 'text')?.text
  if (force && !BOOLEAN.has(String(forceText))) problems.push('ForceUpdateFromAnyVersion does not hold true or false')
  if (!main) return { problems }
  return {
    problems,
    parsed: {
      uri: a.Uri ?? '',
      version: a.Version ?? '',
      main: { element: main.name === 'MainBundle' ? 'MainBundle' : 'MainPackage', attributes: m },
      settings: {
        ...(onLaunch ? { onLaunch: o } : {}),
        automaticBackgroundTask: background !== undefined,
        forceUpdateFromAnyVersion: String(forceText) === 'true',
      },
    },
  }
}
