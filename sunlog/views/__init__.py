"""Pictures of positions: the terminal board (rich), the stepper, the SVG board, the HTML page.

Imports the engine, never the notation: pictures come from positions and moves, not from
log text. Nothing here decides anything about the rules.
"""
