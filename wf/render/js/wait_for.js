// --wait-for: is an element matching the selector in the page, with text? 'ready' when
// it is; 'empty' (there, no text yet), 'absent' or 'loading' (not yet); 'invalid' when
// the browser cannot match the selector. The page may have replaced querySelector: the
// prototype's own is called, and whatever a page fakes only ends the wait early.
(selector) => {
  let el;
  try {
    el = Document.prototype.querySelector.call(document, selector);
  } catch (e) {
    return 'invalid';
  }
  if (!el) return document.readyState === 'loading' ? 'loading' : 'absent';
  const text = el.innerText || el.textContent || '';
  return text.trim() ? 'ready' : 'empty';
}
