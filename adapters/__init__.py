"""Bridges from Regola to the libraries of game AI (optional extras, `pip install 'regola[rl]'`):
`regola.adapters.pettingzoo` (an AEC environment for any rules file) and
`regola.adapters.openspiel` (any rules file as an OpenSpiel game)."""
