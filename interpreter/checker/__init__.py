"""The checker, one module per pass; driver.py lists the passes in the order they run.

    from regola.checker import check
    prog, diags = check(composed)
"""

from .common import BUILTINS, RESERVED_VALUES, CheckError, _Ctx, _Scope
from .driver import Checker, check

__all__ = ["BUILTINS", "RESERVED_VALUES", "CheckError", "Checker", "check", "_Ctx", "_Scope"]
