"""Nightfighter (GMT): the reference rules engine.

Modules: ``common`` (grid, MP values, data look-ups), ``state`` (the frozen night and the
player's view), ``movement`` (bombers, entry, fighters), ``detection`` (environment, zones,
sighting), ``radars`` (search radar, sweeps, AI radar), ``searchlights`` (searchlights,
flares, hand-off), ``combat`` (attacks, reactions, corkscrews, flak), ``intruders``
(Serrate and Chase), ``phases`` (steps that combine them) and ``referee`` (the catalogue
tables, registered on import). ``session`` (the automatic referee, found by
``engine.rulesets.rules_for``), ``position`` (its state as the engine's Position), ``choices``
(the player's legal answers) and ``scenario`` (its scenarios) load only for a session.
"""

from __future__ import annotations

from . import referee as _referee  # noqa: F401  (registers the referee tables)
