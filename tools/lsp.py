"""`regola lsp`: the language server, over stdin and stdout (pygls; `pip install regola[lsp]`).

An editor gets, for a rules file it has open:

* diagnostics as you type: the checker's, with the same codes as `regola check`, for every
  file of the game the edited file belongs to (the unsaved text stands in for the file's);
* hover: the type of the expression under the cursor, and what a name is and where declared;
* go to definition of a name;
* completion of declared names, fields after `.`, and keywords.

What it knows comes from tools/lsp_analysis.py; this module only speaks the protocol.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .lsp_analysis import check_file, completions, definition, hover

# LSP's numbers: DiagnosticSeverity and CompletionItemKind (lsprotocol's enums, by value)
_SEVERITY = {"error": 1, "warning": 2}
_KINDS = {"keyword": 14, "field": 5, "variable": 6, "enum_value": 20, "kind": 20, "enum": 13,
          "record": 22, "def": 3, "proc": 3, "action": 3, "const": 21, "grid": 6}


def make_server():
    """A pygls LanguageServer with Regola's features (import pygls only when asked for)."""
    from lsprotocol import types as L
    from pygls.lsp.server import LanguageServer
    from pygls.uris import from_fs_path, to_fs_path

    server = LanguageServer("regola", _version(), text_document_sync_kind=L.TextDocumentSyncKind.Full)
    last_good: dict[str, object] = {}          # file -> the last analysis of its game that checked

    def overrides(ls) -> dict:
        out = {}
        for uri, doc in ls.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path and path.endswith(".regola"):
                out[str(Path(path).resolve())] = doc.source
        return out

    def refresh(ls, uri: str):
        path = to_fs_path(uri)
        if not path or not path.endswith(".regola") or not Path(path).is_file():
            return
        texts = overrides(ls)
        found, a = check_file(Path(path), texts)
        for file, diags in found.items():
            ls.text_document_publish_diagnostics(
                L.PublishDiagnosticsParams(uri=from_fs_path(file), diagnostics=[_lsp_diag(L, d) for d in diags]))
        if a is not None:
            for f in a.files:
                last_good[f] = a

    def analysis_for(uri: str):
        path = to_fs_path(uri)
        return (str(Path(path).resolve()), last_good.get(str(Path(path).resolve()))) if path else (None, None)

    @server.feature(L.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: L.DidOpenTextDocumentParams):
        refresh(ls, params.text_document.uri)

    @server.feature(L.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: L.DidChangeTextDocumentParams):
        refresh(ls, params.text_document.uri)

    @server.feature(L.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: L.DidSaveTextDocumentParams):
        refresh(ls, params.text_document.uri)

    def answer(params, ask):
        """`ask(analysis, file, line, col)` at the cursor (1-based), or None without an analysis."""
        file, a = analysis_for(params.text_document.uri)
        if a is None:
            return None
        return ask(a, file, params.position.line + 1, params.position.character + 1)

    @server.feature(L.TEXT_DOCUMENT_HOVER)
    def on_hover(ls, params: L.HoverParams):
        text = answer(params, hover)
        return None if text is None else L.Hover(contents=L.MarkupContent(kind=L.MarkupKind.Markdown, value=text))

    @server.feature(L.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls, params: L.DefinitionParams):
        span = answer(params, definition)
        if span is None:
            return None
        return L.Location(uri=from_fs_path(str(Path(span.file).resolve())), range=_range(L, span))

    @server.feature(L.TEXT_DOCUMENT_COMPLETION, L.CompletionOptions(trigger_characters=["."]))
    def on_completion(ls, params: L.CompletionParams):
        _, a = analysis_for(params.text_document.uri)
        doc = ls.workspace.get_text_document(params.text_document.uri)
        lines = doc.source.splitlines()
        line = lines[params.position.line] if params.position.line < len(lines) else ""
        items = [L.CompletionItem(label=label, kind=L.CompletionItemKind(_KINDS.get(kind, 6)), detail=detail)
                 for label, kind, detail in completions(a, line[:params.position.character])]
        return L.CompletionList(is_incomplete=False, items=items)

    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("regola")
    except PackageNotFoundError:
        return "0"


def _range(L, span):
    end_line = max(span.end_line, span.line)
    end_col = span.end_col if span.end_line >= span.line else span.col + 1
    return L.Range(start=L.Position(line=max(span.line - 1, 0), character=max(span.col - 1, 0)),
                   end=L.Position(line=max(end_line - 1, 0), character=max(end_col - 1, 0)))


def _lsp_diag(L, d):
    if isinstance(d, str):                  # a problem that is not a diagnostic (a module selection)
        return L.Diagnostic(range=L.Range(start=L.Position(line=0, character=0), end=L.Position(line=0, character=1)),
                            message=d, severity=L.DiagnosticSeverity(1), source="regola")
    message = d.message + (f"\n{d.hint}" if d.hint else "")
    return L.Diagnostic(range=_range(L, d.span), message=message, severity=L.DiagnosticSeverity(_SEVERITY.get(d.severity, 1)),
                        code=d.code, source="regola")


def cmd_lsp(args) -> int:
    try:
        server = make_server()
    except ImportError:
        print("regola lsp: the language server needs pygls: pip install 'regola[lsp]'", file=sys.stderr)
        return 1
    server.start_io()
    return 0


def register(sub):
    p = sub.add_parser("lsp", help="the language server for editors (stdin/stdout; needs regola[lsp])")
    p.set_defaults(func=cmd_lsp)
