"""The hot records' explicit ``__init__`` methods (written out so the compiled engine runs them
natively, where a dataclass's generated one stays interpreted) take exactly the dataclass's fields,
in its order, with its defaults, and set what the dataclass's ``__init__`` and ``__post_init__``
set."""

from __future__ import annotations

import dataclasses
import inspect
from collections import deque

import pytest

from judge.games.destiny.state import Character, Delayed, GameState, Player, Support, TrackedDict, Upgrade
from judge.kernel.core import Triggered

CLASSES = [Character, Upgrade, Support, Player, Delayed, GameState, Triggered]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_init_takes_the_dataclass_fields(cls: type) -> None:
    if not inspect.isfunction(cls.__init__):  # compiled (no signature to read): the same source as the pure build's
        pytest.skip("a compiled __init__ has no signature to read")
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    init_fields = [f for f in dataclasses.fields(cls) if f.init]
    assert [p.name for p in params] == [f.name for f in init_fields]
    for p, f in zip(params, init_fields, strict=True):
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default, f.name
        elif f.default_factory is not dataclasses.MISSING:
            assert p.default is None, f.name  # a fresh value made per instance
        else:
            assert p.default is inspect.Parameter.empty, f.name


def _defaults(cls: type) -> dict[str, object]:
    return {f.name: f.default_factory() for f in dataclasses.fields(cls)
            if f.init and f.default_factory is not dataclasses.MISSING}


@pytest.mark.parametrize("cls,args", [(Character, ("p1.01001", "01001", 2)), (Player, ("p1",)), (GameState, ())],
                         ids=lambda v: getattr(v, "__name__", ""))
def test_factory_defaults_fresh_per_instance(cls: type, args: tuple[object, ...]) -> None:
    a, b = cls(*args), cls(*args)
    for name, want in _defaults(cls).items():
        got = getattr(a, name)
        assert got == want and isinstance(got, type(want)), name
        assert got is not getattr(b, name), name  # never shared between instances
    assert a == b


def test_player_tables_tracked_on_its_generation() -> None:
    ch = Character("p1.01001", "01001", 2)
    p = Player("p1", "Ann", 2, ["01002"], deque(["01003"]), characters={"p1.01001": ch})
    assert p.hand == ["01002"] and p.deck == deque(["01003"]) and p.resources == 2 and p.name == "Ann"
    for table in (p.characters, p.supports, p.upgrades):
        assert type(table) is TrackedDict and table.gen is p.gen
    assert ch.gen is p.gen
    before = p.gen.value
    p.upgrades["p1.01004#1"] = Upgrade("p1.01004#1", "01004", "p1.01001")
    assert p.gen.value == before + 1
    assert ch.gen is p.gen and Character("r", "c", 1).gen is None


def test_state_players_tracked_and_caches_empty() -> None:
    p = Player("p1")
    st = GameState(2, "upkeep", players={"p1": p}, delayed=[Delayed("round-end", "defeat", "p1.01001", "x", 2)])
    assert type(st.players) is TrackedDict and st.players.gen is st.gen and p.gen is st.gen
    assert st.live_index is None and st.canon_memo is None
    assert st.round == 2 and st.phase == "upkeep" and st.delayed[0].round == 2
    assert repr(Support("r", "c")) == "Support(ref='r', code='c', exhausted=False, dice=1)"
    assert Upgrade("r", "c", "o") == Upgrade("r", "c", "o") != Upgrade("r", "c", "o", True)


def test_on_marks_a_test_that_takes_no_attribute() -> None:
    """``on`` sets the event types on a Python function, and wraps one that takes no attribute (a
    compiled card module's): the wrapper answers as the test does and carries the types."""
    from judge.games.destiny import events as ev
    from judge.games.destiny.cards import common
    from judge.games.destiny.model import Marked, on

    def test(ctx: object, src: str, e: object) -> bool:
        return e == src

    assert on(ev.Play)(test) is test and test.event_types == (ev.Play,)  # type: ignore[attr-defined]
    marked = on(ev.Activate, ev.Play)(max)  # (a builtin takes no attribute either)
    assert isinstance(marked, Marked) and marked.test is max and marked.event_types == (ev.Activate, ev.Play)
    assert Marked(test, (ev.Play,))(None, "a", "a") is True and Marked(test, (ev.Play,))(None, "a", "b") is False
    assert common.after_you_activate_this.event_types == (ev.Activate,)  # type: ignore[attr-defined]


def _busy_state() -> GameState:
    ch = Character("p1.01001", "01001", 2, 3, 1, True, True, ["p1.01002#1"])
    p = Player("p1", "Ann", 4, ["01005"], deque(["01006", "01007"]), ["01008"], True, {"p1.01001": ch},
               {"p1.01003#1": Support("p1.01003#1", "01003", True, 0)},
               {"p1.01002#1": Upgrade("p1.01002#1", "01002", "p1.01001", True)}, {}, {"01002": 1}, ["p1.01001"],
               ["01009"], True)
    st = GameState(3, "upkeep", "p1", "p1", "01010", "p1", "p1", {"p1": p, "p2": Player("p2")}, "p1", "deck-out",
                   2, "p1", 1, [Delayed("round-end", "defeat", "p1.01001", "p1.01002#1", 3)], 17)
    st.live_index, st.canon_memo = object(), object()
    return st


def test_a_state_copy_has_every_field() -> None:
    """``GameState.copy`` and ``Player.copy`` (each field named, as the explicit ``__init__`` takes
    them) copy every field of the dataclass: equal, the mutable ones not shared, the caches shared
    and the play generation at the same count on a counter of the copy's own."""
    st = _busy_state()
    st.gen.value = 41
    new = st.copy()
    assert [f.name for f in dataclasses.fields(GameState)] == [
        "round", "phase", "turn", "claimed_by", "_battlefield", "battlefield_owner", "_controller", "players", "winner",
        "reason", "passes", "extra_action", "extra_more", "delayed", "rng_drawn", "live_index", "canon_memo", "gen"]
    assert [f.name for f in dataclasses.fields(Player)] == [
        "id", "name", "resources", "hand", "deck", "discard", "passed", "characters", "supports", "upgrades", "pool",
        "serials", "power_used", "removed", "_eliminated", "gen"]
    for f in dataclasses.fields(GameState):
        if f.name != "gen":
            assert getattr(new, f.name) == getattr(st, f.name), f.name
    assert new == st and new.canonical() == st.canonical()
    assert new.live_index is st.live_index and new.canon_memo is st.canon_memo
    assert new.gen is not st.gen and new.gen.value == 41 and new.players.gen is new.gen
    assert new.delayed[0] is not st.delayed[0] and new.delayed is not st.delayed
    p, q = st.players["p1"], new.players["p1"]
    assert p is not q and q.gen is new.gen and q.characters.gen is new.gen
    for f in dataclasses.fields(Player):
        if f.name != "gen":
            assert getattr(q, f.name) == getattr(p, f.name), f.name
            if isinstance(getattr(p, f.name), (list, dict, deque)):
                assert getattr(q, f.name) is not getattr(p, f.name), f.name
    assert q.characters["p1.01001"].gen is new.gen
    q.characters["p1.01001"].defeated = False  # the copy's changes count on the copy only
    assert new.gen.value == 42 and st.gen.value == 41


def test_records_and_states_pickle_and_copy_by_their_fields() -> None:
    """Each is pickled and copied by its fields (``__reduce__``: a compiled object is made by its
    ``__init__``), into an equal one on a play generation of its own."""
    import copy
    import pickle

    st = _busy_state()
    for obj in (st, st.players["p1"], st.players["p1"].characters["p1.01001"], st.players["p1"].supports["p1.01003#1"],
                st.players["p1"].upgrades["p1.01002#1"], st.delayed[0]):
        for other in (pickle.loads(pickle.dumps(obj)), copy.copy(obj), copy.deepcopy(obj)):
            assert type(other) is type(obj) and other == obj and other is not obj
    back = pickle.loads(pickle.dumps(st))
    assert back.canonical() == st.canonical() and back.live_index is None
    assert back.players.gen is back.gen and back.players["p1"].characters.gen is back.gen
    assert back.players["p1"].characters["p1.01001"].gen is back.gen
