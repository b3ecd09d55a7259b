"""Star Wars Destiny behind the ``Game`` interface (judge.games.base): what the shared replay layer
may ask of this package. Everything Destiny-specific that the replayer, the timeline and the
format once held (the outcome's rules, the upkeep step, the verbs of a summary, the deck formats,
"two to four players") lives here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from judge.games.base import Applied, Faults, Policy
from judge.games.destiny import steps as st_
from judge.games.destiny.actions import _apply as apply_action
from judge.games.destiny.engine import Ctx, NotImplementedCard
from judge.games.destiny.model import CardPool
from judge.games.destiny.rounds import GameOver
from judge.games.destiny.state import GameState, Player
from judge.games.inputs import NO_INPUTS, Inputs
from judge.games.quick import QuickMembers
from judge.kernel.core import IllegalAction, KernelLoop, MissingOutcome, PendingDecision
from judge.kernel.rng import Rng

# the rules that decide each way a game ends
OUTCOME_RULES = {
    "all-defeated": ["destiny.victory.all-defeated"],
    "deck-out": ["destiny.victory.deck-out"],
    "deck-out-both": ["destiny.victory.deck-out", "destiny.victory.deck-out-both"],
    "eliminated": ["destiny.multiplayer.elimination", "destiny.multiplayer.last-player-wins"],
}


class Destiny(QuickMembers):
    id = "destiny"
    name = "Star Wars Destiny"
    min_players = 2
    max_players = 4  # free-for-all with 3 or 4 (destiny.multiplayer.*)
    deck_formats = ("standard", "starter", "sandbox")
    default_deck_format = "sandbox"  # checks nothing; a log without meta.format
    verbs = st_.VERBS
    errors: tuple[type[Exception], ...] = (IllegalAction, MissingOutcome, PendingDecision, KernelLoop,
                                           NotImplementedCard)

    def default_cards(self) -> CardPool:
        from judge.games.destiny.cards import default_pool

        return default_pool()

    # -- reading a log ------------------------------------------------------------------------
    def check_setup(self, players: Sequence[Any], setup: Mapping[str, Any], cards: CardPool) -> Faults:
        from judge.games.destiny.setup import check_beginning, check_players, from_position, setup_inputs

        if "position" in setup:
            ids = [p for p in players if isinstance(p, dict) and isinstance(p.get("id"), str)]
            return from_position(setup["position"], ids, cards)[1]
        faults = check_players(list(players), cards)
        seats = [p["id"] for p in players if isinstance(p, dict) and isinstance(p.get("id"), str)]
        check_beginning(setup, seats, faults)
        setup_inputs(setup, seats, faults)
        return faults

    # one step as a typed action, or its faults (steps.parse_step, called for every step of a log)
    parse_step = staticmethod(st_.parse_step)
    # the commonest steps read at once, without a JSON Pointer (base.Game: optional)
    quick_step = staticmethod(st_.quick_step)
    quick_nodes = st_.QUICK_NODES
    # a setup and answers that name no card by name, told at a glance (compiled: names.setup_codes
    # and names.answer_codes are not), read no further by the log's reader (base.Game: optional)
    plain_setup = staticmethod(st_.plain_setup)
    plain_answers = staticmethod(st_.plain_answers)

    # cards named by name, as codes (judge.games.base.names_reader)
    names_module: ClassVar[str] = "judge.games.destiny.names"

    def deck_violations(self, players: Sequence[Mapping[str, Any]], cards: CardPool, deck_format: str,
                        ) -> list[dict[str, Any]]:
        """Every deck-building violation of every player at once (sandbox checks nothing)."""
        if deck_format == "sandbox":
            return []
        from judge.games.destiny.deckcheck import check_deck

        return [{"player": entry["id"], **v.to_json()} for entry in players
                for v in check_deck(entry, cards, deck_format)]

    # -- states -------------------------------------------------------------------------------
    def from_position(self, position: Any, players: Sequence[Mapping[str, Any]], cards: CardPool,
                      ) -> tuple[GameState | None, Faults]:
        from judge.games.destiny.setup import from_position

        return from_position(position, [dict(p) for p in players], cards)

    def begin(self, players: Sequence[Mapping[str, Any]], setup: Mapping[str, Any], cards: CardPool,
              rng: Rng | None, policy: Policy | None) -> tuple[GameState, Applied]:
        from judge.games.destiny.setup import from_beginning

        try:
            state, ctx = from_beginning([dict(p) for p in players], dict(setup), cards, rng, policy)
        except self.errors as exc:
            return self.empty_state(players), Applied(error=exc)
        ctx.close()
        return state, Applied(ctx.records, ctx.decisions, ctx.written_choices)

    def empty_state(self, players: Sequence[Mapping[str, Any]]) -> GameState:
        st = GameState(phase="setup")
        for p in players:
            st.players[p["id"]] = Player(id=p["id"], name=p.get("name", ""))
        return st

    # -- steps --------------------------------------------------------------------------------
    def check(self, state: GameState, action: st_.DestinyAction, cards: CardPool) -> tuple[str, str] | None:
        from judge.games.destiny.legal import check

        return check(state, action, cards)

    def apply(self, state: GameState, action: st_.DestinyAction, inputs: Inputs, cards: CardPool,
              rng: Rng | None, policy: Policy | None, next_action: Any) -> Applied:
        return self._apply(Ctx(state, cards, action, inputs, rng, policy), inputs, next_action)

    def apply_unrecorded(self, state: GameState, action: st_.DestinyAction, inputs: Inputs, cards: CardPool,
                         rng: Rng | None, policy: Policy | None, next_action: Any) -> Applied:
        """``apply`` for a replay that reads no record (judge.games.base): the commonest records are not
        made, so ``Applied.records`` holds only some of them; the state, the decisions and the error are
        ``apply``'s (tests/judge/destiny/test_unrecorded.py)."""
        return self._apply(Ctx(state, cards, action, inputs, rng, policy, recording=False), inputs, next_action)

    def _apply(self, ctx: Ctx, inputs: Inputs, next_action: Any) -> Applied:
        error: Exception | None = None
        try:
            # (actions.apply_step and ctx.close, inline: two calls less a step)
            try:
                apply_action(ctx, isinstance(next_action, st_.Upkeep))
            except GameOver:
                ctx.clear_queue()
            else:
                if inputs is not NO_INPUTS:  # (a step that logs nothing leaves nothing over)
                    ctx.check_inputs_used()
        except self.errors as exc:
            error = exc
        finally:
            ctx._kernel = None
        return Applied(ctx.records, ctx.decisions, ctx.written_choices, error)

    def legal_actions(self, state: GameState, cards: CardPool) -> list[st_.DestinyAction]:
        from judge.games.destiny.legal import legal_actions

        return legal_actions(state, cards)

    def chooser(self, state: GameState) -> tuple[str, str]:
        """Who orders simultaneous abilities of several players, and the rule that says so."""
        from judge.games.destiny.rounds import chooser

        return chooser(state)

    def pending(self, applied: Applied) -> dict[str, Any] | None:
        """The decision a step stopped on, when the log lacks it (who decides, options, rule)."""
        err = applied.error
        return err.decision.to_json() if isinstance(err, PendingDecision) else None

    def rules(self) -> list[Any]:
        """The rule index's entries of this game (judge.rules.index)."""
        from judge.rules import index

        return index.rules(self.id)

    def actor(self, state: GameState) -> str | None:
        return None if state.phase == "over" else (state.extra_action or state.turn)

    def outcome(self, state: GameState) -> dict[str, Any] | None:
        if state.winner is None:
            return None
        rules = list(OUTCOME_RULES.get(state.reason or "", []))
        return {"winner": state.winner, "reason": state.reason, "rules": rules}

    def summarize(self, action: st_.DestinyAction | None, events: Sequence[Mapping[str, Any]], cards: Any) -> str:
        from judge.games.destiny.summary import summarize

        return summarize(action, events, cards)

    def viewer_cards(self, names: Iterable[str], cards: CardPool) -> dict[str, Any]:
        """The cards among ``names`` for a replay viewer (judge.games.base.Game.viewer_cards)."""
        from judge.games.destiny.dice import SYMBOLS
        from judge.games.destiny.refs import CODE, parse_ref

        refs: dict[str, dict[str, Any]] = {}
        table: dict[str, dict[str, Any]] = {}
        for text in names:
            ref = parse_ref(text)
            entry: dict[str, Any] = {"code": ref.code, "player": ref.player} if ref else {"code": text}
            if ref is not None and ref.die is not None:
                entry["die"] = ref.die
            card = cards.get(entry["code"]) if ref is not None or CODE.match(text) else None
            if card is None:
                continue
            refs[text] = entry
            if card.code not in table:
                data: dict[str, Any] = {"name": card.name, "type": str(card.type), "color": card.color,
                                        "subtitle": card.subtitle, "health": card.health, "cost": card.cost,
                                        "faces": [f.notation() for f in card.faces] or None}
                table[card.code] = {k: v for k, v in data.items() if v is not None}
        return {"refs": refs, "cards": table, "symbols": dict(SYMBOLS)}

    # -- card data (the command line's ``arbiter cards``; judge.games.carddata.CardTools) ----------
    @property
    def card_data_files(self) -> tuple[str, ...]:
        from judge.games.destiny.importer import FILES

        return tuple(FILES)

    def import_cards(self, files: Mapping[str, bytes]) -> Any:
        """A SWDestinyDB data folder already read (``{relative POSIX path: bytes}``) as the project's
        card JSON."""
        from judge.games.destiny import cardtools

        return cardtools.import_cards(files)

    def load_cards(self, data: Mapping[str, Any]) -> Any:
        """The cards (pool and sets) of the project's card JSON; ValueError/KeyError on anything else."""
        from judge.games.destiny import cardtools

        return cardtools.load_cards(data)

    def describe_card(self, cards: Any, code: str) -> str | None:
        """A few lines describing card ``code``, or None when there is no such card."""
        from judge.games.destiny import cardtools

        return cardtools.describe_card(cards, code)

    def check_decklist(self, text: str, cards: Any, deck_format: str | None = None) -> Any:
        """Read a SWDestinyDB decklist (JSON or text export) and check it (None: standard)."""
        from judge.games.destiny import cardtools

        return cardtools.check_decklist(text, cards, deck_format)

    def card_info(self, cards: Any, code: str) -> dict[str, Any] | None:
        """Card ``code`` as JSON (judge.games.carddata.CardLookup)."""
        from judge.games.destiny import cardtools

        return cardtools.card_info(cards, code)

    def find_cards(self, cards: Any, text: str) -> list[str]:
        """Codes of the cards matching ``text``, best first (judge.games.carddata.CardLookup)."""
        from judge.games.destiny import cardtools

        return cardtools.find_cards(cards, text)

    def card_code(self, cards: Any, text: str) -> Any:
        """The card a code or an unambiguous name names (judge.games.carddata.CardLookup)."""
        from judge.games.destiny import cardtools

        return cardtools.card_code(cards, text)

    # -- a judge's quick position (judge.games.quick.QuickPosition) -------------------------------
    quick_form: ClassVar[bool] = True  # the web page has fields for it (judge.games.quick: optional)

    # quick_text, quick_log, quick_example: judge.games.quick.QuickMembers, from this module
    quick_module: ClassVar[str] = "judge.games.destiny.quick"

    # -- self-play ----------------------------------------------------------------------------
    def selfplay_sides(self) -> tuple[str, ...]:
        from judge.games.destiny.starters import STARTERS

        return tuple(STARTERS)  # in the order written: the Legacies pair first (the default match)

    def selfplay_log(self, seed: str, sides: Sequence[str]) -> dict[str, Any]:
        from judge.games.destiny.selfplay import new_log

        return new_log(seed, *sides)

    def policy(self, rng: Rng) -> Policy:
        from judge.games.destiny.selfplay import RandomPolicy

        return RandomPolicy(rng)


GAME = Destiny()
