"""A tiny progress bar on stderr (stdlib only)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """`bar.update(done)` redraws `[#####.....] done/total elapsed`; `bar.close()` ends the line."""

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None) -> None:
        self.total = max(total, 1)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.monotonic()

    def update(self, done: int, note: str = "") -> None:
        """Redraw the bar for `done` units finished."""
        width = 30
        filled = width * min(done, self.total) // self.total
        elapsed = time.monotonic() - self.started
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{self.total} {elapsed:6.1f}s {note}")
        self.stream.flush()

    def close(self) -> None:
        """Finish the line."""
        self.stream.write("\n")
        self.stream.flush()
