// Without our tracker: the blank page before the first commit (not ready yet, null), or
// a document the tracker did not enter (the browser's error page): 'no tracker', and
// wf/render/tab.py installs it now.
window.__wfQuiet ? window.__wfQuiet()
  : location.href === 'about:blank' ? null : 'no tracker'
