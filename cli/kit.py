"""The print kit's commands: ``build`` (the kit's pages) and ``export`` (pieces, VASSAL,
Tabletop Simulator)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import click

from ..components.page import PAPERS
from ..engine.loader import load_cached
from ..output import progress, say
from .base import (
    WRITE_CODES,
    Closed,
    WholeNumber,
    epilogue,
    friendly,
    game_names,
    main,
    trust_option,
)


class Made(Protocol):
    """What ``build`` or ``export`` made of one game (components.kit.BuildResult,
    components.export.ExportResult)."""

    @property
    def game(self) -> str: ...
    @property
    def files(self) -> tuple[Path, ...]: ...
    @property
    def seconds(self) -> float: ...
    @property
    def folder(self) -> Path: ...


#: The kit's formats and parts (components/kit.py's FORMATS and PARTS) and the export
#: formats (components/export.py), named here so that --help lists them without loading the
#: kit; tests/test_cli.py holds them equal.
KIT_FORMATS = ("pdf", "svg", "png")
KIT_PARTS = ("map", "counters", "cards", "sheets")
EXPORT_FORMATS = ("pieces", "vassal", "tts")


@main.command(epilog=epilogue(WRITE_CODES + "; 2 also when a format failed (named, "
                             "the others are written)", "build midway",
                             "build all --paper letter --out kits",
                             "build nimitz --only counters --format pdf,png --dpi 100"))
@click.argument("game")
@click.option("--paper", "paper_name", default="a4", show_default=True,
              type=Closed(tuple(PAPERS), "paper"), help="The paper size.")
@click.option("--out", "out_dir", default="output", show_default=True,
              type=click.Path(file_okay=False), help="Folder for the kits.")
@click.option("--format", "formats", default="pdf,svg", show_default=True,
              type=Closed(KIT_FORMATS, "format", many=True), help="Comma-separated.")
@click.option("--dpi", default=150, show_default=True, type=WholeNumber(),
              help="Resolution of the PNG pages (10 to 600).")
@click.option("--duplex", default="long", show_default=True,
              type=click.Choice(["long", "short", "fold"]),
              help="How the printer flips the sheet; fold: no duplex, each back printed "
                   "beside its front, to fold and glue.")
@click.option("--back-offset", default="0,0", show_default=True,
              help="X,Y mm by which backs are moved (read it off the calibration page).")
@click.option("--only", default=None, type=Closed(KIT_PARTS, "kit part", many=True,
                                                  after=" for --only"),
              help="Comma-separated parts (default: all).")
@click.option("--proof", is_flag=True,
              help="Designer proof, written as <game>-proof.pdf beside the kit: a dagger on "
                   "every assumed value, the assumed-values list, errata and source notes.")
@trust_option
@friendly
def build(game: str, paper_name: str, out_dir: str, formats: str, dpi: int, duplex: str,
          back_offset: str, only: str | None, proof: bool = False) -> None:
    """Build GAME's (or all games') print-and-play kit into OUT/<game>/."""
    from ..components.atomic import check_place  # on use (cli/__init__.py)
    from ..components.kit import build_kit, parse_options  # on use (cli/__init__.py)

    options = parse_options(paper_name, formats, duplex, back_offset, only, dpi, proof=proof)
    names = game_names(game)
    games_data = [load_cached(name) for name in names]
    for data in games_data:  # a file or a read-only kit in the way: refused before any work
        check_place(Path(out_dir) / data.id)
    steps = len(games_data) * (len(options.only) + len(options.formats))
    results = []
    with progress(steps, "building") as bar:
        for data in games_data:
            results.append(build_kit(data, Path(out_dir), options,
                                     progress=lambda _stage: bar.update(1)))
    files, total = _say_results(results, lambda r: f"{r.pages} pages")
    say(f"built {len(results)} kit(s): {files} files, "
        f"{sum(r.pages for r in results)} pages in {total:.1f} s")


def _say_results(results: Sequence[Made], what: Callable[[Any], str]) -> tuple[int, float]:
    """One line per game written by ``build`` or ``export`` (``what(result)`` says what it
    made); returns the files and seconds of all of them for the closing line."""
    for result in results:
        say(f"{result.game}: {what(result)}, {len(result.files)} files, "
            f"{result.seconds:.1f} s -> {result.folder}/")
    return sum(len(r.files) for r in results), sum(r.seconds for r in results)


# --------------------------------------------------------------------------- exports


@main.command(name="export", short_help="Export GAME's pieces, VASSAL module or TTS object.",
              epilog=epilogue(WRITE_CODES, "export midway --format vassal",
                             "export nightfighter --format pieces --dpi 150",
                             "export nimitz --format tts --base-url https://example.org/kit/"))
@click.argument("game")
@click.option("--format", "fmt", required=True, type=Closed(EXPORT_FORMATS, "export format"),
              help="pieces (a PNG per face), vassal (GAME.vmod) or tts (Tabletop Simulator).")
@click.option("--out", "out_dir", default="output", show_default=True,
              type=click.Path(file_okay=False), help="Folder for OUT/<game>-<format>/.")
@click.option("--dpi", default=None, type=WholeNumber(),
              help="Resolution, 10 to 600 (default: pieces 300, vassal 100, tts 150).")
@click.option("--base-url", default="",
              help="tts: the address the images will be at (e.g. https://example.org/kit/).")
@trust_option
@friendly
def export(game: str, fmt: str, out_dir: str, dpi: int | None, base_url: str) -> None:
    """Export GAME's (or all games') pieces, VASSAL module or Tabletop Simulator object."""
    from ..components.export import (  # on use (cli/__init__.py)
        DEFAULT_DPI,
        check_base_url,
        export_game,
        parse_format,
    )
    from ..components.render_pdf import check_dpi  # on use (cli/__init__.py)
    from ..components.tts import base_url_warning  # on use (cli/__init__.py)

    fmt = parse_format(fmt)
    check_dpi(DEFAULT_DPI[fmt] if dpi is None else dpi)
    check_base_url(base_url)
    games_data = [load_cached(name) for name in game_names(game)]
    if fmt == "tts" and (note := base_url_warning(base_url)):
        say(f"warpress: {note}", err=True)
    results = []
    with progress(2 * len(games_data), "exporting") as bar:
        for data in games_data:
            results.append(export_game(data, fmt, Path(out_dir), dpi, base_url,
                                       progress=lambda _stage: bar.update(1)))
    files, total = _say_results(results, lambda r: r.summary)
    say(f"exported {len(results)} game(s) as {fmt}: {files} files in {total:.1f} s")
