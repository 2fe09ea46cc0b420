"""The shipped games, one folder each: YAML data and the game's Python, a package named as
Python names the folder (``games/midway_cards`` is ``warpress.games.midway_cards``, the game
``midway-cards``: ``engine.loader.builtin_folder``). The games use the engine, the kit and the
checks; nothing of warpress imports a game by name (``engine/gamecode.py`` finds a game's
parts by convention)."""
