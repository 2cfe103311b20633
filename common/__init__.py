"""The shared core of wf and ws. Only the process runner (run.py) and the shared CLI
options (clickopts.py) know click; the rest is usable without a command line.

Keep this import surface small: a top-level package named ``common`` may meet
another distribution's module of the same name, so nothing is re-exported here.
"""
