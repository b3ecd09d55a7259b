"""Relic's records: what happened, one typed value per kind, each writing itself as
``{"event": kind, <fields in order>, "rules": [...]}`` (the shape of docs/events.md). Every die
rolled, exploded, rerolled and modified is a record with the roller's score after it.

Each class names its JSON keys in its docstring (``key: meaning``), as the kernel's records do.
Records are immutable values (``Final`` attributes, slots): plain classes, built natively by the
compiled engine, as Destiny's are (see ``judge.kernel.core.Record`` for why not frozen dataclasses).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from judge.kernel.core import Record


class RelicRecord(Record):
    """Base: each kind writes its fields in order (a key in ``optional`` left out when ``None``),
    then ``rules``; two records are equal when they write the same JSON."""

    __slots__ = ()
    kind: ClassVar[str] = "relic"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Record) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(repr(self))


class TurnBegins(RelicRecord):
    """A player's turn begins (spent charges are counted afresh).

    player: the active player
    round: the round number
    """

    __slots__ = ("player", "round", "rules")
    kind: ClassVar[str] = "turn-begins"

    def __init__(self, player: str, round: int, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.round: Final = round
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "turn-begins", "player": self.player, "round": self.round, "rules": list(self.rules)}


class PhaseBegins(RelicRecord):
    """The active player's next phase begins.

    player: the active player
    phase: movement | exploration | encounter | experience
    """

    __slots__ = ("player", "phase", "rules")
    kind: ClassVar[str] = "phase"

    def __init__(self, player: str, phase: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.phase: Final = phase
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "phase", "player": self.player, "phase": self.phase, "rules": list(self.rules)}


class ScenarioReached(RelicRecord):
    """The active player's character stands on the scenario space.

    player: the player
    """

    __slots__ = ("player", "rules")
    kind: ClassVar[str] = "scenario-reached"

    def __init__(self, player: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "scenario-reached", "player": self.player, "rules": list(self.rules)}


class ContestBegins(RelicRecord):
    """A battle or a skill test begins.

    player: the active player
    contest: battle | test
    characteristic: strength | willpower | cunning
    enemies: the enemies' card codes (a battle)
    value: the enemies' total value, or the test's target number
    confrontation: true when it is the scenario's Confrontation
    """

    __slots__ = ("player", "contest", "characteristic", "enemies", "value", "confrontation", "rules")
    kind: ClassVar[str] = "contest-begins"
    optional: ClassVar[tuple[str, ...]] = ("enemies",)

    def __init__(self, player: str, contest: str, characteristic: str, enemies: tuple[str, ...] | None, value: int,
                 confrontation: bool, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.contest: Final = contest
        self.characteristic: Final = characteristic
        self.enemies: Final = enemies
        self.value: Final = value
        self.confrontation: Final = confrontation
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": "contest-begins"}
        out["player"] = self.player
        out["contest"] = self.contest
        out["characteristic"] = self.characteristic
        if self.enemies is not None:
            out["enemies"] = list(self.enemies)
        out["value"] = self.value
        out["confrontation"] = self.confrontation
        out["rules"] = list(self.rules)
        return out


class EffectResolved(RelicRecord):
    """A card's (or the scenario's) effect changed a number.

    card: the card (or ``scenario``) whose effect it is
    effect: the effect's kind
    player: the player it applies to
    change: how much it added (negative: took away)
    now: the number after it (Influence, life, the score adjustment)
    """

    __slots__ = ("card", "effect", "player", "change", "now", "rules")
    kind: ClassVar[str] = "effect"

    def __init__(self, card: str, effect: str, player: str, change: int, now: int, rules: tuple[str, ...]) -> None:
        self.card: Final = card
        self.effect: Final = effect
        self.player: Final = player
        self.change: Final = change
        self.now: Final = now
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "effect", "card": self.card, "effect": self.effect, "player": self.player,
                "change": self.change, "now": self.now, "rules": list(self.rules)}


class BonusDeclared(RelicRecord):
    """A skill or battle bonus declared before the roll.

    player: the player
    card: the card's reference
    bonus: the bonus: kind, colour, value
    """

    __slots__ = ("player", "card", "bonus", "rules")
    kind: ClassVar[str] = "declared"

    def __init__(self, player: str, card: str, bonus: dict[str, Any], rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.card: Final = card
        self.bonus: Final = bonus
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "declared", "player": self.player, "card": self.card, "bonus": self.bonus,
                "rules": list(self.rules)}


class ChargeSpent(RelicRecord):
    """A charge token spent from a card and returned to the supply.

    player: the player
    card: the card's reference
    left: tokens left on it
    """

    __slots__ = ("player", "card", "left", "rules")
    kind: ClassVar[str] = "charge-spent"

    def __init__(self, player: str, card: str, left: int, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.card: Final = card
        self.left: Final = left
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "charge-spent", "player": self.player, "card": self.card, "left": self.left,
                "rules": list(self.rules)}


class ChargesPlaced(RelicRecord):
    """A card drawn (or gained) with its charge value in tokens.

    player: the player
    card: the card's reference
    charges: tokens on it now
    """

    __slots__ = ("player", "card", "charges", "rules")
    kind: ClassVar[str] = "charges-placed"

    def __init__(self, player: str, card: str, charges: int, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.card: Final = card
        self.charges: Final = charges
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "charges-placed", "player": self.player, "card": self.card, "charges": self.charges,
                "rules": list(self.rules)}


class ChargesAdded(RelicRecord):
    """An effect put charge tokens on a card.

    player: the player
    card: the card's reference
    added: tokens added
    charges: tokens on it now (may exceed its charge value)
    """

    __slots__ = ("player", "card", "added", "charges", "rules")
    kind: ClassVar[str] = "charges-added"

    def __init__(self, player: str, card: str, added: int, charges: int, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.card: Final = card
        self.added: Final = added
        self.charges: Final = charges
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "charges-added", "player": self.player, "card": self.card, "added": self.added,
                "charges": self.charges, "rules": list(self.rules)}


class Bought(RelicRecord):
    """A card bought for Influence.

    player: the player
    card: the new card's reference
    cost: its Influence cost
    influence: the player's Influence after paying
    """

    __slots__ = ("player", "card", "cost", "influence", "rules")
    kind: ClassVar[str] = "bought"

    def __init__(self, player: str, card: str, cost: int, influence: int, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.card: Final = card
        self.cost: Final = cost
        self.influence: Final = influence
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "bought", "player": self.player, "card": self.card, "cost": self.cost,
                "influence": self.influence, "rules": list(self.rules)}


class CardDiscarded(RelicRecord):
    """A card goes face up onto its discard pile, its tokens removed.

    player: the player
    card: the card's reference
    code: the card's code
    tokens: charge tokens removed with it
    why: last-charge | effect | experience | power | vanquished
    """

    __slots__ = ("player", "card", "code", "tokens", "why", "rules")
    kind: ClassVar[str] = "discarded"

    def __init__(self, player: str, card: str, code: str, tokens: int, why: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.card: Final = card
        self.code: Final = code
        self.tokens: Final = tokens
        self.why: Final = why
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "discarded", "player": self.player, "card": self.card, "code": self.code,
                "tokens": self.tokens, "why": self.why, "rules": list(self.rules)}


class DiscardShort(RelicRecord):
    """A player told to discard more cards of a type than they have discards what they have.

    player: the player
    type: the type of card
    required: how many the effect asked for
    discarded: how many they had (and discarded)
    """

    __slots__ = ("player", "type", "required", "discarded", "rules")
    kind: ClassVar[str] = "discard-short"

    def __init__(self, player: str, type: str, required: int, discarded: int, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.type: Final = type
        self.required: Final = required
        self.discarded: Final = discarded
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "discard-short", "player": self.player, "type": self.type, "required": self.required,
                "discarded": self.discarded, "rules": list(self.rules)}


class ExtraDie(RelicRecord):
    """An ability adds a die to the coming roll.

    player: the player
    card: the card's reference
    dice: the dice the player will roll together
    """

    __slots__ = ("player", "card", "dice", "rules")
    kind: ClassVar[str] = "extra-die"

    def __init__(self, player: str, card: str, dice: int, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.card: Final = card
        self.dice: Final = dice
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "extra-die", "player": self.player, "card": self.card, "dice": self.dice,
                "rules": list(self.rules)}


class PowerNumber(RelicRecord):
    """A Power card's number is the result of the player's die (it still counts as a roll).

    player: the player
    card: the Power card's reference
    number: its power number
    """

    __slots__ = ("player", "card", "number", "rules")
    kind: ClassVar[str] = "power-number"

    def __init__(self, player: str, card: str, number: int, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.card: Final = card
        self.number: Final = number
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "power-number", "player": self.player, "card": self.card, "number": self.number,
                "rules": list(self.rules)}


class DieRolled(RelicRecord):
    """A die rolled.

    die: the die's ID (``d1``... the player's, ``e1``... the enemy's)
    side: player | enemy
    result: the face it shows
    score: that side's score after it
    """

    __slots__ = ("die", "side", "result", "score", "rules")
    kind: ClassVar[str] = "die-rolled"

    def __init__(self, die: str, side: str, result: int, score: int, rules: tuple[str, ...]) -> None:
        self.die: Final = die
        self.side: Final = side
        self.result: Final = result
        self.score: Final = score
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "die-rolled", "die": self.die, "side": self.side, "result": self.result, "score": self.score,
                "rules": list(self.rules)}


class DieExploded(RelicRecord):
    """A 6 exploded: one more die rolled and added.

    die: the new die's ID
    side: player | enemy
    parent: the die whose 6 it explodes from
    result: the face it shows
    score: that side's score after it
    """

    __slots__ = ("die", "side", "parent", "result", "score", "rules")
    kind: ClassVar[str] = "die-exploded"

    def __init__(self, die: str, side: str, parent: str, result: int, score: int, rules: tuple[str, ...]) -> None:
        self.die: Final = die
        self.side: Final = side
        self.parent: Final = parent
        self.result: Final = result
        self.score: Final = score
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "die-exploded", "die": self.die, "side": self.side, "parent": self.parent,
                "result": self.result, "score": self.score, "rules": list(self.rules)}


class DieRerolled(RelicRecord):
    """A die rerolled: only the new result counts and can explode.

    die: the die's ID
    card: the card used to reroll it
    was: its previous base result
    result: its new base result
    voided: the dice that had exploded from its previous result, no longer counted
    score: the player's score after it
    """

    __slots__ = ("die", "card", "was", "result", "voided", "score", "rules")
    kind: ClassVar[str] = "die-rerolled"

    def __init__(self, die: str, card: str, was: int, result: int, voided: tuple[str, ...], score: int,
                 rules: tuple[str, ...]) -> None:
        self.die: Final = die
        self.card: Final = card
        self.was: Final = was
        self.result: Final = result
        self.voided: Final = voided
        self.score: Final = score
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "die-rerolled", "die": self.die, "card": self.card, "was": self.was, "result": self.result,
                "voided": list(self.voided), "score": self.score, "rules": list(self.rules)}


class DieModified(RelicRecord):
    """A modifier raised or lowered a die's result (its base result, which decides exploding, stays).

    die: the die's ID
    card: the card whose modifier it is
    by: the modifier
    base: the die's base result
    result: the die's result now
    score: the player's score after it
    """

    __slots__ = ("die", "card", "by", "base", "result", "score", "rules")
    kind: ClassVar[str] = "die-modified"

    def __init__(self, die: str, card: str, by: int, base: int, result: int, score: int,
                 rules: tuple[str, ...]) -> None:
        self.die: Final = die
        self.card: Final = card
        self.by: Final = by
        self.base: Final = base
        self.result: Final = result
        self.score: Final = score
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "die-modified", "die": self.die, "card": self.card, "by": self.by, "base": self.base,
                "result": self.result, "score": self.score, "rules": list(self.rules)}


class ContestResolved(RelicRecord):
    """A battle or skill test settled.

    player: the active player
    contest: battle | test
    score: the player's score
    against: the enemy's score, or the test's target number
    outcome: win | lose | tie (a battle), pass | fail (a test)
    """

    __slots__ = ("player", "contest", "score", "against", "outcome", "rules")
    kind: ClassVar[str] = "contest-resolved"

    def __init__(self, player: str, contest: str, score: int, against: int, outcome: str,
                 rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.contest: Final = contest
        self.score: Final = score
        self.against: Final = against
        self.outcome: Final = outcome
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "contest-resolved", "player": self.player, "contest": self.contest, "score": self.score,
                "against": self.against, "outcome": self.outcome, "rules": list(self.rules)}


class Trophy(RelicRecord):
    """A beaten enemy taken as a trophy.

    player: the player
    enemy: the enemy's card code
    """

    __slots__ = ("player", "enemy", "rules")
    kind: ClassVar[str] = "trophy"

    def __init__(self, player: str, enemy: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.enemy: Final = enemy
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "trophy", "player": self.player, "enemy": self.enemy, "rules": list(self.rules)}


class EncounterEnded(RelicRecord):
    """A battle lost or tied: the Encounter phase's threats end at once, the threats left stay
    unresolved (relic.base.threats); only ending the phase remains.

    player: the active player
    outcome: lose | tie
    """

    __slots__ = ("player", "outcome", "rules")
    kind: ClassVar[str] = "encounter-ended"

    def __init__(self, player: str, outcome: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.outcome: Final = outcome
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "encounter-ended", "player": self.player, "outcome": self.outcome, "rules": list(self.rules)}


class Vanquished(RelicRecord):
    """A character at 0 life: Power cards and trophies discarded, Influence returned, life reset.

    player: the player
    life: the life they start again with
    """

    __slots__ = ("player", "life", "rules")
    kind: ClassVar[str] = "vanquished"

    def __init__(self, player: str, life: int, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.life: Final = life
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "vanquished", "player": self.player, "life": self.life, "rules": list(self.rules)}


class GameOver(RelicRecord):
    """The game ends.

    winner: the winner
    reason: confrontation
    """

    __slots__ = ("winner", "reason", "rules")
    kind: ClassVar[str] = "game-over"

    def __init__(self, winner: str, reason: str, rules: tuple[str, ...]) -> None:
        self.winner: Final = winner
        self.reason: Final = reason
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "game-over", "winner": self.winner, "reason": self.reason, "rules": list(self.rules)}


class NotImplementedRecord(RelicRecord):
    """A card's effect text the engine does not implement: the ruling stops there.

    card: the card's code
    message: what is not implemented
    """

    __slots__ = ("card", "message", "rules")
    kind: ClassVar[str] = "not-implemented"

    def __init__(self, card: str, message: str, rules: tuple[str, ...]) -> None:
        self.card: Final = card
        self.message: Final = message
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "not-implemented", "card": self.card, "message": self.message, "rules": list(self.rules)}

