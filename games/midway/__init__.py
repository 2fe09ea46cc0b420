"""The shipped game midway: its Python (rules/, checks.py, kit.py) beside its YAML."""
