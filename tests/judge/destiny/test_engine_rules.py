"""Rules the engine applies in general, with test-only cards (codes 99xxx) where no card of the
project's sets uses them: X values, losing keywords, "cannot" beating "can", dice that come to show
the chosen symbol during a resolve action, and two copies of one upgrade."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.destiny.cards.common import character_color_only
from judge.games.destiny.engine import Ctx
from judge.games.destiny.model import Ability, CardDef, CardType, faces
from tests.judge.destiny.tablehelp import Table, duel, error, final, player, pool_with, ruling_json

PASS2 = {"by": "p2", "do": "pass"}


def resolve(pid: str, *entries: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"by": pid, "do": "resolve", "dice": list(entries), **kw}


# ====================================================================== X (destiny.terms.x)
def _x_is_hand_size(ctx: Ctx, src: str, _die: Any, _value: Any) -> int:
    return len(ctx.player(ctx.owner_of(src)).hand)


X_DEFINED = CardDef("99701", "Test Launcher", CardType.CHARACTER, "villain", "red", points=(9,), health=9,
                    faces=faces("XRD", "XRD", "1Sh", "1R", "-", "-"),
                    abilities=(Ability("constant", "The X on this die is the number of cards in your hand.",
                                       query="x_value", modify=_x_is_hand_size),))
X_UNDEFINED = CardDef("99702", "Test Mystery", CardType.CHARACTER, "villain", "red", points=(9,), health=9,
                      faces=faces("XRD", "XRD", "1Sh", "1R", "-", "-"))


def x_log(code: str, hand: int) -> dict[str, Any]:
    t = duel(p1=code, p1_dice=1, p2="05031", p2_dice=2)
    t.set("p1", hand=["?"] * hand)
    t.pool("p1", {f"p1.{code}/1": "XRD"})
    return t.log([resolve("p1", {"die": f"p1.{code}/1", "target": "p2.05031"})])


@pytest.mark.rules("destiny.terms.x", "destiny.dice.value")
@pytest.mark.parametrize("hand", [0, 2, 4])
def test_x_is_the_number_its_card_defines(hand: int) -> None:
    cards = pool_with(X_DEFINED, X_UNDEFINED)
    state = final(x_log("99701", hand), cards)
    assert player(state, "p2")["characters"]["p2.05031"]["damage"] == hand
    events = ruling_json(x_log("99701", hand), None, cards)["events"]
    assert {"event": "x-value", "die": "p1.99701/1", "value": hand, "rules": ["destiny.terms.x"]} in events


@pytest.mark.rules("destiny.terms.x")
def test_x_has_no_default_value() -> None:
    # a card that does not say what X is: the engine stops rather than count the X as 0
    err = error(x_log("99702", 3), pool_with(X_DEFINED, X_UNDEFINED))
    assert err is not None and err["kind"] == "not-implemented"
    assert "X" in err["message"]


# ====================================================================== keywords (destiny.keywords.loss)
GUARD = CardDef("99711", "Test Guardian", CardType.CHARACTER, "villain", "red", points=(9,), health=9,
                faces=faces("1RD", "2RD", "1MD", "1R", "-", "-"), keywords=frozenset({"guardian"}))


def _own_characters_gain_guardian(ctx: Ctx, src: str, subject: Any, value: Any) -> Any:
    if isinstance(subject, str) and subject in ctx.player(ctx.owner_of(src)).characters:
        return set(value) | {"guardian"}
    return value


def _opponents_lose_guardian(ctx: Ctx, src: str, subject: Any, value: Any) -> Any:
    owner = ctx.owner_of(src)
    if isinstance(subject, str) and ctx.owner_of(subject) != owner:
        return set(value) | {"guardian"}
    return value


RALLY = CardDef("99712", "Test Rally", CardType.SUPPORT, "villain", "gray", cost=0,
                abilities=(Ability("constant", "Your characters gain Guardian.", query="keywords",
                                   modify=_own_characters_gain_guardian),))
SILENCE = CardDef("99713", "Test Silence", CardType.SUPPORT, "hero", "gray", cost=0,
                  abilities=(Ability("constant", "Your opponents' characters lose Guardian.", query="keywords_lost",
                                     modify=_opponents_lose_guardian),))


def guardian_log(p1_support: bool, p2_support: bool) -> dict[str, Any]:
    t = Table(turn="p2")
    t.character("p1", "05031", dice=2)
    t.character("p2", "99711")
    t.pool("p1", {"p1.05031/1": "2RD", "p1.05031/2": "1R"})
    if p1_support:
        t.support("p1", "99713")
    if p2_support:
        t.support("p2", "99712")
    return t.log([{"by": "p2", "do": "activate", "card": "p2.99711", "roll": ["1R"]}])


@pytest.mark.rules("destiny.keywords.loss", "destiny.keywords.binary")
def test_a_lost_keyword_is_gone_however_often_it_was_granted() -> None:
    cards = pool_with(GUARD, RALLY, SILENCE)
    # printed Guardian, granted once more: Guardian asks before the activation
    err = error(guardian_log(False, True), cards)
    assert err is not None and err["kind"] == "pending-decision"
    assert err["pending"]["source"] == "p2.99711:guardian"
    # printed and granted, then lost: no Guardian at all, the activation simply happens
    state = final(guardian_log(True, True), cards)
    assert player(state, "p2")["characters"]["p2.99711"]["exhausted"] is True
    assert player(state, "p1")["pool"] == {"p1.05031/1": "2RD", "p1.05031/2": "1R"}


AMBUSHER = CardDef("99714", "Test Ambush Event", CardType.EVENT, "neutral", "gray", cost=0,
                   keywords=frozenset({"ambush"}), abilities=(Ability("play", "Nothing else.", effect=None),))


def _events_lose_ambush(ctx: Ctx, src: str, subject: Any, value: Any) -> Any:
    return set(value) | {"ambush"} if isinstance(subject, tuple) else value


NO_AMBUSH = CardDef("99715", "Test Ambush Ban", CardType.SUPPORT, "neutral", "gray", cost=0,
                    abilities=(Ability("constant", "Cards being played lose Ambush.", query="keywords_lost",
                                       modify=_events_lose_ambush),))


@pytest.mark.rules("destiny.keywords.loss", "destiny.keywords.ambush")
def test_a_card_that_lost_ambush_gives_no_extra_action() -> None:
    cards = pool_with(AMBUSHER, NO_AMBUSH)
    t = duel().set("p1", hand=["99714"])
    assert final(t.log([{"by": "p1", "do": "play", "card": "99714"}]), cards)["turn"] == "p1"  # Ambush
    t.support("p2", "99715")
    assert final(t.log([{"by": "p1", "do": "play", "card": "99714"}]), cards)["turn"] == "p2"


# ====================================================================== cannot beats can
RED_BLASTER = CardDef("99721", "Test Red Blaster", CardType.UPGRADE, "villain", "red", cost=0,
                      faces=faces("1RD", "1RD", "1RD", "1RD", "1RD", "-"), subtypes=("weapon",),
                      abilities=(Ability("restriction", "Red character only.",
                                         condition=character_color_only("red")),))


def _no_weapons_for_opponents(ctx: Ctx, src: str, subject: Any, value: Any) -> Any:
    verb, pid, step = subject
    if verb != "play" or pid == ctx.owner_of(src):
        return value
    return "weapon" in ctx.card(step.card).subtypes


DISARM = CardDef("99722", "Test Disarm", CardType.SUPPORT, "villain", "gray", cost=0,
                 abilities=(Ability("constant", "Your opponents cannot play weapons.", query="forbid",
                                    modify=_no_weapons_for_opponents),))


def _lenient(ctx: Ctx, src: str, subject: Any, value: Any) -> Any:
    return False  # a later "can": says nothing is forbidden


LENIENT = CardDef("99723", "Test Amnesty", CardType.SUPPORT, "hero", "gray", cost=0,
                  abilities=(Ability("constant", "You can play anything.", query="forbid", modify=_lenient),))


@pytest.mark.rules("destiny.negative.cannot-overrides-can")
def test_cannot_beats_can() -> None:
    cards = pool_with(RED_BLASTER, DISARM, LENIENT)
    t = Table()
    t.character("p1", "01045")  # Finn: he can take any weapon, ignoring its restrictions
    t.character("p2", "05013")
    t.set("p1", hand=["99721"])
    step = {"by": "p1", "do": "play", "card": "99721", "on": "p1.01045"}
    state = final(t.log([step]), cards)
    assert player(state, "p1")["characters"]["p1.01045"]["upgrades"] == ["p1.99721#1"]
    t.support("p2", "99722")
    t.support("p1", "99723")  # asked after Disarm, answering "allowed": it must not lift the "cannot"
    err = error(t.log([step]), cards)
    assert err is not None and err["rule"] == "destiny.negative.cannot-overrides-can"
    assert "p2.99722#1" in err["message"]
    # the "cannot" is about weapons of p2's opponents only: p2 plays on
    t.set("p2", hand=["99721"])
    state = final(t.log([{"by": "p1", "do": "pass"},
                         {"by": "p2", "do": "play", "card": "99721", "on": "p2.05013"}]), cards)
    assert player(state, "p2")["characters"]["p2.05013"]["upgrades"] == ["p2.99721#1"]


# ====================================================================== late joiners
def _turn_other_to_special(ctx: Ctx, src: str, entry: Any) -> None:
    pid = ctx.owner_of(src)
    p = ctx.player(pid)
    for die in list(p.pool):
        if not die.startswith(src + "/") and p.pool[die].symbol != "Sp":
            ctx.turn_die(src, die, "Sp")
            return


TURNER = CardDef("99731", "Test Turner", CardType.CHARACTER, "hero", "blue", points=(9,), health=9,
                 faces=faces("Sp", "1RD", "1Sh", "1R", "-", "-"),
                 abilities=(Ability("special", "Turn another of your dice to its special side.",
                                    effect=_turn_other_to_special),))
SPECIAL_TOO = CardDef("99732", "Test Specialist", CardType.CHARACTER, "hero", "blue", points=(9,), health=9,
                      faces=faces("Sp", "2RD", "1Sh", "1R", "-", "-"),
                      abilities=(Ability("special", "Gain 2 resources.",
                                         effect=lambda ctx, src, _e: ctx.gain(src, ctx.owner_of(src), 2)),))


def late_table() -> Table:
    t = Table()
    t.character("p1", "99731")
    t.character("p1", "99732")
    t.character("p2", "05013")
    return t


@pytest.mark.rules("destiny.actions.resolve-late-joiners", "destiny.actions.resolve-one-symbol")
def test_a_die_that_comes_to_show_the_symbol_may_join_the_action() -> None:
    cards = pool_with(TURNER, SPECIAL_TOO)
    t = late_table().pool("p1", {"p1.99731/1": "Sp", "p1.99732/1": "2RD"})
    log = t.log([resolve("p1", {"die": "p1.99731/1"}, {"die": "p1.99732/1"})])
    state = final(log, cards)
    assert player(state, "p1")["pool"] == {} and player(state, "p1")["resources"] == 2 + 2
    events = [e["event"] for e in ruling_json(log, None, cards)["events"]]
    assert events.index("late-joiners") > events.index("special")
    # without the first special turning it, a die of another symbol still cannot join
    t = late_table().pool("p1", {"p1.99732/1": "Sp", "p1.99731/1": "1RD"})
    err = error(t.log([resolve("p1", {"die": "p1.99732/1"}, {"die": "p1.99731/1", "target": "p2.05013"})]),
                cards)
    assert err is not None and err["rule"] == "destiny.actions.resolve-one-symbol"


# ====================================================================== two copies of one upgrade
EXTRA = CardDef("99741", "Test Spare Blaster", CardType.UPGRADE, "neutral", "gray", cost=0,
                faces=faces("1RD", "2RD", "3RD", "1R", "-", "-"), subtypes=("weapon",))
HELMET = CardDef("99742", "Test Helmet", CardType.UPGRADE, "neutral", "gray", cost=0)


def twins_table() -> Table:
    t = Table()
    t.character("p1", "05031", dice=2, upgrades=["p1.99741#1", "p1.99741#2"])
    t.character("p2", "05013")
    t.player("p1")["upgrades"] = {"p1.99741#1": {"on": "p1.05031", "exhausted": True},
                                  "p1.99741#2": {"on": "p1.05031", "exhausted": True}}
    t.pool("p1", {"p1.99741#1/1": "1RD", "p1.99741#2/1": "3RD"})
    t.set("p1", serials={"99741": 2}, hand=["99742"])
    return t


def discard_first_copy(choices: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    # one copy leaves play: it is replaced by another upgrade (destiny.upgrades.replace)
    step = {"by": "p1", "do": "play", "card": "99742", "on": "p1.05031", "replaces": "p1.99741#1"}
    if choices is not None:
        step["choices"] = choices
    return twins_table().log([step])


@pytest.mark.rules("destiny.dice.duplicate-upgrade-dice")
@pytest.mark.parametrize(("set_aside", "left"), [("p1.99741#1/1", "3RD"), ("p1.99741#2/1", "1RD")])
def test_the_controller_picks_which_of_two_alike_dice_goes(set_aside: str, left: str) -> None:
    cards = pool_with(EXTRA, HELMET)
    err = error(discard_first_copy(), cards)
    assert err is not None and err["kind"] == "pending-decision"
    assert err["pending"]["options"] == ["p1.99741#1/1", "p1.99741#2/1"]
    assert err["pending"]["rules"][0] == "destiny.dice.duplicate-upgrade-dice"
    state = final(discard_first_copy([{"by": "p1", "kind": "die", "answer": set_aside}]), cards)
    p1 = player(state, "p1")
    # whichever die was set aside, the one left is matched to the copy that stays
    assert p1["pool"] == {"p1.99741#2/1": left}
    assert "p1.99741#1" not in p1["upgrades"] and "p1.99741#2" in p1["upgrades"]
