"""Legacies (set 05): cards of the Luke Skywalker (LEG-H) and Boba Fett (LEG-V) starter sets.

Stats and dice are facts; abilities are written by the project, in its own words. Choices an ability
needs come from the step's ``choices`` in the order the engine asks; a single-target event may name
its target on the step (``target``); turning dice is answered as a map from die to face, choosing
several dice as a list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from i18n import N_, Msg
from judge.games.destiny import events as ev
from judge.games.destiny import records as rec
from judge.games.destiny.cards.common import (
    ability,
    after_you_activate_this,
    after_you_play_this,
    character_color_only,
    choose_character,
    die_belongs_to,
    entry_or_choose,
    living_characters,
    named_hand,
    pool_dice,
    spot_color,
)
from judge.games.destiny.choices import choose_dice, choose_turns
from judge.games.destiny.engine import Ctx
from judge.games.destiny.model import CardDef, CardType, faces, on
from judge.games.destiny.refs import card_of_die
from judge.games.destiny.resolve import indirect, resolvable_alone, resolve_dice
from judge.games.destiny.steps import written
from judge.kernel.core import IllegalAction

C, U, S, E, B = CardType.CHARACTER, CardType.UPGRADE, CardType.SUPPORT, CardType.EVENT, CardType.BATTLEFIELD


# ====================================================================== shared pieces
TARGET = ("destiny.terms.choose-target",)


def _color_of_die(ctx: Ctx, die: str) -> str:
    return ctx.card(ctx.code_of(card_of_die(die))).color


def _own_dice(ctx: Ctx, pid: str, test: Callable[[str], bool] | None = None) -> list[str]:
    return [d for d in ctx.player(pid).pool if test is None or test(d)]


def _opponents_dice(ctx: Ctx, pid: str) -> list[str]:
    return [d for q, d, _f in ctx.all_pool_dice() if q in ctx.state.opponents(pid)]


def _dice_showing(ctx: Ctx, symbols: frozenset[str]) -> list[str]:
    """Dice in any pool whose showing face has one of ``symbols``, modifier faces included
    (destiny.terms.showing, destiny.terms.showing-modifier-faces)."""
    return [d for _q, d, f in ctx.all_pool_dice() if f.symbol in symbols]


def _is_character_die(ctx: Ctx, die: str) -> bool:
    """A die of a character card, not of an upgrade or support (destiny.terms.character-die)."""
    card = card_of_die(die)
    return card in ctx.player(ctx.owner_of(card)).characters


def _pick_dice(
    ctx: Ctx,
    pid: str,
    options: list[str],
    most: int,
    prompt: str,
    src: str,
    rules: tuple[str, ...],
    least: int = 0,
) -> list[str]:
    """Choose between ``least`` and ``most`` of ``options`` (a list of dice), as one decision."""
    if least == most == len(options):
        return list(options)
    return choose_dice(ctx, pid, options, src, prompt, rules, least=least, most=most)


def _turn_dice(
    ctx: Ctx,
    pid: str,
    options: list[str],
    most: int,
    prompt: str,
    src: str,
    rules: tuple[str, ...],
    least: int = 0,
    symbol: str | None = None,
) -> None:
    """Turn up to ``most`` of ``options`` to faces of the chooser's choice, answered as a map from
    die to face (as focus is, destiny.terms.turn-die); ``symbol``: the new faces must show it."""
    if not options:
        return
    turns = choose_turns(ctx, pid, dict.fromkeys(options), src, prompt, rules, least=least, most=most, symbol=symbol)
    for d, face in turns.items():
        ctx.turn_die(src, d, face)


def _each_opponent_damaged(ctx: Ctx, pid: str) -> list[str]:
    """Opponents each of whose characters has 1 or more damage on it."""
    return [
        q
        for q in ctx.state.opponents(pid)
        if ctx.player(q).alive() and all(c.damage > 0 for c in ctx.player(q).alive())
    ]


def _restriction_each_opponent_damaged(ctx: Ctx, pid: str, _on: Any) -> bool:
    return bool(_each_opponent_damaged(ctx, pid))


def _choose_remove(
    ctx: Ctx,
    src: str,
    pid: str,
    options: list[str],
    prompt: str,
    entry: Any = None,
    rules: tuple[str, ...] = ("destiny.terms.remove-die",),
) -> str | None:
    """Choose one of ``options`` (dice; ``entry``'s ``target`` may name it) and remove it
    (destiny.terms.remove-die)."""
    if not options:
        if written(entry, "target") is not None:
            raise IllegalAction(rules[0], Msg(
                N_("{target} is not a legal choice (no die qualifies)"),
                target=written(entry, 'target'),
            ))
        return None
    die = entry_or_choose(ctx, entry, "target", pid, "die", options, rules, prompt, src)
    ctx.remove_die(src, die)
    return str(die)


# ====================================================================== characters


# ---------------------------------------------------------------------- Luke Skywalker (05031)
def _luke_power(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    ctx.spend(pid, 2, "destiny.actions.card-action", "Luke Skywalker's power action")
    resolve_dice(
        ctx,
        pid,
        written(step, "dice"),
        source=src,
        bonus=2,
        only=die_belongs_to(ctx, src),
        max_dice=1,
        rule="destiny.dice.resolve-via-card",
    )


# ---------------------------------------------------------------------- Han Solo (05046)
def _reroll_any_die(ctx: Ctx, src: str, _e: Any) -> None:
    pid = ctx.owner_of(src)
    dice = pool_dice(ctx)
    if dice:
        die = ctx.choose(pid, "die", dice, TARGET, Msg(N_("which die to reroll")), src)
        ctx.reroll(src, [die])


# ---------------------------------------------------------------------- Boba Fett (05019)
def _boba_special(ctx: Ctx, src: str, entry: Any) -> None:
    pid = ctx.owner_of(src)
    dice = pool_dice(ctx)
    value = 0
    if dice:
        die = entry_or_choose(
            ctx, entry, "die_value", pid, "die", dice, TARGET, Msg(N_("the die whose value is dealt as damage")), src
        )
        value = ctx.die_value(die)
    target = choose_character(ctx, entry, pid, Msg(N_("the character dealt the damage")), src)
    ctx.deal_damage(src, target, value)


# ====================================================================== upgrades
# ---------------------------------------------------------------------- Hidden Blaster (05072)
def _remove_a_shield(ctx: Ctx, src: str, _e: Any) -> None:
    pid = ctx.owner_of(src)
    shielded = [c for c in living_characters(ctx) if ctx.character(c).shields > 0]
    if shielded:
        target = ctx.choose(pid, "target", shielded, TARGET, Msg(N_("remove 1 shield from which character")), src)
        ctx.remove_shields(src, target, 1)


# ---------------------------------------------------------------------- Heirloom Lightsaber (05058)
def _redeploy_on_blue(ctx: Ctx, src: str, subject: Any, value: Any) -> Any:
    if subject == src:
        host = ctx.upgrade_host(src)
        if host and ctx.card(ctx.code_of(host)).color == "blue":
            return set(value) | {"redeploy"}
    return value


# ---------------------------------------------------------------------- Hunter Instinct (05026)
def _hunter_instinct(ctx: Ctx, src: str, entry: Any) -> None:
    pid = ctx.owner_of(src)
    target = choose_character(ctx, entry, pid, Msg(N_("deal 1 damage (2 if it has 3 or more) to which character")), src)
    ctx.deal_damage(src, target, 2 if ctx.character(target).damage >= 3 else 1)


# ---------------------------------------------------------------------- Wrist Rockets (05027)
def _wrist_rockets(ctx: Ctx, src: str, entry: Any) -> None:
    pid = ctx.owner_of(src)
    target = choose_character(ctx, entry, pid, Msg(N_("deal 2 damage to which character")), src)
    ctx.deal_damage(src, target, 2)
    if (
        ctx.player(pid).resources >= 1
        and living_characters(ctx)
        and ctx.may(pid, Msg(N_("spend 1 resource to deal 2 more damage to a character")), src)
    ):
        ctx.spend(pid, 1, "destiny.resources.currency", "Wrist Rockets' second shot")
        again = ctx.choose(
            pid, "target", living_characters(ctx), TARGET, Msg(N_("deal 2 damage to which character")), src
        )
        ctx.deal_damage(src, again, 2)


# ---------------------------------------------------------------------- Force Focus (05056)
def _force_focus(ctx: Ctx, src: str, _entry: Any) -> None:
    pid = ctx.owner_of(src)
    rules = ("destiny.terms.turn-die", "destiny.symbols.special")
    _turn_dice(ctx, pid, _own_dice(ctx, pid), 1, Msg(N_("turn one of your dice to any side")), src, rules, least=1)
    theirs = _opponents_dice(ctx, pid)
    hand = named_hand(ctx, pid, src, "destiny.terms.reveal") if theirs else []
    blue = sorted({c for c in hand if c in ctx.cards and ctx.card(c).color == "blue"})
    if blue and theirs and ctx.may(pid, Msg(N_("reveal a blue card from your hand to turn an opponent's die")), src):
        shown = ctx.choose(pid, "card", blue, ("destiny.terms.reveal",), Msg(N_("which blue card to reveal")), src)
        ctx.record(rec.RevealRecord(pid, shown, ("destiny.terms.reveal",)))
        _turn_dice(ctx, pid, theirs, 1, Msg(N_("turn one of an opponent's dice to any side")), src, rules, least=1)


# ---------------------------------------------------------------------- 74-Z Speeder Bike (05064)
def _speeder_ready(ctx: Ctx, pid: str, ref: Any) -> bool:
    return f"{ref}/1" in ctx.player(pid).pool


def _speeder_bike(ctx: Ctx, src: str, step: Any) -> None:
    """Resolve this upgrade's die and one character die of its host, in the order the log names them."""
    pid = ctx.owner_of(src)
    rule = "destiny.dice.resolve-via-card"
    own = f"{src}/1"
    host = ctx.upgrade_host(src)
    host_dice = [d for d in ctx.player(pid).pool if card_of_die(d) == host]
    entries = written(step, "dice")
    if not entries:
        raise IllegalAction("destiny.actions.resolve-at-least-one", Msg(N_("name the dice to resolve in 'dice'")))
    named = [ctx.canon_die(e.die) for e in entries]
    if own not in named:
        raise IllegalAction(rule, Msg(N_("the speeder bike resolves its own die {own}"), own=own))
    others = [d for d in named if d != own]
    if len(others) > 1 or any(d not in host_dice for d in others):
        raise IllegalAction(
            rule,
            Msg(
                N_("besides its own die it resolves one character die of {host} ({host_dice})"),
                host=host, host_dice=', '.join(host_dice) or Msg(N_("none in the pool")),
            ),
        )
    if not others and host_dice:
        raise IllegalAction(
            "destiny.abilities.resolve-fully",
            Msg(
                N_("resolve one of {host}'s character dice too ({host_dice})"),
                host=host, host_dice=', '.join(host_dice),
            ),
        )
    for entry, die in zip(entries, named, strict=True):
        resolve_dice(ctx, pid, [entry], source=src, only=_only(die), max_dice=1, rule=rule)


# ---------------------------------------------------------------------- Quickdraw Holster (05167)
@on(ev.Activate)
def _after_host_activated(ctx: Ctx, src: str, e: Any) -> bool:
    return isinstance(e, ev.Activate) and e.card == ctx.upgrade_host(src)


def _quickdraw_holster(ctx: Ctx, src: str, _e: Any) -> None:
    pid = ctx.owner_of(src)
    host = ctx.upgrade_host(src)
    if host is None:
        return
    weapons = [
        f"{u}/1" for u in ctx.character(host).upgrades if "weapon" in ctx.card(ctx.code_of(u)).subtypes
    ]
    dice = [d for d in weapons if d in ctx.player(pid).pool]
    chosen = _pick_dice(
        ctx,
        pid,
        dice,
        len(dice),
        Msg(N_("reroll any number of the weapon dice")),
        src,
        ("destiny.terms.choose-any-number",),
    )
    if chosen:
        ctx.reroll(src, chosen)


# ====================================================================== supports
# ---------------------------------------------------------------------- Slave I (05025)
def _slave_one(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    yellow = _own_dice(ctx, pid, lambda d: _color_of_die(ctx, d) == "yellow")
    if not yellow:
        return
    die = ctx.choose(pid, "die", yellow, TARGET, Msg(N_("reroll which of your yellow dice")), src)
    ctx.reroll(src, [die])
    if die not in ctx.player(pid).pool:
        return
    value = ctx.die_value(die)
    same = [d for d in _opponents_dice(ctx, pid) if ctx.die_value(d) == value]
    if same and ctx.may(pid, Msg(N_("remove an opponent's die showing the value {value}"), value=value), src):
        _choose_remove(
            ctx,
            src,
            pid,
            same,
            Msg(N_("remove which opponent's die showing {value}"), value=value),
            rules=("destiny.terms.remove-die", "destiny.dice.value"),
        )


# ---------------------------------------------------------------------- R2-D2 (05035)
def _r2d2(ctx: Ctx, src: str, _entry: Any) -> None:
    pid = ctx.owner_of(src)
    ctx.draw(src, pid, 1)
    mine = _own_dice(ctx, pid)
    if mine and ctx.may(pid, Msg(N_("turn one of your dice to any side")), src):
        _turn_dice(
            ctx, pid, mine, 1, Msg(N_("turn one of your dice to any side")), src, ("destiny.terms.turn-die",), least=1
        )


# ---------------------------------------------------------------------- Millennium Falcon (05052)
def _falcon(ctx: Ctx, src: str, _e: Any) -> None:
    pid = ctx.owner_of(src)
    ready = [c.ref for c in ctx.player(pid).alive() if not c.exhausted]
    if ready:
        ref = ctx.choose(pid, "target", ready, ("destiny.actions.activate",), Msg(N_("activate which character")), src)
        ctx.activate(pid, ref, src)


# ---------------------------------------------------------------------- Maz's Vault (05122)
def _one_more_upkeep_resource(_ctx: Ctx, _src: str, _pid: Any, value: Any) -> Any:
    return value + 1


# ---------------------------------------------------------------------- Perseverance (05134)
def _ready_support(ctx: Ctx, pid: str, ref: Any) -> bool:
    su = ctx.player(pid).supports.get(ref)
    return su is not None and not su.exhausted


def _perseverance(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    ctx.exhaust(src, src)
    mine = _own_dice(ctx, pid)
    if not mine:
        return
    die = ctx.choose(pid, "die", mine, TARGET, Msg(N_("reroll which of your dice")), src)
    ctx.reroll(src, [die])
    if die in ctx.player(pid).pool and ctx.may(pid, Msg(N_("reroll {die} again"), die=die), src):
        ctx.reroll(src, [die])


# ---------------------------------------------------------------------- Backup Specialist (05163)
def _backup_specialist(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    ctx.exhaust(src, src)
    dice = _pick_dice(ctx, pid, _own_dice(ctx, pid), 2, Msg(N_("reroll up to 2 of your dice")), src, TARGET)
    if dice:
        ctx.reroll(src, dice)


# ====================================================================== events
def _battle_fatigue(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    opps = _each_opponent_damaged(ctx, pid)
    opp = ctx.choose(pid, "opponent", opps, ("destiny.multiplayer.choose-opponent",), Msg(N_("which opponent")), src)
    if opp is not None:
        _choose_remove(ctx, src, pid, _own_dice(ctx, opp), Msg(N_("remove which of {opp}'s dice"), opp=opp))


def _imperial_might(ctx: Ctx, src: str, step: Any) -> None:
    _resolve_one_of_yours(ctx, src, step, bonus=2)


def _impulsive(ctx: Ctx, src: str, step: Any) -> None:
    _resolve_one_of_yours(ctx, src, step, bonus=0)


def _resolve_one_of_yours(ctx: Ctx, src: str, step: Any, bonus: int) -> None:
    """Resolve one of your dice: the die is the effect's target, not a resolve-dice action (whose
    destiny.actions.resolve-at-least-one does not apply). With no die that can be resolved there is
    no legal target, and the event, playable all the same, does nothing (destiny.terms.choose-target,
    destiny.events.no-effect-allowed)."""
    pid = ctx.owner_of(src)
    pool = ctx.player(pid).pool
    named = written(step, "dice")
    if not named:
        if not pool:  # nothing to resolve: the event has no effect (destiny.events.no-effect-allowed)
            ctx.record(rec.NoEffectRecord(src, "you have no dice in your pool",
                                          ("destiny.events.no-effect-allowed", "destiny.terms.choose-target")))
            return
        if not any(resolvable_alone(ctx, pid, d) for d in pool):
            ctx.record(rec.NoEffectRecord(src, "none of your dice can be resolved",
                                          ("destiny.events.no-effect-allowed", "destiny.terms.choose-target")))
            return
    resolve_dice(ctx, pid, named, source=src, bonus=bonus, max_dice=1, rule="destiny.dice.resolve-via-card")


def _rumors(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    opp = ctx.opponent(pid, src, Msg(N_("which opponent chooses a card in hand")))
    hand = list(ctx.player(opp).hand)
    if not hand:
        return
    if len(hand) > 1:  # which card is kept, and which is discarded, depend on every card there
        hand = named_hand(ctx, opp, src, "destiny.terms.look-at")
    rules = ("destiny.zones.opponent-hand", "destiny.terms.look-at")
    kept = ctx.choose(opp, "card", list(dict.fromkeys(hand)), rules, Msg(N_("choose a card in your hand")), src)
    rest = list(hand)
    rest.remove(kept)
    if rest:
        gone = ctx.choose(
            pid, "card", list(dict.fromkeys(rest)), rules, Msg(N_("discard which other card of {opp}'s"), opp=opp), src
        )
        ctx.emit(ev.DiscardFromHand(src, opp, gone))


def _subdue(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    hurt = [c for c in living_characters(ctx) if ctx.character(c).damage >= 3]
    if not hurt:
        return
    target = entry_or_choose(
        ctx, step, "target", pid, "target", hurt, TARGET, Msg(N_("which character with 3 or more damage")), src
    )
    owner = ctx.owner_of(target)
    _choose_remove(
        ctx, src, pid, _own_dice(ctx, owner, die_belongs_to(ctx, target)), Msg(
            N_("remove which of {target}'s dice"),
            target=target,
        )
    )


def _take_flight(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    yellow = _own_dice(ctx, pid, lambda d: _color_of_die(ctx, d) == "yellow")
    dice = _pick_dice(ctx, pid, yellow, 2, Msg(N_("reroll up to 2 of your yellow dice")), src, TARGET)
    if dice:
        ctx.reroll(src, dice)


def _heightened_awareness(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    target = choose_character(ctx, step, pid, Msg(N_("give 3 shields to which character")), src)
    if target is not None:
        ctx.give_shields(src, target, 3)


def _bravado(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    if not spot_color("yellow")(ctx, pid, None):
        return  # nothing spotted: the card does nothing (destiny.terms.spot-own-only)
    if _choose_remove(ctx, src, pid, _opponents_dice(ctx, pid), Msg(N_("remove which opponent's die"))) is None:
        return  # the part after "then" needs the first part done (destiny.then.requires-full-resolution)
    target = ctx.choose(
        pid, "target", living_characters(ctx), TARGET, Msg(N_("deal 2 damage to which character")), src
    )
    ctx.deal_damage(src, target, 2)


def _smugglers_run(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    yellow = [
        c.ref for c in ctx.player(pid).alive() if not c.exhausted and ctx.card(c.code).color == "yellow"
    ]
    if not yellow:
        return
    ref = entry_or_choose(
        ctx,
        step,
        "target",
        pid,
        "target",
        yellow,
        ("destiny.actions.activate",),
        Msg(N_("activate which yellow character")),
        src,
    )
    ctx.activate(pid, ref, src)
    pool = ctx.player(pid).pool
    if any(d in pool and pool[d].symbol == "R" for d in ctx.dice_of(ref)):
        ctx.gain(src, pid, 1)


def _alter(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    _turn_dice(
        ctx, pid, pool_dice(ctx), 2, Msg(N_("turn up to 2 dice to any sides")), src, ("destiny.terms.turn-die",)
    )


def _invigorate(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    if spot_color("blue")(ctx, pid, None):
        for c in living_characters(ctx, pid):
            ctx.heal(src, c, 1)


def _mislead(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    low = [d for _q, d, f in ctx.all_pool_dice() if _is_character_die(ctx, d) and ctx.die_value(d, f) <= 2]
    _choose_remove(
        ctx,
        src,
        pid,
        low,
        Msg(N_("remove which character die showing 2 or less")),
        step,
        ("destiny.terms.remove-die", "destiny.terms.character-die", "destiny.dice.value"),
    )


def _force_is_with_me(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    _choose_remove(
        ctx,
        src,
        pid,
        _dice_showing(ctx, frozenset({"RD", "ID"})),
        Msg(N_("remove which die showing ranged or indirect damage")),
        step,
        ("destiny.terms.remove-die", "destiny.terms.showing-modifier-faces"),
    )


def _crackdown(ctx: Ctx, src: str, _step: Any) -> None:
    ctx.gain(src, ctx.owner_of(src), 1)


def _crash_landing(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    dice = _dice_showing(ctx, frozenset({"MD", "RD", "ID"}))
    if not dice:
        return
    die = entry_or_choose(
        ctx,
        step,
        "target",
        pid,
        "die",
        dice,
        ("destiny.terms.remove-die",),
        Msg(N_("remove which die showing damage")),
        src,
    )
    value = ctx.die_value(die)
    ctx.remove_die(src, die)
    indirect(ctx, src, pid, value)


def _locked_and_loaded(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    if spot_color("red")(ctx, pid, None):
        _turn_dice(
            ctx,
            pid,
            _own_dice(ctx, pid),
            2,
            Msg(N_("turn up to 2 of your dice to indirect damage sides")),
            src,
            ("destiny.terms.turn-die",),
            symbol="ID",
        )


def _control_battlefield(ctx: Ctx, pid: str, _on: Any) -> bool:
    return ctx.state.controller == pid


def _superior_position(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    _choose_remove(ctx, src, pid, pool_dice(ctx), Msg(N_("remove which die")), step)


def _bamboozle(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    theirs = _opponents_dice(ctx, pid)
    if not theirs:
        return
    die = entry_or_choose(ctx, step, "target", pid, "die", theirs, TARGET, Msg(N_("reroll which opponent's die")), src)
    ctx.reroll(src, [die])
    opp = ctx.owner_of(die)
    if die in ctx.player(opp).pool and ctx.pool_face(die).is_blank and ctx.player(opp).resources > 0:
        ctx.lose(src, opp, 1)
        ctx.gain(src, pid, 1)


def _dangerous_maneuver(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    mine = living_characters(ctx, pid)
    target = entry_or_choose(
        ctx, step, "target", pid, "target", mine, TARGET, Msg(N_("heal 2 damage from which character")), src
    )
    if target is not None:
        ctx.heal(src, target, 2)
    indirect(ctx, src, pid, 2)


def _entangle(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    if not spot_color("yellow")(ctx, pid, None):
        return
    rules = ("destiny.terms.remove-die", "destiny.terms.total-value")
    dice = _pick_dice(ctx, pid, pool_dice(ctx), 2, Msg(N_("remove up to 2 dice showing 3 or less in all")), src, rules)
    total = sum(ctx.die_value(d) for d in dice)
    if total > 3:
        raise IllegalAction(
            "destiny.terms.total-value", Msg(
                N_("{dice} show {total} in all, more than 3"),
                dice=', '.join(dice), total=total,
            )
        )
    for d in dice:
        ctx.remove_die(src, d)


def _face_off(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    mine = _own_dice(ctx, pid, lambda d: _is_character_die(ctx, d))
    theirs = [d for d in _opponents_dice(ctx, pid) if _is_character_die(ctx, d)]
    picked = []
    if mine:
        picked.append(
            ctx.choose(
                pid, "die", mine, ("destiny.terms.character-die",), Msg(N_("reroll which of your character dice")), src
            )
        )
    if theirs:
        picked.append(
            ctx.choose(
                pid,
                "die",
                theirs,
                ("destiny.terms.character-die",),
                Msg(N_("reroll which opponent's character die")),
                src,
            )
        )
    if not picked:
        return
    ctx.reroll(src, picked)
    if len(picked) < 2 or any(d not in ctx.player(ctx.owner_of(d)).pool for d in picked):
        return  # "then" needs both rerolled (destiny.then.requires-full-resolution)
    values = {d: ctx.die_value(d) for d in picked}
    low = min(values.values())
    for d, v in values.items():
        if v == low:
            ctx.deal_damage(src, card_of_die(d), 2)


def _hasty_exit(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    dice = _dice_showing(ctx, frozenset({"MD", "RD", "ID"}))
    if ctx.state.controller != pid or not dice:
        return  # the cost cannot be paid or there is nothing to remove
    opp = ctx.opponent(pid, src, Msg(N_("which opponent takes the battlefield")))
    ctx.give_battlefield(src, opp)
    _choose_remove(ctx, src, pid, dice, Msg(N_("remove which die showing damage")), step)


def _quick_draw_problem(ctx: Ctx, pid: str, code: str, on: str) -> IllegalAction | None:
    """Why weapon ``code`` cannot be played on ``on`` by Quick Draw now, or None: a unique copy in
    play (destiny.uniqueness.one-copy-in-play), a play restriction (destiny.terms.play-restrictions).
    Its cost is paid as it is played (destiny.cards.cost)."""
    card = ctx.card(code)
    if card.unique and any(ctx.card(ctx.code_of(u)).name == card.name for u in ctx.player(pid).upgrades):
        return IllegalAction("destiny.uniqueness.one-copy-in-play", Msg(
            N_("{pid} already has {card} in play"),
            pid=pid, card=card.name,
        ))
    ignore = bool(ctx.query("ignore_restrictions", (code, on), False))
    for ab in card.abilities:
        if (
            ab.timing in ("play", "restriction")
            and ab.condition is not None
            and not ignore
            and not ab.condition(ctx, pid, on)
        ):
            return IllegalAction("destiny.terms.play-restrictions", Msg(
                N_("{card} cannot be played: {ability}"),
                card=card.name, ability=ab.text,
            ))
    return None


def _quick_draw_fits(ctx: Ctx, pid: str, code: str, on: str) -> bool:
    """Whether Quick Draw can play weapon ``code`` on ``on``: nothing forbids it, and its cost, after
    the reductions waiting, can be paid (destiny.cards.cost), or an ability before it is played
    may still lower it (destiny.terms.reduce)."""
    if _quick_draw_problem(ctx, pid, code, on) is not None:
        return False
    if max(0, ctx.cost_of(pid, code, on) - ctx.cost_reduction) <= ctx.player(pid).resources:
        return True
    return bool(ctx.befores(ev.Play(pid, code, on)))


def _quick_draw(ctx: Ctx, src: str, _step: Any) -> None:
    """Only a weapon that can be played on one of your characters is offered; with none, the event
    does nothing (destiny.terms.choose-target, destiny.events.no-effect-allowed). Any of your
    characters may be named for it: one it cannot go on is refused with the rule that forbids it."""
    pid = ctx.owner_of(src)
    homes = living_characters(ctx, pid)
    if not homes:
        return
    hand = named_hand(ctx, pid, src, "destiny.actions.play-card-sequence")
    weapons = [
        c
        for c in dict.fromkeys(hand)
        if c in ctx.cards and ctx.card(c).type == CardType.UPGRADE and "weapon" in ctx.card(c).subtypes
    ]
    playable = [c for c in weapons if any(_quick_draw_fits(ctx, pid, c, h) for h in homes)]
    if not playable:
        if weapons:
            ctx.record(rec.NoEffectRecord(src, "no weapon in hand can be played",
                                          ("destiny.events.no-effect-allowed", "destiny.terms.choose-target")))
        return
    code = ctx.choose(pid, "card", playable, ("destiny.actions.play-card-sequence",), Msg(N_("play which weapon")), src)
    on = ctx.choose(pid, "target", homes, ("destiny.upgrades.attach",), Msg(N_("on which character")), src)
    problem = _quick_draw_problem(ctx, pid, code, on)
    if problem is not None:
        raise problem
    ctx.emit(ev.Play(pid, code, on))
    if not ctx.character(on).exhausted and ctx.may(pid, Msg(N_("activate {on}"), on=on), src):
        ctx.activate(pid, on, src)
    if "ambush" in ctx.keywords_of(ctx.card(code), (pid, code)):  # the weapon was played (destiny.keywords.ambush)
        ctx.grant_extra_action(pid, "destiny.keywords.ambush")


def _ice_storm(ctx: Ctx, src: str, _step: Any) -> None:
    for c in living_characters(ctx):
        ctx.remove_shields(src, c, 1)


# ====================================================================== battlefields
def _outer_rim_outpost(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    ctx.gain(src, pid, 1)
    ctx.draw(src, pid, 1)


def _arid_wasteland(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    ctx.lose(src, ctx.opponent(pid, src, Msg(N_("which opponent loses 1 resource"))), 1)


def _only(die: str) -> Callable[[str], bool]:
    """A die filter that accepts exactly ``die``."""
    return lambda d: d == die


CARDS: list[CardDef] = [
    CardDef(
        "05031",
        "Luke Skywalker",
        C,
        "hero",
        "blue",
        subtitle="Unlikely Hero",
        unique=True,
        points=(11, 14),
        health=11,
        faces=faces("1RD", "2RD", "1MD", "1Sh", "1R", "-"),
        subtypes=("apprentice",),
        abilities=(
            ability(
                "power",
                "Pay 2 resources: resolve one of this character's own or upgrade dice, "
                "its value raised by 2.",
                _luke_power,
                rules=("destiny.actions.power-action", "destiny.dice.resolve-via-card"),
            ),
        ),
    ),
    CardDef(
        "05046",
        "Han Solo",
        C,
        "hero",
        "yellow",
        subtitle="Savvy Smuggler",
        unique=True,
        points=(11, 14),
        health=10,
        faces=faces("2RD", "2RD1", "1Dc", "1R", "+1R", "-"),
        subtypes=("scoundrel",),
        abilities=(
            ability(
                "after",
                "After you activate him, you may reroll one die in any dice pool.",
                _reroll_any_die,
                after_you_activate_this,
                optional=True,
            ),
        ),
    ),
    CardDef(
        "05019",
        "Boba Fett",
        C,
        "villain",
        "yellow",
        subtitle="Deadly Mercenary",
        unique=True,
        points=(12, 16),
        health=11,
        faces=faces("2RD", "2MD", "1Dr", "1R", "Sp", "-"),
        subtypes=("bounty-hunter",),
        abilities=(
            ability(
                "special",
                "Deal a character damage equal to the value a die in play shows.",
                _boba_special,
                rules=("destiny.symbols.special",),
            ),
        ),
    ),
    CardDef(
        "05013",
        "Veteran Stormtrooper",
        C,
        "villain",
        "red",
        points=(9,),
        health=9,
        faces=faces("1RD", "2RD", "3ID", "1R", "-", "-"),
        subtypes=("trooper",),
    ),
    CardDef(
        "05058",
        "Heirloom Lightsaber",
        U,
        "neutral",
        "blue",
        cost=3,
        faces=faces("1MD", "2MD", "3MD", "1Sh", "1R", "-"),
        subtypes=("weapon",),
        abilities=(
            ability(
                "constant",
                "Has Redeploy while on a blue character.",
                query="keywords",
                modify=_redeploy_on_blue,
                rules=("destiny.keywords.redeploy",),
            ),
        ),
    ),
    CardDef(
        "05072",
        "Hidden Blaster",
        U,
        "neutral",
        "gray",
        cost=2,
        faces=faces("1RD", "+2RD", "+2RD", "1Dr", "1R", "-"),
        subtypes=("weapon",),
        keywords=frozenset({"ambush"}),
        abilities=(
            ability(
                "after",
                "After you play it, you may remove 1 shield from a character.",
                _remove_a_shield,
                after_you_play_this,
                optional=True,
            ),
        ),
    ),
    CardDef(
        "05073",
        "Hunting Rifle",
        U,
        "neutral",
        "gray",
        cost=1,
        faces=faces("1RD", "2RD1", "1Dr", "1R", "-", "-"),
        subtypes=("weapon",),
    ),
    CardDef(
        "05174",
        "Arid Wasteland",
        B,
        "neutral",
        "gray",
        subtitle="Geonosis",
        abilities=(
            ability(
                "claim",
                "Claim: an opponent loses 1 resource.",
                _arid_wasteland,
                rules=("destiny.abilities.claim",),
            ),
        ),
    ),
    CardDef(
        "05178",
        "Outer Rim Outpost",
        B,
        "neutral",
        "gray",
        subtitle="Nal Hutta",
        abilities=(
            ability(
                "claim",
                "Claim: gain 1 resource and draw 1 card.",
                _outer_rim_outpost,
                rules=("destiny.abilities.claim",),
            ),
        ),
    ),
    CardDef(
        "05025",
        "Slave I",
        S,
        "villain",
        "yellow",
        unique=True,
        cost=3,
        faces=faces("2RD", "2ID", "3ID1", "1Sh", "1R", "-"),
        subtypes=("vehicle",),
        abilities=(
            ability(
                "power",
                "Reroll one of your yellow dice; then you may remove an opponent's die showing the "
                "same value as the rerolled die.",
                _slave_one,
                rules=("destiny.actions.power-action", "destiny.terms.remove-die", "destiny.dice.value"),
            ),
        ),
    ),
    CardDef(
        "05026",
        "Hunter Instinct",
        U,
        "villain",
        "yellow",
        cost=2,
        faces=faces("1F", "1Dr", "1R", "Sp", "Sp", "-"),
        subtypes=("ability",),
        abilities=(
            ability(
                "special",
                "Deal 1 damage to a character; 2 instead if it already has 3 or more damage.",
                _hunter_instinct,
                rules=("destiny.symbols.special",),
            ),
        ),
    ),
    CardDef(
        "05027",
        "Wrist Rockets",
        U,
        "villain",
        "yellow",
        cost=3,
        faces=faces("2RD", "4ID1", "1Dc", "1R", "Sp", "-"),
        subtypes=("weapon",),
        abilities=(
            ability(
                "restriction",
                "Goes only on a yellow character.",
                condition=character_color_only("yellow"),
                rules=("destiny.terms.play-restrictions",),
            ),
            ability(
                "special",
                "Deal 2 damage to a character; you may pay 1 resource to deal 2 damage to a character.",
                _wrist_rockets,
                rules=("destiny.symbols.special",),
            ),
        ),
    ),
    CardDef(
        "05035",
        "R2-D2",
        S,
        "hero",
        "blue",
        unique=True,
        cost=1,
        faces=faces("1MD", "1Dr", "1Sh", "1R", "Sp", "Sp"),
        subtypes=("droid",),
        abilities=(
            ability(
                "special",
                "Draw a card; you may then turn one of your dice to any face.",
                _r2d2,
                rules=("destiny.symbols.special", "destiny.terms.turn-die"),
            ),
        ),
    ),
    CardDef(
        "05052",
        "Millennium Falcon",
        S,
        "hero",
        "yellow",
        unique=True,
        cost=4,
        faces=faces("2RD", "3RD", "4ID1", "2Sh", "2R", "-"),
        subtypes=("vehicle",),
        abilities=(
            ability(
                "after",
                "After you activate this support, you may activate one of your characters.",
                _falcon,
                after_you_activate_this,
                optional=True,
                rules=("destiny.actions.activate",),
            ),
        ),
    ),
    CardDef(
        "05056",
        "Force Focus",
        U,
        "neutral",
        "blue",
        cost=2,
        faces=faces("1Sh", "1R", "1R", "Sp", "Sp", "-"),
        subtypes=("ability",),
        abilities=(
            ability(
                "restriction",
                "You must spot a blue character to play it.",
                condition=spot_color("blue"),
                rules=("destiny.terms.spot", "destiny.terms.play-restrictions"),
            ),
            ability(
                "special",
                "Turn one of your dice to any face; you may reveal a blue card from your hand to "
                "turn an opponent's die to any face too.",
                _force_focus,
                rules=("destiny.symbols.special", "destiny.terms.turn-die", "destiny.terms.reveal"),
            ),
        ),
    ),
    CardDef(
        "05064",
        "74-Z Speeder Bike",
        U,
        "neutral",
        "red",
        cost=2,
        faces=faces("2RD1", "1F", "1F", "1Sh", "1R", "-"),
        subtypes=("vehicle",),
        abilities=(
            ability(
                "action",
                "Resolve this die and one character die of the character it is on, in either order.",
                _speeder_bike,
                condition=_speeder_ready,
                rules=("destiny.actions.card-action", "destiny.dice.resolve-via-card"),
            ),
        ),
    ),
    CardDef(
        "05084",
        "Battle Fatigue",
        E,
        "villain",
        "red",
        cost=1,
        abilities=(
            ability(
                "restriction",
                "Only when every character of some opponent has damage.",
                condition=_restriction_each_opponent_damaged,
                rules=("destiny.terms.play-restrictions",),
            ),
            ability(
                "play",
                "Remove one die of that opponent.",
                _battle_fatigue,
                rules=("destiny.terms.remove-die",),
            ),
        ),
    ),
    CardDef(
        "05086",
        "Imperial Might",
        E,
        "villain",
        "red",
        cost=2,
        abilities=(
            ability(
                "play",
                "Resolve one of your dice with its value raised by 2.",
                _imperial_might,
                rules=("destiny.dice.resolve-via-card", "destiny.terms.increase"),
            ),
        ),
    ),
    CardDef(
        "05096",
        "Rumors",
        E,
        "villain",
        "yellow",
        cost=1,
        abilities=(
            ability(
                "play",
                "An opponent picks a card in hand; you look at the rest and discard one of them.",
                _rumors,
                rules=("destiny.zones.opponent-hand", "destiny.terms.look-at"),
            ),
        ),
    ),
    CardDef(
        "05097",
        "Subdue",
        E,
        "villain",
        "yellow",
        cost=1,
        abilities=(
            ability(
                "play",
                "Pick a character with 3 or more damage and remove one of its own or upgrade dice.",
                _subdue,
                rules=("destiny.terms.remove-die",),
            ),
        ),
    ),
    CardDef(
        "05098",
        "Take Flight",
        E,
        "villain",
        "yellow",
        cost=0,
        keywords=frozenset({"ambush"}),
        abilities=(
            ability(
                "play",
                "Reroll up to 2 of your yellow dice.",
                _take_flight,
                rules=("destiny.keywords.ambush",),
            ),
        ),
    ),
    CardDef(
        "05102",
        "Heightened Awareness",
        E,
        "hero",
        "blue",
        cost=2,
        keywords=frozenset({"ambush"}),
        abilities=(
            ability(
                "play",
                "A character gets 3 shields.",
                _heightened_awareness,
                rules=("destiny.symbols.shield", "destiny.keywords.ambush"),
            ),
        ),
    ),
    CardDef(
        "05116",
        "Bravado",
        E,
        "hero",
        "yellow",
        cost=3,
        abilities=(
            ability(
                "play",
                "With a yellow character spotted, remove an opponent's die; then deal 2 damage to a "
                "character.",
                _bravado,
                rules=(
                    "destiny.terms.spot",
                    "destiny.terms.remove-die",
                    "destiny.then.requires-full-resolution",
                ),
            ),
        ),
    ),
    CardDef(
        "05119",
        "Impulsive",
        E,
        "hero",
        "yellow",
        cost=0,
        keywords=frozenset({"ambush"}),
        abilities=(
            ability(
                "play",
                "Resolve one of your dice.",
                _impulsive,
                rules=("destiny.dice.resolve-via-card", "destiny.keywords.ambush"),
            ),
        ),
    ),
    CardDef(
        "05121",
        "Smuggler's Run",
        E,
        "hero",
        "yellow",
        cost=0,
        abilities=(
            ability(
                "play",
                "Activate one of your yellow characters; gain 1 resource if any of its dice rolled a "
                "resource face.",
                _smugglers_run,
                rules=("destiny.actions.activate",),
            ),
        ),
    ),
    CardDef(
        "05122",
        "Maz's Vault",
        S,
        "hero",
        "yellow",
        unique=True,
        cost=0,
        subtypes=("location",),
        abilities=(
            ability(
                "constant",
                "Every player gets 1 more resource in the upkeep phase.",
                query="upkeep_resources",
                modify=_one_more_upkeep_resource,
                rules=("destiny.abilities.constant", "destiny.round.upkeep"),
            ),
        ),
    ),
    CardDef(
        "05125",
        "Alter",
        E,
        "neutral",
        "blue",
        cost=2,
        abilities=(
            ability(
                "play",
                "Turn up to 2 dice, yours or opponents', to faces you pick.",
                _alter,
                rules=("destiny.terms.turn-die",),
            ),
        ),
    ),
    CardDef(
        "05128",
        "Invigorate",
        E,
        "neutral",
        "blue",
        cost=1,
        abilities=(
            ability(
                "play",
                "With a blue character spotted, heal 1 damage from each of your characters.",
                _invigorate,
                rules=("destiny.terms.spot", "destiny.terms.heal"),
            ),
        ),
    ),
    CardDef(
        "05130",
        "Mislead",
        E,
        "neutral",
        "blue",
        cost=1,
        abilities=(
            ability(
                "play",
                "Remove a character die showing a value of 2 or lower.",
                _mislead,
                rules=("destiny.terms.remove-die", "destiny.terms.character-die"),
            ),
        ),
    ),
    CardDef(
        "05133",
        "The Force Is With Me",
        E,
        "neutral",
        "blue",
        cost=1,
        abilities=(
            ability(
                "play",
                "Remove a die showing ranged or indirect damage.",
                _force_is_with_me,
                rules=("destiny.terms.remove-die",),
            ),
        ),
    ),
    CardDef(
        "05134",
        "Perseverance",
        S,
        "neutral",
        "blue",
        cost=1,
        abilities=(
            ability(
                "action",
                "Exhaust this support: reroll one of your dice, then you may reroll it once more.",
                _perseverance,
                condition=_ready_support,
                rules=("destiny.actions.card-action", "destiny.cards.exhaust-usage"),
            ),
        ),
    ),
    CardDef(
        "05136",
        "Crackdown",
        E,
        "neutral",
        "red",
        cost=0,
        abilities=(
            ability(
                "restriction",
                "Only when every character of some opponent has damage.",
                condition=_restriction_each_opponent_damaged,
                rules=("destiny.terms.play-restrictions",),
            ),
            ability("play", "Gain 1 resource.", _crackdown, rules=("destiny.resources.currency",)),
        ),
    ),
    CardDef(
        "05137",
        "Crash Landing",
        E,
        "neutral",
        "red",
        cost=0,
        abilities=(
            ability(
                "play",
                "Remove a die showing damage; then take indirect damage equal to its value.",
                _crash_landing,
                rules=("destiny.terms.remove-die", "destiny.symbols.indirect"),
            ),
        ),
    ),
    CardDef(
        "05139",
        "Locked and Loaded",
        E,
        "neutral",
        "red",
        cost=1,
        abilities=(
            ability(
                "play",
                "With a red character spotted, turn up to 2 of your dice to indirect damage faces.",
                _locked_and_loaded,
                rules=("destiny.terms.spot", "destiny.terms.turn-die"),
            ),
        ),
    ),
    CardDef(
        "05143",
        "Superior Position",
        E,
        "neutral",
        "red",
        cost=1,
        abilities=(
            ability(
                "restriction",
                "Only while you control the battlefield.",
                condition=_control_battlefield,
                rules=("destiny.terms.play-restrictions", "destiny.battlefields.single-controller"),
            ),
            ability("play", "Remove a die.", _superior_position, rules=("destiny.terms.remove-die",)),
        ),
    ),
    CardDef(
        "05147",
        "Bamboozle",
        E,
        "neutral",
        "yellow",
        cost=0,
        abilities=(
            ability(
                "play",
                "Reroll an opponent's die; if it lands blank, take 1 of their resources.",
                _bamboozle,
                rules=("destiny.symbols.blank",),
            ),
        ),
    ),
    CardDef(
        "05150",
        "Dangerous Maneuver",
        E,
        "neutral",
        "yellow",
        cost=0,
        abilities=(
            ability(
                "play",
                "Heal 2 damage from one of your characters, then take 2 indirect damage.",
                _dangerous_maneuver,
                rules=("destiny.terms.heal", "destiny.symbols.indirect"),
            ),
        ),
    ),
    CardDef(
        "05151",
        "Entangle",
        E,
        "neutral",
        "yellow",
        cost=2,
        abilities=(
            ability(
                "play",
                "With a yellow character spotted, remove up to 2 dice whose values add up to 3 or less.",
                _entangle,
                rules=("destiny.terms.spot", "destiny.terms.total-value"),
            ),
        ),
    ),
    CardDef(
        "05152",
        "Face-Off",
        E,
        "neutral",
        "yellow",
        cost=1,
        abilities=(
            ability(
                "play",
                "Reroll one of your character dice and one of an opponent's; each character whose die "
                "lands lowest (both on a tie) takes 2 damage.",
                _face_off,
                rules=("destiny.terms.character-die", "destiny.dice.value"),
            ),
        ),
    ),
    CardDef(
        "05153",
        "Hasty Exit",
        E,
        "neutral",
        "yellow",
        cost=0,
        abilities=(
            ability(
                "play",
                "Hand the battlefield to an opponent to remove a die showing damage.",
                _hasty_exit,
                rules=("destiny.battlefields.single-controller", "destiny.terms.remove-die"),
            ),
        ),
    ),
    CardDef(
        "05155",
        "Quick Draw",
        E,
        "neutral",
        "yellow",
        cost=0,
        abilities=(
            ability(
                "play",
                "Play a weapon from your hand on one of your characters, paying for it; you may then "
                "activate that character.",
                _quick_draw,
                rules=("destiny.actions.play-card-sequence", "destiny.upgrades.attach"),
            ),
        ),
    ),
    CardDef(
        "05160",
        "Ice Storm",
        E,
        "neutral",
        "gray",
        cost=0,
        abilities=(
            ability("play", "Every character loses 1 shield.", _ice_storm, rules=("destiny.symbols.shield",)),
        ),
    ),
    CardDef(
        "05163",
        "Backup Specialist",
        S,
        "neutral",
        "gray",
        cost=1,
        abilities=(
            ability(
                "action",
                "Exhaust this support: reroll up to 2 of your dice.",
                _backup_specialist,
                condition=_ready_support,
                rules=("destiny.actions.card-action", "destiny.cards.exhaust-usage"),
            ),
        ),
    ),
    CardDef(
        "05167",
        "Quickdraw Holster",
        U,
        "neutral",
        "gray",
        cost=0,
        subtypes=("equipment",),
        abilities=(
            ability(
                "after",
                "After the character it is on is activated, you may reroll any number of that "
                "character's weapon dice.",
                _quickdraw_holster,
                _after_host_activated,
                optional=True,
                rules=("destiny.timing.after",),
            ),
        ),
    ),
]
