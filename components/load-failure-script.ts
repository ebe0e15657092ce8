/**
 * Inline script for _document: when a page's code fails to load (a route chunk 404s or the
 * network drops), React may never mount, so this is plain DOM. It shows an alert with a
 * "Retry" button that reloads the page.
 */
export const loadFailureScript = `(function(){
  function show(){
    if (document.getElementById('ferry-load-failure')) return;
    var bar = document.createElement('div');
    bar.id = 'ferry-load-failure';
    bar.setAttribute('role', 'alert');
    bar.innerHTML = '<span>This page could not load all of its code.</span> ';
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = 'Retry';
    b.onclick = function(){ location.reload(); };
    bar.appendChild(b);
    (document.body || document.documentElement).appendChild(bar);
  }
  window.addEventListener('error', function(e){
    var t = e.target;
    if (t && t.tagName === 'SCRIPT' && /\\/_next\\//.test(t.src || '')) show();
  }, true);
  window.addEventListener('unhandledrejection', function(e){
    var r = e.reason;
    if (r && (r.name === 'ChunkLoadError' || /Loading (CSS )?chunk/.test(r.message || ''))) show();
  });
})();`
