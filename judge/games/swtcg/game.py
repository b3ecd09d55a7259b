"""The Star Wars Trading Card Game behind the ``Game`` interface (judge.games.base): everything the
shared replay layer may ask of this package."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from i18n import N_
from judge.games.base import Applied, Faults, Policy
from judge.games.inputs import Inputs
from judge.games.quick import QuickMembers
from judge.games.swtcg import steps as st_
from judge.games.swtcg.engine import Ctx, NotImplementedCard
from judge.games.swtcg.model import CardPool
from judge.games.swtcg.procedure import apply_step  # (here, not in apply: a look-up a step, compiled)
from judge.games.swtcg.state import GameState, Player
from judge.kernel.core import IllegalAction, KernelLoop, MissingOutcome, PendingDecision
from judge.kernel.rng import Rng

OUTCOME_RULES = {"arenas": ["swtcg.base.win"]}
#: how a replay viewer reads the state view's table (Game.viewer_cards' ``table``): the zones whose
#: cards are in play (the build zone is not: a card moves from it into play), and the maps of one
#: card to another, in words (``{card}`` the map's key, ``{other}`` its value, made / undone); a
#: link's ``zone`` (its cards) and a card's ``field`` that say the same are told by the link
VIEWER_TABLE: dict[str, Any] = {
    "play": ["arenas", "pilot_cards", "locations"],
    # where a pilot moves off its unit to (a pilot event's ``onto`` that names no card)
    "places": {"character": N_("the Character arena"), "build": N_("the build zone")},
    "links": {
        "pilots": {"words": [N_("{card} pilots {other}"), N_("{card} no longer pilots {other}")],
                   "zone": "pilot_cards", "field": "pilot"},
        "equipment": {"words": [N_("{other} is equipped with {card}"), N_("{card} is no longer equipped to {other}")]},
    },
}


class Swtcg(QuickMembers):
    id = "swtcg"
    name = "Star Wars Trading Card Game"
    min_players = 2
    max_players = 2
    deck_formats = ("standard", "sandbox")  # judge.games.swtcg.deckcheck
    # a log without meta.format checks nothing; a decklist (``arbiter cards check``) is checked
    # against standard unless told otherwise
    default_deck_format = "sandbox"
    verbs = st_.VERBS
    errors: tuple[type[Exception], ...] = (IllegalAction, MissingOutcome, PendingDecision, KernelLoop,
                                           NotImplementedCard)

    def default_cards(self) -> CardPool:
        from judge.games.swtcg.cards import default_pool

        return default_pool()

    # -- reading a log ------------------------------------------------------------------------
    def check_setup(self, players: Sequence[Any], setup: Mapping[str, Any], cards: CardPool) -> Faults:
        from judge.games.swtcg.setup import check_beginning, check_players, from_position

        if "position" in setup:
            extra = [k for k in setup if k != "position"]
            ids = [p for p in players if isinstance(p, dict) and isinstance(p.get("id"), str)]
            return [(f"/setup/{k}", "a setup from a position has only 'position'") for k in extra] + \
                from_position(setup["position"], ids, cards)[1]
        faults = check_players(list(players), cards)
        return faults + check_beginning(setup, list(players), cards)

    parse_step = staticmethod(st_.parse_step)
    # the sound steps read at once, before ``parse_step`` is asked (judge.games.base)
    quick_step = staticmethod(st_.quick_step)
    quick_nodes = st_.QUICK_NODES
    # cards named by name: a setup and answers that name none, told at a glance (compiled), are not
    # read again by ``names_module`` (interpreted: replays.format.parse_log)
    plain_setup = staticmethod(st_.plain_setup)
    plain_answers = staticmethod(st_.plain_answers)

    # cards named by name, as codes (judge.games.base.names_reader)
    names_module: ClassVar[str] = "judge.games.swtcg.names"

    def deck_violations(self, players: Sequence[Mapping[str, Any]], cards: CardPool, deck_format: str,
                        ) -> list[dict[str, Any]]:
        """Every deck-building violation of every player at once (sandbox checks nothing)."""
        if deck_format == "sandbox":
            return []
        from judge.games.swtcg.deckcheck import check_deck

        return [{"player": entry["id"], **v} for entry in players for v in check_deck(entry, cards, deck_format)]

    # -- states -------------------------------------------------------------------------------
    def from_position(self, position: Any, players: Sequence[Mapping[str, Any]], cards: CardPool,
                      ) -> tuple[GameState | None, Faults]:
        from judge.games.swtcg.setup import from_position

        return from_position(position, [dict(p) for p in players], cards)

    def begin(self, players: Sequence[Mapping[str, Any]], setup: Mapping[str, Any], cards: CardPool,
              rng: Rng | None, policy: Policy | None) -> tuple[GameState, Applied]:
        from judge.games.swtcg.setup import from_beginning

        try:
            state, ctx = from_beginning(_shared_codes(players, cards), _shared_orders(setup, cards), cards, rng,
                                        policy)
        except self.errors as exc:
            return self.empty_state(players), Applied(error=exc)
        return state, Applied(ctx.records, ctx.decisions, ctx.written_choices)

    def empty_state(self, players: Sequence[Mapping[str, Any]]) -> GameState:
        st = GameState()
        for p in players:
            st.players[p["id"]] = Player(id=p["id"], name=p.get("name", ""))
        return st

    # -- steps --------------------------------------------------------------------------------
    def check(self, state: GameState, action: st_.SwAction, cards: CardPool) -> tuple[str, str] | None:
        from judge.games.swtcg.actions import check

        return check(Ctx(state, cards), action)

    def apply(self, state: GameState, action: st_.SwAction, inputs: Inputs, cards: CardPool,
              rng: Rng | None, policy: Policy | None, next_action: Any) -> Applied:
        return self._apply(Ctx(state, cards, inputs, rng, policy), action)

    def apply_unrecorded(self, state: GameState, action: st_.SwAction, inputs: Inputs, cards: CardPool,
                         rng: Rng | None, policy: Policy | None, next_action: Any) -> Applied:
        """``apply`` for a replay that reads no record (judge.games.base): the commonest records are not
        made, so ``Applied.records`` holds only some of them; the decisions and the error are ``apply``'s,
        and so is the state after a step applied without an error. After a step rejected once it began
        (a decision it lacks), the state may differ in what ``may`` holds (left to be found later, then
        dropped): no caller keeps such a state (the replayer restores or rebuilds the one before)."""
        return self._apply(Ctx(state, cards, inputs, rng, policy, recording=False), action)

    def _apply(self, ctx: Ctx, action: st_.SwAction) -> Applied:
        error: Exception | None = None
        try:
            apply_step(ctx, action)
        except self.errors as exc:
            error = exc
        return Applied(ctx.records, ctx.decisions, ctx.written_choices, error)

    def legal_actions(self, state: GameState, cards: CardPool) -> list[st_.SwAction]:
        from judge.games.swtcg.legal import candidates

        if state.turn is None:
            return []
        return candidates(Ctx(state, cards), state.turn)

    def chooser(self, state: GameState) -> tuple[str, str]:
        """Simultaneous abilities of both players: the Dark Side's first (swtcg.project.trigger-order)."""
        return state.dark(), "swtcg.project.trigger-order"

    def pending(self, applied: Applied) -> dict[str, Any] | None:
        err = applied.error
        return err.decision.to_json() if isinstance(err, PendingDecision) else None

    def rules(self) -> list[Any]:
        from judge.rules import index

        return index.rules(self.id)

    def actor(self, state: GameState) -> str | None:
        return None if state.phase == "over" else state.turn

    def outcome(self, state: GameState) -> dict[str, Any] | None:
        if state.winner is None:
            return None
        rules = list(OUTCOME_RULES.get(state.reason or "", []))
        return {"winner": state.winner, "reason": state.reason, "rules": rules}

    def summarize(self, action: st_.SwAction | None, events: Sequence[Mapping[str, Any]], cards: Any) -> str:
        from judge.games.swtcg.summary import summarize

        return summarize(action, events, cards)

    def viewer_cards(self, names: Iterable[str], cards: CardPool) -> dict[str, Any]:
        """The cards among ``names`` (codes, references ``p1.CODE``, abilities ``p1.CODE:evade``)."""
        refs: dict[str, dict[str, Any]] = {}
        table: dict[str, dict[str, Any]] = {}
        for text in names:
            if not isinstance(text, str):
                continue
            base = text.split(":", 1)[0]
            player = None
            code = base
            if st_.REF.match(base):
                player, code = base.split(".")[0], base.split(".")[1]
            card = cards.get(code)
            if card is None:
                continue
            entry: dict[str, Any] = {"code": code}
            if player:
                entry["player"] = player
            refs[text] = entry
            if code not in table:
                data: dict[str, Any] = {"name": card.display, "type": card.type, "subtitle": " - ".join(card.subtypes)
                                        or None, "cost": card.cost, "side": card.side, "text": card.text or None}
                if card.unit:
                    data.update(speed=card.speed, power=card.power, health=card.health)
                table[code] = {k: v for k, v in data.items() if v is not None}
        return {"refs": refs, "cards": table, "symbols": {}, "table": VIEWER_TABLE}

    # -- card data (``arbiter cards``) ---------------------------------------------------------------
    @property
    def card_data_files(self) -> tuple[str, ...]:
        from judge.games.swtcg.importer import FILES

        return FILES

    def import_cards(self, files: Mapping[str, bytes]) -> Any:
        from judge.games.swtcg.importer import import_files

        return import_files(files)

    def load_cards(self, data: Mapping[str, Any]) -> Any:
        from judge.games.swtcg.importer import load_cards

        return load_cards(data)

    def describe_card(self, cards: Any, code: str) -> str | None:
        from judge.games.swtcg.importer import describe

        return describe(cards, code)

    # -- looking cards up (judge.games.carddata.LOOKUP_MEMBERS) ---------------------------------
    def card_info(self, cards: CardPool, code: str) -> dict[str, Any] | None:
        """Card ``code`` as JSON: name, side, type, cost, speed, power, health, keywords, text and
        whether the engine applies all of it; None when unknown."""
        card = cards.get(code)
        if card is None:
            return None
        out: dict[str, Any] = {"code": card.code, "name": card.display, "title": card.display, "side": card.side,
                               "type": card.type, "cost": card.cost, "unique": card.unique}
        if card.subtypes:
            out["subtypes"] = list(card.subtypes)
        if card.unit:
            out.update(speed=card.speed, power=card.power, health=card.health)
        if card.keywords:
            out["keywords"] = [k.name + (f" {k.value}" if k.value else "") for k in card.keywords]
        if card.pilot is not None:
            out["pilot"] = True
        if card.text:
            out["text"] = [card.text]  # lines of text, as every game gives them
        out["status"] = "implemented" if card.implemented else "not-implemented"
        if not card.implemented:
            out["not_applied"] = card.unparsed or card.text
        return out

    def _titles(self, cards: CardPool) -> list[Any]:
        from judge.games.carddata import Titles

        return [Titles(c.code, (c.display, c.name) if c.version else (c.name,),
                       " ".join([c.side, c.type, *c.subtypes, *(k.name for k in c.keywords), c.text]))
                for c in cards.cards.values()]

    def find_cards(self, cards: CardPool, text: str) -> list[str]:
        """Codes of the cards matching ``text`` (judge.games.carddata.search_titles)."""
        from judge.games.carddata import search_titles

        return search_titles(self._titles(cards), text)

    def card_code(self, cards: CardPool, text: str) -> Any:
        """The card a code or an unambiguous name names (judge.games.carddata.match_title)."""
        from judge.games.carddata import match_title

        return match_title(self._titles(cards), text)

    def check_decklist(self, text: str, cards: Any, deck_format: str | None = None) -> Any:
        """Read a decklist (lines ``<count> <code>``) and check it (None: standard)."""
        from judge.games.swtcg.importer import check_decklist

        return check_decklist(text, cards, deck_format)

    # -- a judge's quick position (judge.games.quick.QuickPosition) -------------------------------
    # quick_text, quick_log, quick_example: judge.games.quick.QuickMembers, from this module
    quick_module: ClassVar[str] = "judge.games.swtcg.quick"

    # -- self-play ----------------------------------------------------------------------------
    def selfplay_sides(self) -> tuple[str, ...]:
        return ("DARK-60", "LIGHT-60")

    def selfplay_log(self, seed: str, sides: Sequence[str]) -> dict[str, Any]:
        from judge.games.swtcg.selfplay import new_log

        return new_log(seed, *sides)

    def policy(self, rng: Rng) -> Policy:
        from judge.games.swtcg.selfplay import Policy as SwPolicy

        return SwPolicy(rng)


GAME = Swtcg()


# -- the pool's own code strings ----------------------------------------------------------------
# A deck's codes are read from the log: strings equal to the pool's codes, not the same objects. Each
# is replaced by the pool's own (``CardPool.same_codes``) before the game begins, so that the cards in
# hand and deck, and in play, are looked up in the pool's tables (and in the tables made from them) by
# the very key they hold, with no character compared; the values are the same strings, and nothing
# written changes.
def _shared_codes(players: Sequence[Mapping[str, Any]], cards: CardPool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for p in players:
        entry = dict(p)
        deck = entry.get("deck")
        if isinstance(deck, list):
            entry["deck"] = cards.same_codes(deck)
        out.append(entry)
    return out


def _shared_orders(setup: Mapping[str, Any], cards: CardPool) -> dict[str, Any]:
    out = dict(setup)
    decks = out.get("decks")
    if isinstance(decks, dict):
        out["decks"] = {pid: cards.same_codes(order) if isinstance(order, list) else order
                        for pid, order in decks.items()}
    return out
