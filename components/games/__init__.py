"""Per-game kit extensions (see components/registry.py)."""
