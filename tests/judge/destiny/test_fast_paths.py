"""The engine's shortcuts must not change a ruling: an event no live ability answers is performed
without the kernel's pipeline, and the live-ability index is kept between steps. Replaying with
both shortcuts switched off must give the very same events, decisions and state hashes."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.destiny import engine
from judge.games.destiny.cards import default_pool
from replays.format import parse_log
from replays.replayer import StepRecord, Visitor, replay
from replays.selfplay import play_game


class Trace:  # a Visitor (structurally: the compiled build cannot subclass the protocol)
    def __init__(self) -> None:
        self.steps: list[tuple[Any, ...]] = []

    def begin(self, log: Any, setup: StepRecord) -> None:
        pass

    def end(self, result: Any) -> None:
        pass

    def visit_step(self, rec: StepRecord) -> None:
        self.steps.append((rec.at, rec.events, rec.decisions, rec.state.state_hash()))


def trace(log: dict[str, Any]) -> list[tuple[Any, ...]]:
    pool = default_pool()
    visitor = Trace()
    visitors: tuple[Visitor, ...] = (visitor,)
    result = replay(parse_log(log, pool), pool, visitors=visitors)
    assert result.valid, result.error
    return visitor.steps


@pytest.mark.parametrize(("seed", "decks"), [("fast-1", ("LEG-H", "LEG-V")), ("fast-2", ("AW-H", "AW-V")),
                                             ("fast-3", ("LEG-H", "AW-V")), ("fast-4", ("AW-H", "LEG-V"))])
def test_shortcuts_change_nothing(seed: str, decks: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    log = play_game(seed, *decks).log
    fast = trace(log)

    monkeypatch.setattr(engine, "SHORTCUTS", False)
    slow = trace(log)
    assert len(fast) == len(slow) > 20
    assert fast == slow


def test_a_card_replaced_in_a_pool_is_read_again() -> None:
    """The pool's table of triggered abilities is rebuilt when a card is replaced: a stale one
    would keep applying the old card's ability."""
    from judge.games.destiny.cards.common import ability, after_you_activate_this
    from judge.games.destiny.model import CardDef, CardType, faces
    from judge.games.destiny.table import Table
    from replays.service import replay_json
    from tests.judge.destiny.tablehelp import pool_with

    def shield_self(ctx, src, _e):  # noqa: ANN001, ANN202
        ctx.give_shields(src, src, 1)

    def card(with_ability: bool) -> CardDef:
        abilities = (ability("after", "After you activate it, give it 1 shield.", shield_self,
                             after_you_activate_this),) if with_ability else ()
        return CardDef("99030", "Test Shielder", CardType.CHARACTER, "hero", "gray", points=(10,), health=10,
                       faces=faces("1R", "1R", "1R", "1R", "1R", "1R"), abilities=abilities)

    pool = pool_with(card(True))
    t = Table()
    t.character("p1", "99030")
    t.character("p2", "05019", dice=2)
    log = t.log([{"by": "p1", "do": "activate", "card": "p1.99030", "roll": ["1R"]}])
    shields = lambda r: r["final_state"]["players"]["p1"]["characters"]["p1.99030"]["shields"]  # noqa: E731
    assert shields(replay_json(log, cards=pool)) == 1
    pool.add(card(False), replace=True)
    assert shields(replay_json(log, cards=pool)) == 0


def test_the_events_performed_directly_go_to_the_handler_perform_names() -> None:
    """``perform.perform_event`` calls the commonest kinds' handlers directly: each is the one the
    ``PERFORM`` table names for that kind (read from the source, as the compiled build cannot be
    patched)."""
    import re
    from pathlib import Path

    from judge.games.destiny import events as ev
    from judge.games.destiny.perform import PERFORM

    source = (Path(__file__).resolve().parents[3] / "judge/games/destiny/perform.py").read_text()
    kinds = dict(re.findall(r"^(_[A-Z]+): Final = ev\.(\w+)$", source, re.MULTILINE))
    body = source[source.index("def perform_event("):]
    body = body[:body.index("\n\n\n")]
    direct = re.findall(r"if kind is (_[A-Z]+):\n\s+return (\w+)\(ctx, e\)", body)
    assert len(direct) >= 5
    for name, handler in direct:
        assert PERFORM[getattr(ev, kinds[name])].__name__ == handler, name


def test_a_die_reference_is_kept_for_its_play_generation_only() -> None:
    """``canon_die``'s answers are kept beside ``canon``'s, for the play generation: a second copy
    entering play makes the short reference ambiguous at once, and a card's reference is never
    answered for a die's."""
    from judge.games.destiny.engine import Ctx
    from judge.games.destiny.state import Character, GameState, Player, Upgrade
    from judge.kernel.core import IllegalAction

    st = GameState()
    p = st.players["p1"] = Player("p1")
    p.characters["p1.01001"] = Character("p1.01001", "01001", 1)
    p.upgrades["p1.01002#1"] = Upgrade("p1.01002#1", "01002", "p1.01001")
    ctx = Ctx(st, default_pool())
    assert ctx.canon("p1.01002") == "p1.01002#1"
    for _ in range(2):
        assert ctx.canon_die("p1.01002/1") == "p1.01002#1/1" and ctx.canon_die("p1.01001#1/2") == "p1.01001/2"
    assert ctx.canon("p1.01002") == "p1.01002#1"  # (a card's answer, not a die's)
    p.upgrades["p1.01002#2"] = Upgrade("p1.01002#2", "01002", "p1.01001")
    with pytest.raises(IllegalAction):
        ctx.canon_die("p1.01002/1")
    assert ctx.canon_die("p1.01002#2/1") == "p1.01002#2/1"
    with pytest.raises(IllegalAction):
        ctx.canon_die("p1.01002#2")  # not a die


class States:  # a Visitor (structurally, as Trace): a copy of the state after every step
    def __init__(self) -> None:
        self.states: list[Any] = []

    def begin(self, log: Any, setup: StepRecord) -> None:
        self.states.append(setup.state.copy())

    def end(self, result: Any) -> None:
        pass

    def visit_step(self, rec: StepRecord) -> None:
        self.states.append(rec.state.copy())


def test_keywords_without_a_live_grant_are_the_printed_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """``keywords_of``'s shortcut (nothing live grants a keyword or takes one away: the printed
    ones) answers as the grants and losses folded over them do, for every card in play and every
    card in hand after every step of self-play games, with a granting card in play (Heirloom
    Lightsaber: Redeploy on a blue character) and without."""
    from judge.games.destiny.engine import Ctx

    pool = default_pool()
    asked = {True: 0, False: 0}  # (answers with a grant live, without)
    for seed, decks in (("kw-0", ("LEG-H", "LEG-V")), ("kw-1", ("LEG-H", "AW-V"))):  # (each plays the Lightsaber)
        visitor = States()
        visitors: tuple[Visitor, ...] = (visitor,)
        assert replay(parse_log(play_game(seed, *decks).log, pool), pool, visitors=visitors).valid
        for st in visitor.states:
            ctx = Ctx(st, pool)
            subjects: list[tuple[str, Any]] = [(code, ref) for ref, code, _pid in ctx._in_play()]
            subjects += [(code, (pid, code)) for pid, p in st.players.items() for code in p.hand if code != "?"]
            for code, subject in subjects:
                fast = ctx.keywords_of(pool.cards[code], subject)
                monkeypatch.setattr(engine, "SHORTCUTS", False)
                slow = ctx.keywords_of(pool.cards[code], subject)
                monkeypatch.setattr(engine, "SHORTCUTS", True)
                assert fast == slow and type(fast) is frozenset, (code, subject)
                asked["constant:keywords" in ctx._index().live] += 1
    assert asked[True] > 0 and asked[False] > 0, asked
