"""warpress: print-and-play kits and a reference rules engine from YAML game data."""
__version__ = "0.1.0"
