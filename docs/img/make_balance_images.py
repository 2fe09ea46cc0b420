"""Run the balance reports docs/balance.md shows and copy their plots into docs/img
(balance-*.png); the reports' text and JSON go to the folder given (default: a temporary
one), to be read into the page:

    python docs/img/make_balance_images.py [OUT]
"""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RIDGE = ROOT / "tests" / "fixtures" / "games" / "ridge"

#: Axis & Allies' games stop undecided after round 20 (docs/axis-allies.md)
AA_CAPS = ["--max-steps", "20000", "--max-turns", "20"]
AA_ALLIES = ("russia", "uk", "usa")
#: name -> (game, the balance options); the starting game is written by `warpress new`
RUNS = {
    "ridge": (str(RIDGE), ["--games", "1000", "--units", "100",
                           "--vary", "unit.r-gds.attack=2..6"]),
    "starter-greedy": ("starter", ["--games", "400", "--units", "40",
                                   "--agents", "north=greedy", "--agents", "south=random"]),
    "starter-both-greedy": ("starter", ["--games", "200", "--units", "0",
                                        "--agents", "north=greedy", "--agents", "south=greedy"]),
    "starter-random": ("starter", ["--games", "2000", "--units", "0"]),
    "nightfighter-greedy": ("nightfighter", ["--games", "40", "--units", "0",
                                             "--agents", "defender=greedy"]),
    "axis-allies-greedy": ("axis-allies", [*AA_CAPS, "--games", "12", "--units", "0",
                                           *(f"--agents={p}=greedy" for p in AA_ALLIES)]),
    "axis-allies-sweep": ("axis-allies", [*AA_CAPS, "--games", "10", "--units", "0", "--vary",
                                          "constant.transport-capacity=1..3"]),
}
#: the plots kept for the page, per run
KEPT = {"ridge": ("win-rates", "lengths", "sweep-unit-r-gds-attack"),
        "starter-greedy": ("win-rates",), "starter-both-greedy": ("win-rates",),
        "nightfighter-greedy": ("win-rates",), "axis-allies-greedy": ("win-rates",),
        "axis-allies-sweep": ("sweep-constant-transport-capacity",)}


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)
    starter = out / "starter"
    if not starter.exists():
        subprocess.run(["warpress", "new", str(starter)], check=True)
    for name, (game, options) in RUNS.items():
        folder = str(starter) if game == "starter" else game
        plots = out / name / "plots"
        subprocess.run(["warpress", "balance", folder, "--seed", "1", "--out", str(out / name),
                        "--plots", str(plots), *options], check=True, stdout=subprocess.DEVNULL)
        for plot in KEPT.get(name, ()):
            shutil.copyfile(plots / f"{plot}.png", HERE / f"balance-{name}-{plot}.png")
    print(f"reports in {out}")


if __name__ == "__main__":
    main()
