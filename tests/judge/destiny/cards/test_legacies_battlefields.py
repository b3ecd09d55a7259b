"""Legacies battlefields: Arid Wasteland and Outer Rim Outpost."""

from __future__ import annotations

import pytest

from judge.games.destiny.table import Table
from replays.service import replay_json, ruling_json
from tests.judge.destiny.cards.helpers import player


def table(battlefield: str, players: tuple[str, ...] = ("p1", "p2")) -> Table:
    t = Table(players=players, battlefield=battlefield, controller="p2", turn="p1")
    for pid in players:
        t.character(pid, "05013")
    return t



@pytest.mark.rules("destiny.abilities.claim", "destiny.resources.never-negative")
def test_arid_wasteland_claim_makes_an_opponent_lose_a_resource() -> None:
    r = replay_json(table("05174").log([{"by": "p1", "do": "claim"}]))
    assert r["error"] is None
    assert player(r, "p2")["resources"] == 1
    assert player(r, "p1")["resources"] == 2
    assert r["final_state"]["battlefield"]["controller"] == "p1"


@pytest.mark.rules("destiny.abilities.claim", "destiny.multiplayer.choose-opponent")
def test_arid_wasteland_claimer_picks_the_opponent_in_multiplayer() -> None:
    t = table("05174", ("p1", "p2", "p3"))
    ruling = ruling_json(t.log([{"by": "p1", "do": "claim"}]))
    assert ruling["pending"]["by"] == "p1"
    assert ruling["pending"]["kind"] == "opponent"
    r = replay_json(
        t.log([{"by": "p1", "do": "claim", "choices": [{"by": "p1", "kind": "opponent", "answer": "p3"}]}])
    )
    assert (player(r, "p2")["resources"], player(r, "p3")["resources"]) == (2, 1)


@pytest.mark.rules("destiny.abilities.claim", "destiny.draw.top-card")
def test_outer_rim_outpost_claim_gains_and_draws() -> None:
    r = replay_json(table("05178").log([{"by": "p1", "do": "claim"}]))
    assert r["error"] is None
    assert player(r, "p1")["resources"] == 3
    assert player(r, "p1")["hand"] == 1
    assert player(r, "p1")["deck"] == 9


@pytest.mark.rules("destiny.actions.claim-battlefield")
def test_outer_rim_outpost_claim_ability_may_be_skipped() -> None:
    r = replay_json(table("05178").log([{"by": "p1", "do": "claim", "claim_ability": False}]))
    assert r["error"] is None
    assert (player(r, "p1")["resources"], player(r, "p1")["hand"]) == (2, 0)
