"""Pass 5, variables: the types of the game's global and per-player variables, what zones
hold, visibility, bounds and initial values; and how many values one state keeps in all."""

from __future__ import annotations

from .. import ast
from .. import types as T
from ..holds import def_name as holds_def_name
from ..symbols import VarInfo

# values one state keeps (a count per kind of each stack or pile, slots, map entries, cells):
# our largest games keep about 1,000; every state of a search is a copy
_MAX_STATE_VALUES = 1_000_000


class VariablesPass:
    """pass_variables."""

    def pass_variables(self):
        players = self.p.players or self.p.max_players
        held = 0
        for g in self.p.grids.values():
            held = self._state_grows(self._grid_decls.get(g.name) or g.name, f"grid '{g.name}'",
                                     g.rows * g.cols * (1 + len(g.cell_attrs)), held)
        for vi in list(self.p.globals.values()) + list(self.p.pvars.values()):
            self._var(vi)
            n = T.state_values(vi.type, players) * (players if vi.per_player else 1)
            held = self._state_grows(vi.decl, f"'{vi.name}'" + (f" ({players} players)" if vi.per_player else ""),
                                     n, held)

    def _state_grows(self, node, what: str, n: int, held: int) -> int:
        """The values a state keeps, after n more; an error at the declaration past the limit."""
        if held + n > _MAX_STATE_VALUES >= held and isinstance(node, ast.Node):
            self.error(node, "E113", f"the game's state would keep more than {_MAX_STATE_VALUES:,} values: "
                                     f"{what} alone keeps {n:,}",
                       "keep fewer zones of many kinds, fewer kinds of components, or a smaller grid")
        return held + n

    def _var(self, vi: VarInfo):
        v = vi.decl
        t = self.resolve_type(v.type, allow_zone=True)
        vi.type = t
        if not vi.per_player:
            self.p.top[v.name].type = t
        is_zone = isinstance(t, (T.ZoneType, T.KeyedZones))
        vi.internal = any(isinstance(o, ast.VarInternal) for o in v.options)
        for o in ([v.holds] if v.holds is not None else []):
            if isinstance(o, ast.VarHolds):
                if not is_zone:
                    self.error(o, "E154", f"'holds' says which components a zone may hold; '{v.name}' is {t}")
                elif holds_def_name(v.name) in self.p.defs:
                    vi.holds = holds_def_name(v.name)
                    self.p.top[vi.holds].used = True
        vis = [o for o in v.options if isinstance(o, ast.Visibility)]
        if len(vis) > 1:
            self.error(vis[1], "E150", "visibility is given twice")
        if vis:
            vi.visibility = vis[0].level
            if isinstance(t, T.GridType) and vis[0].level != "public":
                self.error(vis[0], "E150", "a grid is public: its cells are on the table")
            if vis[0].level in ("private", "others") and not vi.per_player:
                self.error(vis[0], "E150", f"'{vis[0].level}' is about its owner: only per-player variables can be "
                                           f"{vis[0].level} (a global one can be hidden)")
        elif is_zone and (t.zone if isinstance(t, T.ZoneType) else t.zone.zone) == "stack":
            vi.visibility = "hidden"
        # bounds apply to an int, or to every entry of a map to int
        bounded = T.is_int(t) or (isinstance(t, T.MapType) and T.is_int(t.value))
        for o in v.options:
            if isinstance(o, (ast.BoundIn, ast.BoundClamp, ast.BoundMin, ast.BoundMax)) and not bounded:
                self.error(o, "E151", f"bounds apply to int variables (or maps to int), not {t}")
                continue
            if isinstance(o, (ast.BoundIn, ast.BoundClamp)):
                vi.low = self.static_int(o.low, "a lower bound")
                vi.high = None if o.high is None else self.static_int(o.high, "an upper bound")
                vi.clamp = isinstance(o, ast.BoundClamp)
                if vi.high is not None and vi.low > vi.high:
                    self.error(o, "E151", f"empty range {vi.low}..{vi.high}")
            elif isinstance(o, ast.BoundMin):
                vi.low = self.static_int(o.value, "a lower bound")
            elif isinstance(o, ast.BoundMax):
                vi.high = self.static_int(o.value, "an upper bound")
        if v.init is not None:
            if is_zone:
                self.error(v.init, "E152", "zones start empty; fill them in setup")
            else:
                val, it = self.static_value(v.init, f"the initial value of '{v.name}'", t)
                if isinstance(t, T.MapType) and not isinstance(it, T.MapType):
                    # a single value for every key: 'open: map Region to bool = true'
                    if val is not None and not T.assignable(it, t.value):
                        self.error(v.init, "E130", f"the entries of '{v.name}' are {t.value}, not {it}")
                    val = None if val is None else [val] * T.type_size(t.key, self.p.players or self.p.max_players)
                elif val is not None and not T.assignable(it, t):
                    self.error(v.init, "E130", f"'{v.name}' is {t}; its initial value is {it}")
                vi.init = val
        else:
            vi.init = _default_value(t)
            holds = t.value if isinstance(t, T.MapType) else t
            if not isinstance(holds, T.OptType) and isinstance(T.strip(holds), T.PlayerType):      # no player is a better default than another
                self.error(v, "E153", f"'{v.name}' holds a player but has no initial value (it would "
                                      f"silently be player(1))",
                           "give it one (= player(1)), or let it be none until set: "
                           + ("map ... to Player or none" if isinstance(t, T.MapType) else "Player or none"))
        inits = vi.init if isinstance(t, T.MapType) and isinstance(vi.init, list) else [vi.init]
        for init in inits:
            if not isinstance(init, int) or isinstance(init, bool):
                continue
            if vi.low is not None and init < vi.low:
                if v.init is not None:
                    self.error(v.init, "E151", f"the initial value {init} is below the minimum {vi.low}")
                elif not isinstance(t, T.MapType):
                    vi.init = vi.low
            if vi.high is not None and init > vi.high:
                if v.init is not None:
                    self.error(v.init, "E151", f"the initial value {init} is above the maximum {vi.high}")
                elif not isinstance(t, T.MapType):
                    vi.init = vi.high


def _default_value(t: T.Type):
    s = t
    if isinstance(s, T.OptType) or s is T.ANY:
        return None
    if T.is_int(s):
        return 0
    if s is T.BOOL:
        return False
    if isinstance(s, T.ListType):
        return []
    if isinstance(s, T.MapType):
        return None  # filled per key by the compiler
    if isinstance(s, (T.EnumType, T.RecordType, T.PlayerType, T.CellType, T.AreaType, T.LineType)):
        return 0
    return None
