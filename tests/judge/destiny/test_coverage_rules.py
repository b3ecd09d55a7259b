"""Coverage of general rules not tested elsewhere: card affiliations and types, battlefields and
setup, zones, drawing, ability kinds, effects, delayed effects, ownership and choosing targets."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from judge.games.destiny import events as ev
from judge.games.destiny import importer
from judge.games.destiny.cards import default_pool
from judge.games.destiny.deckcheck import check_deck
from judge.games.destiny.engine import Ctx
from judge.games.destiny.model import Ability, CardDef, CardType
from judge.games.destiny.state import Delayed
from tests.judge.destiny.tablehelp import Table, duel, error, final, player, pool_with, position_of, ruling_json, run


def play(pid: str, code: str, **kw: Any) -> dict[str, Any]:
    return {"by": pid, "do": "play", "card": code, **kw}


def resolve(pid: str, *entries: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"by": pid, "do": "resolve", "dice": list(entries), **kw}


def may(pid: str, answer: bool = True) -> dict[str, Any]:
    return {"by": pid, "kind": "may", "answer": answer}


PASS1 = {"by": "p1", "do": "pass"}
PASS2 = {"by": "p2", "do": "pass"}


def kinds(log: dict[str, Any], at: int | None = None, cards: Any = None) -> list[str]:
    """The event kinds of one step's ruling (the last step by default)."""
    return [e["event"] for e in ruling_json(log, at, cards)["events"]]


# ====================================================================== cards
def swdb(**fields: Any) -> dict[str, Any]:
    """A SWDestinyDB card record: a gray neutral event unless told otherwise."""
    return {"code": "99500", "name": "Test Card", "type_code": "event", "affiliation_code": "neutral",
            "faction_code": "gray", "cost": 1, **fields}


def affiliation_violations(team: list[str], deck: list[str]) -> list[str | None]:
    entry = {"id": "p1", "characters": [{"card": c, "dice": 1} for c in team], "battlefield": "05178", "deck": deck}
    return [v.card for v in check_deck(entry, default_pool()) if v.rule == "destiny.deckbuilding.affiliation-match"]


@pytest.mark.rules("destiny.cards.affiliation")
def test_a_cards_affiliation_is_hero_villain_or_neutral_and_decides_which_decks_take_it() -> None:
    for side in ("hero", "villain", "neutral"):
        card, problems = importer.card_from_swdb(swdb(affiliation_code=side), "t")
        assert problems == [] and card is not None and card.affiliation == side
    card, problems = importer.card_from_swdb(swdb(affiliation_code="rebel"), "t")
    assert card is None and problems[0].where == "t 99500 affiliation_code"
    with pytest.raises(ValueError, match="affiliation"):
        importer.card_from_json({"code": "99500", "name": "Test", "type": "event", "affiliation": "rebel"})
    with pytest.raises(ValueError, match="affiliation"):
        CardDef("99500", "Test", CardType.EVENT, "sith")
    # Battle Fatigue is villain, Smuggler's Run hero, Invigorate neutral
    deck = ["05084", "05121", "05128"]
    assert affiliation_violations(["05031"], deck) == ["05084"]  # Luke: a hero team
    assert affiliation_violations(["05019"], deck) == ["05121"]  # Boba Fett: a villain team


@pytest.mark.rules("destiny.cards.types")
def test_a_cards_type_decides_where_it_goes() -> None:
    # from hand an event is resolved and discarded, an upgrade goes on a character, a support into play
    t = duel().set("p1", hand=["05136", "05073", "05163"], resources=5)
    t.character("p2", "05013", damage=1)
    state = final(t.log([play("p1", "05136"), PASS2, play("p1", "05073", on="p1.05031"), PASS2,
                         play("p1", "05163")]))
    p1 = player(state, "p1")
    assert p1["discard"] == ["05136"] and p1["hand"] == 0
    assert p1["characters"]["p1.05031"]["upgrades"] == ["p1.05073#1"]
    assert list(p1["supports"]) == ["p1.05163#1"]
    # characters and battlefields are never played from hand
    for code in ("05046", "05174"):
        err = error(duel().set("p1", hand=[code]).log([play("p1", code)]))
        assert err is not None and err["rule"] == "destiny.deckbuilding.deck-card-types"
    # a team is made of characters only
    entry = {"id": "p1", "characters": [{"card": "05174", "dice": 1}, {"card": "05031", "dice": 2}],
             "battlefield": "05178", "deck": []}
    assert [v.card for v in check_deck(entry, default_pool()) if v.rule == "destiny.cards.types"] == ["05174"]
    # a card of any other type is not imported
    card, problems = importer.card_from_swdb(swdb(type_code="vehicle"), "t")
    assert card is None and "unknown type_code 'vehicle'" in problems[0].message


# ====================================================================== battlefields and setup
DECK1 = ["05073", "05058", "05072", "05116", "05122", "05073", "05058"]
DECK2 = ["05058", "05073", "05116", "05072", "05122", "05058", "05073"]
P1_WINS = {"p1": ["2RD", "2RD"], "p2": ["1R"]}


def game(chosen: str, steps: list[dict[str, Any]] | None = None, **p1: Any) -> dict[str, Any]:
    """A game from the beginning: p1 brings Outer Rim Outpost, p2 Arid Wasteland; p1 wins the roll and
    uses ``chosen``'s battlefield; the other player takes the two shields."""
    other = "p2" if chosen == "p1" else "p1"
    shields = {other: {f"{other}.{'05031' if other == 'p1' else '05013'}": 2}}
    return {
        "format": "arbiter.replay/1",
        "game": "destiny",
        "meta": {"format": "sandbox"},
        "players": [
            {"id": "p1", "name": "Ana", "characters": [{"card": "05031", "dice": 2}], "battlefield": "05178",
             "deck": list(DECK1), **p1},
            {"id": "p2", "name": "Ben", "characters": [{"card": "05013", "dice": 1}], "battlefield": "05174",
             "deck": list(DECK2)},
        ],
        "setup": {"decks": {"p1": DECK1, "p2": DECK2}, "battlefield_roll": [P1_WINS], "battlefield": chosen,
                  "shields": shields},
        "steps": steps or [],
    }


@pytest.mark.rules("destiny.battlefields.one-used")
def test_only_the_chosen_battlefield_is_used() -> None:
    # p2's Arid Wasteland is chosen: p1's Outer Rim Outpost is set aside, and claiming uses only the
    # Wasteland's ability (p2 loses 1 resource), never the Outpost's (gain 1 and draw 1)
    log = game("p2", [PASS2, {"by": "p1", "do": "claim"}])
    pos, _ = position_of(game("p2"))
    assert pos["battlefield"] == {"card": "05174", "controller": "p2", "owner": "p2"}
    assert all("05178" not in pos["players"]["p1"][zone] for zone in ("hand", "deck", "discard"))
    unused = [e for e in ruling_json(log, 0)["events"] if e["event"] == "battlefield-unused"]
    assert [(e["player"], e["battlefield"]) for e in unused] == [("p1", "05178")]
    state = final(log)
    assert state["battlefield"]["card"] == "05174" and state["battlefield"]["controller"] == "p1"
    assert (player(state, "p1")["resources"], player(state, "p1")["hand"]) == (2, 5)
    assert player(state, "p2")["resources"] == 1


@pytest.mark.rules("destiny.setup.battlefields")
def test_each_player_brings_their_own_battlefield() -> None:
    for chosen, card in (("p1", "05178"), ("p2", "05174")):
        pos, _ = position_of(game(chosen))
        assert pos["battlefield"] == {"card": card, "controller": chosen, "owner": chosen}
    log = game("p1")
    del log["players"][1]["battlefield"]
    r = run(log)
    assert r["error"]["kind"] == "malformed"
    assert [f["path"] for f in r["faults"]] == ["/players/1/battlefield"]


@pytest.mark.rules("destiny.battlefields.gray")
def test_every_battlefield_counts_as_gray() -> None:
    card, problems = importer.card_from_swdb(swdb(type_code="battlefield", faction_code="red", cost=None), "t")
    assert problems == [] and card is not None and card.color == "gray"
    assert importer.card_from_json({"code": "99501", "name": "T", "type": "battlefield", "color": "blue"}).color \
        == "gray"
    outpost = default_pool().cards["05178"]
    assert dataclasses.replace(outpost, color="yellow").color == "gray"
    # not so for other cards
    assert importer.card_from_json({"code": "99502", "name": "T", "type": "event", "color": "blue"}).color == "blue"


@pytest.mark.rules("destiny.terms.owner")
def test_a_claimed_battlefield_keeps_its_owner() -> None:
    log = game("p1", [{"by": "p1", "do": "pass"}, {"by": "p2", "do": "claim"}])
    state = final(log)
    assert state["battlefield"] == {"card": "05178", "controller": "p2", "owner": "p1"}
    # the new controller acts first next round; the owner is still p1
    state = final(game("p1", [PASS1, {"by": "p2", "do": "claim"}, PASS1]))
    assert state["round"] == 2 and state["turn"] == "p2"
    assert state["battlefield"] == {"card": "05178", "controller": "p2", "owner": "p1"}
    # Hasty Exit hands the battlefield over: control changes, ownership does not
    t = duel().set("p1", hand=["05153"])
    t.pool("p2", {"p2.05013/1": "2RD"})
    state = final(t.log([play("p1", "05153", choices=[{"by": "p1", "kind": "die", "answer": "p2.05013/1"}])]))
    assert state["battlefield"] == {"card": "05178", "controller": "p2", "owner": "p1"}


# ====================================================================== zones
def _upkeep_resources(where: str) -> tuple[int, int]:
    """p1's and p2's resources after a round in which p1's Maz's Vault (every player gains 1 more
    resource in the upkeep phase) is ``where``."""
    t = duel()
    if where == "play":
        t.support("p1", "05122")
    elif where == "deck":
        t.set("p1", deck=["05122", "05073", "05073", "05058", "05058", "05072"])
    else:
        t.set("p1", **{where: ["05122"]})
    state = final(t.log([PASS1, PASS2]))
    return player(state, "p1")["resources"], player(state, "p2")["resources"]


@pytest.mark.rules("destiny.zones.in-play")
def test_only_cards_in_play_have_live_abilities() -> None:
    assert _upkeep_resources("play") == (5, 5)
    for where in ("hand", "deck", "discard"):
        assert _upkeep_resources(where) == (4, 4), where
    # a character is in play until defeated: Jango Fett may activate after an opponent's activation
    t = Table(turn="p2")
    t.character("p1", "01021")
    t.character("p1", "05019")
    t.character("p2", "05013")
    activate = {"by": "p2", "do": "activate", "card": "p2.05013", "roll": ["1R", "2RD"], "choices": [may("p1")]}
    state = final(t.log([activate]))
    assert player(state, "p1")["pool"] == {"p1.01021/1": "2RD"}
    t.player("p1")["characters"]["p1.01021"].update(defeated=True, damage=10)
    err = error(t.log([{**activate, "roll": ["1R"]}]))
    assert err is not None and err["rule"] == "destiny.terms.choose-option"
    state = final(t.log([{**activate, "roll": ["1R"], "choices": []}]))
    assert player(state, "p1")["pool"] == {}


@pytest.mark.rules("destiny.zones.enter-leave-play")
def test_cards_enter_play_from_hand_and_leave_it_for_the_discard_pile() -> None:
    # Maz's Vault played from hand enters play: its ability counts at the round's upkeep
    t = duel().set("p1", hand=["05122"])
    log = t.log([play("p1", "05122"), PASS2, PASS1])
    assert "enters-play" in kinds(log, 1)
    state = final(log)
    assert list(player(state, "p1")["supports"]) == ["p1.05122#1"]
    assert (player(state, "p1")["resources"], player(state, "p2")["resources"]) == (5, 5)
    # Qui-Gon is defeated: Hunting Rifle leaves play for the discard pile and its die leaves the pool;
    # One With The Force moves to the support area, stays in play, and keeps its die in the pool
    t = Table(turn="p2")
    t.character("p1", "01037", upgrades=["01042", "05073"], damage=10)
    t.character("p1", "01038")
    t.character("p2", "05019")
    t.pool("p1", {"p1.01042#1/1": "2R", "p1.05073#1/1": "1R"}).pool("p2", {"p2.05019/1": "2RD"})
    state = final(t.log([resolve("p2", {"die": "p2.05019/1", "target": "p1.01037"})]))
    p1 = player(state, "p1")
    assert p1["characters"]["p1.01037"]["defeated"] is True
    assert p1["discard"] == ["05073"] and list(p1["supports"]) == ["p1.01042#1"]
    assert p1["pool"] == {"p1.01042#1/1": "2R"}


# ====================================================================== drawing
def _after_you_draw(ctx: Ctx, src: str, e: Any) -> bool:
    return isinstance(e, ev.Draw) and e.player == ctx.owner_of(src)


def _gain_one(ctx: Ctx, src: str, _e: Any) -> None:
    ctx.gain(src, ctx.owner_of(src), 1)


# a test support: "After you draw, gain 1 resource"
DRAW_COUNTER = CardDef("99601", "Test Draw Counter", CardType.SUPPORT, "neutral", "gray", cost=0,
                       abilities=(Ability("after", "After you draw, gain 1 resource.", _gain_one, _after_you_draw),))


@pytest.mark.rules("destiny.draw.simultaneous")
def test_several_cards_are_drawn_at_once() -> None:
    # in the upkeep p1 draws 3 cards up to 5: one draw, so an ability after drawing resolves once
    cards = pool_with(DRAW_COUNTER)
    t = duel().set("p1", hand=["05073", "05073"], deck=["05058", "05058", "05072", "05116"])
    t.support("p1", "99601")
    log = t.log([PASS1, PASS2])
    draws = [e for e in ruling_json(log, cards=cards)["events"] if e["event"] == "draw" and e["player"] == "p1"]
    assert [(d["amount"], d["drawn"]) for d in draws] == [(3, 3)]
    p1 = player(final(log, cards), "p1")
    assert p1["hand"] == 5 and p1["resources"] == 2 + 2 + 1


# ====================================================================== abilities and effects
@pytest.mark.rules("destiny.abilities.types")
def test_each_kind_of_ability_is_used_its_own_way() -> None:
    for kind in ("reaction", "passive", "interrupt"):
        with pytest.raises(ValueError, match="timing"):
            Ability(kind, "not a kind of ability")
    # Hunker Down has an action (exhaust it: 1 shield) and a triggered ability (discard it when
    # melee damage is taken); each works its own way on the same card
    t = Table()
    t.character("p1", "01046", upgrades=["01164"])
    t.character("p2", "05019")
    t.pool("p2", {"p2.05019/1": "2MD"})
    state = final(t.log([{"by": "p1", "do": "use", "card": "p1.01164#1"},
                         resolve("p2", {"die": "p2.05019/1", "target": "p1.01046"})]))
    p1 = player(state, "p1")
    assert p1["characters"]["p1.01046"]["shields"] == 0 and p1["characters"]["p1.01046"]["damage"] == 1
    assert p1["characters"]["p1.01046"]["upgrades"] == [] and p1["discard"] == ["01164"]
    # a triggered ability is not an action: Han Solo's cannot be used
    t = duel("05046")
    err = error(t.log([{"by": "p1", "do": "use", "card": "p1.05046"}]))
    assert err is not None and err["rule"] == "destiny.actions.card-action"


@pytest.mark.rules("destiny.abilities.triggered")
def test_triggered_abilities_resolve_before_or_after_their_condition() -> None:
    # before: Qui-Gon is about to gain a shield (Take Cover), so first he may remove one of his
    # shields to deal 1 damage; the new shield comes after
    t = Table()
    t.character("p1", "01037", shields=1)
    t.character("p1", "01038")
    t.character("p2", "05013")
    t.set("p1", hand=["01157"])
    log = t.log([play("p1", "01157", target="p1.01037",
                      choices=[may("p1"), {"by": "p1", "kind": "target", "answer": "p2.05013"}])])
    events = kinds(log)
    assert events.index("remove-shields") < events.index("damage") < events.index("shields")
    state = final(log)
    assert player(state, "p1")["characters"]["p1.01037"]["shields"] == 1
    assert player(state, "p2")["characters"]["p2.05013"]["damage"] == 1
    # the condition is not met when another character gains the shield: nothing is asked
    err = error(t.log([play("p1", "01157", target="p1.01038", choices=[may("p1")])]))
    assert err is not None and err["rule"] == "destiny.terms.choose-option"
    # after: Han Solo is activated, then he may reroll a die (his own, which rolled a blank)
    t = duel("05046", p1_dice=1)
    log = t.log([{"by": "p1", "do": "activate", "card": "p1.05046", "roll": ["-", "2RD"], "choices": [may("p1")]}])
    events = kinds(log)
    assert events.index("activate") < events.index("reroll")
    assert player(final(log), "p1")["pool"] == {"p1.05046/1": "2RD"}


@pytest.mark.rules("destiny.effects.definition")
def test_an_effect_lasts_as_long_as_its_text_says() -> None:
    # Crime Lord's special: the chosen character "is defeated after the current round ends"; the
    # effect outlasts the action that made it, and ends when the round does
    t = Table()
    t.character("p1", "01021", upgrades=["01023"])
    t.character("p2", "01045")
    t.character("p2", "01046")
    t.pool("p1", {"p1.01023#1/1": "Sp"}).set("p1", resources=5)
    steps = [resolve("p1", {"die": "p1.01023#1/1", "target": "p2.01045"}), PASS2]
    state = final(t.log(steps))
    assert [d["target"] for d in state["delayed"]] == ["p2.01045"]
    assert player(state, "p2")["characters"]["p2.01045"]["defeated"] is False
    state = final(t.log([*steps, PASS1]))
    assert state["round"] == 2 and "delayed" not in state
    assert player(state, "p2")["characters"]["p2.01045"]["defeated"] is True
    # One With The Force becomes a support "until the end of the game": it still is in later rounds
    t = Table(turn="p2")
    t.character("p1", "01037", upgrades=["01042"], damage=10)
    t.character("p1", "01038")
    t.character("p2", "05019")
    t.pool("p2", {"p2.05019/1": "2RD"})
    state = final(t.log([resolve("p2", {"die": "p2.05019/1", "target": "p1.01037"}), PASS1, PASS2, PASS1, PASS2]))
    assert state["round"] == 3 and list(player(state, "p1")["supports"]) == ["p1.01042#1"]


def _delayed_defeat(ctx: Ctx, src: str, step: Any) -> None:
    ctx.delay(Delayed(when="round-end", kind="defeat", target=ctx.canon(step.target), source=src,
                      round=ctx.state.round))


DOOM = CardDef("99602", "Test Doom", CardType.EVENT, "neutral", "gray", cost=0,
               abilities=(Ability("play", "Choose a character: it is defeated after this round ends.",
                                  _delayed_defeat),))


@pytest.mark.rules("destiny.delayed.event-not-in-limbo")
def test_an_event_with_a_delayed_effect_is_discarded_at_once() -> None:
    cards = pool_with(DOOM)
    t = duel().set("p1", hand=["99602"])
    log = t.log([play("p1", "99602", target="p2.05013")])
    state = final(log, cards)
    assert player(state, "p1")["discard"] == ["99602"] and player(state, "p1")["hand"] == 0
    assert state["delayed"] == [{"when": "round-end", "kind": "defeat", "target": "p2.05013",
                                 "source": "p1.99602", "round": 1}]
    events = kinds(log, cards=cards)
    assert events.index("delayed") < events.index("discarded")
    # the effect resolves at the end of the round, long after the event left
    state = final(t.log([play("p1", "99602", target="p2.05013"), PASS2, PASS1]), cards)
    assert state["winner"] == "p1" and player(state, "p1")["discard"] == ["99602"]


# ====================================================================== choosing targets
@pytest.mark.rules("destiny.terms.choose-targets-simultaneously")
def test_several_targets_are_chosen_in_one_choice() -> None:
    # The Best Defense...: remove up to 2 of an opponent's dice, both named in one choice
    t = Table()
    t.character("p1", "01002")
    t.character("p2", "05019", dice=2)
    t.character("p2", "05013")
    t.set("p1", hand=["01075"])
    t.pool("p2", {"p2.05019/1": "2RD", "p2.05019/2": "2MD", "p2.05013/1": "3ID"})
    err = error(t.log([play("p1", "01075")]))
    assert err is not None and err["kind"] == "pending-decision"
    assert err["pending"]["kind"] == "dice" and err["pending"]["count"] == 2
    # the position's characters are read in sorted order (a log's key order is not part of it)
    assert err["pending"]["options"] == ["p2.05013/1", "p2.05019/1", "p2.05019/2"]
    both = {"by": "p1", "kind": "dice", "answer": ["p2.05019/1", "p2.05013/1"]}
    state = final(t.log([play("p1", "01075", choices=[both])]))
    assert player(state, "p2")["pool"] == {"p2.05019/2": "2MD"}
    assert player(state, "p1")["characters"]["p1.01002"]["damage"] == 3
    # one target at a time is not how the choice is made
    one_by_one = [{"by": "p1", "kind": "dice", "answer": "p2.05019/1"},
                  {"by": "p1", "kind": "dice", "answer": "p2.05013/1"}]
    err = error(t.log([play("p1", "01075", choices=one_by_one)]))
    assert err is not None and err["kind"] == "illegal-action"
