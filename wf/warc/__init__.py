"""WARC archives: read (``wf --warc``: wf.warc.read, then wf.warc.run) and written
(``wf --warc-out``: wf.warc.write). Only the standard library; imported only on these
paths."""
