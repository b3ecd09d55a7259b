"""Relic's records: what happened, one typed value per kind, each writing itself as
``{"event": kind, <fields in order>, "rules": [...]}`` (the shape of docs/events.md). Every die
rolled, exploded, rerolled and modified is a record with the roller's score after it.

Each class names its JSON keys in its docstring (``key: meaning``), as the kernel's records do.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from judge.kernel.core import Record


@dataclass(frozen=True, repr=False, eq=True)
class RelicRecord(Record):
    """Base: the dataclass fields in order (``None`` left out when the key is optional)."""

    kind: ClassVar[str] = "relic"
    rules: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind}
        for f in fields(self):
            if f.name == "rules":
                continue
            value = getattr(self, f.name)
            if value is None and f.name in self.optional:
                continue
            out[f.name.rstrip("_")] = list(value) if isinstance(value, tuple) else value
        out["rules"] = list(self.rules)
        return out


@dataclass(frozen=True, repr=False)
class TurnBegins(RelicRecord):
    """A player's turn begins (spent charges are counted afresh).

    player: the active player
    round: the round number
    """

    kind: ClassVar[str] = "turn-begins"
    player: str
    round: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class PhaseBegins(RelicRecord):
    """The active player's next phase begins.

    player: the active player
    phase: movement | exploration | encounter | experience
    """

    kind: ClassVar[str] = "phase"
    player: str
    phase: str
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class ScenarioReached(RelicRecord):
    """The active player's character stands on the scenario space.

    player: the player
    """

    kind: ClassVar[str] = "scenario-reached"
    player: str
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class ContestBegins(RelicRecord):
    """A battle or a skill test begins.

    player: the active player
    contest: battle | test
    characteristic: strength | willpower | cunning
    enemies: the enemies' card codes (a battle)
    value: the enemies' total value, or the test's target number
    confrontation: true when it is the scenario's Confrontation
    """

    kind: ClassVar[str] = "contest-begins"
    optional: ClassVar[tuple[str, ...]] = ("enemies",)
    player: str
    contest: str
    characteristic: str
    enemies: tuple[str, ...] | None
    value: int
    confrontation: bool
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class EffectResolved(RelicRecord):
    """A card's (or the scenario's) effect changed a number.

    card: the card (or ``scenario``) whose effect it is
    effect: the effect's kind
    player: the player it applies to
    change: how much it added (negative: took away)
    now: the number after it (Influence, life, the score adjustment)
    """

    kind: ClassVar[str] = "effect"
    card: str
    effect: str
    player: str
    change: int
    now: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class BonusDeclared(RelicRecord):
    """A skill or battle bonus declared before the roll.

    player: the player
    card: the card's reference
    bonus: the bonus: kind, colour, value
    """

    kind: ClassVar[str] = "declared"
    player: str
    card: str
    bonus: dict[str, Any]
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class ChargeSpent(RelicRecord):
    """A charge token spent from a card and returned to the supply.

    player: the player
    card: the card's reference
    left: tokens left on it
    """

    kind: ClassVar[str] = "charge-spent"
    player: str
    card: str
    left: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class ChargesPlaced(RelicRecord):
    """A card drawn (or gained) with its charge value in tokens.

    player: the player
    card: the card's reference
    charges: tokens on it now
    """

    kind: ClassVar[str] = "charges-placed"
    player: str
    card: str
    charges: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class ChargesAdded(RelicRecord):
    """An effect put charge tokens on a card.

    player: the player
    card: the card's reference
    added: tokens added
    charges: tokens on it now (may exceed its charge value)
    """

    kind: ClassVar[str] = "charges-added"
    player: str
    card: str
    added: int
    charges: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class Bought(RelicRecord):
    """A card bought for Influence.

    player: the player
    card: the new card's reference
    cost: its Influence cost
    influence: the player's Influence after paying
    """

    kind: ClassVar[str] = "bought"
    player: str
    card: str
    cost: int
    influence: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class CardDiscarded(RelicRecord):
    """A card goes face up onto its discard pile, its tokens removed.

    player: the player
    card: the card's reference
    code: the card's code
    tokens: charge tokens removed with it
    why: last-charge | effect | experience | power | vanquished
    """

    kind: ClassVar[str] = "discarded"
    player: str
    card: str
    code: str
    tokens: int
    why: str
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class DiscardShort(RelicRecord):
    """A player told to discard more cards of a type than they have discards what they have.

    player: the player
    type: the type of card
    required: how many the effect asked for
    discarded: how many they had (and discarded)
    """

    kind: ClassVar[str] = "discard-short"
    player: str
    type: str
    required: int
    discarded: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class ExtraDie(RelicRecord):
    """An ability adds a die to the coming roll.

    player: the player
    card: the card's reference
    dice: the dice the player will roll together
    """

    kind: ClassVar[str] = "extra-die"
    player: str
    card: str
    dice: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class PowerNumber(RelicRecord):
    """A Power card's number is the result of the player's die (it still counts as a roll).

    player: the player
    card: the Power card's reference
    number: its power number
    """

    kind: ClassVar[str] = "power-number"
    player: str
    card: str
    number: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class DieRolled(RelicRecord):
    """A die rolled.

    die: the die's ID (``d1``... the player's, ``e1``... the enemy's)
    side: player | enemy
    result: the face it shows
    score: that side's score after it
    """

    kind: ClassVar[str] = "die-rolled"
    die: str
    side: str
    result: int
    score: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class DieExploded(RelicRecord):
    """A 6 exploded: one more die rolled and added.

    die: the new die's ID
    side: player | enemy
    parent: the die whose 6 it explodes from
    result: the face it shows
    score: that side's score after it
    """

    kind: ClassVar[str] = "die-exploded"
    die: str
    side: str
    parent: str
    result: int
    score: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class DieRerolled(RelicRecord):
    """A die rerolled: only the new result counts and can explode.

    die: the die's ID
    card: the card used to reroll it
    was: its previous base result
    result: its new base result
    voided: the dice that had exploded from its previous result, no longer counted
    score: the player's score after it
    """

    kind: ClassVar[str] = "die-rerolled"
    die: str
    card: str
    was: int
    result: int
    voided: tuple[str, ...]
    score: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class DieModified(RelicRecord):
    """A modifier raised or lowered a die's result (its base result, which decides exploding, stays).

    die: the die's ID
    card: the card whose modifier it is
    by: the modifier
    base: the die's base result
    result: the die's result now
    score: the player's score after it
    """

    kind: ClassVar[str] = "die-modified"
    die: str
    card: str
    by: int
    base: int
    result: int
    score: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class ContestResolved(RelicRecord):
    """A battle or skill test settled.

    player: the active player
    contest: battle | test
    score: the player's score
    against: the enemy's score, or the test's target number
    outcome: win | lose | tie (a battle), pass | fail (a test)
    """

    kind: ClassVar[str] = "contest-resolved"
    player: str
    contest: str
    score: int
    against: int
    outcome: str
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class Trophy(RelicRecord):
    """A beaten enemy taken as a trophy.

    player: the player
    enemy: the enemy's card code
    """

    kind: ClassVar[str] = "trophy"
    player: str
    enemy: str
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class Vanquished(RelicRecord):
    """A character at 0 life: Power cards and trophies discarded, Influence returned, life reset.

    player: the player
    life: the life they start again with
    """

    kind: ClassVar[str] = "vanquished"
    player: str
    life: int
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class GameOver(RelicRecord):
    """The game ends.

    winner: the winner
    reason: confrontation
    """

    kind: ClassVar[str] = "game-over"
    winner: str
    reason: str
    rules: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class NotImplementedRecord(RelicRecord):
    """A card's effect text the engine does not implement: the ruling stops there.

    card: the card's code
    message: what is not implemented
    """

    kind: ClassVar[str] = "not-implemented"
    card: str
    message: str
    rules: tuple[str, ...]
