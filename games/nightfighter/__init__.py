"""The shipped game nightfighter: its Python (rules/, checks.py, kit.py) beside its YAML."""
