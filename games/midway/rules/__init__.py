"""The reference rules engine of MIDWAY (BonSai Games SS-006), split by concern.

- ``common``: the registered engine, data access, the hex map;
- ``search``: search and AOP (7.x), base-attack range (6.4), initiative (8.1);
- ``movement``: fleet movement (6.x, 10.1);
- ``area``: the carrier area as a frozen state and its pure transitions (8.3, 9.4(2), 9.6);
- ``combat``: launches and air strikes (8.4, 9.x);
- ``night``: surface battle and the night air operation (10.1(2), 10.2);
- ``landing``: the landing and its exact odds (10.3);
- ``setup``: a legal start of the two-player game from the setup data (3.x);
- ``victory``: 4.1-4.3;
- ``solitaire``: the US movement cards and air policy (12.3);
- ``tables``: the referee tables of the catalogue.
"""

from __future__ import annotations

from . import tables  # noqa: F401  (registers the referee tables)
