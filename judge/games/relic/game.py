"""Relic behind the ``Game`` interface (judge.games.base): what the shared replay layer may ask of
this package. Everything Relic-specific lives under judge/games/relic/."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from judge.games.base import Applied, Faults, Policy
from judge.games.inputs import Inputs
from judge.games.quick import QuickMembers
from judge.games.relic import actions as ac
from judge.games.relic.cards import Pool, default_pool
from judge.games.relic.engine import Ctx, NotImplementedEffect, apply_step
from judge.games.relic.state import RelicState
from judge.kernel.core import IllegalAction, KernelLoop, MissingOutcome, PendingDecision
from judge.kernel.rng import Rng

OUTCOME_RULES = {"confrontation": ["relic.scenario.confrontation", "relic.scenario.first-to-win"]}


class Relic(QuickMembers):
    id = "relic"
    name = "Relic"
    min_players = 2
    max_players = 4  # relic.base.overview: 2-4 players
    deck_formats = ("sandbox",)
    default_deck_format = "sandbox"  # Relic has no deck building: the cards come from shared decks
    verbs = ac.VERBS
    errors: tuple[type[Exception], ...] = (IllegalAction, MissingOutcome, PendingDecision, KernelLoop,
                                           NotImplementedEffect)

    def default_cards(self) -> Pool:
        return default_pool()

    # -- reading a log ------------------------------------------------------------------------
    def check_setup(self, players: Sequence[Any], setup: Mapping[str, Any], cards: Pool) -> Faults:
        from judge.games.relic.setup import from_position, read_setup

        if "position" in setup:
            ids = [p for p in players if isinstance(p, dict) and isinstance(p.get("id"), str)]
            faults = [(f"/setup/{k}", f"a setup from a position has only 'position' (not '{k}')")
                      for k in setup if k != "position"]
            return faults + from_position(setup["position"], ids, cards)[1]
        return read_setup(players, setup, cards)[2]

    parse_step = staticmethod(ac.parse_step)

    # cards named by name, as codes (judge.games.base.names_reader)
    names_module: ClassVar[str] = "judge.games.relic.names"

    def deck_violations(self, players: Sequence[Mapping[str, Any]], cards: Pool, deck_format: str,
                        ) -> list[dict[str, Any]]:
        return []

    # -- states -------------------------------------------------------------------------------
    def from_position(self, position: Any, players: Sequence[Mapping[str, Any]], cards: Pool,
                      ) -> tuple[RelicState | None, Faults]:
        from judge.games.relic.setup import from_position

        return from_position(position, [dict(p) for p in players], cards)

    def begin(self, players: Sequence[Mapping[str, Any]], setup: Mapping[str, Any], cards: Pool,
              rng: Rng | None, policy: Policy | None) -> tuple[RelicState, Applied]:
        from judge.games.relic.setup import read_setup, starting_cards

        state, starting, faults = read_setup(players, setup, cards)
        if state is None:  # parse_log found these already; a caller that skipped it learns here
            return self.empty_state(players), Applied(error=IllegalAction("relic.base.setup", faults[0][1]))
        ctx = Ctx(state, Inputs(), rng, policy)
        try:
            for pid, held, card in starting_cards(state, starting):
                ctx.place_charges(pid, held, card)  # relic.charges.initial
            ctx.begin_turn()
        except self.errors as exc:
            ctx.close()
            return state, Applied(ctx.records, ctx.decisions, ctx.written_choices, exc)
        ctx.close()
        return state, Applied(ctx.records, ctx.decisions, ctx.written_choices)

    def empty_state(self, players: Sequence[Mapping[str, Any]]) -> RelicState:
        from judge.games.relic.cards import Character
        from judge.games.relic.state import Player

        blank = Character("", 1, 1, 1, 1)
        ps = {p["id"]: Player(id=p["id"], name=str(p.get("name", "")), character=blank, strength=1, willpower=1,
                              cunning=1, life=1) for p in players}
        return RelicState(players=ps, order=list(ps), pool=default_pool(), phase="setup")

    # -- steps --------------------------------------------------------------------------------
    def check(self, state: RelicState, action: ac.RelicAction, cards: Pool) -> tuple[str, str] | None:
        from judge.games.relic.legal import check

        return check(state, action)

    def apply(self, state: RelicState, action: ac.RelicAction, inputs: Inputs, cards: Pool, rng: Rng | None,
              policy: Policy | None, next_action: Any) -> Applied:
        ctx = Ctx(state, inputs, rng, policy)
        error: Exception | None = None
        try:
            apply_step(ctx, action)
        except self.errors as exc:
            error = exc
        finally:
            ctx.close()
        return Applied(ctx.records, ctx.decisions, ctx.written_choices, error)

    def legal_actions(self, state: RelicState, cards: Pool) -> list[ac.RelicAction]:
        from judge.games.relic.legal import legal_actions

        return legal_actions(state)

    def chooser(self, state: RelicState) -> tuple[str, str]:
        return str(state.turn), "relic.timing.active-player-orders"

    def pending(self, applied: Applied) -> dict[str, Any] | None:
        err = applied.error
        return err.decision.to_json() if isinstance(err, PendingDecision) else None

    def rules(self) -> list[Any]:
        from judge.rules import index

        return index.rules(self.id)

    def actor(self, state: RelicState) -> str | None:
        return None if state.phase in ("over", "setup") else state.turn

    def outcome(self, state: RelicState) -> dict[str, Any] | None:
        if state.winner is None:
            return None
        return {"winner": state.winner, "reason": state.reason, "rules": list(OUTCOME_RULES.get(state.reason or "",
                                                                                                   []))}

    def summarize(self, action: ac.RelicAction | None, events: Sequence[Mapping[str, Any]], cards: Any) -> str:
        from judge.games.relic.summary import summarize

        return summarize(action, events)

    def viewer_cards(self, names: Iterable[str], cards: Pool) -> dict[str, Any]:
        """The cards among ``names`` (codes, references ``<player>.<code>[#n]``) for a viewer; a log's
        own definitions are in its states' view (``cards``)."""
        from judge.games.relic.actions import REF

        refs: dict[str, dict[str, Any]] = {}
        table: dict[str, dict[str, Any]] = {}
        for text in names:
            if not isinstance(text, str):
                continue
            entry: dict[str, Any]
            if REF.match(text):
                player, rest = text.split(".", 1)
                entry = {"code": rest.split("#", 1)[0], "player": player}
            else:
                entry = {"code": text}
            card = cards.get(entry["code"])
            if card is None:
                continue
            refs[text] = entry
            if card.code not in table:
                data: dict[str, Any] = {"name": card.name, "type": card.type, "class": card.cls,
                                        "cost": card.influence, "charges": card.charges or None,
                                        "color": card.battle[0] if card.battle else None,
                                        "value": card.battle[1] if card.battle else None, "number": card.number,
                                        "bonuses": [b.to_json() for b in card.bonuses] or None,
                                        "effect": card.effect.to_json() if card.effect else None}
                table[card.code] = {k: v for k, v in data.items() if v is not None}
        return {"refs": refs, "cards": table, "symbols": {str(n): str(n) for n in range(1, 7)}}

    # quick_text, quick_log, quick_example: judge.games.quick.QuickMembers, from this module
    quick_module: ClassVar[str] = "judge.games.relic.quick"

    # -- self-play ----------------------------------------------------------------------------
    def selfplay_sides(self) -> tuple[str, ...]:
        return tuple(default_pool().characters)

    def selfplay_log(self, seed: str, sides: Sequence[str]) -> dict[str, Any]:
        from judge.games.relic.selfplay import new_log

        return new_log(seed, *sides)

    def policy(self, rng: Rng) -> Policy:
        from judge.games.relic.selfplay import RandomPolicy

        return RandomPolicy(rng)


GAME = Relic()
