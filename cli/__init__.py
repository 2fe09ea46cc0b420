"""The ``warpress`` command line: parse, call, print, map errors to exit codes.

Bad input (an unknown game, table or input, broken game data) gives one clear
message per problem on stderr and exit code 2; never a traceback. A move the rules
refuse exits 1. Both are one message ``warpress: what was wrong`` on stderr (a data
problem is ``file:line: key: message``). Text for people, error messages included, is
wrapped to the terminal's width (``output.fit``: a long message goes on under a hanging
indent); JSON is printed as it is.

Imports: a module of the command line imports what it uses at its head, except what only
some commands use and is slow to import: the kit (``components``, with reportlab), the
checks (``verify``), ``balance``, the session engine (``engine.session``, ``.agents``,
``.rulesets``: every game's session rules) and the JSON Schema. Those are imported inside
the command that uses them, each marked ``# on use``, so that ``warpress --help`` and
``warpress lookup`` do not load them.
"""

from __future__ import annotations

from . import balance, designer, kit, play, play_commands, referee  # noqa: F401  (their commands)
from .base import main

__all__ = ["main"]
