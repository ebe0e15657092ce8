/**
 * The home page's picture of the update flow: the release pipeline uploads to Ferry, and each
 * installed app asks in its updater's own protocol. Plain SVG with real text, coloured by the
 * site's CSS variables so it follows light and dark; its viewBox fixes the aspect ratio, so it
 * takes its space before it paints (no layout shift).
 */
const LANES = [
  ['Squirrel.Windows', '…/squirrel/stable/x64/RELEASES'],
  ['Squirrel.Mac', '…/squirrel-mac/stable/arm64 → JSON'],
  ['electron-updater', '…/electron-updater/…/latest.yml'],
  ['Tauri v2', '…/tauri/… → JSON + signature'],
  ['Your own code', 'GET /v1/apps/{app}/update'],
] as const

const WIDTH = 360
const LANE_TOP = 218
const LANE_STEP = 54

export function UpdateFlow() {
  return (
    <svg className="ferry-flow-diagram" viewBox={`0 0 ${WIDTH} ${LANE_TOP + LANES.length * LANE_STEP}`} role="img" aria-labelledby="ferry-flow-title ferry-flow-desc">
      <title id="ferry-flow-title">How updates flow through Ferry</title>
      <desc id="ferry-flow-desc">
        {`Your release pipeline runs ferry publish, which uploads versions and their artifacts to Ferry. Ferry files them by channel, platform and architecture, with a rollout percentage. Installed apps then ask Ferry in their updater's own protocol: ${LANES.map(([name, path]) => `${name} (${path})`).join(', ')}.`}
      </desc>
      <defs>
        <marker id="ferry-flow-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0 0L10 5L0 10z" className="ferry-flow-arrowhead" />
        </marker>
      </defs>

      <rect x="1" y="1" width={WIDTH - 2} height="58" rx="10" className="ferry-flow-box" />
      <text x="16" y="25" className="ferry-flow-name">Release pipeline</text>
      <text x="16" y="46" className="ferry-flow-code">ferry publish dist --app harbor-notes</text>

      <line x1="40" y1="60" x2="40" y2="100" className="ferry-flow-line" markerEnd="url(#ferry-flow-arrow)" />
      <text x="54" y="85" className="ferry-flow-note">versions + artifacts, SHA-256/512</text>

      <rect x="1" y="104" width={WIDTH - 2} height="70" rx="10" className="ferry-flow-box ferry-flow-core" />
      <text x="16" y="130" className="ferry-flow-name">Ferry</text>
      <text x="16" y="152" className="ferry-flow-note">channel · platform · arch · rollout %</text>
      <text x="16" y="166" className="ferry-flow-note">intermediate and critical releases</text>

      <line x1="20" y1="175" x2="20" y2={LANE_TOP + (LANES.length - 1) * LANE_STEP + 22} className="ferry-flow-line" />
      <text x="32" y="202" className="ferry-flow-note">installed apps ask, each in its protocol</text>
      {LANES.map(([name, path], i) => {
        const y = LANE_TOP + i * LANE_STEP
        return (
          <g key={name}>
            <line x1="20" y1={y + 22} x2="44" y2={y + 22} className="ferry-flow-line" markerStart="url(#ferry-flow-arrow)" />
            <rect x="46" y={y} width={WIDTH - 47} height="44" rx="8" className="ferry-flow-box" />
            <text x="58" y={y + 18} className="ferry-flow-lane">{name}</text>
            <text x="58" y={y + 35} className="ferry-flow-code">{path}</text>
          </g>
        )
      })}
    </svg>
  )
}
