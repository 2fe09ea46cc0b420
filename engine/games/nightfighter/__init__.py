"""Nightfighter (GMT): the reference rules engine.

Modules: ``common`` (grid, MP values, data look-ups), ``state`` (the frozen night and the
player's view), ``movement`` (bombers, entry, fighters), ``detection`` (sighting, radar,
AI radar, searchlights), ``combat`` (attacks, reactions, corkscrews, flak) and ``referee``
(the catalogue tables, registered on import), ``phases`` (steps that combine them) and
``intruders`` (Serrate and Chase behaviour).
"""

from __future__ import annotations

from . import referee as _referee  # noqa: F401  (registers the referee tables)
from .common import ENGINE

__all__ = ["ENGINE"]
