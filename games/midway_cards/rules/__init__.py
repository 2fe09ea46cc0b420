"""Fateful Midway Card Game (運命のミッドウェーカードゲーム): the reference rules engine.

Modules: ``common`` (data look-ups by id, levels, damage status), ``combat`` (pairs, air
combat, target, defense, damage: pure procedures over cards), ``state`` (the frozen game
in progress: decks, hands, discard piles, ship damage; draws, hand exchange and
adjustment, deck cycling, game end, scoring), ``attack`` (attack, armament change, base
attack and tactics-card steps on the state) and ``referee`` (the catalogue tables,
registered on import).
"""

from __future__ import annotations

from . import referee as _referee  # noqa: F401  (registers the referee tables)
