"""``python -m warpress ...``: the same command line as the ``warpress`` script."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="warpress")
