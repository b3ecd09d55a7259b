"""Free-for-all with 3-4 players (destiny.multiplayer.*)."""

from __future__ import annotations

import pytest

from judge.games.destiny.table import Table
from replays.service import replay_json, ruling_json


def three_players(**kw: object) -> Table:
    t = Table(players=("p1", "p2", "p3"), **kw)  # type: ignore[arg-type]
    t.character("p1", "05031", dice=2)
    t.character("p2", "05019", dice=2)
    t.character("p3", "05013", dice=1)
    return t


def passes(*pids: str) -> list[dict]:
    return [{"by": p, "do": "pass"} for p in pids]


@pytest.mark.rules("destiny.multiplayer.turn-order", "destiny.multiplayer.free-for-all")
def test_turns_go_clockwise_and_the_round_ends_only_when_all_pass_in_a_row() -> None:
    t = three_players()
    log = t.log(passes("p1", "p2") + [{"by": "p3", "do": "activate", "card": "p3.05013", "roll": ["1R"]}]
                + passes("p1", "p2"))
    r = replay_json(log)
    assert r["valid"], r["error"]
    assert r["final_state"]["round"] == 1 and r["final_state"]["turn"] == "p3"
    log["steps"].append({"by": "p3", "do": "pass", "expect": {"state": {"round": 2, "turn": "p1"}}})
    r = replay_json(log)
    assert r["valid"] and r["checkpoints"]["passed"] == [6], r["error"]


@pytest.mark.rules("destiny.multiplayer.turn-order", "destiny.round.action-phase")
def test_acting_out_of_clockwise_order_is_illegal() -> None:
    log = three_players().log(passes("p1", "p3"))
    r = replay_json(log)
    assert r["error"]["kind"] == "illegal-action" and r["error"]["at"] == 2
    assert "p2's turn" in r["error"]["message"]


@pytest.mark.rules("destiny.multiplayer.choose-opponent", "destiny.symbols.disrupt")
def test_the_acting_player_picks_which_opponent_a_disrupt_hits() -> None:
    t = three_players()
    t.pool("p1", {"p1.05031/1": "1R"})
    t.set("p2", resources=3)
    t.set("p3", resources=3)
    t.position["players"]["p1"]["characters"]["p1.05031"]["exhausted"] = True
    # Luke has no disrupt face; give p1 Boba's die instead through a second character
    t.character("p1", "05046", dice=1)
    t.pool("p1", {"p1.05046/1": "1Dc"})
    t.set("p2", hand=["05116"])
    t.set("p3", hand=["05098", "05155"])
    step = {"by": "p1", "do": "resolve", "dice": [{"die": "p1.05046/1"}], "random": ["05155"]}
    ruling = ruling_json(t.log([step]))
    assert ruling["pending"]["by"] == "p1" and ruling["pending"]["kind"] == "opponent"
    assert ruling["pending"]["rules"] == ["destiny.multiplayer.choose-opponent"]
    step["choices"] = [{"by": "p1", "kind": "opponent", "answer": "p3"}]
    r = replay_json(t.log([step]))
    assert r["valid"], r["error"]
    assert r["final_state"]["players"]["p3"]["discard"] == ["05155"]
    assert r["final_state"]["players"]["p2"]["hand"] == 1


@pytest.mark.rules("destiny.multiplayer.elimination", "destiny.multiplayer.last-player-wins")
def test_a_player_whose_characters_are_all_defeated_is_eliminated_and_skipped() -> None:
    t = three_players()
    t.position["players"]["p3"]["characters"]["p3.05013"]["damage"] = 7
    t.pool("p1", {"p1.05031/1": "2RD"})
    t.pool("p3", {"p3.05013/1": "1R"})
    log = t.log([{"by": "p1", "do": "resolve", "dice": [{"die": "p1.05031/1", "target": "p3.05013"}]},
                 {"by": "p2", "do": "pass"}])
    r = replay_json(log)
    assert r["valid"], r["error"]
    p3 = r["final_state"]["players"]["p3"]
    assert p3["eliminated"] is True and p3["pool"] == {}
    assert r["final_state"]["turn"] == "p1"  # p3 is skipped
    assert r["final_state"]["winner"] is None


@pytest.mark.rules("destiny.multiplayer.elimination", "destiny.multiplayer.last-player-wins")
def test_the_last_player_standing_wins() -> None:
    t = three_players()
    t.position["players"]["p3"]["characters"]["p3.05013"]["damage"] = 8
    t.position["players"]["p2"]["characters"]["p2.05019"]["damage"] = 10
    t.pool("p1", {"p1.05031/1": "2RD", "p1.05031/2": "1RD"})
    log = t.log([{"by": "p1", "do": "resolve", "dice": [{"die": "p1.05031/1", "target": "p3.05013"},
                                                         {"die": "p1.05031/2", "target": "p2.05019"}]}])
    r = replay_json(log)
    assert r["valid"], r["error"]
    assert r["outcome"] == {"winner": "p1", "reason": "eliminated",
                            "rules": ["destiny.multiplayer.elimination", "destiny.multiplayer.last-player-wins"]}


@pytest.mark.rules("destiny.multiplayer.elimination")
def test_a_player_with_no_cards_at_round_end_is_eliminated() -> None:
    t = three_players()
    t.set("p3", hand=[], deck=[])
    log = t.log(passes("p1", "p2", "p3"))
    r = replay_json(log)
    assert r["valid"], r["error"]
    assert r["final_state"]["players"]["p3"]["eliminated"] is True
    assert r["final_state"]["winner"] is None and r["final_state"]["round"] == 2


@pytest.mark.rules("destiny.multiplayer.battlefield-roll", "destiny.multiplayer.seating")
def test_multiplayer_setup_gives_one_shield_to_each_other_player() -> None:
    from judge.games.destiny.starters import STARTERS

    players = [STARTERS["LEG-H"].player("p1", "A"), STARTERS["LEG-V"].player("p2", "B"),
               STARTERS["AW-V"].player("p3", "C")]
    log = {"format": "arbiter.replay/1", "game": "destiny", "meta": {"format": "sandbox"},
           "rng": {"algorithm": "sha256-ctr", "seed": "ffa"}, "players": players,
           "setup": {"battlefield_roll": [{"p1": ["2RD", "2RD", "2RD"], "p2": ["1RD", "2RD", "2MD"],
                                           "p3": ["1RD", "1MD", "-"]}],
                     "battlefield": "p2",
                     "shields": {"p1": {"p1.05046": 1}, "p3": {"p3.01002": 1}}},
           "steps": []}
    ruling = ruling_json(log, 0)
    assert ruling["legal"] is True, ruling
    st = ruling["state"]
    # the roll winner (p1, 6 against 5 and 2) chose p2's battlefield, which p2 then controls
    assert st["battlefield"] == {"card": "05174", "controller": "p2", "owner": "p2"}
    assert st["turn"] == "p2"
    shields = {pid: sum(c["shields"] for c in p["characters"].values()) for pid, p in st["players"].items()}
    assert shields == {"p1": 1, "p2": 0, "p3": 1}
    assert all(p["resources"] == 2 and p["hand"] == 5 for p in st["players"].values())
    # two shields instead of one is refused for a multiplayer game
    log["setup"]["shields"]["p3"] = {"p3.01002": 2}
    bad = ruling_json(log, 0)
    assert bad["legal"] is False and bad["violation"]["rule"] == "destiny.multiplayer.battlefield-roll"


@pytest.mark.rules("destiny.multiplayer.elimination", "destiny.keywords.redeploy")
def test_an_eliminated_player_is_not_asked_about_redeploy() -> None:
    """Defeating a player's last character eliminates them: the Redeploy upgrade on it has nowhere
    to go and its player is out, so nobody is asked whether it moves."""
    t = Table(players=("p1", "p2", "p3"), controller="p1")
    t.character("p1", "05019", dice=2)
    t.character("p2", "01011", damage=10, upgrades=["01059"])
    t.character("p3", "05013")
    t.pool("p1", {"p1.05019/1": "2RD"})
    log = t.log([{"by": "p1", "do": "resolve", "dice": [{"die": "p1.05019/1", "target": "p2.01011"}]}])
    r = replay_json(log)
    assert r["valid"], r["error"]
    assert r["final_state"]["players"]["p2"]["eliminated"] is True
    assert not [d for d in ruling_json(log)["decisions"] if d["kind"] == "may"]
