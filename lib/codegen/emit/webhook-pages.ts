/**
 * @module Stage: webhook events → MDX under pages/docs/api/events: an introduction (how a
 * delivery arrives, what the receiver answers, every event) and one page per event with its
 * headers, body schema and example.
 */
import type { ParameterModel, SchemaRow, WebhookModel } from '../model.ts'
import { BANNER } from '../context.ts'
import { EVENTS_FOLDER, EVENTS_INTRO } from '../transform/webhook.ts'
import { escapeMdx, frontMatter, plainSentence } from './mdx.ts'

const SCHEMA_TABLE = "import { SchemaTable } from '../../../../components/api/schema-table'"
const RECEIVER_GUIDE = '/docs/webhooks#a-receiver-that-verifies-signatures'

function rows(params: ParameterModel[]): SchemaRow[] {
  return params.map(({ in: _in, exampleValue: _value, ...row }) => row)
}

function fence(json: unknown, title: string): string {
  return `\`\`\`json filename=${JSON.stringify(title)}\n${JSON.stringify(json, null, 2)}\n\`\`\``
}

/** What a receiver's answer means: the same for every event, read from the first event's responses. */
function answerText(hooks: readonly WebhookModel[]): string {
  return (hooks[0]?.responses ?? [])
    .map((r) => `- \`${r.status}\`: ${escapeMdx(r.description.replace(/\s+/g, ' '))}`)
    .join('\n')
}

/** Prints a schema table: the page's `<SchemaTable>`, or a Markdown table in the page's twin. */
export type PrintTable = (label: string, rows: SchemaRow[]) => string

const schemaTableJsx: PrintTable = (label, rows) =>
  `<SchemaTable label=${JSON.stringify(label)} rows={${JSON.stringify(rows)}} />`

/** An event page below its front matter and imports: the page and its Markdown twin print the same sections. */
export function eventBody(hook: WebhookModel, docsBase: string, table: PrintTable): string {
  const intro = `${docsBase}/${EVENTS_FOLDER}/${EVENTS_INTRO}`
  return [
    `# ${hook.type}`,
    '',
    escapeMdx(hook.description.trim()),
    '',
    `Ferry POSTs this event to every enabled subscription that asks for \`${hook.type}\` (or \`*\`) and for its app. [Webhook events](${intro}) says how deliveries are signed and retried; [a receiver that verifies signatures](${RECEIVER_GUIDE}) checks them.`,
    '',
    '## Headers',
    '',
    table('Headers', rows(hook.headers)),
    '',
    '## Body',
    '',
    `\`${hook.body.contentType}\`.`,
    '',
    table('Body', hook.body.rows),
    '',
    fence(hook.body.example, `${hook.type} example`),
    '',
    '## Your answer',
    '',
    ...hook.responses.map((r) => `- \`${r.status}\`: ${escapeMdx(r.description.replace(/\s+/g, ' ').trim())}`),
    '',
  ].join('\n')
}

export function renderEventPage(hook: WebhookModel, docsBase: string): string {
  return [
    frontMatter({ title: hook.type, description: plainSentence(hook.description), openapi: hook.pointer }),
    SCHEMA_TABLE,
    '',
    eventBody(hook, docsBase, schemaTableJsx),
  ].join('\n')
}

/** The introduction's front matter fields. */
export const EVENTS_INTRO_PAGE = {
  title: 'Webhook events',
  description: 'The events Ferry POSTs to a webhook subscription: headers, bodies and what your answer means.',
  openapi: '#/webhooks',
}

/** The introduction below its front matter (plain Markdown: the page and its twin alike). */
export function eventsIntroBody(hooks: readonly WebhookModel[], docsBase: string): string {
  const list = hooks.map((h) => `- [\`${h.type}\`](${h.route}): ${escapeMdx(plainSentence(h.description))}`)
  return [
    `# ${EVENTS_INTRO_PAGE.title}`,
    '',
    `Ferry POSTs each event as JSON to every enabled subscription that asks for it ([Create a webhook subscription](${docsBase}/webhooks/create-webhook)). The body is \`{ type, timestamp, data }\`; \`data\` depends on the event. Every request is signed per the Standard Webhooks specification with three headers, \`webhook-id\`, \`webhook-timestamp\` and \`webhook-signature\`; verify them with the specification's library before trusting the body, as [a receiver that verifies signatures](${RECEIVER_GUIDE}) does.`,
    '',
    'Delivery is at least once: an event can arrive twice (a retry, a redelivery), and events arrive in no promised order. Drop an event whose `webhook-id` you already handled, and order by `timestamp`.',
    '',
    '## Your answer',
    '',
    answerText(hooks),
    '',
    '## Events',
    '',
    ...list,
    '',
  ].join('\n')
}

export function renderEventsIntro(hooks: readonly WebhookModel[], docsBase: string): string {
  return [frontMatter(EVENTS_INTRO_PAGE), eventsIntroBody(hooks, docsBase)].join('\n')
}

/** The events folder's sidebar: the introduction, then each event in spec order. */
export function renderEventsMeta(hooks: readonly WebhookModel[]): string {
  const entries = [[EVENTS_INTRO, 'Introduction'], ...hooks.map((h) => [h.slug, h.type])]
  const body = entries.map(([key, title]) => `  ${JSON.stringify(key)}: ${JSON.stringify(title)},`).join('\n')
  return `// ${BANNER}\n// Source: #/webhooks\nexport default {\n${body}\n}\n`
}
