"""Axis & Allies (Milton Bradley, 2nd-edition rules): the reference rules engine.

``common`` holds data look-ups, unit stats and force lists; ``battle`` the land and
sea battle procedure (③) over a frozen state; ``odds`` and ``rounds`` the exact battle
odds; ``research`` weapons development (①); ``board`` the Classic board: control, NPL,
income (⑥), victory, placement (⑤), movement (②, ④) and submarine withdrawal;
``tables`` the referee tables. ``session`` plays a whole game in a session
(``warpress play``, docs/axis-allies.md) over ``positions``, ``moves``, ``battles``,
``orders``, ``choices``, ``views``, ``mapview`` and ``invariants``.
"""

from __future__ import annotations

from . import tables  # noqa: F401  (registers the referee tables)
