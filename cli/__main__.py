"""``python -m warpress.cli ...``: the ``warpress`` command line."""

from . import main

main()
