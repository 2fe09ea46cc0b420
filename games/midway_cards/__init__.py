"""The shipped game midway-cards: its Python (rules/, checks.py, kit.py) beside its YAML."""
