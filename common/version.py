"""The one version number of wf and ws (pyproject.toml says the same; a test checks)."""

VERSION = "0.1.0"
