"""The shipped game axis-allies: its Python (rules/, checks.py, kit.py) beside its YAML."""
