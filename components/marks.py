"""What marks a designer proof, and what a player's kit leaves out.

A value the rules do not give (``source: assumed``) is listed on the proof's
"Assumed values" pages. On pieces, maps, cards and aids it is marked with a
dagger only in a designer proof (``warpress build --proof``): ``dagger`` returns
the mark only while ``proof(True)`` is in force, so a player's kit carries none.
Map code, counters, cards and aids all call ``dagger`` (or ``field_dagger`` for a
record's field), so every assumed value is marked where it is printed.

Designer material (errata ids such as ``E12`` or ``C-E4``, constant ids, "design
note", "inferred, high confidence", source line numbers such as ``L28-33``) stays
in the data for the proof; ``plain`` takes it out of a text on a player's page,
and ``rule_ref`` shortens a heading's list of rule numbers to the first few.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..engine.text import plain_steps

DAGGER = "†"
_PROOF: ContextVar[bool] = ContextVar("warpress_proof", default=False)
#: The most rule numbers a heading of a player's kit prints (the proof prints them all).
RULE_REFS = 2


def dagger(assumed: bool) -> str:
    """The dagger for an assumed value in a designer proof, else nothing."""
    return DAGGER if assumed and _PROOF.get() else ""


def field_dagger(record: object, *keys: str) -> str:
    """The dagger when ``record`` or any of its fields ``keys`` (``stats.air``) is assumed."""
    if not _PROOF.get() or record is None:
        return ""
    assumed = getattr(record, "is_assumed", False) or any(
        record.field_assumed(key) for key in keys if hasattr(record, "field_assumed"))
    return dagger(bool(assumed))


def proofing() -> bool:
    """True while a designer proof is being laid out."""
    return _PROOF.get()


@contextmanager
def proof(on: bool) -> Iterator[None]:
    """Lay out with (``on``) or without daggers and designer notes."""
    token = _PROOF.set(on)
    try:
        yield
    finally:
        _PROOF.reset(token)


# --- what a player's page leaves out ---------------------------------------------------------

#: One item of a bracketed list that is for designers only: an erratum (``E12``, ``C-E4``,
#: ``see E18 for 28.4``, ``E10 ruling``), a source line (``L85``, ``L62-64``), a constant id,
#: a play example cited as a source (``PE``), a design note or a confidence.
_DESIGNER_ITEM = re.compile(
    r"(?:see |erratum |errata )?(?:C-)?E\d{1,2}(?: ruling| reading [A-Z])?(?: for [\d.()]+)?"
    r"|L\d+(?:-\d+)?|PE"
    r"|constants? [a-z][a-z0-9]*(?:-[a-z0-9]+)+"
    r"|design note|inferred|(?:inferred,? )?(?:high|medium|low) confidence"
    r"|(?:data|inferred|assumed)(?::| from) [^;,]*")
#: An erratum id leading an explanation: ``E12: a 6 is discarded`` -> ``a 6 is discarded``.
#: A constant's id after ``constants a-b, ...`` in the same bracket.
_CONSTANT_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")
_LEADING_ERRATUM = re.compile(r"^(?:C-)?E\d{1,2}:\s*")
#: A designer's note that opens with what the text lacks: ``Not in the text: the order of
#: the checks. Taken: ...`` -> the ruling taken, which is what a player needs.
_NOT_IN_TEXT = re.compile(r"^Not in the (?:text|rules):\s*(?:[^.]*\.\s*Taken:\s*)?")
_TAKEN_AS = re.compile(r" (are|is) not in the (?:text|rules): taken as ")
_GROUP = re.compile(r"\s?[(\[]([^()\[\]]*)[)\]]")
_SEPARATORS = re.compile(r"(\s*[;,]\s*)")


def plain(text: str) -> str:
    """``text`` as a player's page prints it: bracketed designer items left out (a bracket
    left empty goes too), a note on what the text lacks reduced to the ruling taken; the
    proof prints ``text`` as it is."""
    if _PROOF.get() or not text:
        return text
    ruling = _TAKEN_AS.sub(r" \1 ", _NOT_IN_TEXT.sub("", text))
    if ruling != text:
        ruling = ruling[:1].upper() + ruling[1:] if _NOT_IN_TEXT.match(text) else ruling
    return _GROUP.sub(_plain_group, ruling)


def _plain_group(match: re.Match[str]) -> str:
    whole, inner = match.group(0), match.group(1)
    parts = _SEPARATORS.split(inner)
    items, seps = parts[0::2], parts[1::2]
    constants = any(item.strip().startswith("constant") for item in items)
    kept: list[str] = []
    for i, item in enumerate(items):
        item = _LEADING_ERRATUM.sub("", item.strip())
        designer = _DESIGNER_ITEM.fullmatch(item) or (constants and _CONSTANT_ID.fullmatch(item))
        if item and not designer:
            kept.append((seps[i - 1] if kept and i > 0 else "") + item)
    if len(kept) == len(items) and all(k.strip() for k in kept) and inner.strip() == inner:
        return whole if not _LEADING_ERRATUM.match(inner) else whole.replace(
            inner, "".join(kept))
    if not kept:
        return ""
    opening = whole.lstrip()[0]
    closing = ")" if opening == "(" else "]"
    lead = whole[:len(whole) - len(whole.lstrip())]
    return f"{lead}{opening}{''.join(kept)}{closing}"


def rule_ref(rules: Iterable[str] | str | None) -> str:
    """A heading's rule numbers in brackets: ``[2.1(3), 3.3(1)]``; a player's kit prints
    the first ``RULE_REFS`` without source lines, the proof all of them; "" for none."""
    if not rules:
        return ""
    listed = [rules] if isinstance(rules, str) else [str(r) for r in rules]
    shown = [plain_steps(r) for r in listed]
    if not _PROOF.get():
        shown = [r for r in shown if not re.fullmatch(r"L\d+(?:-\d+)?|PE", r)][:RULE_REFS]
    return f"[{', '.join(shown)}]" if shown else ""
