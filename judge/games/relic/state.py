"""Relic's state: the characters at the table, their cards and tokens, the battle or skill test under
way with every die, the scenario, and whose turn and phase it is.

``position()`` is the whole state as JSON (what a log's ``setup.position`` gives and ``from_position``
reads back: positions round-trip); ``view()`` is the position with what a reader needs beside it
(card names, each die's result, the scores), documented in docs/replay-format.md ("Relic logs").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from judge.games import canon
from judge.games.relic.cards import CHARACTERISTIC, Card, Character, Pool, Scenario

SIDES = ("player", "enemy")


@dataclass
class Held:
    """A card a player holds (an asset in the play area, or a Power card in hand), with its tokens."""

    ref: str
    code: str
    charges: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"ref": self.ref, "code": self.code, "charges": self.charges}


@dataclass
class Die:
    """One die of a battle or a skill test. ``rolls`` is every result it showed, the first roll then
    each reroll: only the last counts (relic.dice.reroll). ``modifiers`` change its result, never its
    base (relic.dice.base-result-triggers). ``parent`` is the die whose 6 it explodes from; ``void``
    marks an explosion whose parent was rerolled (relic.project.reroll-voids-explosions)."""

    id: str
    side: str  # player | enemy
    rolls: list[int]
    modifiers: list[int] = field(default_factory=list)
    parent: str | None = None
    void: bool = False

    @property
    def base(self) -> int:
        return self.rolls[-1]

    @property
    def result(self) -> int:
        return self.base + sum(self.modifiers)

    @property
    def explodes(self) -> bool:
        return self.base == 6  # relic.dice.base-result-triggers: the base result, never a modified one

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "side": self.side, "rolls": list(self.rolls)}
        if self.modifiers:
            out["modifiers"] = list(self.modifiers)
        if self.parent is not None:
            out["parent"] = self.parent
        if self.void:
            out["void"] = True
        return out


@dataclass
class Contest:
    """A battle (against one or more enemies of one colour, or the Confrontation) or a skill test."""

    kind: str  # battle | test
    color: str  # red | blue | yellow: the characteristic tested or fought with
    enemies: list[str] = field(default_factory=list)  # enemy card codes (a battle)
    value: int = 0  # the enemies' value (a battle) or the target number (a test)
    confrontation: bool = False
    stage: str = "prepare"  # prepare (bonuses, extra dice) | rolled (rerolls, modifiers)
    declared: list[dict[str, Any]] = field(default_factory=list)  # {"card": ref, "bonus": i}
    extra: int = 0  # additional dice to roll with the player's die
    power: int | None = None  # a Power card's number, the result of the player's first die
    dice: list[Die] = field(default_factory=list)
    score: int = 0  # adjustments to the player's score (effects of kind "score")
    enemy_score: int = 0  # adjustments to the enemy's score or the test's target

    def copy(self) -> Contest:
        return replace(self, enemies=list(self.enemies), declared=[dict(d) for d in self.declared],
                       dice=[replace(d, rolls=list(d.rolls), modifiers=list(d.modifiers)) for d in self.dice])

    def die(self, die_id: str) -> Die | None:
        return next((d for d in self.dice if d.id == die_id), None)

    def counted(self, side: str) -> list[Die]:
        return [d for d in self.dice if d.side == side and not d.void]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "color": self.color, "value": self.value, "stage": self.stage,
                               "declared": [dict(d) for d in self.declared], "extra": self.extra,
                               "dice": [d.to_json() for d in self.dice], "score": self.score,
                               "enemy_score": self.enemy_score}
        if self.enemies:
            out["enemies"] = list(self.enemies)
        if self.confrontation:
            out["confrontation"] = True
        if self.power is not None:
            out["power"] = self.power
        return out


@dataclass
class Player:
    id: str
    name: str
    character: Character  # the sheet's starting values
    strength: int
    willpower: int
    cunning: int
    life: int
    influence: int = 3
    assets: list[Held] = field(default_factory=list)
    hand: list[Held] = field(default_factory=list)  # Power cards
    discard: list[str] = field(default_factory=list)  # card codes, face up (relic.discard.pile)
    trophies: list[str] = field(default_factory=list)
    at_scenario: bool = False
    spent: list[str] = field(default_factory=list)  # cards a charge was spent from this turn

    def copy(self) -> Player:
        return replace(self, assets=[replace(h) for h in self.assets], hand=[replace(h) for h in self.hand],
                       discard=list(self.discard), trophies=list(self.trophies), spent=list(self.spent))

    def characteristic(self, color: str) -> int:
        return int(getattr(self, CHARACTERISTIC[color]))

    def held(self, ref: str) -> Held | None:
        return next((h for h in (*self.assets, *self.hand) if h.ref == ref), None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "character": self.character.to_json(), "strength": self.strength,
                               "willpower": self.willpower, "cunning": self.cunning, "life": self.life,
                               "influence": self.influence, "assets": [h.to_json() for h in self.assets],
                               "hand": [h.to_json() for h in self.hand], "discard": list(self.discard),
                               "trophies": list(self.trophies), "spent": list(self.spent)}
        if self.at_scenario:
            out["at_scenario"] = True
        return out


@dataclass
class RelicState:
    players: dict[str, Player]
    order: list[str]  # the seats, in turn order
    pool: Pool  # the project's cards and the log's own (not part of the position but for ``cards``)
    cards: dict[str, Card] = field(default_factory=dict)  # the log's own definitions
    scenario: Scenario | None = None
    round: int = 1
    phase: str = "movement"
    turn: str | None = None
    contest: Contest | None = None
    last: dict[str, Any] | None = None  # the result of the last battle or test
    winner: str | None = None
    reason: str | None = None
    rng_drawn: int | None = None

    def copy(self) -> RelicState:
        return replace(self, players={k: p.copy() for k, p in self.players.items()}, order=list(self.order),
                       contest=self.contest.copy() if self.contest else None,
                       last=dict(self.last) if self.last else None)

    def card(self, code: str) -> Card | None:
        return self.cards.get(code) or self.pool.get(code)

    # -- JSON ---------------------------------------------------------------------------------
    def position(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round, "phase": self.phase, "turn": self.turn, "order": list(self.order),
            "players": {pid: p.to_json() for pid, p in self.players.items()},
            "scenario": self.scenario.to_json() if self.scenario else None,
            "contest": self.contest.to_json() if self.contest else None,
            "winner": self.winner, "reason": self.reason,
        }
        if self.cards:
            out["cards"] = {code: c.to_json() for code, c in sorted(self.cards.items())}
        if self.last is not None:
            out["last"] = dict(self.last)
        return out

    def view(self, hidden: bool = False) -> dict[str, Any]:
        """The state as a reader sees it (docs/replay-format.md, "Relic logs"); ``hidden=True``
        gives the position."""
        if hidden:
            return self.position()
        from judge.games.relic.scoring import contest_view

        out = self.position()
        for pid, entry in out["players"].items():
            p = self.players[pid]
            entry["assets"] = [self._card_view(h) for h in p.assets]
            entry["hand"] = len(p.hand)
        out["contest"] = contest_view(self) if self.contest else None
        return out

    def _card_view(self, h: Held) -> dict[str, Any]:
        card = self.card(h.code)
        out = h.to_json()
        if card is not None:
            out.update(name=card.name, type=card.type, charge_value=card.charges,
                       bonuses=[b.to_json() for b in card.bonuses])
            if card.effect is not None:
                out["effect"] = card.effect.to_json()
        return out

    def canonical(self) -> bytes:
        doc = self.position()
        if self.rng_drawn is not None:
            doc["rng_drawn"] = self.rng_drawn
        return canon.canonical(doc)

    def state_hash(self) -> str:
        return canon.state_hash(self.canonical())
