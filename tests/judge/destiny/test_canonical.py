"""The state writes its canonical bytes itself (GameState.canonical): they are exactly what
``canon.canonical`` gives for the position (with ``rng_drawn``), after every step of every log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from judge.games import canon
from judge.games.destiny.cards import default_pool
from judge.games.destiny.state import Delayed, GameState
from replays.format import parse_log
from replays.replayer import replay
from replays.selfplay import play_game
from tests.helpers import StateCollector

ROOT = Path(__file__).resolve().parents[3]


def reference(st: GameState) -> bytes:
    doc = st.position()
    if st.rng_drawn is not None:
        doc["rng_drawn"] = st.rng_drawn
    return canon.canonical(doc)


def destiny_logs() -> list[dict[str, Any]]:
    paths = sorted((ROOT / "replays" / "examples").glob("*.json"))
    paths += sorted((ROOT / "tests" / "replays" / "golden" / "logs").glob("*.json"))
    logs = [json.loads(p.read_text()) for p in paths]
    logs = [log for log in logs if log.get("game", "destiny") == "destiny"]
    logs += [play_game(f"canonical-{i}", *pair).log
             for i, pair in enumerate([("LEG-H", "LEG-V"), ("AW-H", "AW-V"), ("LEG-H", "AW-V")])]
    return logs


def test_the_state_writes_the_canonical_bytes_of_its_position_after_every_step() -> None:
    pool = default_pool()
    seen = 0
    kinds: set[str] = set()
    for log in destiny_logs():
        states = StateCollector()
        replay(parse_log(log, pool), pool, visitors=(states,))
        for st in states.states:
            assert st.canonical() == reference(st)
            seen += 1
            p = next(iter(st.players.values()))
            kinds |= {k for k, present in (("pool", p.pool), ("upgrades", p.upgrades), ("supports", p.supports),
                                           ("power_used", p.power_used), ("serials", p.serials),
                                           ("battlefield", st.battlefield), ("rng", st.rng_drawn is not None),
                                           ("passes", st.passes), ("winner", st.winner)) if present}
    # the logs reach every part of the position the writer writes
    assert seen > 500 and kinds == {"pool", "upgrades", "supports", "power_used", "serials", "battlefield", "rng",
                                     "passes", "winner"}


def test_rare_parts_of_a_position_are_written_as_the_encoder_writes_them() -> None:
    pool = default_pool()
    log = play_game("canonical-rare", "LEG-H", "LEG-V").log
    st = replay(parse_log(log, pool), pool).state
    p1, p2 = st.players.values()
    st.delayed = [Delayed(when="round-end", kind="defeat", target=next(iter(p2.characters)), source="p1.01001",
                          round=3)]
    st.extra_action = p1.id
    p2.eliminated = True
    p1.hand = ["?", "05031", "\u00e9\"\\"]  # an odd string is quoted as the encoder quotes it
    st.rng_drawn = None
    assert st.canonical() == reference(st)
    p1.resources = True  # a value of another type than the state's own: left to the encoder
    assert st.canonical() == reference(st)
    # a character's counts and flags of other types (written value by value, not at once)
    for name, value in (("damage", True), ("dice", None), ("shields", "2"), ("_defeated", 0), ("exhausted", 1),
                        ("damage", 2**70)):
        ch = next(iter(p1.characters.values()))
        try:
            setattr(ch, name, value)
        except TypeError:  # (compiled, a character's fields take their own types only)
            continue
        assert st.canonical() == reference(st), name


def test_a_state_copy_copies_every_field_of_every_record() -> None:
    import dataclasses

    from judge.games.destiny.state import Character, Player, Support, Upgrade

    # a field added to a record must be copied by Player.copy too (it names each one)
    assert [f.name for f in dataclasses.fields(Character)] == ["ref", "code", "dice", "damage", "shields",
                                                                "_defeated", "exhausted", "upgrades", "gen"]
    assert [f.name for f in dataclasses.fields(Support)] == ["ref", "code", "exhausted", "dice"]
    assert [f.name for f in dataclasses.fields(Upgrade)] == ["ref", "code", "on", "exhausted"]
    p = Player(id="p1")
    p.characters["p1.01001"] = Character("p1.01001", "01001", 2, damage=3, shields=1, _defeated=True,
                                         exhausted=True, upgrades=["p1.01002#1"])
    p.supports["p1.01003#1"] = Support("p1.01003#1", "01003", exhausted=True, dice=0)
    p.upgrades["p1.01002#1"] = Upgrade("p1.01002#1", "01002", "p1.01001", exhausted=True)
    q = p.copy()
    assert q.characters == p.characters and q.supports == p.supports and q.upgrades == p.upgrades
    assert q.characters["p1.01001"] is not p.characters["p1.01001"]
    q.characters["p1.01001"].upgrades.append("x")  # the copy's lists are its own
    assert p.characters["p1.01001"].upgrades == ["p1.01002#1"]


def test_a_list_of_strings_is_written_as_the_encoder_writes_it() -> None:
    from collections import deque

    from judge.games.canon import json_strs as _strs  # (what every game's state writes its lists of strings with)

    for values in ([], [""], ["", ""], ["05035"], deque(["05035", "?"]), ['a"b'], ['"', ""], ["a\\b"], ["\x7f"],
                   ["\u00e9", "x"], ["\n"], ['","'], [1, "a"], ["a", None], ["a", 'b"'], ['"', '"', "c"],
                   ["x\\", "y"], deque(["01001", "p1.01002#1", "?"]), [None], ["a", "b", "c\u2028"]):
        assert _strs(values) == canon.canonical(list(values)).decode(), values
    # every character up to beyond ASCII, alone, among others and inside a value (what JSON escapes told
    # from the join's bytes, json_strs)
    for ch in map(chr, [*range(0x100), 0x2028, 0xFFFF]):
        for values in ([ch], ["x", ch], ["a" + ch + "b", "01001"], ["a", ch * 3, "c"]):
            assert _strs(values) == canon.canonical(values).decode(), values
