/**
 * Next's page scripts, run after the page's first paint instead of before it, with the load event
 * held until the page has hydrated.
 *
 * With `<script defer>` the browser runs Next's runtime, React and the page's code once parsing
 * ends, and a page whose code arrived quickly paints only after all of it has been evaluated: on a
 * mobile CPU that is most of the time before its first paragraph shows (issue 29: 64 % of
 * /docs/intro's LCP was render delay). Here a small inline script appends them, in order, once the
 * document is parsed and its first contentful paint presented (at once in a hidden tab; a timer is
 * the fallback where paint timing is not reported). They are not preloaded: a download begun before
 * the paint competes with the HTML and CSS for a slow link, and Lighthouse counts a script fetched
 * and run before the LCP paint as holding it back. The pages are static HTML, so nothing is missing
 * from that paint.
 *
 * Scripts appended after the paint could run after the load event, so a click right after load
 * found the page not yet hydrated. The loader therefore holds the load event from the start with
 * an empty frame whose document stays open (no network request: nothing for the paint to wait on)
 * and lets it go when the app says it has hydrated (components/hydration-signal.tsx), when a
 * script fails, or after `RELEASE_AFTER_MS` at the latest.
 */
import type { ReactElement } from 'react'
import { HYDRATED_EVENT } from './hydration-signal'

/** The longest the load event waits for hydration after the scripts were appended. */
const RELEASE_AFTER_MS = 10_000

/** The inline loader: holds the load event, appends `srcs` in order (async=false keeps it) after the first contentful paint. */
export function paintFirstLoader(srcs: readonly string[]): string {
  return `(function(s){var done=false,painted=false,parsed=document.readyState!=='loading',hold=document.createElement('iframe');
hold.hidden=true;hold.title='';document.head.appendChild(hold);var held=hold.contentDocument;held&&held.open();
function release(){if(!hold)return;var f=hold;hold=null;held&&held.close();f.remove()}
document.addEventListener(${JSON.stringify(HYDRATED_EVENT)},release);
function run(){if(done)return;done=true;setTimeout(release,${RELEASE_AFTER_MS});s.forEach(function(u){var e=document.createElement('script');e.src=u;e.async=false;e.onerror=release;document.head.appendChild(e)})}
function after(){if(painted&&parsed)requestAnimationFrame(function(){setTimeout(run,0)})}
if(document.visibilityState==='hidden'){parsed?run():document.addEventListener('DOMContentLoaded',run);return}
if(!parsed)document.addEventListener('DOMContentLoaded',function(){parsed=true;after()});setTimeout(run,3000)
try{if(PerformanceObserver.supportedEntryTypes.indexOf('paint')!==-1){new PerformanceObserver(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();painted=true;after()}}).observe({type:'paint',buffered:true});return}}catch(e){}
painted=true;after()})(${JSON.stringify(srcs)})`
}

type ScriptElement = ReactElement<{ src?: string; noModule?: boolean }>

/** The `src` of each classic script element Next rendered (nomodule polyfills and nulls left out). */
export function scriptSources(elements: ReadonlyArray<ReactElement | null>): string[] {
  return elements
    .map((element) => element as ScriptElement | null)
    .filter(
      (element): element is ScriptElement =>
        element !== null &&
        element.type === 'script' &&
        !element.props.noModule &&
        typeof element.props.src === 'string',
    )
    .map((element) => element.props.src as string)
}

/** The loader that runs the scripts after the first paint. */
export function PaintFirstScripts({ srcs }: { srcs: readonly string[] }) {
  return <script dangerouslySetInnerHTML={{ __html: paintFirstLoader(srcs) }} />
}
