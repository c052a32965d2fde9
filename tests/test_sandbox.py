"""A rules file is someone else's code: the classic injections into the generated Python
are refused or inert (docs/engine.md, "What a rules file can do").

Rules names reach the generated code only with a prefix of the compiler's (`l_`, `D_`,
`A3_Dev_cost`...), and strings only through `repr`; these tests try to break out anyway and
then read the generated module to prove nothing of the rules' choosing names a Python
builtin, an import or a dunder attribute."""

import ast as pyast
import builtins

import pytest

from regola.diagnostics import RulesError
from regola.runtime.game import IllegalMove
from rules_helpers import load

# Python names the generated code may use on its own account
_ALLOWED_BUILTINS = {"len", "max", "min", "sum", "any", "all", "abs", "range", "list", "tuple", "sorted",
                     "set", "dict", "bool", "int", "str", "map", "zip", "enumerate", "reversed", "iter", "next",
                     "isinstance", "repr", "print", "None", "True", "False", "object", "divmod", "filter", "frozenset",
                     "AssertionError"}
_FORBIDDEN = {"__import__", "open", "eval", "exec", "compile", "getattr", "setattr", "delattr", "globals",
              "locals", "vars", "__builtins__", "breakpoint", "input", "memoryview", "type", "super", "help"}

PWNED = "__import__('os').system('echo pwned > /tmp/regola-pwned')"

NAMES_GAME = '''game tricky:
    title "a \\"quoted\\" title\\\\ with \\n a newline"
    players 2..2

enum Colour: __class__, eval, os, print

record Thing:
    __dict__: int
    exec: Colour
components Thing:
    | name       | __dict__ | exec     | count |
    | __import__ | 1        | eval     | 2     |
    | open       | 2        | __class__| 2     |

global:
    __builtins__: int = 0
    globals: pile of Thing

per player:
    compile: int = 0

def __getattribute__(getattr: int) -> int = getattr + 1

setup:
    fill globals with [__import__, __import__, open, open]

flow:
    repeat 2:
        for p in players:
            act p: __init__ | __subclasses__

action __init__(__self__ in globals where __self__.__dict__ >= 1):
    require __builtins__ < 100, "'); PWNED; ('"
    move __self__ from globals -> globals
    me.compile += __getattribute__(__self__.__dict__)

action __subclasses__(sys in range(0, 2)):
    require sys == 5, "\\"); PWNED; (\\""
    __builtins__ += 1

score: me.compile
'''.replace("PWNED", PWNED)


def _names_in(source: str) -> tuple[set, set]:
    tree = pyast.parse(source)
    names = {n.id for n in pyast.walk(tree) if isinstance(n, pyast.Name)}
    attrs = {n.attr for n in pyast.walk(tree) if isinstance(n, pyast.Attribute)}
    return names, attrs


def _check_generated(game):
    names, attrs = _names_in(game.source)
    python_builtins = set(dir(builtins))
    assert not (names & _FORBIDDEN), names & _FORBIDDEN
    assert not {n for n in names if n in python_builtins} - _ALLOWED_BUILTINS
    # the only attribute reads are the engine's own (the state's fields, list methods)
    assert {a for a in attrs if a.startswith("__")} <= {"__getitem__", "__contains__"}, attrs
    assert "pwned" not in "".join(n for n in names)


def test_builtin_and_dunder_names_are_inert(tmp_path):
    try:
        game = load(tmp_path, NAMES_GAME)
    except RulesError as e:          # refusing such names is fine too; crashing is not
        assert all(d.span.line >= 1 for d in e.diagnostics)
        return
    _check_generated(game)
    s = game.new_initial_state(3)
    assert game.title == 'a "quoted" title\\ with \n a newline'
    while not game.is_terminal(s):
        game.apply(s, game.legal_moves(s)[0])
    assert game.scores(s) == [4, 4]


def test_strings_reach_players_as_written_and_never_run(tmp_path):
    import os
    game = load(tmp_path, NAMES_GAME)
    s = game.new_initial_state(0)
    with pytest.raises(IllegalMove) as e:
        game.apply(s, "__subclasses__(0)")
    assert f'"); {PWNED}; ("' in str(e.value)
    assert not os.path.exists("/tmp/regola-pwned")


_ROLES = {
    "variable": """per player:
    NAME: int = 0
def plus(x: int) -> int = x + 1
flow:
    act player(1): a
action a(v in range(0, 3)):
    me.NAME += plus(v)
score: me.NAME
""",
    "parameter": """def plus(NAME: int) -> int = NAME + 1
flow:
    act player(1): a
action a(NAME in range(0, 3)):
    me.total += plus(NAME)
""",
    "def": """def NAME(x: int) -> int = x + 1
flow:
    act player(1): a
action a(v in range(0, 3)):
    me.total += NAME(v)
""",
    "action": """flow:
    act player(1): NAME
action NAME(v in range(0, 3)):
    me.total += v + 1
""",
    "procedure": """procedure NAME(x: int):
    me.total += x + 1
flow:
    act player(1): a
action a(v in range(0, 3)):
    NAME(v)
""",
    "field and value": """enum Colour: NAME, blue
record Thing:
    NAME: int
components Thing:
    | name | NAME | count |
    | t    | 3    | 1     |
flow:
    act player(1): a
action a(v in [NAME, blue]):
    me.total += t.NAME
""",
    "component": """record Thing:
    v: int
components Thing:
    | name | v | count |
    | NAME | 3 | 1     |
flow:
    act player(1): a
action a(c in [NAME]):
    me.total += c.v
""",
}


@pytest.mark.parametrize("role", sorted(_ROLES))
@pytest.mark.parametrize("name", ["__import__", "__builtins__", "__class__", "exec", "open", "S", "V", "L", "F",
                                  "_W", "HELPERS", "PROCS", "SITES", "l_x", "D_f", "A_a", "_UNSET",
                                  "RulesRuntimeError"])
def test_any_identifier_is_a_plain_rules_name(tmp_path, name, role):
    """A name that is a Python builtin or one of the generated module's own names, in every
    role: the game plays as if it had any other name."""
    body = _ROLES[role].replace("NAME", name)
    text = "game g:\n    players 2..2\n\nper player:\n    total: int = 0\n\n" + body + \
        ("" if "score:" in body else "score: me.total\n")
    game = load(tmp_path, text)
    _check_generated(game)
    s = game.new_initial_state(0)
    if not game.is_terminal(s):           # (a single option is taken without asking)
        game.apply(s, game.legal_moves(s)[-1])
    assert game.is_terminal(s) and game.scores(s)[0] == 3


@pytest.mark.parametrize("text", [
    'const T = "\\x41"',                       # a Python escape
    "const T = 'single'",                      # Python's other quotes
    'const T = """triple"""',
    "const T = f\"{__import__('os')}\"",      # an f-string
    "const T = b\"bytes\"",
    "import os",
    "from os import system",
    "const T = __import__('os')",
    "const T = (lambda: 1)()",
    "const T = [x for x in ().__class__.__base__.__subclasses__()]",
])
def test_python_syntax_is_not_the_language(tmp_path, text):
    with pytest.raises(RulesError) as e:
        load(tmp_path, f"game g:\n    players 2..2\n\n{text}\n\nflow:\n    pass\nscore: 0\n")
    d = e.value.diagnostics[0]
    assert d.span.line >= 1 and d.span.col >= 1


def test_the_grammar_cache_is_used_only_from_a_private_directory(tmp_path, monkeypatch):
    import os
    from regola.grammar_cache import cache_file
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = cache_file("grammar", "1.0")
    assert path is not None and path.startswith(str(tmp_path / "regola"))
    assert os.stat(tmp_path / "regola").st_mode & 0o077 == 0
    # someone else may write to the file: it is not used
    open(path, "wb").write(b"planted")
    os.chmod(path, 0o666)
    assert cache_file("grammar", "1.0") is None
    os.chmod(path, 0o600)
    assert cache_file("grammar", "1.0") == path
    # someone else may write to the directory: nothing in it is used
    os.chmod(tmp_path / "regola", 0o777)
    assert cache_file("grammar", "1.0") is None
    monkeypatch.setenv("REGOLA_NO_GRAMMAR_CACHE", "1")
    os.chmod(tmp_path / "regola", 0o700)
    assert cache_file("grammar", "1.0") is None


def test_python_warnings_about_generated_code_do_not_reach_the_terminal(tmp_path, capsys):
    """A constant that fails to evaluate is none, and code subscripting it made Python print
    '<regola static>:1: SyntaxWarning' (found by the fuzzer); only the positioned errors show."""
    from regola.tools.cli import main
    d = tmp_path / "g"
    d.mkdir()
    (d / "g.regola").write_text(
        "game g:\n    players 2\nglobal:\n    n: int\n"
        "const COPIES = [3, n]\n"
        "assert COPIES[0] == 3, \"three\"\n"
        "flow:\n    end game\nscore: 0\n", encoding="utf-8")
    assert main(["check", str(d)]) == 1
    out = capsys.readouterr()
    assert "SyntaxWarning" not in out.out + out.err
    assert "error[E123]" in out.out
