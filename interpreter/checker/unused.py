"""Pass 8, unused: warnings for definitions nothing uses (W001), events never emitted
(W002), and variables or constants named like a value (W003)."""

from __future__ import annotations


class UnusedPass:
    """pass_unused."""

    def pass_unused(self):
        p = self.p
        for name, sym in p.top.items():
            if sym.used:
                continue
            if sym.kind in ("def", "proc", "const", "global", "group", "payment"):
                what = {"def": "function", "proc": "procedure", "const": "constant", "global": "variable",
                        "group": "group of actions", "payment": "payment"}[sym.kind]
                if name in p.options:
                    what = "option"
                self.warn(sym.node, "W001", f"{what} '{name}' is never used")
            elif sym.kind == "action":
                self.warn(sym.node, "W001", f"action '{name}' is never offered by any 'act'")
        for ev in p.events.values():
            if not ev.emitted:
                self.warn(ev.decl or ev.handlers[0], "W002", f"event '{ev.name}' is never emitted")
        # a variable or constant named like a value: the name alone means the variable
        for name, sym in p.top.items():
            if sym.kind in ("global", "const") and name in p.values:
                v = p.values[name][0]
                self.warn(sym.node, "W003", f"'{name}' is both a {'variable' if sym.kind == 'global' else 'constant'} "
                                            f"and a value of {v.type}: the name alone means the {'variable' if sym.kind == 'global' else 'constant'}",
                          "give one of them another name")
