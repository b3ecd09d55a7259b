"""Destiny's typed events. Each names the rule IDs it applies; ``to_json`` writes it for
rulings and timelines (spec section 6). Immutable values (``Final`` attributes, slots): plain
classes, built natively by the compiled engine (see ``judge.kernel.core.Record`` for why not
frozen dataclasses); ``fields`` lists their fields in order."""

from __future__ import annotations

from typing import ClassVar, Final

from judge.kernel.core import Event


class Activate(Event):
    __slots__ = ("player", "card")
    kind: ClassVar[str] = "activate"
    rules: ClassVar[tuple[str, ...]] = ("destiny.actions.activate", "destiny.actions.activate-all-dice")
    fields: ClassVar[tuple[str, ...]] = ("player", "card")

    def __init__(self, player: str, card: str) -> None:
        self.player: Final = player
        self.card: Final = card


class Play(Event):
    __slots__ = ("player", "code", "on", "replaces")
    kind: ClassVar[str] = "play"
    rules: ClassVar[tuple[str, ...]] = ("destiny.actions.play-card-sequence",)
    fields: ClassVar[tuple[str, ...]] = ("player", "code", "on", "replaces")

    def __init__(self, player: str, code: str, on: str | None = None, replaces: str | None = None) -> None:
        self.player: Final = player
        self.code: Final = code
        self.on: Final = on
        self.replaces: Final = replaces


class Damage(Event):
    __slots__ = ("source", "target", "amount", "symbol", "unblockable")
    kind: ClassVar[str] = "damage"
    rules: ClassVar[tuple[str, ...]] = ("destiny.damage.tokens",)
    fields: ClassVar[tuple[str, ...]] = ("source", "target", "amount", "symbol", "unblockable")

    def __init__(self, source: str, target: str, amount: int, symbol: str | None = None,
                 unblockable: bool = False) -> None:
        self.source: Final = source
        self.target: Final = target
        self.amount: Final = amount
        self.symbol: Final = symbol  # MD, RD, ID or None for an ability's damage
        self.unblockable: Final = unblockable


class Defeat(Event):
    __slots__ = ("target", "source", "forced")
    kind: ClassVar[str] = "defeat"
    rules: ClassVar[tuple[str, ...]] = ("destiny.defeat.threshold", "destiny.defeat.cleanup")
    fields: ClassVar[tuple[str, ...]] = ("target", "source", "forced")

    def __init__(self, target: str, source: str | None = None, forced: bool = False) -> None:
        self.target: Final = target
        self.source: Final = source
        self.forced: Final = forced  # a delayed "is defeated" effect, whatever the damage


class GainShields(Event):
    __slots__ = ("source", "target", "amount")
    kind: ClassVar[str] = "shields"
    rules: ClassVar[tuple[str, ...]] = ("destiny.symbols.shield", "destiny.shields.max-three")
    fields: ClassVar[tuple[str, ...]] = ("source", "target", "amount")

    def __init__(self, source: str, target: str, amount: int) -> None:
        self.source: Final = source
        self.target: Final = target
        self.amount: Final = amount


class RemoveShields(Event):
    __slots__ = ("source", "target", "amount")
    kind: ClassVar[str] = "remove-shields"
    rules: ClassVar[tuple[str, ...]] = ()
    fields: ClassVar[tuple[str, ...]] = ("source", "target", "amount")

    def __init__(self, source: str, target: str, amount: int) -> None:
        self.source: Final = source
        self.target: Final = target
        self.amount: Final = amount


class Heal(Event):
    __slots__ = ("source", "target", "amount")
    kind: ClassVar[str] = "heal"
    rules: ClassVar[tuple[str, ...]] = ("destiny.terms.heal",)
    fields: ClassVar[tuple[str, ...]] = ("source", "target", "amount")

    def __init__(self, source: str, target: str, amount: int) -> None:
        self.source: Final = source
        self.target: Final = target
        self.amount: Final = amount


class GainResources(Event):
    __slots__ = ("source", "player", "amount")
    kind: ClassVar[str] = "gain-resources"
    rules: ClassVar[tuple[str, ...]] = ("destiny.resources.currency",)
    fields: ClassVar[tuple[str, ...]] = ("source", "player", "amount")

    def __init__(self, source: str, player: str, amount: int) -> None:
        self.source: Final = source
        self.player: Final = player
        self.amount: Final = amount


class LoseResources(Event):
    __slots__ = ("source", "player", "amount")
    kind: ClassVar[str] = "lose-resources"
    rules: ClassVar[tuple[str, ...]] = ("destiny.resources.never-negative",)
    fields: ClassVar[tuple[str, ...]] = ("source", "player", "amount")

    def __init__(self, source: str, player: str, amount: int) -> None:
        self.source: Final = source
        self.player: Final = player
        self.amount: Final = amount


class Draw(Event):
    __slots__ = ("source", "player", "amount")
    kind: ClassVar[str] = "draw"
    rules: ClassVar[tuple[str, ...]] = ("destiny.draw.top-card", "destiny.draw.simultaneous",
                                        "destiny.draw.insufficient")
    fields: ClassVar[tuple[str, ...]] = ("source", "player", "amount")

    def __init__(self, source: str, player: str, amount: int) -> None:
        self.source: Final = source
        self.player: Final = player
        self.amount: Final = amount


class DiscardFromHand(Event):
    __slots__ = ("source", "player", "card", "random")
    kind: ClassVar[str] = "discard"
    rules: ClassVar[tuple[str, ...]] = ()
    fields: ClassVar[tuple[str, ...]] = ("source", "player", "card", "random")

    def __init__(self, source: str, player: str, card: str, random: bool = False) -> None:
        self.source: Final = source
        self.player: Final = player
        self.card: Final = card
        self.random: Final = random


class Reroll(Event):
    __slots__ = ("source", "dice")
    kind: ClassVar[str] = "reroll"
    rules: ClassVar[tuple[str, ...]] = ()
    fields: ClassVar[tuple[str, ...]] = ("source", "dice")

    def __init__(self, source: str, dice: tuple[str, ...]) -> None:
        self.source: Final = source
        self.dice: Final = dice


class TurnDie(Event):
    __slots__ = ("source", "die", "face")
    kind: ClassVar[str] = "turn"
    rules: ClassVar[tuple[str, ...]] = ("destiny.terms.turn-die",)
    fields: ClassVar[tuple[str, ...]] = ("source", "die", "face")

    def __init__(self, source: str, die: str, face: str) -> None:
        self.source: Final = source
        self.die: Final = die
        self.face: Final = face


class RemoveDie(Event):
    __slots__ = ("source", "die")
    kind: ClassVar[str] = "remove-die"
    rules: ClassVar[tuple[str, ...]] = ("destiny.terms.remove-die",)
    fields: ClassVar[tuple[str, ...]] = ("source", "die")

    def __init__(self, source: str, die: str) -> None:
        self.source: Final = source
        self.die: Final = die


class Claim(Event):
    __slots__ = ("player", "battlefield")
    kind: ClassVar[str] = "claim"
    rules: ClassVar[tuple[str, ...]] = ("destiny.actions.claim-battlefield",)
    fields: ClassVar[tuple[str, ...]] = ("player", "battlefield")

    def __init__(self, player: str, battlefield: str) -> None:
        self.player: Final = player
        self.battlefield: Final = battlefield
