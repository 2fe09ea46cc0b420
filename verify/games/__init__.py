"""Per-game rule invariants (see verify/invariants.py)."""
