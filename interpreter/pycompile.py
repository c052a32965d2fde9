"""Compiling the Python that Regola generates from rules.

Python warns about some code it compiles (a constant subscripted: `None[0]`, `is` with a
literal). The code is ours, generated, and what is wrong with the rules is reported by the
checker at the rules' own lines; a warning of Python's would print an unpositioned line on
the user's terminal (the fuzzer found one: `<regola static>:1: SyntaxWarning`). So generated
code is compiled with Python's warnings silenced.
"""

from __future__ import annotations

import warnings


def compile_quietly(source: str, filename: str, mode: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compile(source, filename, mode)
