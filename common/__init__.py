"""The shared core of wf and ws. It knows nothing of click.

Keep this import surface small: a top-level package named ``common`` may meet
another distribution's module of the same name, so nothing is re-exported here.
"""
