"""Pictures of games: an SVG of any state as one viewer sees it, drawn from the declarations
alone (picture.py), a self-contained HTML replay viewer of a log (replay_html.py), and a
local web page to play against bots (serve.py). See docs/pictures.md.

`register(sub)` adds the commands `regola render` and `regola serve` (tools/cli.py lists
this package in COMMAND_MODULES); `regola replay LOG --html OUT` is in cli.py's replay.
"""


def register(sub) -> None:
    from . import render, serve
    render.add_parser(sub)
    serve.add_parser(sub)
