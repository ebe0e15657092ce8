/**
 * Next's page scripts, run after the page's first paint instead of before it.
 *
 * With `<script defer>` the browser runs Next's runtime, React and the page's code once parsing
 * ends, and a page whose code arrived quickly (cached, or a fast link) paints only after all of it
 * has been evaluated: on a mobile CPU that is most of the time before its first paragraph shows
 * (issue 29: 64 % of /docs/intro's LCP was render delay). Here each script is preloaded at the
 * priority `defer` gives it, and a small inline script appends them, in order, once the first
 * contentful paint has been presented (or at once in a hidden tab, with a timer as a fallback where
 * paint timing is not reported). The pages are static HTML, so nothing is missing from that paint.
 */
import type { ReactElement } from 'react'

/** The inline loader: appends `srcs` in order (async=false keeps it) after the first contentful paint. */
export function paintFirstLoader(srcs: readonly string[]): string {
  return `(function(s){var done=false;function run(){if(done)return;done=true;s.forEach(function(u){var e=document.createElement('script');e.src=u;e.async=false;document.head.appendChild(e)})}
function later(){setTimeout(run,0)}
if(document.visibilityState==='hidden'){document.readyState==='loading'?document.addEventListener('DOMContentLoaded',run):run();return}
try{if(PerformanceObserver.supportedEntryTypes.indexOf('paint')!==-1){new PerformanceObserver(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();later()}}).observe({type:'paint',buffered:true});setTimeout(run,3000);return}}catch(e){}
document.addEventListener('DOMContentLoaded',function(){requestAnimationFrame(function(){requestAnimationFrame(later)})});setTimeout(run,3000)})(${JSON.stringify(srcs)})`
}

type ScriptElement = ReactElement<{ src?: string; noModule?: boolean }>

/** The `src` of each classic script element Next rendered (nomodule polyfills and nulls left out). */
export function scriptSources(elements: ReadonlyArray<ReactElement | null>): string[] {
  return elements
    .map((element) => element as ScriptElement | null)
    .filter((element): element is ScriptElement => element !== null && element.type === 'script' && !element.props.noModule && typeof element.props.src === 'string')
    .map((element) => element.props.src as string)
}

/** Preload links (fetched at `defer`'s low priority) and the loader that runs the scripts after the first paint. */
export function PaintFirstScripts({ srcs }: { srcs: readonly string[] }) {
  return (
    <>
      {srcs.map((src) => <link key={src} rel="preload" as="script" href={src} fetchPriority="low" />)}
      <script dangerouslySetInnerHTML={{ __html: paintFirstLoader(srcs) }} />
    </>
  )
}
