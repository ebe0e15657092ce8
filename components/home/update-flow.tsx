/**
 * The home page's picture of the update flow: the release pipeline uploads to Ferry, each
 * installed app asks in its updater's own protocol and downloads from disk, S3 or a CDN, and
 * health reports flow back (they pause a ramp; a pulled version rolls devices back). Plain SVG
 * with real text, coloured by the site's CSS variables so it follows light and dark; its viewBox
 * fixes the aspect ratio, so it takes its space before it paints (no layout shift).
 */
const LANES = [
  ['Squirrel.Windows', '…/squirrel/stable/x64/RELEASES'],
  ['Squirrel.Mac', '…/squirrel-mac/stable/arm64'],
  ['electron-updater', '…/electron-updater/…/latest.yml'],
  ['Tauri v2', '…/tauri/… → JSON + signature'],
  ['Velopack', '…/velopack/…/releases.json'],
  ['Sparkle', '…/sparkle/…/appcast.xml'],
  ['MSIX (Electron, App Installer)', '…/msix/stable/x64'],
  ['Your own code', 'GET /v1/apps/{app}/update'],
] as const

const WIDTH = 360
const LANE_TOP = 232
const LANE_STEP = 44
const LANE_HEIGHT = 36
/** The right-hand gutter where health reports flow back up. */
const BACK_X = WIDTH - 12
const LANES_BOTTOM = LANE_TOP + (LANES.length - 1) * LANE_STEP + LANE_HEIGHT
const FLOW_HEIGHT = LANES_BOTTOM + 58

export function UpdateFlow() {
  return (
    <svg
      className="ferry-flow-diagram"
      viewBox={`0 0 ${WIDTH} ${FLOW_HEIGHT}`}
      role="img"
      aria-labelledby="ferry-flow-title ferry-flow-desc"
    >
      <title id="ferry-flow-title">How updates flow through Ferry</title>
      <desc id="ferry-flow-desc">
        {`Your release pipeline runs ferry publish, which uploads versions and their artifacts to Ferry. Ferry keeps its records in SQLite or PostgreSQL and the files on disk or in S3, filed by channel, platform and architecture, with ramps, pauses and pulls. Installed apps ask Ferry in their updater's own protocol: ${LANES.map(([name, path]) => `${name} (${path})`).join(', ')}. They download from disk, S3 or a CDN in front, and report whether the update installed; those health reports flow back to Ferry, which pauses a ramp when too many fail.`}
      </desc>
      <defs>
        <marker
          id="ferry-flow-arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M0 0L10 5L0 10z" className="ferry-flow-arrowhead" />
        </marker>
      </defs>

      <rect x="1" y="1" width={WIDTH - 2} height="58" rx="10" className="ferry-flow-box" />
      <text x="16" y="25" className="ferry-flow-name">
        Release pipeline
      </text>
      <text x="16" y="46" className="ferry-flow-code">
        ferry publish dist --app harbor-notes
      </text>

      <line x1="40" y1="60" x2="40" y2="100" className="ferry-flow-line" markerEnd="url(#ferry-flow-arrow)" />
      <text x="54" y="85" className="ferry-flow-note">
        versions + artifacts, SHA-256/512
      </text>

      <rect x="1" y="104" width={WIDTH - 2} height="86" rx="10" className="ferry-flow-box ferry-flow-core" />
      <text x="16" y="128" className="ferry-flow-name">
        Ferry
      </text>
      <text x="16" y="148" className="ferry-flow-note">
        SQLite or PostgreSQL · files on disk or S3
      </text>
      <text x="16" y="164" className="ferry-flow-note">
        channel · platform · arch · ramps
      </text>
      <text x="16" y="180" className="ferry-flow-note">
        intermediate · critical · pause · pull
      </text>

      <line
        x1="20"
        y1="191"
        x2="20"
        y2={LANE_TOP + (LANES.length - 1) * LANE_STEP + LANE_HEIGHT / 2}
        className="ferry-flow-line"
      />
      <text x="32" y="216" className="ferry-flow-note">
        installed apps ask, each in its protocol
      </text>
      {LANES.map(([name, path], i) => {
        const y = LANE_TOP + i * LANE_STEP
        return (
          <g key={name}>
            <line
              x1="20"
              y1={y + LANE_HEIGHT / 2}
              x2="44"
              y2={y + LANE_HEIGHT / 2}
              className="ferry-flow-line"
              markerStart="url(#ferry-flow-arrow)"
            />
            <rect x="46" y={y} width={BACK_X - 58} height={LANE_HEIGHT} rx="8" className="ferry-flow-box" />
            <text x="58" y={y + 15} className="ferry-flow-lane">
              {name}
            </text>
            <text x="58" y={y + 30} className="ferry-flow-code">
              {path}
            </text>
            <line
              x1={BACK_X - 12}
              y1={y + LANE_HEIGHT / 2}
              x2={BACK_X}
              y2={y + LANE_HEIGHT / 2}
              className="ferry-flow-line ferry-flow-back"
            />
          </g>
        )
      })}
      <line
        x1={BACK_X}
        y1={LANE_TOP + (LANES.length - 1) * LANE_STEP + LANE_HEIGHT / 2}
        x2={BACK_X}
        y2="192"
        className="ferry-flow-line ferry-flow-back"
        markerEnd="url(#ferry-flow-arrow)"
      />

      <text x="16" y={LANES_BOTTOM + 22} className="ferry-flow-note">
        downloads: from disk, S3 or your CDN
      </text>
      <text x="16" y={LANES_BOTTOM + 40} className="ferry-flow-note">
        health reports flow back: failures pause a ramp
      </text>
    </svg>
  )
}
