"""Nimitz (ニミッツの決断, Fleet Commander: Nimitz): the reference rules engine.

``common`` holds data look-ups and values, ``combat`` the battle procedures
(10.x), ``campaign`` the campaign procedures (6.x-8.x, 11.x, 12.x), ``orders``
the Japanese movement determination (9.x) and ``tables`` the referee tables.
"""

from __future__ import annotations

from . import tables  # noqa: F401  (registers the referee tables)
