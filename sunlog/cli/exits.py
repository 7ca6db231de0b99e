"""The command line's exit codes (SPEC 7) and the words of a run stopped by Ctrl-C.

A module of its own, importing nothing: the console script says them even when Ctrl-C
came while the rest of sunlog was still loading.
"""

__all__ = ["INTERRUPTED", "INVALID", "OK", "USAGE"]

#: All good; a log is invalid; a usage or I/O error (or a run that did not finish).
OK, INVALID, USAGE = 0, 1, 2
#: What a command stopped by Ctrl-C says; it then exits 2, as a run that did not finish
#: (what it wrote stays as it is).
INTERRUPTED = "sunlog: interrupted"
