"""Playing: policies that choose moves, statistics over many deals, and the solver.

Imports the engine only (never the notation, the views or the CLI): a player needs the
rules, not a text format.
"""
