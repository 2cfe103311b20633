// Installed in the top frame before any script of the page runs (wf/render/tab.py).
// window.__wfQuiet() tells the quiet wait what the page is doing: ready state, time since
// the last DOM change, the longest unexplained pause, short timers and requests pending,
// time since DOMContentLoaded and since the last timer or request ended.
(() => {
  if (window !== window.top || window.__wfQuiet) return;
  const now = () => performance.now();
  const q = {last: now(), act: 0, gap: 0, count: 0, pending: 0,
             dcl: document.readyState === 'loading' ? -1 : now()};
  const live = new Set();
  const done = () => { q.act = now(); };
  new MutationObserver(() => {
    const t = now();
    const pause = t - Math.max(q.last, q.act);
    if (q.count && pause > 30 && q.pending === 0 && live.size === 0) q.gap = Math.max(q.gap, pause);
    q.last = t;
    q.count++;
  }).observe(document, {subtree: true, childList: true, characterData: true});
  document.addEventListener('DOMContentLoaded', () => { q.dcl = now(); }, {once: true});
  const st = window.setTimeout, ct = window.clearTimeout;
  window.setTimeout = function (fn, ms, ...args) {
    if (typeof fn !== 'function' || !((Number(ms) || 0) <= 1000)) return st.call(window, fn, ms, ...args);
    const id = st.call(window, function () { live.delete(id); done(); return fn.apply(this, args); }, ms);
    live.add(id);
    return id;
  };
  window.clearTimeout = function (id) { live.delete(id); return ct.call(window, id); };
  const of = window.fetch;
  if (of) window.fetch = function (...a) {
    q.pending++;
    const end = () => { q.pending--; done(); };
    const p = of.apply(this, a);
    p.then(end, end);
    return p;
  };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...a) {
    q.pending++;
    this.addEventListener('loadend', () => { q.pending--; done(); }, {once: true});
    return send.apply(this, a);
  };
  Object.defineProperty(window, '__wfQuiet', {value: () => {
    const t = now();
    return [document.readyState, t - q.last, q.gap, live.size, q.pending,
            q.dcl < 0 ? -1 : t - q.dcl, t - q.act];
  }});
})();
