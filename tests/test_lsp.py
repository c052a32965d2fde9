"""The language server (issue 12, item 6): a scripted session with `regola lsp` over stdio,
through pygls's own client, and the analysis it answers from, on a game copied to tmp_path."""

import asyncio
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from regola.tools import lsp_analysis as la

ROOT = Path(__file__).resolve().parent.parent
LUNGARNO = ROOT / "rules" / "lungarno"


@pytest.fixture
def game(tmp_path):
    d = tmp_path / "lungarno"
    shutil.copytree(LUNGARNO, d)
    return d / "lungarno.regola"


def _pos(text: str, needle: str, offset: int = 0):
    """1-based (line, col) of `needle` (plus offset) in text."""
    i = text.index(needle) + offset
    line = text.count("\n", 0, i) + 1
    return line, i - (text.rfind("\n", 0, i) + 1) + 1


def test_analysis_diagnostics_hover_definition_completion(game):
    text = game.read_text()
    broken = text.replace("require board[c] == none", "require bord[c] == none", 1)
    found = la.diagnostics(game, {str(game.resolve()): broken})
    [d] = found[str(game.resolve())]
    assert d.code == "E101" or d.code.startswith("E")
    assert "unknown name 'bord'" in d.message and (d.span.line, d.span.col) == _pos(broken, "bord[c] == none")
    assert found[str((game.parent / "two-player.regola").resolve())] == []     # every file of the game
    assert la.diagnostics(game, {}) == {k: [] for k in found}                  # the file on disk is clean

    a = la.analyse(game, {})
    line, col = _pos(text, "board[c] == none", 1)
    assert "grid `board`" in la.hover(a, str(game), line, col)
    span = la.definition(a, str(game), line, col)
    assert (span.line, span.col) == _pos(text, "grid board of Tile")
    line, col = _pos(text, "me.florins", 4)                                 # florins in me.florins
    assert "florins" in la.hover(a, str(game), line, col) and ": `int" in la.hover(a, str(game), line, col)
    labels = [c[0] for c in la.completions(a, "    me.")]
    assert "florins" in labels and "hand" in labels and "palace" not in labels
    labels = [c[0] for c in la.completions(a, "    ")]
    assert {"board", "palace_AB", "play_tile", "require", "move"} <= set(labels)
    # a buffer that does not parse leaves no analysis (the server keeps the last good one)
    assert la.analyse(game, {str(game.resolve()): text + "\naction (:\n"}) is None


def test_keywords_are_the_grammars():
    grammar = (ROOT / "grammar" / "regola.lark").read_text()
    assert set(la.keywords()) == set(re.findall(r'"([a-z_]+)"', grammar))
    assert {"require", "action", "choose", "simultaneously"} <= set(la.keywords())


def test_a_scripted_session(game):
    pytest.importorskip("pygls")
    from lsprotocol import types as L
    from pygls.lsp.client import LanguageClient
    from pygls.uris import from_fs_path

    text = game.read_text()
    uri = from_fs_path(str(game))

    async def session():
        client = LanguageClient("regola-test", "1")
        published = []
        got = asyncio.Event()

        @client.feature(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(ls, params):
            published.append(params)
            got.set()

        await client.start_io(sys.executable, "-m", "regola.tools.cli", "lsp")
        try:
            await client.initialize_async(L.InitializeParams(capabilities=L.ClientCapabilities(),
                                                             root_uri=from_fs_path(str(game.parent))))
            client.initialized(L.InitializedParams())
            client.text_document_did_open(L.DidOpenTextDocumentParams(
                text_document=L.TextDocumentItem(uri=uri, language_id="regola", version=1, text=text)))
            await asyncio.wait_for(got.wait(), 60)
            assert all(not p.diagnostics for p in published if p.uri == uri)
            # a typo as you type: the checker's error, at its place, with its code
            got.clear()
            published.clear()
            broken = text.replace("require board[c] == none", "require bord[c] == none", 1)
            client.text_document_did_change(L.DidChangeTextDocumentParams(
                text_document=L.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[L.TextDocumentContentChangeWholeDocument(text=broken)]))
            while not any(p.uri == uri and p.diagnostics for p in published):
                got.clear()
                await asyncio.wait_for(got.wait(), 60)
            [d] = next(p for p in published if p.uri == uri).diagnostics
            line, col = _pos(broken, "bord[c]")
            assert (d.range.start.line, d.range.start.character) == (line - 1, col - 1)
            assert d.source == "regola" and str(d.code).startswith("E") and "bord" in d.message
            # hover and definition answer from the text as it is now, typos and all
            line, col = _pos(broken, "bord[c]", 1)
            h = await client.text_document_hover_async(L.HoverParams(
                text_document=L.TextDocumentIdentifier(uri=uri), position=L.Position(line=line - 1, character=col - 1)))
            assert h is not None and "`bord`" in h.contents.value
            line, col = _pos(broken, "-> board[c]", 4)
            pos = L.Position(line=line - 1, character=col - 1)
            h = await client.text_document_hover_async(L.HoverParams(
                text_document=L.TextDocumentIdentifier(uri=uri), position=pos))
            assert h is not None and "grid `board`" in h.contents.value
            loc = await client.text_document_definition_async(L.DefinitionParams(
                text_document=L.TextDocumentIdentifier(uri=uri), position=pos))
            loc = loc[0] if isinstance(loc, list) else loc
            assert loc.range.start.line + 1 == _pos(text, "grid board of Tile")[0]
            comp = await client.text_document_completion_async(L.CompletionParams(
                text_document=L.TextDocumentIdentifier(uri=uri), position=L.Position(line=0, character=0)))
            items = comp.items if hasattr(comp, "items") else comp
            assert any(i.label == "play_tile" for i in items)
            await client.shutdown_async(None)
            client.exit(None)
        finally:
            await client.stop()

    asyncio.run(asyncio.wait_for(session(), 180))


def test_textmate_grammar_is_valid_and_knows_every_keyword():
    path = ROOT / "editors" / "regola.tmLanguage.json"
    g = json.loads(path.read_text())
    assert g["scopeName"] == "source.regola" and "regola" in g["fileTypes"]
    patterns = []

    def collect(node):
        if isinstance(node, dict):
            for k in ("match", "begin", "end"):
                if k in node:
                    patterns.append(node[k])
            for v in node.values():
                collect(v)
        elif isinstance(node, list):
            for v in node:
                collect(v)
    collect(g)
    for p in patterns:
        re.compile(p)                      # (the grammar keeps to what Python's re and Oniguruma share)
    words = set()
    for p in patterns:
        for group in re.findall(r"\\b\((?:\?:)?([a-z_|]+)\)\\b", p):
            words |= set(group.split("|"))
    assert set(la.keywords()) <= words | {"true", "false", "none", "me"} | words
    # a sample line is coloured: a comment, a string, a keyword
    comment = next(p for p in patterns if p.startswith("#"))
    assert re.match(comment, "# a comment")
    pkg = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text())
    assert pkg["contributes"]["grammars"][0]["scopeName"] == "source.regola"
