"""The one version number of wf and ws. pyproject.toml reads it from here
([tool.setuptools.dynamic]); --version prints it without reading package metadata."""

VERSION = "0.1.0"
