"""Text a person reads in a terminal: every command prints its text through :func:`say`.

``say`` wraps each line to the terminal's width (80 columns when the output is not a
terminal, or ``$COLUMNS``), continuing a long line under a hanging indent (its own indent
plus four spaces). Widths are counted in terminal columns: East Asian wide and full-width
characters (Japanese names) take two, combining marks none. Error messages on stderr are
wrapped the same way (one message, its first line starting ``warpress:``); JSON output is
not wrapped.

The terminal is not the game data's to drive: every text printed (``say``, error messages,
``say_json``) shows the C0 and C1 control characters and the bidirectional controls as
escapes (``\x1b``, ``\u202e``), so a name in a game folder cannot clear the screen, set the
window title, write the clipboard or reorder what is shown.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

import click

from .engine.decisions import Action, ActionSpec, command_line
from .engine.model import Game
from .engine.referee import Referee, ScenarioInfo
from .engine.registry import RefTable
from .engine.text import plain_steps, rules_text, terminal_width

#: Continuation lines start this many columns right of the line's own indent.
HANG = 4
#: Characters that may not begin a line (Japanese closing punctuation, JIS X 4051 in brief).
NO_LINE_START = frozenset("、。，．・：；？！）」』】〕〉》ー々"
                          "ぁぃぅぇぉっゃゅょァィゥェォッャュョ)]},.;:!?")

#: Characters that may not end a line (opening brackets).
NO_LINE_END = frozenset("（「『【〔〈《([{")
#: Inside a word too long for a line, a cut goes after one of these where it can.
BREAK_AFTER = ("/", ",", "-", "_")

#: A JSON object (a game's summary, a session's view, a log record, a decision).
Json = Mapping[str, Any]
#: What an agent did in a session: (side, agent name, action, the step it made).
Made = tuple[str, str, Action, Any]

_WORDS = re.compile(r"(\s*)(\S+)")
#: What a terminal would act on rather than show: the C0 controls but the newline, DEL and
#: the C1 controls, the line and paragraph separators, and the bidirectional controls
#: (marks, embeddings, overrides, isolates).
_CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                       "\u202a-\u202e\u2066-\u2069]")
#: The same in JSON text (where json.dumps has escaped the C0 controls already).
_JSON_CONTROLS = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                            "\u2066-\u2069]")
#: A bracketed number (and what closes a phrase after it): it stays on the line of the word
#: it annotates, as "S (3)" does.
_GLUED = re.compile(r"\(\d+\)[,.;:]?$")


def printable(text: str) -> str:
    r"""``text`` with every control a terminal would act on written as its escape
    (``\x1b[2J`` shows as ``\\x1b[2J``); newlines are kept."""
    return _CONTROLS.sub(_escape, text) if _CONTROLS.search(text) else text


def single_line(text: str) -> str:
    """``text`` as :func:`printable`, its newlines escaped too: a name a user typed cannot
    make one message several lines."""
    return printable(text).replace("\n", "\\n")


def _escape(match: re.Match[str]) -> str:
    return repr(match.group())[1:-1]


def char_width(ch: str) -> int:
    """Terminal columns of one character: 2 for East Asian wide/full-width, 0 combining."""
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def text_width(text: str) -> int:
    """Terminal columns of ``text`` (one line)."""
    return sum(char_width(ch) for ch in text)


def wrap_line(line: str, width: int, hang: int | None = None) -> list[str]:
    """``line`` as lines of at most ``width`` columns. A line breaks at a space, or between
    two characters of Japanese (never inside a Latin word unless it is longer than a line,
    never before a closing mark or after an opening one); continuation lines start at
    column ``hang`` (default: the line's own indent plus four)."""
    if text_width(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    pad = " " * min(indent + HANG if hang is None else hang, width // 2)
    lines: list[str] = []
    head, row = line[:indent], list[tuple[str, str]]()
    for sep, token in _tokens(line[indent:]):
        if text_width(token) > width - len(pad):         # longer than any line: cut it
            head, row = _cut_into(lines, head, row, sep, token, width, pad)
            continue
        while row and text_width(_render(head, [*row, (sep, token)])) > width:
            keep = _legal_break(row, token)
            lines.append(_render(head, row[:keep]))
            head, row = pad, row[keep:]
            if row and text_width(_render(head, [*row, (sep, token)])) > width:
                lines.append(_render(head, row))            # what kinsoku carried: no room
                row = []
        row.append((sep, token))
    lines.append(_render(head, row))
    return lines


def _tokens(text: str) -> list[tuple[str, str]]:
    """``(space before, token)``: each word, with each wide (Japanese) character a token of
    its own and Latin runs inside Japanese kept whole (``A-6``)."""
    tokens: list[tuple[str, str]] = []
    for sep, word in _WORDS.findall(text):
        latin = ""
        for ch in word:
            if char_width(ch) == 2:
                if latin:
                    tokens.append((sep, latin))
                    sep, latin = "", ""
                tokens.append((sep, ch))
                sep = ""
            else:
                latin += ch
        if latin:
            tokens.append((sep, latin))
    return tokens


def _render(head: str, row: list[tuple[str, str]]) -> str:
    """A line: ``head`` (indent) and the row's tokens (the first one's space dropped)."""
    return (head + "".join((sep if i else "") + token
                           for i, (sep, token) in enumerate(row))).rstrip()


def _legal_break(row: list[tuple[str, str]], token: str) -> int:
    """How many tokens of ``row`` stay when ``token`` does not fit: all, unless the next
    line would start with a closing mark or a bracketed number that belongs to the word
    before it (``NW (5)``, ``2d6 (7)``), or this one end with an opening mark."""
    for keep in range(len(row), 0, -1):
        first = row[keep][1] if keep < len(row) else token
        if (first[:1] not in NO_LINE_START and not _GLUED.match(first)
                and row[keep - 1][1][-1:] not in NO_LINE_END):
            return keep
    return len(row)


def _cut_into(lines: list[str], head: str, row: list[tuple[str, str]], sep: str, token: str,
              width: int, pad: str) -> tuple[str, list[tuple[str, str]]]:
    """Cut a token longer than a line: its first piece fills the current line, the rest go
    on continuation lines; the new (head, row) holds the last piece."""
    room = width - (text_width(_render(head, row)) + len(sep) if row else text_width(head))
    if row and room < 2:
        lines.append(_render(head, row))
        head, row, room = pad, [], width - len(pad)
    pieces = _split_word(token, room, width - len(pad))
    if len(pieces) == 1:                                  # it fits the first line's room
        return head, [*row, (sep, token)]
    lines.append(_render(head, [*row, (sep, pieces[0])]))
    lines.extend(pad + piece for piece in pieces[1:-1])
    return pad, [("", pieces[-1])]


def _split_word(word: str, first: int, rest: int) -> list[str]:
    """``word`` cut into pieces of ``first`` then ``rest`` columns (a word longer than a
    line: Japanese text without spaces, a long path); a cut falls after a ``/ , - _`` in
    the piece's second half if it has one, and no piece begins with closing punctuation."""
    pieces, piece, room = [], "", max(first, 1)
    for ch in word:
        if piece and text_width(piece + ch) > room:
            cut = _cut(piece, ch)
            pieces.append(piece[:cut])
            piece = piece[cut:]
            room = max(rest, 1)
        piece += ch
    pieces.append(piece)
    return pieces


def _cut(piece: str, after: str) -> int:
    """Where to end a full ``piece`` that ``after`` would overflow."""
    soft = max(piece.rfind(mark) for mark in BREAK_AFTER) + 1
    if soft > len(piece) // 2:
        return soft
    if after in NO_LINE_START and len(piece) > 1:
        return len(piece) - 1
    return len(piece)


def fit(text: str, width: int | None = None, hang: int | None = None) -> str:
    """Every line of ``text`` wrapped to ``width`` (default: the terminal's); ``hang``: the
    column continuation lines start at (default: each line's indent plus four)."""
    width = terminal_width() if width is None else width
    return "\n".join(out for line in printable(text).split("\n")
                     for out in wrap_line(line, width, hang))


def say(text: str = "", err: bool = False, hang: int | None = None) -> None:
    """Print ``text`` for a person: wrapped to the terminal (the one text printer of the CLI);
    ``hang`` as for :func:`fit` (a column of a table, say)."""
    click.echo(fit(text, hang=hang), err=err)


def say_json(value: Any, indent: int | None = None,
             default: Callable[[Any], Any] | None = None) -> None:
    """Print ``value`` as JSON (not wrapped; non-ASCII text as it is), the characters
    :func:`printable` escapes written as ``\\uXXXX`` escapes: the same JSON value."""
    text = json.dumps(value, ensure_ascii=False, indent=indent, default=default)
    click.echo(_JSON_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


# --- the referee's tables ---------------------------------------------------------------------


def table_lines(game: Game, name: str, table: RefTable) -> list[str]:
    """A table of ``warpress tables``: its name, rules and summary, each input with the values
    it takes, and its result fields."""
    lines = [f"{name}  [{rules_text(table.rules)}]  {table.summary}"]
    for item in table.inputs:
        optional = "" if item.required or item.is_roll else " (optional)"
        lines.append(f"    {item.name}={item.allowed(game)}{optional}")
    if table.results:
        lines.append(f"    -> {', '.join(table.results)}")
    return lines


# --- the designer's commands: games, verify, errata, trust ------------------------------------


def game_lines(row: Json) -> list[str]:
    """A game of ``warpress games`` (``verify.summary.game_summary``): its id, kind and name,
    its component counts, and how many of its values are sourced (printed under a hanging
    indent of 14)."""
    counts = ", ".join(f"{n} {k[:-1] if n == 1 and k.endswith('s') else k}"
                       for k, n in row["components"].items() if n)
    return [f"{row['id']:<13} {row['kind']:<15} {row['name']}", f"{'':<13} {counts}",
            f"{'':<13} {row['values']} values: {row['sourced_pct']:.1f}% sourced, "
            f"{row['assumed_pct']:.1f}% assumed; {row['errata']} errata"]


def verify_summary(tally: Mapping[str, int], data_only: bool, seconds: float) -> str:
    """``verify: 21 PASS, 0 FAIL; data OK in 1 of 1 game(s); 4.9 s``."""
    games = tally["data OK"] + tally["data problems"]
    data = f"data OK in {tally['data OK']} of {games} game(s)"
    if data_only:
        return f"verify: {data}, invariants not run (--data); {seconds:.1f} s"
    return f"verify: {tally['PASS']} PASS, {tally['FAIL']} FAIL; {data}; {seconds:.1f} s"


def errata_lines(game: Game) -> list[str]:
    """Each erratum of ``game``: its rules and summary, its readings, the ruling and why."""
    lines = []
    for erratum in game.errata:  # step numbers cited as "land 4)" print as "land 4"
        lines.append(f"{erratum.id} [{rules_text(erratum.rules)}] {plain_steps(erratum.summary)}")
        lines += [f"    reading: {plain_steps(reading)}" for reading in erratum.readings]
        lines.append(f"    ruling:  {plain_steps(erratum.ruling)}")
        lines.append(f"    why:     {plain_steps(erratum.why)}")
    return lines


def trusted_line(folder: str, record: Mapping[str, Any], why_not: str | None) -> str:
    """A folder of ``warpress trust --list``: its Python files and their hash, when it was
    trusted, and whether it still is (``why_not``: why not)."""
    state = "trusted" if why_not is None else f"not trusted: {why_not}"
    return (f"{folder}  {record.get('files', '?')} Python file(s), "
            f"sha256 {str(record.get('python_sha256'))[:16]}, {record.get('time')}: {state}")


# --- sessions: the text views of `warpress play` -------------------------------------------

#: The game's text for the values of some keys (Nightfighter's facing: ``NW (5)``).
FieldText = Mapping[str, Callable[[Any], str]]

#: the keys of a view's records that name the record (the first given heads its line)
_HEADS = ("id", "radar", "kind", "zone")
#: the view keys printed as sections of records, in this order (others after them)
_SECTIONS = ("fighters", "counters", "markers", "searchlights", "bombers", "pieces")


def blank(value: object) -> bool:
    """Nothing worth printing: None, False, an empty list or text (0 is a value: facing 0)."""
    return value is None or value is False or value == [] or value == "" or value == {}


def shown_value(value: object) -> str:
    """A JSON value as a person reads it: lists and objects without brackets and quotes."""
    if isinstance(value, list):
        return ", ".join(shown_value(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {shown_value(v)}" for k, v in value.items())
    if value is True:
        return "yes"
    return str(value)


def reason_text(reason: object) -> str:
    """A reason of a summary: text, or ``{"text", "rules"}`` shown as ``text  [rules]``."""
    if not isinstance(reason, dict):
        return str(reason)
    rules = f"  [{rules_text(reason['rules'])}]" if reason.get("rules") else ""
    return f"{reason.get('text', '')}{rules}"


def announcement_line(note: Json) -> str:
    """An announcement's JSON as ``turn N PHASE: text  [rules]``."""
    phase = f" {note['phase']}" if note.get("phase") else ""
    return f"turn {note['turn']}{phase}: {reason_text(note)}"


def summary_lines(summary: Json | None) -> list[str]:
    if not summary:
        return []
    lines = [f"game over: {summary.get('result', '')}".rstrip()]
    if summary.get("winner"):
        lines[0] += f" for {summary['winner']}"
    lines += [f"  {reason_text(reason)}" for reason in summary.get("reasons", [])]
    lines += [f"  {key.replace('_', ' ')}: {shown_value(value)}" for key, value in summary.items()
              if key not in ("result", "reasons", "winner") and not blank(value)]
    return lines


def item_line(record: Json, fields: FieldText | None = None) -> str:
    """One record of a view as ``ID: key value, ...``; ``fields`` maps a key to the game's
    text for its value (Nightfighter's facing: ``NW (5)``)."""
    head = next((str(record[k]) for k in _HEADS if record.get(k) not in (None, "")), "?")
    fields = fields or {}
    shown = [f"{key} {fields[key](value) if key in fields else shown_value(value)}"
             for key, value in record.items()
             if key not in _HEADS[:2] and not blank(value) and str(value) != head]
    return f"  {head}: {', '.join(shown)}" if shown else f"  {head}"


def view_lines(view: Json, fields: FieldText | None = None) -> list[str]:
    """The text of a session view: where the game stands, what is due, its records."""
    title = view.get("title") or view.get("scenario") or ""
    turns = f" of {view['turns']}" if view.get("turns") else ""
    phase = view.get("phase_name") or view.get("phase")
    acting = (f" ({view['acting']} acts)" if view.get("acting") and not view.get("over")
              else "")
    lines = [f"{view.get('game', '')}: {title}, turn {view.get('turn')}{turns}, "
             f"phase {phase}{acting}"]
    due = view.get("due")
    if due and not view.get("over"):
        lines.append(f"due: {due['kind']} by {due['side']}"
                     f"{'  [' + rules_text(due['rules']) + ']' if due.get('rules') else ''}")
    if not view.get("over"):
        lines.append(f"you may: {', '.join(view.get('awaiting') or []) or 'nothing'}")
    for key in ("score", "rolled", "points", "control", "tracks"):
        if not blank(view.get(key)):
            lines.append(f"{key}: {shown_value(view[key])}")
    keys = [k for k in _SECTIONS if view.get(k)] + [
        k for k, v in view.items() if k not in _SECTIONS and isinstance(v, list) and v
        and all(isinstance(r, dict) for r in v) and k != "announcements"]
    for key in keys:
        lines.append(f"{key}:")
        lines += [item_line(record, fields) for record in view[key]]
    if view.get("announcements"):
        lines.append("this turn:")
        lines += [f"  {announcement_line(note)}" for note in view["announcements"]]
    return lines + summary_lines(view.get("summary"))


def scenario_lines(info: ScenarioInfo, default: bool = False) -> list[str]:
    """A scenario of ``warpress play scenarios``: its name and title (the default marked),
    and its summary under them."""
    lines = [f"{info.name}  {info.title}{'  (default)' if default else ''}"]
    return lines + ([f"    {info.summary}"] if info.summary else [])


def action_lines(spec: ActionSpec) -> tuple[str, str]:
    """An action of ``warpress play actions``: how it is typed (``move UNIT PATH [--dive]``,
    printed under a hanging indent of 4) and what it does."""
    args = " ".join(a.name.upper() if a.required else f"[{a.name.upper()}]" for a in spec.args)
    opts = " ".join(f"[{o.decl}]" for o in spec.options)
    return " ".join(x for x in (spec.name, args, opts) if x), f"    {spec.help}"


def agent_lines(made: Sequence[Made], referee: Referee) -> list[str]:
    """What the agents did: each command as typed, with its announcements when the game
    hides nothing."""
    specs = {spec.name: spec for spec in referee.actions}
    lines = []
    for side, name, action, step in made:
        lines.append(f"{side} ({name}): {command_line(action, specs.get(action.name))}")
        if not referee.hidden:
            lines += [f"  {announcement_line(a.as_json())}" for a in step.announcements]
    return lines


def acted_lines(name: str, notes: Sequence[Json], agents: list[str], view: Json) -> list[str]:
    """What one action of ``warpress play`` led to: its announcements (or ``NAME: done``),
    what the agents did then (``agents``: :func:`agent_lines`), what is due, who may act,
    and the verdict when the game is over."""
    lines = [announcement_line(note) for note in notes] or [f"{name}: done"]
    lines += agents
    if not view.get("over"):
        due = view.get("due")
        if due:
            lines.append(f"due: {due['kind']} by {due['side']}")
        if view.get("awaiting"):
            who = f"{view['acting']} " if view.get("acting") else "you "
            lines.append(f"{who}may: {', '.join(view['awaiting'])}")
    return lines + summary_lines(view.get("summary"))


def head_line(lines: int, head: str) -> str:
    """``log: 14 lines, head 1a2b3c4d5e6f7081``: the SHA-256 of the log's last line, which
    two copies of a session share only when they hold the same history."""
    return f"log: {lines} lines, head {head[:16]}"


def log_line(record: Json, shown: FieldText,
             typed: Callable[[Any, dict[str, Any]], str] | None = None) -> str:
    """One session log record as a line; ``shown``: the game's text for some arguments
    (Nightfighter's facing ``NW (5)``), the others as typed; ``typed(name, args)``: a
    command as the command line takes it (``move n4 0504``)."""
    kind = record.get("type")
    when = record.get("time", "")
    if kind == "session":
        folder = f" (folder {record['folder']})" if record.get("folder") else ""
        agents = record.get("agents") or {}
        played = "".join(f" --agent {side}={name}" for side, name in sorted(agents.items()))
        return (f"{when}  new {record.get('game')}{folder} scenario {record.get('scenario')} "
                f"seed {record.get('seed')}{played} (warpress {record.get('warpress')})")
    if kind == "reveal":
        return f"{when}  reveal after command {record.get('n')}"
    if kind == "undo":
        return f"{when}  undo: back to command {record.get('n')}"
    if kind == "rollback":
        return (f"{when}  rollback accepted after command {record.get('n')}: this machine had "
                f"seen {record.get('lines')} lines, head {str(record.get('head'))[:16]}")
    args = {k: shown[k](v) if k in shown else v for k, v in (record.get("args") or {}).items()}
    if typed is not None:
        command = typed(record.get("command"), args)
    else:
        command = " ".join([str(record.get("command")), *(f"{k}={v}" for k, v in args.items())])
    text = f"{when}  {record.get('n'):>3} {command}".rstrip()
    if record.get("agent"):
        text += f"  (agent {record['agent']})"
    if record.get("result") == "refused":
        return f"{text}  REFUSED: {record.get('message')}"
    return text


def decision_lines(decision: Json, limit: int = 40) -> list[str]:
    """The decision due and its legal answers, each as the command that makes it (its
    ``command``), at most ``limit`` answers per option."""
    rules = f"  [{rules_text(decision['rules'])}]" if decision.get("rules") else ""
    lines = [f"{decision['prompt']}{rules}"]
    for option in decision["options"]:
        actions = option.get("actions", [])
        if len(actions) == 1:
            lines.append(f"  {_action_text(actions[0])}")
            continue
        lines.append(f"  {option['label']}:" + ("" if actions else " nothing"))
        lines += [f"    {_action_text(action)}" for action in actions[:limit]]
        if len(actions) > limit:
            lines.append(f"    ... and {len(actions) - limit} more (--json lists them)")
    return lines


def _action_text(action: Json) -> str:
    text = action.get("command") or " ".join(
        [action["action"], *(str(v) for v in action["args"].values())])
    return f"{text}  ({action['note']})" if action.get("note") else text


# --- progress on a terminal -------------------------------------------------------------------


def duration_text(seconds: float) -> str:
    """A time left as a person reads it: ``40 s``, ``12 min``, ``2.5 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"



class Bar(Protocol):
    """What a progress bar is told: ``update(steps)`` as each step is done."""

    def update(self, steps: int, /) -> None: ...


class _Silent:
    """What ``progress`` gives when stderr is not a terminal: nothing is drawn or printed."""

    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, steps: int, /) -> None:
        return None


def progress(length: int, label: str) -> AbstractContextManager[Bar]:
    """A progress bar of ``length`` steps on stderr (``click.progressbar``), drawn only when
    stderr is a terminal: piped or logged, a command prints nothing for it."""
    stream = sys.stderr
    if not stream.isatty():
        return _Silent()
    return click.progressbar(length=length, label=label, file=stream)


def working(text: str, done: bool = False) -> None:
    """On a terminal, ``text`` as a status line on stderr while a step runs (``done``: the
    line is cleared, so the result printed next takes its place); nothing otherwise."""
    stream = sys.stderr
    if stream.isatty():
        line = "" if done else text[:terminal_width() - 1]
        stream.write(f"\r\033[K{line}")
        stream.flush()
