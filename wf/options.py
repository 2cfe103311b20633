"""The typed options of one wf run. The CLI builds it; the pipeline reads it."""

from __future__ import annotations

from dataclasses import dataclass

from common.http.client import NetOptions
from wf.lines import Regex

DEFAULT_MAX_LENGTH = 20_000
DEFAULT_AUTOSAVE_BYTES = 10_000
PREVIEW_CHARS = 5_000
RENDER_MODES = ("auto", "always", "never")


@dataclass(frozen=True)
class WfOptions:
    net: NetOptions
    full: bool = False
    links: bool = False
    raw: bool = False
    filter: Regex | None = None
    exclude: Regex | None = None
    from_line: int | None = None
    to_line: int | None = None
    max_length: int = DEFAULT_MAX_LENGTH  # 0 means no limit
    save: bool = False
    save_path: str | None = None
    no_save: bool = False
    autosave_bytes: int = DEFAULT_AUTOSAVE_BYTES
    render: str = "auto"
    base_url: str | None = None
    as_json: bool = False

    @property
    def narrows(self) -> bool:
        """Any option that asks for part of the page turns auto-save off."""
        return bool(
            self.filter or self.exclude or self.from_line or self.to_line or self.save
            or self.save_path or self.no_save
        )
