"""Where lark may keep the parser tables it builds from the grammar (0.4 s saved per start).

lark's own `cache=True` writes a pickle to the shared temporary directory under a name anyone
can compute, and loads whatever it finds there: on a machine with other users, one of them
could plant a file that runs code as you the next time Regola starts. So the cache lives in a
directory of the user's own (`$XDG_CACHE_HOME/regola` or `~/.cache/regola`, mode 0700), and
is used only when that directory and the file in it belong to the user and no one else may
write to them; otherwise the grammar is built afresh every time.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Optional


def _private(path: Path, is_dir: bool) -> bool:
    try:
        st = path.lstat()
    except OSError:
        return False
    kind_ok = stat.S_ISDIR(st.st_mode) if is_dir else stat.S_ISREG(st.st_mode)
    owner_ok = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return kind_ok and owner_ok and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def cache_file(grammar_text: str, lark_version: str) -> Optional[str]:
    """A private path for the parser tables of this grammar, or None (build without cache)."""
    if os.environ.get("REGOLA_NO_GRAMMAR_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or (Path.home() / ".cache")
    d = Path(base) / "regola"
    try:
        d.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    if not _private(d, is_dir=True):
        return None
    key = hashlib.sha256(f"{lark_version}\0{grammar_text}".encode()).hexdigest()[:32]
    f = d / f"grammar-{key}.lark-cache"
    if f.exists() and not _private(f, is_dir=False):
        return None
    return str(f)
