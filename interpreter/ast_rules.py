"""The grammar's rules -> the AST's classes: which class each parse-tree rule builds and which
fields its children fill (the parser's transformer is derived from this table and from the
classes' own fields, lark's ast_utils in spirit)."""

from __future__ import annotations

from typing import Any

from .ast import *  # noqa: F401,F403 (the classes the aliases name)
from .ast import Decl, Expr, Node, Stmt, TypeExpr


def _bin(cls, op):
    return (cls, ["left", "right"], {"op": op})


# rule alias -> (class, fields filled by the children in order, fixed fields)
ALIASES: dict[str, tuple[type[Node], list[str], dict[str, Any]]] = {
    "add": _bin(Binary, "+"), "sub": _bin(Binary, "-"), "mul": _bin(Binary, "*"),
    "div": _bin(Binary, "/"), "mod": _bin(Binary, "%"),
    "eq": _bin(Compare, "=="), "ne": _bin(Compare, "!="), "lt": _bin(Compare, "<"),
    "le": _bin(Compare, "<="), "gt": _bin(Compare, ">"), "ge": _bin(Compare, ">="),
    "in_op": _bin(Compare, "in"), "not_in_op": _bin(Compare, "not in"),
    "or_op": _bin(BoolOp, "or"), "and_op": _bin(BoolOp, "and"),
    "not_op": (NotOp, ["operand"], {}),
    "neg": (Neg, ["operand"], {}),
    "cond_expr": (CondExpr, ["then", "cond", "other"], {}),
    "int_lit": (IntLit, ["value"], {}),
    "str_lit": (StrLit, ["value"], {}),
    "true_lit": (BoolLit, [], {"value": True}),
    "false_lit": (BoolLit, [], {"value": False}),
    "none_lit": (NoneLit, [], {}),
    "name": (Name, ["name"], {}),
    "attr": (Attr, ["obj", "name"], {}),
    "index": (Index, ["obj", "index"], {}),
    "simultaneous_stmt": (SimultaneousStmt, ["var", "iter", "body"], {}),
    "slice": (Slice, ["obj", "low", "high"], {}),
    "call": (Call, ["func", "args"], {}),
    "list_lit": (ListLit, ["items"], {}),
    "map_lit": (MapLit, ["entries"], {}),
    "assign_set": (AssignStmt, ["target", "value"], {"op": "="}),
    "assign_add": (AssignStmt, ["target", "value"], {"op": "+="}),
    "assign_sub": (AssignStmt, ["target", "value"], {"op": "-="}),
    "type_name": (TypeName, ["name"], {}),
    "list_type": (ListType, ["elem"], {}),
    "optional_type": (OptionalType, ["inner"], {}),
    "map_type": (MapType, ["key", "value"], {}),
    "stack_type": (ZoneType, ["elem", "key"], {"zone": "stack"}),
    "pile_type": (ZoneType, ["elem", "key"], {"zone": "pile"}),
    "sequence_type": (ZoneType, ["elem", "key"], {"zone": "sequence"}),
    "sized_zone_type": (ZoneType, ["size", "elem"], {"zone": "row"}),
    "keyed_zone_type": (ZoneType, ["elem", "key"], {"zone": "slots"}),
    "vis_public": (Visibility, [], {"level": "public"}),
    "vis_private": (Visibility, [], {"level": "private"}),
    "vis_hidden": (Visibility, [], {"level": "hidden"}),
    "vis_others": (Visibility, [], {"level": "others"}),
    "grid_line_rows": (GridLine, ["name", "positions"], {"axis": "row"}),
    "grid_line_columns": (GridLine, ["name", "positions"], {"axis": "column"}),
    "def_expr": (DefDecl, ["name", "params", "ret", "expr"], {}),
    "def_block": (DefDecl, ["name", "params", "ret", "body"], {}),
    "hook_expr": (DefDecl, ["name", "params", "ret", "expr"], {"hook": True}),
    "hook_block": (DefDecl, ["name", "params", "ret", "body"], {"hook": True}),
    "modifier_set": (ModifierDecl, ["hook_name", "params", "value", "cond"], {"op": "="}),
    "modifier_add": (ModifierDecl, ["hook_name", "params", "value", "cond"], {"op": "+="}),
    "modifier_sub": (ModifierDecl, ["hook_name", "params", "value", "cond"], {"op": "-="}),
    "extend_before": (ExtendDecl, ["target", "body"], {"place": "before"}),
    "extend_after": (ExtendDecl, ["target", "body"], {"place": "after"}),
    "choose_flat": (ChooseStmt, ["var", "domain", "cond", "options"], {}),
    "choose_block": (ChooseStmt, ["var", "domain", "cond", "options", "body"], {}),
    "if_stmt": (IfStmt, ["cond", "body", "elifs", "other"], {}),
    "else_block": None,            # passes its block through
    "block": None,                 # a list of statements
    "start": (Program, ["decls"], {}),
    "act_optional": (ActOptional, [], {}),
    "act_else_pass": (ActElsePass, [], {}),
    "choose_optional": (ChooseOptional, [], {}),
    "bound_in": (BoundIn, ["low", "high"], {}),
    "option_decl": (OptionDecl, ["name", "type", "bound", "value", "doc"], {}),
    "bound_clamp": (BoundClamp, ["low", "high"], {}),
    "bound_min": (BoundMin, ["value"], {}),
    "bound_max": (BoundMax, ["value"], {}),
    "table_header": (TableHeader, ["columns"], {}),
    "table_row": (TableRow, ["cells"], {}),
    "generator_call": (GeneratorCall, ["func", "elem", "clauses"], {}),
    "list_comp": (ListComp, ["elem", "clauses"], {}),
    "game_players": (GamePlayers, ["low", "high"], {}),
    "cite_stmt": (CiteStmt, ["text"], {}),
    "act_stmt": (ActStmt, ["player", "actions", "options"], {}),
}

# rules whose children are collected whole into the one list field of their class
_COLLECT = {"table_header", "table_row", "start", "block"}


def _node_classes():
    out = {}
    todo = [Node]
    while todo:
        c = todo.pop()
        for s in c.__subclasses__():
            todo.append(s)
            if s not in (Expr, Stmt, Decl, TypeExpr):
                out[s.kind] = s
    return out


def build_rule_table():
    """rule name -> (class or None, field names, fixed fields, collect children?)"""
    table = {}
    for kind, cls in _node_classes().items():
        fields = [f for f in cls.model_fields if f != "span"]
        table[kind] = (cls, fields, {}, False)
    for rule, spec in ALIASES.items():
        if spec is None:
            table[rule] = (None, [], {}, rule in _COLLECT)
        else:
            cls, fields, fixed = spec
            table[rule] = (cls, fields, fixed, rule in _COLLECT)
    for rule in _COLLECT:
        cls, fields, fixed, _ = table[rule]
        table[rule] = (cls, fields, fixed, True)
    return table
