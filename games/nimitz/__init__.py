"""The Python of Nimitz: what its data forms do not say, registered on ``CODE``
(``warpress.engine.registry.GameCode``): the referee tables (``rules/``), the session rules
(``rules/session.py``), the rule invariants (``checks.py``) and the kit's own pages
(``kit.py``)."""

from warpress.engine.registry import GameCode

CODE = GameCode()
