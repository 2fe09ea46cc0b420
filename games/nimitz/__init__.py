"""The shipped game nimitz: its Python (rules/, checks.py, kit.py) beside its YAML."""
