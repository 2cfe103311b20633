// The DOM as HTML, with open shadow roots inlined as <div>s (the extractor drops
// <template>, so getHTML's declarative shadow DOM would hide their text). Copies go
// into an inert document so that no custom element constructor runs.
// A function expression: wf/render/tab.py evaluates (this)(cap), cap in characters.
(cap) => {
  const el = document.documentElement;
  let html = '';
  if (el) {
    let hosts = false;
    const w = document.createTreeWalker(document, NodeFilter.SHOW_ELEMENT);
    for (let n = w.nextNode(); n; n = w.nextNode()) if (n.shadowRoot) { hosts = true; break; }
    if (!hosts) {
      html = el.outerHTML;
    } else {
      const inert = document.implementation.createHTMLDocument('');
      const expand = (live, copy) => {
        const a = document.createTreeWalker(live, NodeFilter.SHOW_ELEMENT);
        const b = inert.createTreeWalker(copy, NodeFilter.SHOW_ELEMENT);
        const pairs = [];
        for (let x = a.currentNode, y = b.currentNode; x && y; x = a.nextNode(), y = b.nextNode()) {
          if (x.shadowRoot) pairs.push([x, y]);
        }
        for (const [host, into] of pairs) {
          const div = inert.createElement('div');
          for (const child of host.shadowRoot.childNodes) {
            const c = inert.importNode(child, true);
            div.appendChild(c);
            if (child.nodeType === 1) expand(child, c);
          }
          into.insertBefore(div, into.firstChild);
        }
      };
      const copy = inert.importNode(el, true);
      expand(el, copy);
      html = copy.outerHTML;
    }
  }
  const nav = performance.getEntriesByType('navigation')[0];
  return {html: html.length > cap ? html.slice(0, cap) : html, length: html.length,
          url: location.href, status: nav && nav.responseStatus ? nav.responseStatus : null};
}
