"""SW TCG's fast paths of the procedure agree with the slow ones they stand for in self-play games:
a player ``legal.nothing_in_chance`` passes at once (swtcg.project.forced-pass) is one
``legal._groups`` finds no step for, and the other way round; the cards with something for a
chance, kept while the cards stay where they are (``legal._chance_cards``, ``legal._chance_base``:
GameState.index's facts), are those a state with nothing kept finds (a stale entry would differ).
Asked at every chance the procedure asks about (pure Python: the compiled procedure calls its
own functions, not the module's), and after every step for each player and kind of chance."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge.games.inputs import NO_INPUTS
from judge.games.swtcg import engine as en
from judge.games.swtcg import legal
from judge.games.swtcg import procedure as pr
from judge.games.swtcg import steps as st_
from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx
from judge.games.swtcg.model import CardPool
from judge.games.swtcg.state import CardIndex, Chance, GameState
from judge.kernel.rng import Rng
from replays.format import parse_log
from replays.replayer import replay, start
from replays.selfplay import play_game
from tests.replays.ledger import unwrapped_replay

POOL = default_pool()


KINDS = ("general", "attack", "reroll", "prevent", "disrupt")


@pytest.mark.parametrize("seed", ["fast-1", "fast-2", "fast-3"])
def test_nothing_in_chance_and_the_kept_chance_cards_agree_with_the_slow_paths(
        seed: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if not pr.__file__.endswith(".py"):
        pytest.skip("the compiled procedure calls its own nothing_in_chance")
    log = play_game(seed, "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500).log
    seen: dict[str, int] = {"nothing": 0, "something": 0, "kept": 0}

    def checked(ctx: Ctx, pid: str) -> bool:
        st = ctx.state
        kind = st.chance.kind if st.chance is not None else ""
        kept = legal._chance_cards(ctx, pid, kind)
        # a copy has no index and no facts: everything found again
        fresh = Ctx(st.copy(), ctx.cards)
        assert legal._chance_cards(fresh, pid, kind) == kept
        seen["kept"] += bool(kept)
        nothing = legal.nothing_in_chance(ctx, pid)
        groups: list[Any] = list(legal._groups(fresh, pid, ordered=False))
        assert nothing == (not groups), (st.round, pid, kind, [name for name, _ in groups])
        if nothing:
            assert legal.options(fresh, pid) == []
        seen["nothing" if nothing else "something"] += 1
        return nothing

    monkeypatch.setattr(pr, "nothing_in_chance", checked)
    result = replay(parse_log(log, POOL), POOL)
    assert result.valid, result.error
    assert seen["nothing"] and seen["something"] and seen["kept"], seen


class Checked:
    """After each step: the chance cards kept in the state's index agree with those found afresh, and
    ``nothing_in_chance`` with ``_groups``, in a chance of each kind opened for each player there."""

    def __init__(self) -> None:
        self.seen = {"nothing": 0, "something": 0, "kept": 0}

    def begin(self, log: Any, setup: Any) -> None:
        pass

    def end(self, result: Any) -> None:
        pass

    def visit_step(self, record: Any) -> None:
        live = record.state
        if live.phase == "over":
            return
        for pid in live.players:
            for kind in KINDS:
                kept = legal._chance_cards(Ctx(live, POOL), pid, kind)  # (the index the procedure kept)
                assert legal._chance_cards(Ctx(live.copy(), POOL), pid, kind) == kept
                self.seen["kept"] += bool(kept)
                st = live.copy()
                st.turn, st.wait = pid, "chance"
                st.chance = Chance(kind)
                ctx = Ctx(st, POOL)
                nothing = legal.nothing_in_chance(ctx, pid)
                groups: list[Any] = list(legal._groups(Ctx(st.copy(), POOL), pid, ordered=False))
                assert nothing == (not groups), (st.round, pid, kind, [name for name, _ in groups])
                if nothing:
                    assert legal.options(ctx, pid) == []
                self.seen["nothing" if nothing else "something"] += 1


@pytest.mark.parametrize("seed", ["fast-4", "fast-5"])
def test_after_every_step_nothing_in_chance_and_the_kept_chance_cards_agree_with_the_slow_paths(seed: str) -> None:
    log = play_game(seed, "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500).log
    checked = Checked()
    result = replay(parse_log(log, POOL), POOL, visitors=(checked,))
    assert result.valid, result.error
    assert all(checked.seen.values()), checked.seen


# ---------------------------------------------------------------------- the names of what a player may do
EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "replays" / "examples" / "swtcg").glob("*.json"))


class MayChecked:
    """After each step: ``legal.may`` (the procedure's names of what the player to act may do) is
    ``checked_options`` (every group's steps made and checked), sorted, each name once; the index
    kept across the steps (moved cards filed again) is the one found afresh."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.waits: dict[str, int] = {}

    def begin(self, log: Any, setup: Any) -> None:
        self.visit_state(setup.state)

    def end(self, result: Any) -> None:
        pass

    def visit_step(self, record: Any) -> None:
        self.visit_state(record.state)

    def visit_state(self, live: Any) -> None:
        kept = live._index
        if kept is not None:
            fresh = CardIndex(live.cards)
            for table in ("by_zone", "by_controller", "by_code"):
                assert {k: [c.ref for c in v] for k, v in getattr(kept, table).items()} == \
                    {k: [c.ref for c in v] for k, v in getattr(fresh, table).items()}, table
            assert [c.ref for c in kept.piloted] == [c.ref for c in fresh.piloted]
            assert sorted(kept.pos, key=kept.pos.__getitem__) == list(live.cards)
        self.check_facts(live)
        if live.phase == "over" or live.turn is None or live.wait is None:
            return
        pid = live.turn
        slow = sorted(set(legal.checked_options(Ctx(live.copy(), self.pool), pid)))
        assert legal.may(Ctx(live.copy(), self.pool), pid) == slow, (live.round, live.wait, pid)
        assert legal.may(Ctx(live, self.pool), pid) == slow  # (with what the live state keeps)
        assert legal.may_any(Ctx(live.copy(), self.pool), pid) == bool(slow), (live.round, live.wait, pid)
        assert live.may == slow or live.wait == "chance"  # (a chance's may: after nothing_in_chance)
        self.waits[live.wait] = self.waits.get(live.wait, 0) + 1


    def check_facts(self, live: Any) -> None:
        """What the live state's index keeps across moves (engine.facts_of) is what a copy, which
        keeps nothing, finds: each card's keyword instances, the cost changes, the cards boosting and
        granting, each player's chance cards of each kind."""
        kept, fresh = Ctx(live, self.pool), Ctx(live.copy(), self.pool)
        for ref in live.cards:
            assert en.keyword_instances(kept, ref) == en.keyword_instances(fresh, ref), ref
            for name in ("armor", "accuracy", "critical-hit", "shields", "stun", "evade", "lucky", "stealth"):
                assert en.kw_value(kept, ref, name) == en.kw_value(fresh, ref, name), (ref, name)
            for pid in live.players:
                assert en.cost_delta(kept, pid, "ability", ref) == en.cost_delta(fresh, pid, "ability", ref)
        assert [c.ref for c in en.boost_sources(kept)] == [c.ref for c in en.boost_sources(fresh)]
        assert [(c.ref, s) for c, s in en.grant_sources(kept)] == [(c.ref, s) for c, s in en.grant_sources(fresh)]
        for pid in live.players:
            assert en.cost_delta(kept, pid, "battle") == en.cost_delta(fresh, pid, "battle")
            for kind in KINDS:
                assert legal._chance_cards(kept, pid, kind) == legal._chance_cards(fresh, pid, kind), (pid, kind)
            kept.checking = fresh.checking = True
            for code in {c.code for c in live.cards.values()}:
                d = self.pool.get(code)
                if d is not None and d.unique:
                    assert en.same_name(kept, pid, d) == en.same_name(fresh, pid, d)
            kept.checking = fresh.checking = False


@pytest.mark.parametrize("seed", ["may-1", "may-2", "may-3"])
def test_may_is_what_checking_every_step_finds_and_the_kept_index_is_the_fresh_one(seed: str) -> None:
    log = play_game(seed, "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500).log
    checked = MayChecked(POOL)
    result = replay(parse_log(log, POOL), POOL, visitors=(checked,))
    assert result.valid, result.error
    assert {"deploy", "build", "retreat", "act", "chance"} <= checked.waits.keys(), checked.waits


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_may_agrees_with_checking_every_step_in_the_examples(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    log = parse_log(data)
    checked = MayChecked(log.rules.default_cards())
    replay(log, visitors=(checked,))
    assert checked.waits


def test_parse_step_reads_a_sound_step_as_the_slow_reading_does() -> None:
    logs = [play_game(f"parse-{i}", "DARK-60", "LIGHT-60", game="swtcg", max_steps=400).log for i in range(3)]
    logs += [json.loads(p.read_text(encoding="utf-8")) for p in EXAMPLES]
    seen = 0
    for data in logs:
        ids = [p["id"] for p in data["players"]]
        for i, step in enumerate(data["steps"]):
            fast = st_._parse_sound(step, ids, POOL) if isinstance(step, dict) else None
            slow, faults = st_._parse_step(step, f"/steps/{i}", ids, POOL)
            assert (fast is not None) == (not faults), step  # every sound step is read the quick way
            if fast is not None:
                seen += 1
                assert fast == slow and type(fast) is type(slow), step
    assert seen > 300
    # a fault is never read by the fast path: each falls back to the slow reading, which names it
    for bad in ({"by": "p1", "do": "attack", "card": "p1.DS-TIE"}, {"by": "p1", "do": "attack", "card": "p1.DS-TIE",
                "target": None}, {"by": "p3", "do": "pass"}, {"by": "p1", "do": "build", "card": "DS-TIE",
                "counters": 100}, {"by": "p1", "do": "pass", "note": 3}, {"by": "p1", "do": "pass", "extra": 1},
                {"by": "p1", "do": "play", "card": "NOPE"}, {"by": "p1", "do": "reroll", "ability": "p1.DS-TIE:lucky",
                "dice": [0, 0]}, {"by": "p1", "do": "attack", "card": "p1.DS-TIE", "target": "p2.LS-XW", "cardd": 1},
                {"by": "p1", "do": "play", "card": "DS-TIE", "option": None},
                {"by": "p1", "do": "build", "card": "DS-TIE", "counters": 1, "note": ["x"]},
                # a required key missing once every key there was read (the rest are not looked up)
                {"by": "p1", "do": "build", "card": "DS-TIE"},
                {"by": "p1", "do": "reroll", "ability": "p1.DS-TIE:lucky"},
                {"by": "p1", "do": "build", "counters": 1}):
        assert st_._parse_sound(bad, ["p1", "p2"], POOL) is None
        assert st_.parse_step(bad, "/steps/0", ["p1", "p2"], POOL)[1]


def test_what_the_quick_reading_found_sound_holds_for_its_pool_only() -> None:
    """A card code the quick reading found sound for one pool is not taken as sound for another pool
    without it, and a code a pool lacks is read once a card of that code is added to it (the values
    found sound are kept with the pool, ``CardPool.memo``, and forgotten when a card is added)."""
    step = {"by": "p1", "do": "play", "card": "DS-TIE"}
    assert "DS-TIE" in POOL and st_._parse_sound(step, ["p1", "p2"], POOL) is not None
    other = CardPool(cards={code: d for code, d in POOL.cards.items() if code != "DS-TIE"})
    assert st_._parse_sound(step, ["p1", "p2"], other) is None
    assert st_.parse_step(step, "/steps/0", ["p1", "p2"], other)[1]  # the slow reading names the fault
    assert st_._parse_sound(step, ["p1", "p2"], POOL) is not None  # the first pool still reads it
    # the hand table too (what legal._hand_table reads): per pool, made again once a card is added
    def hand_table(pool: CardPool) -> Any:
        return pool.memo("hand-table", legal._make_hand_table)

    assert "DS-TIE" not in hand_table(other) and "DS-TIE" in hand_table(POOL)
    other.add(POOL.cards["DS-TIE"])
    assert st_._parse_sound(step, ["p1", "p2"], other) is not None
    assert "DS-TIE" in hand_table(other)


def test_quick_step_reads_what_parse_step_reads_and_a_log_reads_the_same() -> None:
    """The game's ``quick_step`` (what a log's reader asks first, replays.format.parse_log) gives
    ``parse_step``'s action for the steps it reads, None for each step with a fault or no object; a log
    read with it has, at every step, ``parse_step``'s action."""
    from judge.games.swtcg.game import GAME

    logs = [play_game(f"quick-{i}", "DARK-60", "LIGHT-60", game="swtcg", max_steps=400).log for i in range(3)]
    logs += [json.loads(p.read_text(encoding="utf-8")) for p in EXAMPLES]
    odd: list[Any] = [None, [], "pass", 3, {"by": "p3", "do": "pass"}, {"by": "p1", "do": "pass", "note": 3},
                      {"by": "p1", "do": "pass", "extra": 1}, {"by": "p1", "do": "play", "card": "NOPE"},
                      {"by": "p1", "do": "attack", "card": "p1.DS-TIE"}, {"do": "pass"},
                      {"by": "p1", "do": "pass", "expect": {"hash": "sha256:x"}, "note": "n"}]
    read = total = 0
    for data in logs:
        ids = [p["id"] for p in data["players"]]
        pool = POOL
        for i, step in enumerate([*data["steps"], *odd]):
            total += 1
            quick = GAME.quick_step(step, ids, pool)
            full, faults = st_.parse_step(step, f"/steps/{i}", ids, pool)
            if quick is None:
                assert faults or not isinstance(step, dict) or st_._parse_sound(step, ids, pool) is None, step
                continue
            read += 1
            assert not faults and type(quick) is type(full) and quick == full, step
        log = parse_log(data, pool)
        for i, step in enumerate(log.steps):
            full, faults = st_.parse_step(step, f"/steps/{i}", ids, pool)
            assert not faults and log.actions[i] == full and type(log.actions[i]) is type(full), i
    assert read > total // 2
    for step in odd[:-1]:
        assert GAME.quick_step(step, ["p1", "p2"], POOL) is None, step


class TwiceChecked:
    """After each step that leaves a chance nobody has passed in: ``engine.pass_twice`` (both players'
    forced passes at once, advance) leaves the state and the records ``pass_chance`` twice leaves."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def begin(self, log: Any, setup: Any) -> None:
        pass

    def end(self, result: Any) -> None:
        pass

    def visit_step(self, record: Any) -> None:
        live = record.state
        if live.wait != "chance" or live.chance is None or live.chance.passes != 0 or live.turn is None:
            return
        pid = live.turn
        other = live.opponent(pid)
        slow, fast = Ctx(live.copy(), POOL), Ctx(live.copy(), POOL)
        en.pass_chance(slow, pid, auto=True)
        en.pass_chance(slow, other, auto=True)
        en.pass_twice(fast, pid, other)
        assert [r.to_json() for r in fast.records] == [r.to_json() for r in slow.records]
        assert fast.state.canonical() == slow.state.canonical() and fast.state.view(True) == slow.state.view(True)
        kind = live.chance.kind
        self.seen[kind] = self.seen.get(kind, 0) + 1


@pytest.mark.parametrize("seed", ["twice-1", "twice-2"])
def test_pass_twice_is_two_forced_passes(seed: str) -> None:
    log = play_game(seed, "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500).log
    checked = TwiceChecked()
    result = replay(parse_log(log, POOL), POOL, visitors=(checked,))
    assert result.valid, result.error
    assert "prevent" in checked.seen and sum(checked.seen.values()) >= 3, checked.seen  # (damage placed too)


def test_a_decks_side_and_whether_it_reads_last_attacks_as_the_sets_say() -> None:
    """``setup.side_of`` (one loop over the deck) is the one side of the set of its cards' sides,
    neutral aside, else None; ``engine.reads_last_attack`` whether a code's card reads a unit's last
    attack (only the codes that do are looked for)."""
    from judge.games.swtcg import setup as su

    def by_sets(deck: list[str]) -> str | None:
        sides = {POOL.cards[c].side for c in deck if c in POOL.cards} - {"neutral"}
        return next(iter(sides)) if len(sides) == 1 else None

    codes = sorted(POOL.cards)
    dark = [c for c in codes if POOL.cards[c].side == "dark"]
    light = [c for c in codes if POOL.cards[c].side == "light"]
    neutral = [c for c in codes if POOL.cards[c].side == "neutral"]
    assert dark and light
    decks = [dark[:30], light[:30], dark[:5] + light[:1], light[:3] + neutral + ["NOPE"], neutral, ["NOPE"], [],
             neutral + dark[:2], dark[:2] + light[:2] + dark[2:4]]
    for deck in decks:
        assert su.side_of(deck, POOL) == by_sets(deck), deck
        # (setup asks it of the decklist, not the shuffled deck: the same cards, so the same side)
        for seed in ("a", "b"):
            shuffled = list(deck)
            Rng(seed).shuffle(shuffled)
            assert su.side_of(shuffled, POOL) == su.side_of(deck, POOL), (deck, shuffled)
    readers = [c for c in codes if any(e.kind == "discard-if-missed" for p in POOL.cards[c].plays
                                       for o in p.options for e in o)]
    assert readers
    for deck in ([*dark[:20], readers[0]], dark[:20], [], ["NOPE", readers[-1]]):
        assert en.reads_last_attack(POOL, deck) == any(c in readers for c in deck)
        assert en.reads_last_attack(POOL, iter(deck)) == any(c in readers for c in deck)


def _variants_as_written(ctx: Ctx, pid: str, play: Any, in_order: Any) -> list[Any]:
    """``legal._variants`` as it read each option's effects at every call (the reference)."""
    st = ctx.state
    out = []
    for option, effects in enumerate(play.options):
        kinds = {e.target for e in effects if e.kind not in ("reroll", "disrupt")}
        dice = None
        for e in effects:
            if e.kind == "reroll":
                dice = legal._misses(ctx, e.amount)
        pay = st.players[pid].force if play.any_amount else None
        chosen = option if len(play.options) > 1 else None
        if not kinds & legal.TARGETED:
            out.append((chosen, None, pay, dice))
            continue
        mine = "your-unit" in kinds
        theirs = bool(kinds & {"enemy-unit", "enemy-character-unit", "enemy-ground-or-character-unit",
                               "dark-character-unit"})
        prevents = any(e.kind == "prevent" for e in effects)
        targeted = sorted(kinds & legal.TARGETED)
        for ref in in_order.refs():
            c = st.cards[ref]
            if c.zone in ("space", "ground", "character", "pilot") and not (mine and c.controller != pid) \
                    and not (theirs and c.controller == pid) \
                    and not (prevents and not any(d["target"] == ref for d in st.damage)) \
                    and all(en.target_problem(ctx, kind, pid, ref, None) is None for kind in targeted):
                out.append((chosen, ref, pay, dice))
    return out


class VariantsChecked:
    """After each step: every play of every card of the pool, for each player, has the variants the
    reference finds (``legal._variants`` reads each play's options once, ``legal._shapes``)."""

    def __init__(self) -> None:
        self.seen = 0

    def begin(self, log: Any, setup: Any) -> None:
        pass

    def end(self, result: Any) -> None:
        pass

    def visit_step(self, record: Any) -> None:
        live = record.state
        if live.phase == "over" or not live.cards:
            return
        ctx = Ctx(live.copy(), POOL)
        ctx.checking = True
        for pid in live.players:
            for d in POOL.cards.values():
                for play in d.plays:
                    want = _variants_as_written(ctx, pid, play, legal._Refs(ctx.state.cards, True))
                    assert list(legal._variants(ctx, pid, play, legal._Refs(ctx.state.cards, True))) == want
                    self.seen += len(want)


def test_variants_read_each_play_once_and_find_what_reading_it_each_time_finds() -> None:
    log = play_game("variants-1", "DARK-60", "LIGHT-60", game="swtcg", max_steps=600).log
    checked = VariantsChecked()
    result = replay(parse_log(log, POOL), POOL, visitors=(checked,))
    assert result.valid, result.error
    assert checked.seen > 100, checked.seen


@pytest.mark.parametrize("seed", ["facts-1", "facts-2"])
def test_the_facts_a_step_keeps_as_sound_are_those_for_its_pool_and_phase(
        seed: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """engine.facts_of asks again only when the index's facts object or the phase changed within a
    step (engine._sound_facts): what it answers is always the index's facts for the pool and the phase
    as they are then, as GameState.facts finds them (setup's last deploy ends setup within a step)."""
    if not pr.__file__.endswith(".py"):
        pytest.skip("the compiled engine calls its own facts_of")
    log = play_game(seed, "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500).log
    asked = {"setup": 0, "play": 0}
    kept = en.facts_of

    def checked(ctx: Ctx, *args: Any) -> Any:
        found = kept(ctx, *args)
        st = ctx.state
        assert found is st.facts(ctx.cards)  # (the same object: GameState.facts found it sound too)
        assert found.pool is ctx.cards and found.edits == ctx.cards.edits and not found.moves
        assert found.setup == (st.phase == "setup")
        asked["setup" if found.setup else "play"] += 1
        return found

    monkeypatch.setattr(en, "facts_of", checked)
    result = replay(parse_log(log, POOL), POOL)
    assert result.valid, result.error
    assert asked["setup"] and asked["play"], asked


def test_facts_found_in_setup_are_not_kept_once_the_phase_changes() -> None:
    log = play_game("facts-3", "DARK-60", "LIGHT-60", game="swtcg", max_steps=5).log
    state = replay(parse_log(log, POOL), POOL).state
    ctx = Ctx(state, POOL)
    state.phase = "setup"
    in_setup = en.facts_of(ctx)
    assert in_setup.setup and en.facts_of(ctx) is in_setup
    state.phase = "ready"
    after = en.facts_of(ctx)
    assert after is not in_setup and not after.setup and after is state.facts(POOL)
    # another step, another pool: the facts kept for this one are not taken for it
    other = CardPool()
    for d in POOL.cards.values():
        other.add(d)
    assert en.facts_of(Ctx(state, other)).pool is other


def test_a_step_with_no_inputs_has_none_left_over() -> None:
    """procedure.apply_step asks which inputs were left over only of a step that logged some."""
    from judge.games.inputs import NO_INPUTS, InputReader

    assert Ctx(GameState(), POOL).inputs.inputs is NO_INPUTS
    assert InputReader(NO_INPUTS).unused() is None


class _Steps:
    """A visitor that only counts the steps (a replay with a visitor keeps every record)."""

    def __init__(self) -> None:
        self.steps = 0

    def begin(self, log: Any, setup: Any) -> None:
        pass

    def visit_step(self, record: Any) -> None:
        self.steps += 1

    def end(self, result: Any) -> None:
        pass


def _begun_twice(log: Any) -> tuple[GameState, GameState]:
    """Two states at the start of ``log``, each with its own RNG (kept as ``rng_drawn``)."""
    assert log.rng_seed is not None
    first, second = (start(log, POOL, Rng(log.rng_seed, log.rng_drawn)).state for _ in range(2))
    return first, second


def _applied_both_ways(log: Any, kept: GameState, left: GameState) -> Iterator[tuple[int, Any, Any]]:
    """Each step of ``log`` applied to ``kept`` by ``apply`` and to ``left`` by ``apply_unrecorded``
    (each state's RNG taken up where its ``rng_drawn`` says): the step's number and both results."""
    game = log.rules
    for i, action in enumerate(log.actions):
        nxt = log.actions[i + 1] if i + 1 < len(log.actions) else None
        results = []
        for state, apply in ((kept, game.apply), (left, game.apply_unrecorded)):
            rng = Rng(log.rng_seed, state.rng_drawn)
            results.append(apply(state, action, log.inputs[i], POOL, rng, None, nxt))
            state.rng_drawn = rng.drawn
        yield i, results[0], results[1]


@pytest.mark.parametrize("seed", ["unrecorded-1", "unrecorded-2"])
def test_a_step_applied_unrecorded_does_what_apply_does(seed: str) -> None:
    """``Swtcg.apply_unrecorded`` (a replay with no visitor) leaves the commonest records out and does
    to the state what ``apply`` does: the same canonical state, decisions and errors after every step."""
    log = parse_log(play_game(seed, "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500).log, POOL)
    kept, left = _begun_twice(log)
    recorded = unrecorded = 0
    for i, full, quick in _applied_both_ways(log, kept, left):
        assert repr(quick.error) == repr(full.error), i
        assert quick.decisions == full.decisions, i
        assert quick.written_choices == full.written_choices, i
        assert left.canonical() == kept.canonical(), i
        recorded += len(full.records)
        unrecorded += len(quick.records)
    assert unrecorded < recorded, (unrecorded, recorded)
    # a replay with no visitor applies its steps unrecorded, one with a visitor keeps every record: the same end
    seen = _Steps()
    # (the suite's replay has the hash ledger's visitor: the one without it takes the path without visitors)
    plain, visited = unwrapped_replay()(log, POOL), replay(log, POOL, visitors=(seen,))
    assert plain.valid and visited.valid and seen.steps == len(log.actions)
    assert plain.state is not None and visited.state is not None
    assert plain.state.state_hash() == visited.state.state_hash() == kept.state_hash()


@pytest.mark.parametrize("seed", ["later-1", "later-2"])
def test_may_left_for_later_is_what_apply_finds_however_long_it_is_left(seed: str) -> None:
    """Applied unrecorded, a step that ends where a player may do something leaves ``may`` to be found
    when read (GameState.may_later): read after some steps only (the rest left unread, as a replay
    with no visitor leaves them), and through a copy, ``==`` or a rejected step, it is what ``apply``
    found at once."""
    log = parse_log(play_game(seed, "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500).log, POOL)
    game = log.rules
    kept, left = _begun_twice(log)
    later = rejected = 0
    for i, _, _ in _applied_both_ways(log, kept, left):
        if left._may_pool is None:
            assert left.may == kept.may, i  # (a step that ends with nobody able to do anything)
            continue
        later += 1
        if i % 5 == 1:
            assert left.copy().may == kept.may, i
            assert left.copy() == kept and kept == left.copy(), i
        elif i % 5 == 3 and left.turn is not None:
            # a step nobody may take now (the other player's) is rejected before it changes anything
            other = next(pid for pid in left.players if pid != left.turn)
            bad = st_.Pass(other)
            assert game.apply_unrecorded(left, bad, NO_INPUTS, POOL, None, None, None).error is not None
            rejected += 1
            assert left.may == kept.may, i
        elif i % 5 == 4:
            assert left.canonical() == kept.canonical(), i
    assert later > 20 and rejected > 3, (later, rejected)
    assert left.canonical() == kept.canonical()
