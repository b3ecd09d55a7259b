"""Destiny's records: one class for every kind of event a ruling or timeline writes, with one shape
(docs/events.md is written from these classes: tests/replays/event_schema.py).

Two families:

- the record of an event the engine **performed** (``judge.games.destiny.perform``) holds that
  event (``judge.games.destiny.events``) and what performing it did (``blocked``, ``taken``,
  ``drawn``...): its JSON is the event's own (as ``Event.to_json`` writes it, an absent optional
  field left out) followed by the results, written in one go (tests/replays/test_event_schema.py
  checks that each writes every field of its event);
- the engine's other records (**notes**): the round's structure, setup, resolving dice, cards
  entering and leaving play, and what card abilities say they did.

Every record is written once, by ``to_json``, when ``Ctx.record`` takes it. A record is immutable
(``Final`` attributes) and cheap: a plain class with slots, compiled with the engine (see
``judge.kernel.core.Record`` for why records are no dataclasses).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from judge.games.destiny import events as ev
from judge.kernel.core import Record


# ====================================================================== events performed
class ActivateRecord(Record):
    """A character or support is activated: it exhausts and its dice are rolled into the pool.

    player: who activates
    card: the character or support activated
    rolled: each die rolled (``<card>/<n>``) and the face it shows
    """

    __slots__ = ("event", "rolled", "rules")
    kind: ClassVar[str] = "activate"
    cites: ClassVar[tuple[str, ...]] = ("destiny.actions.activate", "destiny.actions.activate-all-dice",
                                        "destiny.cards.exhausted")

    def __init__(self, event: ev.Activate, rolled: dict[str, str], rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.rolled: Final = rolled
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        return {"event": "activate", "player": e.player, "card": e.card, "rolled": dict(self.rolled),
                "rules": list(self.rules)}


class PlayRecord(Record):
    """A card is played from hand and paid for (an event then resolves, an upgrade or support
    enters play: see ``limbo``, ``enters-play``).

    player: who plays it
    code: the card's code
    on: the character an upgrade is played on
    replaces: the upgrade this one replaces (its cost is deducted)
    cost: the resources paid
    """

    __slots__ = ("event", "cost", "rules")
    kind: ClassVar[str] = "play"
    optional: ClassVar[tuple[str, ...]] = ("on", "replaces")
    cites: ClassVar[tuple[str, ...]] = ("destiny.actions.play-card-sequence", "destiny.cards.cost",
                                        "destiny.upgrades.replace", "destiny.terms.reduce")

    def __init__(self, event: ev.Play, cost: int, rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.cost: Final = cost
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        out: dict[str, Any] = {"event": "play", "player": e.player, "code": e.code}
        if e.on is not None:
            out["on"] = e.on
        if e.replaces is not None:
            out["replaces"] = e.replaces
        out["cost"] = self.cost
        out["rules"] = list(self.rules)
        return out


class DamageRecord(Record):
    """Damage is dealt to a character: shields block first (unless unblockable), the rest is taken
    as damage tokens (never more than the character's remaining health).

    source: the die or card dealing it
    target: the character
    amount: the damage dealt
    symbol: ``MD``, ``RD`` or ``ID`` when a die's damage symbol deals it (absent: an ability's damage)
    unblockable: shields do not block it
    blocked: the damage the target's shields blocked (the shields it lost)
    taken: the damage taken (dealt minus blocked)
    """

    __slots__ = ("event", "blocked", "taken", "rules")
    kind: ClassVar[str] = "damage"
    optional: ClassVar[tuple[str, ...]] = ("symbol",)
    cites: ClassVar[tuple[str, ...]] = (
        "destiny.damage.tokens", "destiny.damage.unblockable", "destiny.damage.shields-block",
        "destiny.shields.mandatory", "destiny.damage.dealt-vs-taken", "destiny.defeat.excess-ignored",
        "destiny.symbols.melee", "destiny.symbols.ranged", "destiny.symbols.indirect",
        "destiny.symbols.damage-one-target")

    def __init__(self, event: ev.Damage, blocked: int, taken: int, rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.blocked: Final = blocked
        self.taken: Final = taken
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        out: dict[str, Any] = {"event": "damage", "source": e.source, "target": e.target, "amount": e.amount}
        if e.symbol is not None:
            out["symbol"] = e.symbol
        out["unblockable"] = e.unblockable
        out["blocked"] = self.blocked
        out["taken"] = self.taken
        out["rules"] = list(self.rules)
        return out


class DefeatRecord(Record):
    """A character is defeated: its dice leave the pool and its upgrades are discarded.

    target: the character
    source: what defeated it (the damage's source, or the delayed effect's card)
    forced: a delayed "is defeated" effect, whatever the damage
    dice_removed: the dice that left the pool with it
    upgrades_discarded: its upgrades, discarded
    """

    __slots__ = ("event", "dice_removed", "upgrades_discarded", "rules")
    kind: ClassVar[str] = "defeat"
    optional: ClassVar[tuple[str, ...]] = ("source",)
    cites: ClassVar[tuple[str, ...]] = ("destiny.defeat.threshold", "destiny.defeat.cleanup",
                                        "destiny.dice.leave-with-card")

    def __init__(self, event: ev.Defeat, dice_removed: tuple[str, ...], upgrades_discarded: tuple[str, ...],
                 rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.dice_removed: Final = dice_removed
        self.upgrades_discarded: Final = upgrades_discarded
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        out: dict[str, Any] = {"event": "defeat", "target": e.target}
        if e.source is not None:
            out["source"] = e.source
        out["forced"] = e.forced
        out["dice_removed"] = list(self.dice_removed)
        out["upgrades_discarded"] = list(self.upgrades_discarded)
        out["rules"] = list(self.rules)
        return out


class ShieldsRecord(Record):
    """A character gains shields, up to three.

    source: the die or card giving them
    target: the character
    amount: the shields given
    given: the shields it gained
    ignored: the shields beyond three, lost
    """

    __slots__ = ("event", "given", "ignored", "rules")
    kind: ClassVar[str] = "shields"
    cites: ClassVar[tuple[str, ...]] = ("destiny.symbols.shield", "destiny.shields.max-three")

    def __init__(self, event: ev.GainShields, given: int, ignored: int, rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.given: Final = given
        self.ignored: Final = ignored
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        return {"event": "shields", "source": e.source, "target": e.target, "amount": e.amount,
                "given": self.given, "ignored": self.ignored, "rules": list(self.rules)}


class RemoveShieldsRecord(Record):
    """A card's effect removes shields from a character.

    source: the card removing them
    target: the character
    amount: the shields to remove
    removed: the shields removed
    """

    __slots__ = ("event", "removed")
    kind: ClassVar[str] = "remove-shields"

    def __init__(self, event: ev.RemoveShields, removed: int) -> None:
        self.event: Final = event
        self.removed: Final = removed

    def to_json(self) -> dict[str, Any]:
        e = self.event
        return {"event": "remove-shields", "source": e.source, "target": e.target, "amount": e.amount,
                "removed": self.removed}


class HealRecord(Record):
    """Damage is healed from a character.

    source: the die or card healing
    target: the character
    amount: the damage to heal
    healed: the damage removed (never more than it had)
    """

    __slots__ = ("event", "healed", "rules")
    kind: ClassVar[str] = "heal"
    cites: ClassVar[tuple[str, ...]] = ("destiny.terms.heal", "destiny.terms.heal-none")

    def __init__(self, event: ev.Heal, healed: int, rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.healed: Final = healed
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        return {"event": "heal", "source": e.source, "target": e.target, "amount": e.amount, "healed": self.healed,
                "rules": list(self.rules)}


class GainResourcesRecord(Record):
    """A player gains resources.

    source: the die, card or phase giving them (``upkeep``)
    player: who gains them
    amount: how many
    """

    __slots__ = ("event", "rules")
    kind: ClassVar[str] = "gain-resources"
    cites: ClassVar[tuple[str, ...]] = ("destiny.resources.currency", "destiny.symbols.resource")

    def __init__(self, event: ev.GainResources, rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        return {"event": "gain-resources", "source": e.source, "player": e.player, "amount": e.amount,
                "rules": list(self.rules)}


class LoseResourcesRecord(Record):
    """A player loses resources (never below zero).

    source: the die or card taking them
    player: who loses them
    amount: how many it takes
    lost: how many they lost
    """

    __slots__ = ("event", "lost", "rules")
    kind: ClassVar[str] = "lose-resources"
    cites: ClassVar[tuple[str, ...]] = ("destiny.resources.never-negative", "destiny.symbols.disrupt")

    def __init__(self, event: ev.LoseResources, lost: int, rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.lost: Final = lost
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        return {"event": "lose-resources", "source": e.source, "player": e.player, "amount": e.amount,
                "lost": self.lost, "rules": list(self.rules)}


class DrawRecord(Record):
    """A player draws cards from the top of their deck, together. The upkeep writes a draw of 0
    when the hand is at its limit (recorded as is: no ability answers it).

    source: the card or phase making them draw (``setup``, ``upkeep``)
    player: who draws
    amount: the cards to draw
    drawn: the cards drawn (fewer when the deck runs out)
    """

    __slots__ = ("event", "drawn", "rules")
    kind: ClassVar[str] = "draw"
    cites: ClassVar[tuple[str, ...]] = ("destiny.draw.top-card", "destiny.draw.simultaneous",
                                        "destiny.draw.insufficient", "destiny.round.upkeep-draw-limits",
                                        "destiny.zones.hand-limit")

    def __init__(self, event: ev.Draw, drawn: int, rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.drawn: Final = drawn
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        return {"event": "draw", "source": e.source, "player": e.player, "amount": e.amount, "drawn": self.drawn,
                "rules": list(self.rules)}


class DiscardRecord(Record):
    """A card is discarded from a player's hand: to pay for a reroll, at random, by a card's
    effect, or in the upkeep (the upkeep's discards are recorded as they are: no ability answers
    them).

    source: who or what discards it (the player paying for a reroll, a die or card, ``upkeep``)
    player: whose hand
    card: the card's code
    random: picked at random
    """

    __slots__ = ("event", "rules")
    kind: ClassVar[str] = "discard"
    cites: ClassVar[tuple[str, ...]] = ("destiny.zones.discard-pile", "destiny.symbols.discard",
                                        "destiny.round.upkeep")

    def __init__(self, event: ev.DiscardFromHand, rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        return {"event": "discard", "source": e.source, "player": e.player, "card": e.card, "random": e.random,
                "rules": list(self.rules)}


class RerollRecord(Record):
    """Dice are rerolled, all chosen before any rolls.

    source: who or what rerolls them
    dice: the dice to reroll
    rolled: each die still in the pool and the face it now shows
    """

    __slots__ = ("event", "rolled")
    kind: ClassVar[str] = "reroll"

    def __init__(self, event: ev.Reroll, rolled: dict[str, str]) -> None:
        self.event: Final = event
        self.rolled: Final = rolled

    def to_json(self) -> dict[str, Any]:
        e = self.event
        return {"event": "reroll", "source": e.source, "dice": list(e.dice), "rolled": dict(self.rolled)}


class TurnRecord(Record):
    """A die is turned to a face.

    source: the die or card turning it
    die: the die
    face: the face it now shows
    """

    __slots__ = ("event", "rules")
    kind: ClassVar[str] = "turn"
    cites: ClassVar[tuple[str, ...]] = ("destiny.terms.turn-die",)

    def __init__(self, event: ev.TurnDie, rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        return {"event": "turn", "source": e.source, "die": e.die, "face": e.face, "rules": list(self.rules)}


class RemoveDieRecord(Record):
    """A die is removed from the pool (back to its card) without resolving.

    source: the die or card removing it
    die: the die
    """

    __slots__ = ("event", "rules")
    kind: ClassVar[str] = "remove-die"
    cites: ClassVar[tuple[str, ...]] = ("destiny.terms.remove-die",)

    def __init__(self, event: ev.RemoveDie, rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        return {"event": "remove-die", "source": e.source, "die": e.die, "rules": list(self.rules)}


class ClaimRecord(Record):
    """A player claims the battlefield and takes control of it (see ``claim-ability``).

    player: who claims
    battlefield: the battlefield's code
    from: who controlled it before (null: nobody)
    """

    __slots__ = ("event", "from_", "rules")
    kind: ClassVar[str] = "claim"
    cites: ClassVar[tuple[str, ...]] = ("destiny.actions.claim-battlefield", "destiny.actions.claim-once-per-round",
                                        "destiny.actions.claim-while-controlling",
                                        "destiny.battlefields.single-controller")

    def __init__(self, event: ev.Claim, from_: str | None, rules: tuple[str, ...]) -> None:
        self.event: Final = event
        self.from_: Final = from_
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        e = self.event
        return {"event": "claim", "player": e.player, "battlefield": e.battlefield, "from": self.from_,
                "rules": list(self.rules)}


# ====================================================================== setup
class SetupRecord(Record):
    """Setup begins: characters, battlefields and decks are set out.
    """

    __slots__ = ("rules",)
    kind: ClassVar[str] = "setup"
    cites: ClassVar[tuple[str, ...]] = ("destiny.setup.order", "destiny.setup.characters",
                                        "destiny.setup.battlefields", "destiny.zones.set-aside-dice")

    def __init__(self, rules: tuple[str, ...]) -> None:
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "setup", "rules": list(self.rules)}


class MulliganRecord(Record):
    """A player shuffles cards of their opening hand back into the deck (then draws as many).

    player: who
    returned: how many cards they shuffled back
    """

    __slots__ = ("player", "returned", "rules")
    kind: ClassVar[str] = "mulligan"
    cites: ClassVar[tuple[str, ...]] = ("destiny.setup.mulligan",)

    def __init__(self, player: str, returned: int, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.returned: Final = returned
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "mulligan", "player": self.player, "returned": self.returned, "rules": list(self.rules)}


class ResourcesRecord(Record):
    """Every player takes their starting resources.

    amount: the resources each player starts with
    """

    __slots__ = ("amount", "rules")
    kind: ClassVar[str] = "resources"
    cites: ClassVar[tuple[str, ...]] = ("destiny.setup.resources",)

    def __init__(self, amount: int, rules: tuple[str, ...]) -> None:
        self.amount: Final = amount
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "resources", "amount": self.amount, "rules": list(self.rules)}


class BattlefieldRollRecord(Record):
    """One roll of the character dice for the battlefield (again while the highest totals tie).

    try: the roll's number, from 1
    rolled: each player's faces, in the order of their character dice
    totals: each player's total
    """

    __slots__ = ("try_", "rolled", "totals", "rules")
    kind: ClassVar[str] = "battlefield-roll"
    cites: ClassVar[tuple[str, ...]] = ("destiny.setup.battlefield-roll", "destiny.multiplayer.battlefield-roll")

    def __init__(self, try_: int, rolled: dict[str, list[str]], totals: dict[str, int],
                 rules: tuple[str, ...]) -> None:
        self.try_: Final = try_
        self.rolled: Final = rolled
        self.totals: Final = totals
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "battlefield-roll", "try": self.try_, "rolled": dict(self.rolled),
                "totals": dict(self.totals), "rules": list(self.rules)}


class BattlefieldChosenRecord(Record):
    """The winner of the battlefield roll chooses whose battlefield is used; its owner controls it.

    by: the winner of the roll
    battlefield: the battlefield's code
    controller: its owner, who controls it
    """

    __slots__ = ("by", "battlefield", "controller", "rules")
    kind: ClassVar[str] = "battlefield-chosen"
    cites: ClassVar[tuple[str, ...]] = ("destiny.setup.battlefield-roll", "destiny.battlefields.one-used",
                                        "destiny.battlefields.single-controller")

    def __init__(self, by: str, battlefield: str, controller: str, rules: tuple[str, ...]) -> None:
        self.by: Final = by
        self.battlefield: Final = battlefield
        self.controller: Final = controller
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "battlefield-chosen", "by": self.by, "battlefield": self.battlefield,
                "controller": self.controller, "rules": list(self.rules)}


class BattlefieldUnusedRecord(Record):
    """A battlefield not chosen is removed from the game.

    player: its owner
    battlefield: its code
    """

    __slots__ = ("player", "battlefield", "rules")
    kind: ClassVar[str] = "battlefield-unused"
    cites: ClassVar[tuple[str, ...]] = ("destiny.battlefields.one-used",)

    def __init__(self, player: str, battlefield: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.battlefield: Final = battlefield
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "battlefield-unused", "player": self.player, "battlefield": self.battlefield,
                "rules": list(self.rules)}


class CompensationRecord(Record):
    """A player whose battlefield was not chosen places shields on their characters.

    player: who
    shields: the shields placed on each of their characters
    """

    __slots__ = ("player", "shields", "rules")
    kind: ClassVar[str] = "compensation"
    cites: ClassVar[tuple[str, ...]] = ("destiny.setup.battlefield-compensation",
                                        "destiny.multiplayer.battlefield-roll")

    def __init__(self, player: str, shields: dict[str, int], rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.shields: Final = shields
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "compensation", "player": self.player, "shields": dict(self.shields),
                "rules": list(self.rules)}


class DiceReturnRecord(Record):
    """The dice rolled for the battlefield return to their cards; setup ends.
    """

    __slots__ = ("rules",)
    kind: ClassVar[str] = "dice-return"
    cites: ClassVar[tuple[str, ...]] = ("destiny.setup.return-dice",)

    def __init__(self, rules: tuple[str, ...]) -> None:
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "dice-return", "rules": list(self.rules)}


# ====================================================================== the round
class RoundBeginsRecord(Record):
    """A round's action phase begins.

    round: the round's number, from 1
    first: who takes the first action (the battlefield's controller)
    """

    __slots__ = ("round", "first", "rules")
    kind: ClassVar[str] = "round-begins"
    cites: ClassVar[tuple[str, ...]] = ("destiny.battlefields.first-action", "destiny.round.action-phase")

    def __init__(self, round: int, first: str | None, rules: tuple[str, ...]) -> None:
        self.round: Final = round
        self.first: Final = first
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "round-begins", "round": self.round, "first": self.first, "rules": list(self.rules)}


class PassRecord(Record):
    """A player passes their action.

    player: who passes
    automatic: true when the player passes because they claimed the battlefield this round
    (absent otherwise)
    """

    __slots__ = ("player", "automatic", "rules")
    kind: ClassVar[str] = "pass"
    optional: ClassVar[tuple[str, ...]] = ("automatic",)
    cites: ClassVar[tuple[str, ...]] = ("destiny.round.pass", "destiny.actions.claim-battlefield")

    def __init__(self, player: str, rules: tuple[str, ...], automatic: bool = False) -> None:
        self.player: Final = player
        self.automatic: Final = automatic
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        if self.automatic:
            return {"event": "pass", "player": self.player, "automatic": True, "rules": list(self.rules)}
        return {"event": "pass", "player": self.player, "rules": list(self.rules)}


class DeclineExtraActionRecord(Record):
    """A player with an extra action passes it: the turn goes on as before.

    player: who declines
    automatic: true when the engine passes it for them because they claimed the battlefield this
    round (absent otherwise)
    """

    __slots__ = ("player", "automatic", "rules")
    kind: ClassVar[str] = "decline-extra-action"
    optional: ClassVar[tuple[str, ...]] = ("automatic",)
    cites: ClassVar[tuple[str, ...]] = ("destiny.actions.extra-actions-immediate", "destiny.actions.claim-battlefield")

    def __init__(self, player: str, rules: tuple[str, ...], automatic: bool = False) -> None:
        self.player: Final = player
        self.automatic: Final = automatic
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        if self.automatic:
            return {"event": "decline-extra-action", "player": self.player, "automatic": True,
                    "rules": list(self.rules)}
        return {"event": "decline-extra-action", "player": self.player, "rules": list(self.rules)}


class ExtraActionRecord(Record):
    """A player is given an extra action, taken at once.

    player: who takes it
    """

    __slots__ = ("player", "rules")
    kind: ClassVar[str] = "extra-action"
    cites: ClassVar[tuple[str, ...]] = ("destiny.actions.extra-actions-immediate",)
    cites_also: ClassVar[str] = "first, the rule that grants the action (such as destiny.keywords.ambush)"

    def __init__(self, player: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "extra-action", "player": self.player, "rules": list(self.rules)}


class ActionPhaseEndsRecord(Record):
    """Every player passed in a row: the action phase ends.

    round: the round's number
    """

    __slots__ = ("round", "rules")
    kind: ClassVar[str] = "action-phase-ends"
    cites: ClassVar[tuple[str, ...]] = ("destiny.round.end-on-consecutive-passes", "destiny.multiplayer.turn-order")

    def __init__(self, round: int, rules: tuple[str, ...]) -> None:
        self.round: Final = round
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "action-phase-ends", "round": self.round, "rules": list(self.rules)}


class UpkeepRecord(Record):
    """The upkeep phase: cards ready, dice leave the pools, resources, discards and draws.

    round: the round's number
    """

    __slots__ = ("round", "rules")
    kind: ClassVar[str] = "upkeep"
    cites: ClassVar[tuple[str, ...]] = ("destiny.round.upkeep", "destiny.round.phases")

    def __init__(self, round: int, rules: tuple[str, ...]) -> None:
        self.round: Final = round
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "upkeep", "round": self.round, "rules": list(self.rules)}


class DelayedRecord(Record):
    """A delayed effect is set up, to resolve later.

    kind: what it will do (``defeat``)
    target: the card it will act on
    when: when it resolves (``round-end``)
    """

    __slots__ = ("kind_", "target", "when", "rules")
    kind: ClassVar[str] = "delayed"
    cites: ClassVar[tuple[str, ...]] = ("destiny.delayed.definition",)

    def __init__(self, kind_: str, target: str, when: str, rules: tuple[str, ...]) -> None:
        self.kind_: Final = kind_
        self.target: Final = target
        self.when: Final = when
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "delayed", "kind": self.kind_, "target": self.target, "when": self.when,
                "rules": list(self.rules)}


class DelayedResolvesRecord(Record):
    """A delayed effect resolves now.

    kind: what it does (``defeat``)
    target: the card it acts on
    """

    __slots__ = ("kind_", "target", "rules")
    kind: ClassVar[str] = "delayed-resolves"
    cites: ClassVar[tuple[str, ...]] = ("destiny.delayed.definition",)

    def __init__(self, kind_: str, target: str, rules: tuple[str, ...]) -> None:
        self.kind_: Final = kind_
        self.target: Final = target
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "delayed-resolves", "kind": self.kind_, "target": self.target, "rules": list(self.rules)}


class EliminatedRecord(Record):
    """A player leaves a multiplayer game; everything they had leaves with them.

    player: who
    why: why, in words
    """

    __slots__ = ("player", "why", "rules")
    kind: ClassVar[str] = "eliminated"
    cites: ClassVar[tuple[str, ...]] = ("destiny.multiplayer.elimination",)

    def __init__(self, player: str, why: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.why: Final = why
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "eliminated", "player": self.player, "why": self.why, "rules": list(self.rules)}


class GameOverRecord(Record):
    """The game ends.

    winner: who wins
    reason: ``all-defeated``, ``deck-out``, ``deck-out-both`` or ``eliminated``
    """

    __slots__ = ("winner", "reason", "rules")
    kind: ClassVar[str] = "game-over"
    cites: ClassVar[tuple[str, ...]] = ("destiny.victory.all-defeated", "destiny.victory.deck-out",
                                        "destiny.victory.deck-out-both", "destiny.multiplayer.last-player-wins")

    def __init__(self, winner: str, reason: str, rules: tuple[str, ...]) -> None:
        self.winner: Final = winner
        self.reason: Final = reason
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "game-over", "winner": self.winner, "reason": self.reason, "rules": list(self.rules)}


# ====================================================================== actions
class RerollActionRecord(Record):
    """A player takes the reroll action: a card discarded (see ``discard``) to reroll dice (see
    ``reroll``).

    player: who
    """

    __slots__ = ("player", "rules")
    kind: ClassVar[str] = "reroll-action"
    cites: ClassVar[tuple[str, ...]] = ("destiny.actions.reroll-by-discard",)

    def __init__(self, player: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "reroll-action", "player": self.player, "rules": list(self.rules)}


class UseRecord(Record):
    """A player uses a card's action (or power action) ability.

    player: who
    card: the card in play
    ability: the ability's text
    """

    __slots__ = ("player", "card", "ability", "rules")
    kind: ClassVar[str] = "use"
    cites: ClassVar[tuple[str, ...]] = ("destiny.actions.card-action", "destiny.actions.power-action")

    def __init__(self, player: str, card: str, ability: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.card: Final = card
        self.ability: Final = ability
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "use", "player": self.player, "card": self.card, "ability": self.ability,
                "rules": list(self.rules)}


class ClaimAbilityRecord(Record):
    """The claimed battlefield's Claim ability resolves.

    card: the battlefield's code
    text: the ability's text
    """

    __slots__ = ("card", "text", "rules")
    kind: ClassVar[str] = "claim-ability"
    cites: ClassVar[tuple[str, ...]] = ("destiny.abilities.claim",)

    def __init__(self, card: str, text: str, rules: tuple[str, ...]) -> None:
        self.card: Final = card
        self.text: Final = text
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "claim-ability", "card": self.card, "text": self.text, "rules": list(self.rules)}


# ====================================================================== resolving dice
class ResolveRecord(Record):
    """Dice showing one symbol resolve together (a base die and its modifiers); they return to
    their cards.

    player: whose dice
    dice: the dice of the group, the base die first
    symbol: the symbol resolved
    value: the total value (with any bonus)
    via: the card whose ability resolves them (absent: the resolve action)
    """

    __slots__ = ("player", "dice", "symbol", "value", "via", "rules")
    kind: ClassVar[str] = "resolve"
    optional: ClassVar[tuple[str, ...]] = ("via",)
    cites: ClassVar[tuple[str, ...]] = ("destiny.actions.resolve-dice", "destiny.dice.symbol",
                                        "destiny.dice.modifier-needs-base")
    cites_also: ClassVar[str] = ("first, instead of destiny.actions.resolve-dice, the rule of a card ability "
                                 "that resolves them (such as destiny.dice.resolve-via-card)")

    def __init__(self, player: str, dice: tuple[str, ...], symbol: str, value: int, via: str | None,
                 rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.dice: Final = dice
        self.symbol: Final = symbol
        self.value: Final = value
        self.via: Final = via
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": "resolve", "player": self.player, "dice": list(self.dice),
                               "symbol": self.symbol, "value": self.value}
        if self.via:
            out["via"] = self.via
        out["rules"] = list(self.rules)
        return out


class LateJoinersRecord(Record):
    """Dice named in a resolve action that came to show its symbol while it resolved resolve too.

    dice: those dice
    symbol: the action's symbol
    """

    __slots__ = ("dice", "symbol", "rules")
    kind: ClassVar[str] = "late-joiners"
    cites: ClassVar[tuple[str, ...]] = ("destiny.actions.resolve-late-joiners",)

    def __init__(self, dice: tuple[str, ...], symbol: str | None, rules: tuple[str, ...]) -> None:
        self.dice: Final = dice
        self.symbol: Final = symbol
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "late-joiners", "dice": list(self.dice), "symbol": self.symbol, "rules": list(self.rules)}


class FreeRecord(Record):
    """A die face's resource cost is not paid: the die resolves for free.

    die: the base die
    cost: the cost not paid
    """

    __slots__ = ("die", "cost", "rules")
    kind: ClassVar[str] = "free"
    cites: ClassVar[tuple[str, ...]] = ("destiny.terms.free",)

    def __init__(self, die: str, cost: int, rules: tuple[str, ...]) -> None:
        self.die: Final = die
        self.cost: Final = cost
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "free", "die": self.die, "cost": self.cost, "rules": list(self.rules)}


class IndirectRecord(Record):
    """Indirect damage: its receiver splits it among their characters (then ``damage`` for each).

    player: who receives it and splits it
    amount: the damage
    split: the damage each of their characters takes
    """

    __slots__ = ("player", "amount", "split", "rules")
    kind: ClassVar[str] = "indirect"
    cites: ClassVar[tuple[str, ...]] = ("destiny.symbols.indirect",)

    def __init__(self, player: str, amount: int, split: dict[str, int], rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.amount: Final = amount
        self.split: Final = split
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "indirect", "player": self.player, "amount": self.amount, "split": dict(self.split),
                "rules": list(self.rules)}


class SpecialRecord(Record):
    """A special face resolves its own card's special ability.

    die: the die
    card: its card's code
    """

    __slots__ = ("die", "card", "rules")
    kind: ClassVar[str] = "special"
    cites: ClassVar[tuple[str, ...]] = ("destiny.symbols.special", "destiny.abilities.resolve-fully")

    def __init__(self, die: str, card: str, rules: tuple[str, ...]) -> None:
        self.die: Final = die
        self.card: Final = card
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "special", "die": self.die, "card": self.card, "rules": list(self.rules)}


class XValueRecord(Record):
    """The value a die's X counts, as its card defines it.

    die: the die
    value: the value its card gives X (a negative value counts 0)
    """

    __slots__ = ("die", "value", "rules")
    kind: ClassVar[str] = "x-value"
    cites: ClassVar[tuple[str, ...]] = ("destiny.terms.x",)

    def __init__(self, die: str, value: int, rules: tuple[str, ...]) -> None:
        self.die: Final = die
        self.value: Final = value
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "x-value", "die": self.die, "value": self.value, "rules": list(self.rules)}


class SpendRecord(Record):
    """A player pays resources.

    player: who pays
    amount: how many
    for: what they pay for, in words
    """

    __slots__ = ("player", "amount", "for_", "rules")
    kind: ClassVar[str] = "spend"
    cites: ClassVar[tuple[str, ...]] = ("destiny.cards.cost", "destiny.dice.face-cost")
    cites_also: ClassVar[str] = "the rule of the ability that costs resources (such as destiny.actions.card-action)"

    def __init__(self, player: str, amount: int, for_: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.amount: Final = amount
        self.for_: Final = for_
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "spend", "player": self.player, "amount": self.amount, "for": self.for_,
                "rules": list(self.rules)}


# ====================================================================== cards entering and leaving play
class LimboRecord(Record):
    """An event card is set aside while it resolves.

    card: its code
    """

    __slots__ = ("card", "rules")
    kind: ClassVar[str] = "limbo"
    cites: ClassVar[tuple[str, ...]] = ("destiny.events.limbo",)

    def __init__(self, card: str, rules: tuple[str, ...]) -> None:
        self.card: Final = card
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "limbo", "card": self.card, "rules": list(self.rules)}


class DiscardedRecord(Record):
    """An event card that has resolved goes to its owner's discard pile.

    card: its code
    """

    __slots__ = ("card", "rules")
    kind: ClassVar[str] = "discarded"
    cites: ClassVar[tuple[str, ...]] = ("destiny.events.resolve-then-discard",)

    def __init__(self, card: str, rules: tuple[str, ...]) -> None:
        self.card: Final = card
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "discarded", "card": self.card, "rules": list(self.rules)}


class EntersPlayRecord(Record):
    """A support, or an upgrade on a character, enters play ready.

    card: its reference in play (``<player>.<code>#<n>``)
    on: the character an upgrade is attached to (absent for a support)
    """

    __slots__ = ("card", "on", "rules")
    kind: ClassVar[str] = "enters-play"
    optional: ClassVar[tuple[str, ...]] = ("on",)
    cites: ClassVar[tuple[str, ...]] = ("destiny.supports.play", "destiny.upgrades.attach", "destiny.cards.enter-ready",
                                        "destiny.supports.dice", "destiny.upgrades.dice")

    def __init__(self, card: str, on: str | None, rules: tuple[str, ...]) -> None:
        self.card: Final = card
        self.on: Final = on
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        if self.on is None:
            return {"event": "enters-play", "card": self.card, "rules": list(self.rules)}
        return {"event": "enters-play", "card": self.card, "on": self.on, "rules": list(self.rules)}


class ReplacedUpgradeRecord(Record):
    """An upgrade is discarded because another replaces it.

    upgrade: the upgrade replaced
    """

    __slots__ = ("upgrade", "rules")
    kind: ClassVar[str] = "replaced-upgrade"
    cites: ClassVar[tuple[str, ...]] = ("destiny.upgrades.replace",)

    def __init__(self, upgrade: str, rules: tuple[str, ...]) -> None:
        self.upgrade: Final = upgrade
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "replaced-upgrade", "upgrade": self.upgrade, "rules": list(self.rules)}


class DiscardUpgradeRecord(Record):
    """A character with more than three upgrades: its controller discards one.

    upgrade: the upgrade discarded
    """

    __slots__ = ("upgrade", "rules")
    kind: ClassVar[str] = "discard-upgrade"
    cites: ClassVar[tuple[str, ...]] = ("destiny.upgrades.max-three",)

    def __init__(self, upgrade: str, rules: tuple[str, ...]) -> None:
        self.upgrade: Final = upgrade
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "discard-upgrade", "upgrade": self.upgrade, "rules": list(self.rules)}


class DieSetAsideRecord(Record):
    """One of two alike upgrade dice leaves the pool with the copy leaving play; its controller
    chose which.

    upgrade: the upgrade leaving play
    showing: the face of the die set aside
    """

    __slots__ = ("upgrade", "showing", "rules")
    kind: ClassVar[str] = "die-set-aside"
    cites: ClassVar[tuple[str, ...]] = ("destiny.dice.duplicate-upgrade-dice",)

    def __init__(self, upgrade: str, showing: str, rules: tuple[str, ...]) -> None:
        self.upgrade: Final = upgrade
        self.showing: Final = showing
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "die-set-aside", "upgrade": self.upgrade, "showing": self.showing, "rules": list(self.rules)}


class RedeployRecord(Record):
    """An upgrade with Redeploy moves from its defeated character to another of its controller's.

    upgrade: the upgrade (it keeps its reference)
    from: the defeated character
    to: the character it moves to
    """

    __slots__ = ("upgrade", "from_", "to", "rules")
    kind: ClassVar[str] = "redeploy"
    cites: ClassVar[tuple[str, ...]] = ("destiny.keywords.redeploy", "destiny.keywords.redeploy-ignores-restrictions")

    def __init__(self, upgrade: str, from_: str, to: str, rules: tuple[str, ...]) -> None:
        self.upgrade: Final = upgrade
        self.from_: Final = from_
        self.to: Final = to
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "redeploy", "upgrade": self.upgrade, "from": self.from_, "to": self.to,
                "rules": list(self.rules)}


# ====================================================================== card effects
class ExhaustRecord(Record):
    """A card is exhausted by a cost or an effect.

    card: the card exhausted
    source: the card whose cost or effect exhausts it
    """

    __slots__ = ("card", "source", "rules")
    kind: ClassVar[str] = "exhaust"
    cites: ClassVar[tuple[str, ...]] = ("destiny.cards.exhaust-usage", "destiny.cards.exhausted")

    def __init__(self, card: str, source: str, rules: tuple[str, ...]) -> None:
        self.card: Final = card
        self.source: Final = source
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "exhaust", "card": self.card, "source": self.source, "rules": list(self.rules)}


class BattlefieldControlRecord(Record):
    """A card's effect gives control of the battlefield to a player (not a claim).

    from: who controlled it (null: nobody)
    to: who controls it now
    source: the card giving it
    """

    __slots__ = ("from_", "to", "source", "rules")
    kind: ClassVar[str] = "battlefield-control"
    cites: ClassVar[tuple[str, ...]] = ("destiny.battlefields.single-controller",)

    def __init__(self, from_: str | None, to: str, source: str, rules: tuple[str, ...]) -> None:
        self.from_: Final = from_
        self.to: Final = to
        self.source: Final = source
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "battlefield-control", "from": self.from_, "to": self.to, "source": self.source,
                "rules": list(self.rules)}


class DiscardedFromPlayRecord(Record):
    """An upgrade or support is discarded from play; its die leaves with it.

    card: the card discarded
    source: the card whose effect discards it
    """

    __slots__ = ("card", "source", "rules")
    kind: ClassVar[str] = "discarded-from-play"
    cites: ClassVar[tuple[str, ...]] = ("destiny.zones.discard-pile", "destiny.dice.leave-with-card")
    cites_also: ClassVar[str] = ("first, instead of destiny.zones.discard-pile, the rule of the effect that "
                                 "discards it (such as destiny.replacement.instead)")

    def __init__(self, card: str, source: str, rules: tuple[str, ...]) -> None:
        self.card: Final = card
        self.source: Final = source
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "discarded-from-play", "card": self.card, "source": self.source, "rules": list(self.rules)}


class IntoPoolRecord(Record):
    """A card's effect puts a die into a player's pool, rolled or showing a given face.

    player: whose pool
    die: the die
    face: the face it shows
    source: the card whose effect puts it there
    """

    __slots__ = ("player", "die", "face", "source", "rules")
    kind: ClassVar[str] = "into-pool"
    cites: ClassVar[tuple[str, ...]] = ("destiny.zones.dice-pool",)
    cites_also: ClassVar[str] = "first, the rule of the effect (such as destiny.symbols.special-self-reroll)"

    def __init__(self, player: str, die: str, face: str, source: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.die: Final = die
        self.face: Final = face
        self.source: Final = source
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "into-pool", "player": self.player, "die": self.die, "face": self.face,
                "source": self.source, "rules": list(self.rules)}


class MoveDamageRecord(Record):
    """Damage tokens move from one character to another (shields ignored; not damage taken).

    source: the card moving them
    from: the character they leave
    to: the character they go to
    amount: the damage moved
    """

    __slots__ = ("source", "from_", "to", "amount", "rules")
    kind: ClassVar[str] = "move-damage"
    cites: ClassVar[tuple[str, ...]] = ("destiny.terms.move", "destiny.terms.move-damage")

    def __init__(self, source: str, from_: str, to: str, amount: int, rules: tuple[str, ...]) -> None:
        self.source: Final = source
        self.from_: Final = from_
        self.to: Final = to
        self.amount: Final = amount
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "move-damage", "source": self.source, "from": self.from_, "to": self.to,
                "amount": self.amount, "rules": list(self.rules)}


class MoveCardRecord(Record):
    """A card moves between a player's hand, deck (onto its top) and discard pile.

    player: whose cards
    card: the card's code
    from: ``hand``, ``deck`` or ``discard``
    to: ``hand``, ``deck`` or ``discard``
    source: the card whose effect moves it
    """

    __slots__ = ("player", "card", "from_", "to", "source", "rules")
    kind: ClassVar[str] = "move-card"
    cites: ClassVar[tuple[str, ...]] = ("destiny.zones.deck", "destiny.zones.discard-pile")

    def __init__(self, player: str, card: str, from_: str, to: str, source: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.card: Final = card
        self.from_: Final = from_
        self.to: Final = to
        self.source: Final = source
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "move-card", "player": self.player, "card": self.card, "from": self.from_, "to": self.to,
                "source": self.source, "rules": list(self.rules)}


class BecomesSupportRecord(Record):
    """An upgrade leaves its character and stays in play as a ready support, its die with it.

    card: the card (it keeps its reference)
    from: the character it leaves
    source: the card whose effect moves it
    """

    __slots__ = ("card", "from_", "source", "rules")
    kind: ClassVar[str] = "becomes-support"
    cites: ClassVar[tuple[str, ...]] = ("destiny.supports.play", "destiny.cards.enter-ready")

    def __init__(self, card: str, from_: str, source: str, rules: tuple[str, ...]) -> None:
        self.card: Final = card
        self.from_: Final = from_
        self.source: Final = source
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "becomes-support", "card": self.card, "from": self.from_, "source": self.source,
                "rules": list(self.rules)}


class LookAtRecord(Record):
    """A player looks at cards of an opponent's hand (one at random, or all of them).

    player: whose hand
    cards: the codes of the cards looked at (empty: the hand was empty)
    source: the card whose ability looks
    """

    __slots__ = ("player", "cards", "source", "rules")
    kind: ClassVar[str] = "look-at"
    cites: ClassVar[tuple[str, ...]] = ("destiny.terms.look-at", "destiny.then.requires-full-resolution")

    def __init__(self, player: str, cards: tuple[str, ...], source: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.cards: Final = cards
        self.source: Final = source
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "look-at", "player": self.player, "cards": list(self.cards), "source": self.source,
                "rules": list(self.rules)}


class RevealRecord(Record):
    """A player reveals a card from their hand.

    player: who
    card: the card's code
    """

    __slots__ = ("player", "card", "rules")
    kind: ClassVar[str] = "reveal"
    cites: ClassVar[tuple[str, ...]] = ("destiny.terms.reveal",)

    def __init__(self, player: str, card: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.card: Final = card
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "reveal", "player": self.player, "card": self.card, "rules": list(self.rules)}


class CannotPayRecord(Record):
    """A player cannot pay what an ability asks, so it does nothing more.

    player: who
    amount: the resources it asks
    source: the card whose ability asks
    """

    __slots__ = ("player", "amount", "source", "rules")
    kind: ClassVar[str] = "cannot-pay"
    cites: ClassVar[tuple[str, ...]] = ("destiny.resources.never-negative",)

    def __init__(self, player: str, amount: int, source: str, rules: tuple[str, ...]) -> None:
        self.player: Final = player
        self.amount: Final = amount
        self.source: Final = source
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "cannot-pay", "player": self.player, "amount": self.amount, "source": self.source,
                "rules": list(self.rules)}


class CostReducedRecord(Record):
    """The next card its player plays costs less.

    by: the reduction
    source: the card giving it
    """

    __slots__ = ("by", "source", "rules")
    kind: ClassVar[str] = "cost-reduced"
    cites: ClassVar[tuple[str, ...]] = ("destiny.terms.reduce",)

    def __init__(self, by: int, source: str, rules: tuple[str, ...]) -> None:
        self.by: Final = by
        self.source: Final = source
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "cost-reduced", "by": self.by, "source": self.source, "rules": list(self.rules)}


class ThenNotResolvedRecord(Record):
    """The first part of a "... then ..." effect did not resolve in full, so the rest does not.

    source: the card
    discarded: how much of the first part resolved (cards discarded)
    """

    __slots__ = ("source", "discarded", "rules")
    kind: ClassVar[str] = "then-not-resolved"
    cites: ClassVar[tuple[str, ...]] = ("destiny.then.requires-full-resolution",)

    def __init__(self, source: str, discarded: int, rules: tuple[str, ...]) -> None:
        self.source: Final = source
        self.discarded: Final = discarded
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "then-not-resolved", "source": self.source, "discarded": self.discarded,
                "rules": list(self.rules)}


class NoEffectRecord(Record):
    """A card's effect has nothing to act on and does nothing.

    source: the card
    why: why, in words
    """

    __slots__ = ("source", "why", "rules")
    kind: ClassVar[str] = "no-effect"
    cites: ClassVar[tuple[str, ...]] = ("destiny.terms.spot", "destiny.terms.spot-own-only")
    cites_also: ClassVar[str] = "the rules that leave the effect nothing to act on"

    def __init__(self, source: str, why: str, rules: tuple[str, ...]) -> None:
        self.source: Final = source
        self.why: Final = why
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "no-effect", "source": self.source, "why": self.why, "rules": list(self.rules)}


class NotImplementedRecord(Record):
    """A card's text the engine does not implement (the ruling stops there when it would change the
    game now; otherwise a warning).

    card: the card's code
    message: what is not implemented
    """

    __slots__ = ("card", "message", "rules")
    kind: ClassVar[str] = "not-implemented"
    cites: ClassVar[tuple[str, ...]] = ("destiny.general.golden-rule",)

    def __init__(self, card: str, message: str, rules: tuple[str, ...]) -> None:
        self.card: Final = card
        self.message: Final = message
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "not-implemented", "card": self.card, "message": self.message, "rules": list(self.rules)}
