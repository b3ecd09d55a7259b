"""Destiny's typed events. Each names the rule IDs it applies; ``to_json`` writes it for
rulings and timelines (spec section 6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from judge.kernel.core import Event


@dataclass(frozen=True)
class Activate(Event):
    kind: ClassVar[str] = "activate"
    rules: ClassVar[tuple[str, ...]] = ("destiny.actions.activate", "destiny.actions.activate-all-dice")
    player: str
    card: str


@dataclass(frozen=True)
class Play(Event):
    kind: ClassVar[str] = "play"
    rules: ClassVar[tuple[str, ...]] = ("destiny.actions.play-card-sequence",)
    player: str
    code: str
    on: str | None = None
    replaces: str | None = None


@dataclass(frozen=True)
class Damage(Event):
    kind: ClassVar[str] = "damage"
    rules: ClassVar[tuple[str, ...]] = ("destiny.damage.tokens",)
    source: str
    target: str
    amount: int
    symbol: str | None = None  # MD, RD, ID or None for an ability's damage
    unblockable: bool = False


@dataclass(frozen=True)
class Defeat(Event):
    kind: ClassVar[str] = "defeat"
    rules: ClassVar[tuple[str, ...]] = ("destiny.defeat.threshold", "destiny.defeat.cleanup")
    target: str
    source: str | None = None
    forced: bool = False  # a delayed "is defeated" effect, whatever the damage


@dataclass(frozen=True)
class GainShields(Event):
    kind: ClassVar[str] = "shields"
    rules: ClassVar[tuple[str, ...]] = ("destiny.symbols.shield", "destiny.shields.max-three")
    source: str
    target: str
    amount: int


@dataclass(frozen=True)
class RemoveShields(Event):
    kind: ClassVar[str] = "remove-shields"
    rules: ClassVar[tuple[str, ...]] = ()
    source: str
    target: str
    amount: int


@dataclass(frozen=True)
class Heal(Event):
    kind: ClassVar[str] = "heal"
    rules: ClassVar[tuple[str, ...]] = ("destiny.terms.heal",)
    source: str
    target: str
    amount: int


@dataclass(frozen=True)
class GainResources(Event):
    kind: ClassVar[str] = "gain-resources"
    rules: ClassVar[tuple[str, ...]] = ("destiny.resources.currency",)
    source: str
    player: str
    amount: int


@dataclass(frozen=True)
class LoseResources(Event):
    kind: ClassVar[str] = "lose-resources"
    rules: ClassVar[tuple[str, ...]] = ("destiny.resources.never-negative",)
    source: str
    player: str
    amount: int


@dataclass(frozen=True)
class Draw(Event):
    kind: ClassVar[str] = "draw"
    rules: ClassVar[tuple[str, ...]] = ("destiny.draw.top-card", "destiny.draw.simultaneous",
                                        "destiny.draw.insufficient")
    source: str
    player: str
    amount: int


@dataclass(frozen=True)
class DiscardFromHand(Event):
    kind: ClassVar[str] = "discard"
    rules: ClassVar[tuple[str, ...]] = ()
    source: str
    player: str
    card: str
    random: bool = False


@dataclass(frozen=True)
class Reroll(Event):
    kind: ClassVar[str] = "reroll"
    rules: ClassVar[tuple[str, ...]] = ()
    source: str
    dice: tuple[str, ...]


@dataclass(frozen=True)
class TurnDie(Event):
    kind: ClassVar[str] = "turn"
    rules: ClassVar[tuple[str, ...]] = ("destiny.terms.turn-die",)
    source: str
    die: str
    face: str


@dataclass(frozen=True)
class RemoveDie(Event):
    kind: ClassVar[str] = "remove-die"
    rules: ClassVar[tuple[str, ...]] = ("destiny.terms.remove-die",)
    source: str
    die: str


@dataclass(frozen=True)
class Claim(Event):
    kind: ClassVar[str] = "claim"
    rules: ClassVar[tuple[str, ...]] = ("destiny.actions.claim-battlefield",)
    player: str
    battlefield: str
