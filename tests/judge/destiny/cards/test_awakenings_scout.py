"""Scout (01033): its special looks at an opponent's hand and discards the cheapest card there
(destiny.terms.cheapest: costs after every cost-modifying effect)."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.destiny.engine import Ctx
from judge.games.destiny.model import Ability, CardDef, CardType
from judge.games.destiny.table import Table
from tests.judge.destiny.cards.helpers import choice, ok, player, run
from tests.judge.destiny.tablehelp import pool_with

SPECIAL = {"by": "p1", "do": "resolve", "dice": [{"die": "p1.01033#1/1"}]}


def table(hand: list[str], resources: int = 2) -> Table:
    """Luke with a Scout whose die shows its special; p2's hand as given."""
    t = Table()
    t.character("p1", "05031", dice=2, upgrades=["01033"])
    t.character("p2", "05019", dice=2)
    t.pool("p1", {"p1.01033#1/1": "Sp"})
    t.set("p2", hand=hand, resources=resources)
    return t


def _events_cost_more(ctx: Ctx, src: str, subject: Any, value: Any) -> Any:
    pid, code, _on = subject
    if pid == ctx.owner_of(src) and ctx.card(code).type == CardType.EVENT:
        return value + 2
    return value


# a test support: "Your events cost 2 more"
TAX = CardDef("99603", "Test Event Tax", CardType.SUPPORT, "neutral", "gray", cost=0,
              abilities=(Ability("constant", "Your events cost 2 more.", query="cost", modify=_events_cost_more),))


@pytest.mark.rules("destiny.terms.cheapest", "destiny.terms.look-at", "destiny.symbols.special")
def test_scout_discards_the_cheapest_card_of_the_opponents_hand() -> None:
    # Heirloom Lightsaber costs 3, Hunting Rifle 1, Block 2
    state = ok(table(["05058", "05073", "01153"]), SPECIAL)
    assert player(state, "p2")["discard"] == ["05073"] and player(state, "p2")["hand"] == 2


@pytest.mark.rules("destiny.terms.cheapest")
def test_scouts_player_picks_among_equally_cheap_cards() -> None:
    t = table(["05073", "05058", "05128"])  # Hunting Rifle and Invigorate both cost 1
    err = run(t, SPECIAL)["error"]
    assert err["kind"] == "pending-decision"
    assert (err["pending"]["by"], err["pending"]["kind"], err["pending"]["options"]) == ("p1", "card",
                                                                                         ["05073", "05128"])
    state = ok(t, {**SPECIAL, "choices": [choice("p1", "card", "05128")]})
    assert player(state, "p2")["discard"] == ["05128"]
    err = run(t, {**SPECIAL, "choices": [choice("p1", "card", "05058")]})["error"]
    assert err["kind"] == "illegal-action"


@pytest.mark.rules("destiny.terms.cheapest")
def test_the_cheapest_card_counts_cost_modifiers() -> None:
    # Block costs 2 and Heirloom Lightsaber 3; with p2's "events cost 2 more" Block costs 4
    cards = pool_with(TAX)
    state = ok(table(["01153", "05058"]), SPECIAL, cards=cards)
    assert player(state, "p2")["discard"] == ["01153"]
    taxed = table(["01153", "05058"])
    taxed.support("p2", "99603")
    state = ok(taxed, SPECIAL, cards=cards)
    assert player(state, "p2")["discard"] == ["05058"]
    # the cost compared is the cost the engine makes p2 pay: 4 for Block
    play_block = {"by": "p2", "do": "play", "card": "01153"}
    taxed.position["turn"] = "p2"
    assert run(taxed.set("p2", resources=3), play_block, cards=cards)["error"]["rule"] == "destiny.cards.cost"
    assert player(ok(taxed.set("p2", resources=4), play_block, cards=cards), "p2")["resources"] == 0


@pytest.mark.rules("destiny.terms.look-at")
def test_scout_needs_the_opponents_hand_to_be_known() -> None:
    assert run(table(["?", "05073"]), SPECIAL)["error"]["kind"] == "missing-outcome"
    state = ok(table([]), SPECIAL)
    assert player(state, "p2")["discard"] == []
