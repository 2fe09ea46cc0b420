"""What one command of a session works with: the game, its board, the step's dice and the
announcements it makes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..dice import Dice
from ..model import Game
from ..position import Position
from ..referee import Announcement
from .board import Board, board_of


@dataclass
class Context:
    """A command's working set; ``say`` records what the players are told."""

    game: Game
    dice: Dice
    board: Board = field(init=False)
    events: list[Announcement] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.board = board_of(self.game)

    def say(self, position: Position, text: str, rules: Sequence[str] = (),
            **data: object) -> None:
        assert not isinstance(rules, str), "rules are a sequence of rule numbers"
        self.events.append(Announcement(position.turn, position.phase or "", text,
                                        tuple(rules), dict(data)))
