"""Awakenings (set 01): the Rey (AW-H) and Kylo Ren (AW-V) starter sets, the cards the seed
rules name as examples, and Scout (01033), the set's card that discards the "cheapest" card.

Stats and dice are facts; ability texts are the project's own short wording. Each ability is a
small function beside its card, acting only through ``Ctx`` verbs.

Where a card needs a decision the log must make, the decision is asked in this order and shape
(the ``choices`` of a step answer them in order):

- a target written on the step or die entry (``"target"``) is used when given, else a ``target``
  (or ``die`` / ``card``) choice is asked;
- several dice at once: a ``dice`` choice answered with a list of die references;
- turning dice: a ``turn`` choice answered with ``{die: face}``.

A die rolled into a pool while its card is not in play (Ace in the Hole) is named with serial 0:
``p1.01023#0/1``.
"""

from __future__ import annotations

from typing import Any

from i18n import N_, Msg
from judge.games.destiny import events as ev
from judge.games.destiny import records as rec
from judge.games.destiny.cards.common import (
    ability,
    after_opponent_activates_character,
    after_you_activate_this,
    after_you_play_this,
    before_attached_defeated,
    character_color_only,
    cheapest,
    die_belongs_to,
    entry_or_choose,
    living_characters,
    named_hand,
    pool_dice,
    spot_color,
)
from judge.games.destiny.choices import choose_dice, choose_turns
from judge.games.destiny.dice import Face, parse_face
from judge.games.destiny.engine import Ctx
from judge.games.destiny.model import CardDef, CardType, faces, on
from judge.games.destiny.records import DamageRecord
from judge.games.destiny.refs import card_of_die
from judge.games.destiny.resolve import indirect, resolve_dice
from judge.games.destiny.state import UNKNOWN, Delayed
from judge.games.destiny.steps import DieEntry, written
from judge.kernel.core import IllegalAction, MissingOutcome

C, U, S, E, B = CardType.CHARACTER, CardType.UPGRADE, CardType.SUPPORT, CardType.EVENT, CardType.BATTLEFIELD

TARGET = ("destiny.terms.choose-target",)
VIA_CARD = "destiny.dice.resolve-via-card"


# ====================================================================== small helpers
def _pick(
    ctx: Ctx,
    src: str,
    entry: Any,
    options: list[str],
    prompt: str,
    key: str = "target",
    kind: str = "target",
    rules: tuple[str, ...] = TARGET,
) -> Any:
    """One target: the step's or die entry's ``key`` when written, else a choice of the card's
    controller. None when there is nothing to choose (destiny.terms.choose-target)."""
    if not options:
        return None
    return entry_or_choose(ctx, entry, key, ctx.owner_of(src), kind, options, rules, prompt, src)


def _choose_dice(
    ctx: Ctx,
    by: str,
    options: list[str],
    src: str,
    prompt: str,
    at_most: int | None = None,
    exactly: int | None = None,
    rules: tuple[str, ...] = TARGET,
) -> list[str]:
    """Several dice at once (destiny.terms.choose-targets-simultaneously): a list of die refs."""
    most = exactly if exactly is not None else at_most
    return choose_dice(ctx, by, options, src, prompt, rules, least=exactly or 0, most=most, count=most)


def _choose_turns(
    ctx: Ctx,
    by: str,
    allowed: dict[str, list[str]],
    src: str,
    prompt: str,
    every: bool = False,
    rules: tuple[str, ...] = ("destiny.terms.turn-die",),
) -> dict[str, str]:
    """Dice to turn and their new faces, ``{die: face}``; ``every``: each die in ``allowed`` must be
    named, else exactly one."""
    n = len(allowed) if every else 1
    return choose_turns(ctx, by, dict(allowed), src, prompt, rules, least=n, most=n, count=n)


def _faces_of(ctx: Ctx, die: str) -> list[str]:
    return [f.notation() for f in ctx.die_faces(die)]


def _turnable(ctx: Ctx, die: str, test: Any = None) -> list[str]:
    """The faces ``die`` may be turned to (destiny.terms.turn-die): a different face, or the same
    symbol and value on another face of the die."""
    current = ctx.pool_face(die)
    all_faces = list(ctx.die_faces(die))
    out = []
    for f in all_faces:
        if test is not None and not test(f):
            continue
        if f == current and all_faces.count(f) < 2:
            continue
        if f.notation() not in out:
            out.append(f.notation())
    return out


def _opponent_dice(ctx: Ctx, pid: str, test: Any = None) -> list[str]:
    return [d for q in ctx.state.opponents(pid) for d in pool_dice(ctx, q, test)]


def _remove_all(ctx: Ctx, src: str, pid: str, symbol: str) -> None:
    for die in pool_dice(ctx, pid, lambda f: f.symbol == symbol):
        ctx.remove_die(src, die)


def _ready_count(ctx: Ctx, pid: str) -> int:
    return sum(1 for c in ctx.player(pid).alive() if not c.exhausted)


def _is_ready(ctx: Ctx, ref: str) -> bool:
    p = ctx.player(ctx.owner_of(ref))
    card = p.supports.get(ref) or p.upgrades.get(ref)
    return card is not None and not card.exhausted


def _ready_this(ctx: Ctx, _pid: str, ref: Any) -> bool:
    return isinstance(ref, str) and _is_ready(ctx, ref)


def _needs_target(face: Face) -> bool:
    return face.symbol in ("MD", "RD", "Sh")


# ====================================================================== characters
def _kylo_special(ctx: Ctx, src: str, entry: Any) -> None:
    pid = ctx.owner_of(src)
    targets = [c for q in ctx.state.opponents(pid) for c in living_characters(ctx, q)]
    target = _pick(ctx, src, entry, targets, Msg(N_("which opponent's character")))
    if target is None:
        return
    opp = ctx.owner_of(target)
    hand = list(ctx.player(opp).hand)
    if not hand:
        ctx.record(
            rec.LookAtRecord(
                opp,
                (),
                src,
                ("destiny.terms.look-at", "destiny.then.requires-full-resolution"),
            )
        )
        return
    code = hand[ctx.random_pick(hand, f"the card of {opp}'s hand that Kylo Ren looks at")]
    if code == UNKNOWN:
        raise MissingOutcome(
            Msg(
                N_("Kylo Ren looks at a card of {opp}'s hand that the position does not name: list that hand in "
                   "the position"),
                opp=opp,
            ),
            "destiny.terms.look-at",
        )
    ctx.record(rec.LookAtRecord(opp, (code,), src, ("destiny.terms.look-at",)))
    ctx.deal_damage(src, target, ctx.card(code).cost or 0)


def _leia_can(ctx: Ctx, pid: str, ref: Any) -> bool:
    return any(card_of_die(d) == ref for d in ctx.player(pid).pool)


def _leia_action(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    own = [d for d in ctx.player(pid).pool if card_of_die(d) == src]
    die = ctx.choose(pid, "die", own, TARGET, Msg(N_("remove which of her dice")), src)
    ctx.remove_die(src, die)
    options = list(ctx.player(pid).pool)
    named = written(step, "dice")
    if named:
        chosen = [ctx.canon_die(e.die) for e in named]
        if len(chosen) > 2 or len(set(chosen)) != len(chosen) or any(d not in options for d in chosen):
            raise IllegalAction(
                "destiny.actions.card-action", Msg(N_("reroll up to 2 distinct dice among {options}"), options=options)
            )
    else:
        chosen = _choose_dice(ctx, pid, options, src, Msg(N_("reroll up to 2 of your dice")), at_most=2)
    if chosen:
        ctx.reroll(src, chosen)


@on(ev.GainShields)
def _before_qui_gon_shielded(ctx: Ctx, src: str, e: Any) -> bool:
    return isinstance(e, ev.GainShields) and e.target == src and ctx.character(src).shields > 0


def _qui_gon(ctx: Ctx, src: str, _e: Any) -> None:
    pid = ctx.owner_of(src)
    ctx.remove_shields(src, src, 1)
    target = ctx.choose(
        pid, "target", living_characters(ctx), TARGET, Msg(N_("deal 1 damage to which character")), src
    )
    if target is not None:
        ctx.deal_damage(src, target, 1)


@on(ev.Play)
def _after_upgrade_played_on_this(ctx: Ctx, src: str, e: Any) -> bool:
    return isinstance(e, ev.Play) and e.on == src and e.player == ctx.owner_of(src)


def _extra_action(ctx: Ctx, src: str, _e: Any) -> None:
    ctx.grant_extra_action(ctx.owner_of(src), "destiny.timing.after")


def _finn_deck(_ctx: Any, _src: str, card: Any, allowed: Any) -> Any:
    """Finn's deck-building text: red villain weapons and vehicles."""
    if card.color == "red" and card.affiliation == "villain" and {"weapon", "vehicle"} & set(card.subtypes):
        return True
    return allowed


def _finn_weapons(ctx: Ctx, src: str, subject: Any, value: Any) -> Any:
    code, on = subject
    return bool(value) or (on == src and "weapon" in ctx.card(code).subtypes)


@on(ev.Play)
def _after_you_play_ambush(ctx: Ctx, src: str, e: Any) -> bool:
    return (isinstance(e, ev.Play) and e.player == ctx.owner_of(src)
            and "ambush" in ctx.keywords_of(ctx.card(e.code), (e.player, e.code)))


def _shield_self(ctx: Ctx, src: str, _e: Any) -> None:
    ctx.give_shields(src, src, 1)


def _jango(ctx: Ctx, src: str, _e: Any) -> None:
    pid = ctx.owner_of(src)
    ch = ctx.player(pid).characters.get(src)
    if ch and not ch.defeated and not ch.exhausted:
        ctx.activate(pid, src, src)


def _tusken(ctx: Ctx, src: str, _e: Any) -> None:
    pid = ctx.owner_of(src)
    p = ctx.player(pid)
    mine = [
        d for d in p.pool if die_belongs_to(ctx, src)(d) and not p.pool[d].modifier and not p.pool[d].is_blank
    ]
    if not p.hand or not mine:
        return
    hand = named_hand(ctx, pid, src, "destiny.zones.discard-pile")  # the card chosen goes public
    card = ctx.choose(
        pid,
        "discard",
        sorted(set(hand)),
        ("destiny.then.requires-full-resolution",),
        Msg(N_("discard which card")),
        src,
    )
    ctx.emit(ev.DiscardFromHand(src, pid, card))
    die = ctx.choose(pid, "die", mine, (VIA_CARD,), Msg(N_("resolve which die")), src)
    target = None
    if _needs_target(p.pool[die]):
        target = ctx.choose(pid, "target", living_characters(ctx), TARGET, Msg(N_("the target of that die")), src)
    resolve_dice(
        ctx,
        pid, [DieEntry(die, target or None)], source=src, max_dice=1, rule=VIA_CARD
    )


# ====================================================================== upgrades
def _f11d_special(ctx: Ctx, src: str, entry: Any) -> None:
    pid = ctx.owner_of(src)
    opp = ctx.opponent(pid, src, Msg(N_("which opponent deals 2 damage to their own characters")))
    indirect(ctx, src, opp, 2, split=written(entry, "split"))


def _immobilize_can(ctx: Ctx, pid: str, ref: Any) -> bool:
    return f"{ref}/1" in ctx.player(pid).pool


def _immobilize(ctx: Ctx, src: str, step: Any) -> None:
    ctx.remove_die(src, f"{src}/1")
    options = [d for _, d, _ in ctx.all_pool_dice() if _turnable(ctx, d, lambda f: f.is_blank)]
    die = _pick(ctx, src, step, options, Msg(N_("turn which die to a blank")), kind="die")
    if die is not None:
        ctx.turn_die(src, die, "-")


def _grenades_special(ctx: Ctx, src: str, _entry: Any) -> None:
    pid = ctx.owner_of(src)
    opp = ctx.opponent(pid, src, Msg(N_("whose characters take 2 damage each")))
    for c in living_characters(ctx, opp):
        if not ctx.player(opp).characters[c].defeated:
            ctx.deal_damage(src, c, 2)
    ctx.discard_from_play(src, src, "destiny.abilities.resolve-fully")


def _crime_lord_special(ctx: Ctx, src: str, entry: Any) -> None:
    pid = ctx.owner_of(src)
    if ctx.player(pid).resources < 5:
        ctx.record(rec.CannotPayRecord(pid, 5, src, ("destiny.resources.never-negative",)))
        return
    ctx.spend(pid, 5, "destiny.abilities.resolve-fully", "Crime Lord's special ability")
    target = _pick(ctx, src, entry, living_characters(ctx), Msg(N_("which character is defeated after the round")))
    if target is not None:
        ctx.delay(Delayed("round-end", "defeat", target, src, ctx.state.round))


def _scout_special(ctx: Ctx, src: str, _entry: Any) -> None:
    """Look at an opponent's hand and discard its cheapest card; the Scout's player picks on a tie."""
    pid = ctx.owner_of(src)
    opp = ctx.opponent(pid, src, Msg(N_("whose hand to look at")))
    hand = list(ctx.player(opp).hand)
    if UNKNOWN in hand:
        raise MissingOutcome(
            Msg(
                N_("Scout looks at {opp}'s hand, which the position does not name in full: list that hand in the "
                   "position"),
                opp=opp,
            ),
            "destiny.terms.look-at",
        )
    ctx.record(rec.LookAtRecord(opp, tuple(hand), src, ("destiny.terms.look-at",)))
    low = cheapest(ctx, opp, hand)
    code = ctx.choose(pid, "card", low, ("destiny.terms.cheapest",), Msg(
        N_("discard which cheapest card of {opp}'s"),
        opp=opp,
    ), src)
    if code is not None:
        ctx.emit(ev.DiscardFromHand(src, opp, code))


def _jedi_robes(ctx: Ctx, src: str, _e: Any) -> None:
    host = ctx.upgrade_host(src)
    if host:
        ctx.give_shields(src, host, 2 if ctx.state.round == 1 else 1)


def _one_with_the_force(ctx: Ctx, src: str, _e: Any) -> None:
    ctx.upgrade_becomes_support(src, src)


def _rey_staff_special(ctx: Ctx, src: str, entry: Any) -> None:
    options = pool_dice(ctx, None, lambda f: f.symbol in ("MD", "RD"))
    die = _pick(ctx, src, entry, options, Msg(N_("remove which die showing damage")), kind="die")
    if die is not None:
        ctx.remove_die(src, die)


def _force_throw_special(ctx: Ctx, src: str, entry: Any) -> None:
    die = _pick(ctx, src, entry, pool_dice(ctx), Msg(N_("remove which die")), key="remove", kind="die")
    if die is None:
        return
    value = ctx.die_value(die)
    ctx.remove_die(src, die)
    target = _pick(ctx, src, entry, living_characters(ctx), Msg(N_("deal the die's value to which character")))
    ctx.deal_damage(src, target, value)


def _lightsaber_special(ctx: Ctx, src: str, entry: Any) -> None:
    target = _pick(ctx, src, entry, living_characters(ctx), Msg(N_("deal 2 unblockable damage to which character")))
    ctx.deal_damage(src, target, 2, unblockable=True)


def _mind_probe_special(ctx: Ctx, src: str, entry: Any) -> None:
    pid = ctx.owner_of(src)
    targets = [c for q in ctx.state.opponents(pid) for c in living_characters(ctx, q)]
    target = _pick(ctx, src, entry, targets, Msg(N_("which opponent's character")))
    if target is not None:
        ctx.deal_damage(src, target, len(ctx.player(ctx.owner_of(target)).hand))


def _comlink(ctx: Ctx, src: str, _e: Any) -> None:
    pid = ctx.owner_of(src)
    dice = _choose_dice(ctx, pid, pool_dice(ctx), src, Msg(N_("reroll any number of dice of one player")))
    if len({ctx.owner_of(d) for d in dice}) > 1:
        raise IllegalAction(
            "destiny.terms.choose-target", Msg(N_("the dice rerolled must all be yours or all one opponent's"))
        )
    if dice:
        ctx.reroll(src, dice)


def _escort_guardian(ctx: Ctx, src: str, subject: Any, value: Any) -> Any:
    if subject == ctx.upgrade_host(src):
        return set(value) | {"guardian"}
    return value


def _second_chance(ctx: Ctx, src: str, _e: Any) -> None:
    host = ctx.upgrade_host(src)
    if host:
        ctx.heal(src, host, 5)
    ctx.discard_from_play(src, src, "destiny.replacement.instead")


@on(ev.Damage)
def _after_host_takes_melee(ctx: Ctx, src: str, e: Any) -> bool:
    if not (isinstance(e, ev.Damage) and e.symbol == "MD" and e.target == ctx.upgrade_host(src)):
        return False
    for done in reversed(ctx.records):  # the damage's own record says how much was taken
        if isinstance(done, DamageRecord) and done.event.target == e.target and done.event.source == e.source:
            return done.taken > 0
    return False


def _discard_this(ctx: Ctx, src: str, _e: Any) -> None:
    ctx.discard_from_play(src, src, "destiny.damage.dealt-vs-taken")


def _hunker_down_action(ctx: Ctx, src: str, _step: Any) -> None:
    ctx.exhaust(src, src)
    host = ctx.upgrade_host(src)
    if host:
        ctx.give_shields(src, host, 1)


# ====================================================================== supports
def _tie_special(ctx: Ctx, src: str, _entry: Any) -> None:
    pid = ctx.owner_of(src)
    opp = ctx.opponent(pid, src, Msg(N_("whose characters lose all their shields")))
    for c in living_characters(ctx, opp):
        ctx.remove_shields(src, c, ctx.character(c).shields)


def _bb8_special(ctx: Ctx, src: str, entry: Any) -> None:
    pid = ctx.owner_of(src)
    die = ctx.canon_die(entry.die)
    ctx.put_in_pool(src, pid, die, parse_face("Sp"), "destiny.symbols.special-self-reroll")
    others = [d for d in ctx.player(pid).pool if d != die]
    other = _pick(ctx, src, entry, others, Msg(N_("reroll which other die of yours")), kind="die")
    ctx.reroll(src, [die] + ([other] if other else []))


def _emperors_favor(ctx: Ctx, src: str, subject: Any, value: Any) -> Any:
    return value + 1 if subject == ctx.owner_of(src) else value


def _dark_side_can(ctx: Ctx, pid: str, ref: Any) -> bool:
    return _ready_this(ctx, pid, ref) and bool(ctx.player(pid).pool)


def _power_of_the_dark_side(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    ctx.exhaust(src, src)
    named = written(step, "dice")
    options = list(ctx.player(pid).pool)
    if named:
        die = ctx.canon_die(named[0].die)
        if die not in options or len(named) > 1:
            raise IllegalAction(
                "destiny.actions.card-action", Msg(
                    N_("reroll one of your dice ({options})"),
                    options=', '.join(options),
                )
            )
    else:
        die = ctx.choose(pid, "die", options, TARGET, Msg(N_("reroll which of your dice")), src)
    ctx.reroll(src, [die])
    if ctx.pool_face(die).is_blank:
        target = _pick(ctx, src, step, living_characters(ctx), Msg(N_("deal 2 unblockable damage to which character")))
        ctx.deal_damage(src, target, 2, unblockable=True)


def _underworld(ctx: Ctx, src: str, _step: Any) -> None:
    ctx.exhaust(src, src)
    ctx.gain(src, ctx.owner_of(src), 1)


def _awakening(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    ctx.exhaust(src, src)
    p = ctx.player(pid)
    resolve_dice(
        ctx,
        pid,
        written(step, "dice"),
        source=src,
        only=lambda d: p.pool[d].modifier,
        max_dice=1,
        rule=VIA_CARD,
        unmodified=True,
    )


@on(ev.Play)
def _before_you_play_blue_upgrade(ctx: Ctx, src: str, e: Any) -> bool:
    if not isinstance(e, ev.Play) or e.player != ctx.owner_of(src) or not _is_ready(ctx, src):
        return False
    card = ctx.card(e.code)
    return card.type == CardType.UPGRADE and card.color == "blue"


def _binds_all_things(ctx: Ctx, src: str, _e: Any) -> None:
    ctx.exhaust(src, src)
    ctx.cost_reduction += 1
    ctx.record(rec.CostReducedRecord(1, src, ("destiny.terms.reduce",)))


# ====================================================================== events
def _best_defense(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    reds = [c for c in living_characters(ctx, pid) if ctx.card(ctx.code_of(c)).color == "red"]
    who = _pick(ctx, src, step, reds, Msg(N_("deal 3 damage to which of your red characters")))
    if who is None:
        return
    ctx.deal_damage(src, who, 3)
    opp = ctx.opponent(pid, src, Msg(N_("whose dice to remove")))
    for die in _choose_dice(
        ctx, pid, pool_dice(ctx, opp), src, Msg(N_("remove up to 2 of the opponent's dice")), at_most=2
    ):
        ctx.remove_die(src, die)


def _enrage(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    blues = [c for c in living_characters(ctx, pid) if ctx.card(ctx.code_of(c)).color == "blue"]
    who = _pick(ctx, src, step, blues, Msg(N_("deal 1 damage to which of your blue characters")))
    if who is None:
        return
    ctx.deal_damage(src, who, 1)
    ctx.gain(src, pid, 1)


def _intimidate(ctx: Ctx, src: str, step: Any) -> None:
    target = _pick(ctx, src, step, living_characters(ctx), Msg(N_("remove all shields from which character")))
    if target is not None:
        ctx.remove_shields(src, target, ctx.character(target).shields)


def _nowhere_to_run(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    blanks = pool_dice(ctx, pid, lambda f: f.is_blank)
    allowed = {d: _turnable(ctx, d) for d in blanks}
    for die, face in _choose_turns(
        ctx, pid, allowed, src, Msg(N_("turn each blank die to any face")), every=True
    ).items():
        ctx.turn_die(src, die, face)


def _ace_in_the_hole(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    hand = named_hand(ctx, pid, src, "destiny.zones.discard-pile")  # the card chosen goes public
    options = sorted(
        {c for c in hand if ctx.card(c).type == CardType.UPGRADE and ctx.card(c).color == "yellow"}
    )
    code = ctx.choose(pid, "card", options, TARGET, Msg(N_("discard which yellow upgrade")), src)
    if code is None:
        return
    ctx.emit(ev.DiscardFromHand(src, pid, code))
    if ctx.card(code).has_die:
        ctx.put_in_pool(src, pid, f"{pid}.{code}#0/1", rule="destiny.abilities.special-die-without-card")


def _heroism(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    dice = _opponent_dice(ctx, pid, lambda f: f.symbol in ("MD", "RD"))
    uniques = [c for c in living_characters(ctx, pid) if ctx.card(ctx.code_of(c)).unique]
    if not dice or not uniques:
        return
    die = ctx.choose(pid, "die", dice, TARGET, Msg(N_("which opponent's die showing damage")), src)
    who = _pick(ctx, src, step, uniques, Msg(N_("deal its value to which of your unique characters")))
    ctx.deal_damage(src, who, ctx.die_value(die))
    ctx.remove_die(src, die)


def _daring_escape(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    opp = ctx.opponent(pid, src, Msg(N_("whose dice to reroll")))
    dice = _choose_dice(ctx, pid, pool_dice(ctx, opp), src, Msg(N_("reroll any number of the opponent's dice")))
    if dice:
        ctx.reroll(src, dice)
    for die in pool_dice(ctx, opp, lambda f: f.is_blank):
        ctx.remove_die(src, die)


def _draw_attention(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    mine = living_characters(ctx, pid)
    hurt = [c for c in mine if ctx.character(c).damage > 0]
    frm = ctx.choose(pid, "target", hurt, TARGET, Msg(N_("move damage from which character")), src)
    if frm is None:
        return
    to = ctx.choose(pid, "target", [c for c in mine if c != frm], TARGET, Msg(N_("move it to which character")), src)
    if to is None:
        return
    most = min(2, ctx.character(frm).damage)
    n = ctx.choose(
        pid, "amount", list(range(most + 1)), ("destiny.terms.move-damage",), Msg(N_("how much damage")), src
    )
    if n:
        ctx.move_damage(src, frm, to, n)


def _wookiee(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    opp = ctx.opponent(pid, src, Msg(N_("which opponent chooses")))
    rules = ("destiny.terms.choose-option",)
    option = ctx.choose(
        opp,
        "option",
        ["damage", "remove-dice"],
        rules,
        Msg(N_("2 damage to one of your exhausted characters, or remove 2 of your dice")),
        src,
        optional=True,
    )
    if option == "damage":
        tired = [c.ref for c in ctx.player(opp).alive() if c.exhausted]
        who = ctx.choose(opp, "target", tired, TARGET, Msg(N_("deal 2 damage to which exhausted character")), src)
        if who is not None:
            ctx.deal_damage(src, who, 2)
    else:
        dice = pool_dice(ctx, opp)
        for die in _choose_dice(ctx, opp, dice, src, Msg(N_("remove 2 of your dice")), exactly=min(2, len(dice))):
            ctx.remove_die(src, die)


def _scavenge(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    moved = [ctx.move_card(src, pid, "deck", "discard") for _ in range(3)]
    if None in moved:
        ctx.record(
            rec.ThenNotResolvedRecord(
                src,
                sum(1 for m in moved if m),
                ("destiny.then.requires-full-resolution",),
            )
        )
        return
    p = ctx.player(pid)
    options = sorted({c for c in p.discard if ctx.card(c).type in (CardType.UPGRADE, CardType.SUPPORT)})
    if options and ctx.may(
        pid,
        Msg(N_("add an upgrade or support from your discard pile to your hand")),
        src,
        ("destiny.then.requires-full-resolution",),
    ):
        code = ctx.choose(pid, "card", options, TARGET, Msg(N_("which card to take back")), src)
        ctx.move_card(src, pid, "discard", "hand", code)


def _disturbance(ctx: Ctx, src: str, _step: Any) -> None:
    dice = pool_dice(ctx)
    if dice:
        ctx.reroll(src, dice)


def _use_the_force(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    if not spot_color("blue")(ctx, pid, None):
        ctx.record(
            rec.NoEffectRecord(
                src,
                "no blue character to spot",
                ("destiny.terms.spot", "destiny.terms.spot-own-only"),
            )
        )
        return
    allowed = {d: _turnable(ctx, d) for d in pool_dice(ctx)}
    for die, face in _choose_turns(
        ctx, pid, {d: f for d, f in allowed.items() if f}, src, Msg(N_("turn which die to which face"))
    ).items():
        ctx.turn_die(src, die, face)


def _aim(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    allowed = {d: _turnable(ctx, d, lambda f: f.symbol == "RD") for d in pool_dice(ctx, pid)}
    for die, face in _choose_turns(
        ctx, pid, {d: f for d, f in allowed.items() if f}, src, Msg(N_("turn which of your dice to ranged damage"))
    ).items():
        ctx.turn_die(src, die, face)


def _block(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    _remove_all(ctx, src, ctx.opponent(pid, src, Msg(N_("whose melee dice to remove"))), "MD")


def _dodge(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    _remove_all(ctx, src, ctx.opponent(pid, src, Msg(N_("whose ranged dice to remove"))), "RD")


def _close_quarters(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    n = len(pool_dice(ctx, pid, lambda f: f.symbol == "MD"))
    opp = ctx.opponent(pid, src, Msg(N_("who discards at random")))
    ctx.discard_random(src, opp, n)


def _flank_ok(ctx: Ctx, pid: str, _on: Any) -> bool:
    return any(_ready_count(ctx, q) < _ready_count(ctx, pid) for q in ctx.state.opponents(pid))


def _flank(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    fewer = [q for q in ctx.state.opponents(pid) if _ready_count(ctx, q) < _ready_count(ctx, pid)]
    opp = ctx.choose(pid, "opponent", fewer, ("destiny.multiplayer.choose-opponent",), Msg(N_("which opponent")), src)
    die = _pick(ctx, src, step, pool_dice(ctx, opp), Msg(N_("remove which of their dice")), kind="die")
    if die is not None:
        ctx.remove_die(src, die)


def _take_cover(ctx: Ctx, src: str, step: Any) -> None:
    target = _pick(ctx, src, step, living_characters(ctx), Msg(N_("give 1 shield to which character")))
    if target is not None:
        ctx.give_shields(src, target, 1)


def _unpredictable(ctx: Ctx, src: str, step: Any) -> None:
    die = _pick(ctx, src, step, pool_dice(ctx), Msg(N_("reroll which die")), kind="die")
    if die is not None:
        ctx.reroll(src, [die])


# ====================================================================== battlefields
def _frozen_wastes(ctx: Ctx, src: str, step: Any) -> None:
    options = [d for q, d, _ in ctx.all_pool_dice() if card_of_die(d) in ctx.player(q).characters]
    die = _pick(ctx, src, step, options, Msg(N_("remove which character die")), kind="die")
    if die is not None:
        ctx.remove_die(src, die)


def _rebel_war_room(ctx: Ctx, src: str, step: Any) -> None:
    pid = ctx.owner_of(src)
    entries = written(step, "dice")
    if not entries:
        p = ctx.player(pid)
        options = [d for d, f in p.pool.items() if not f.modifier and not f.is_blank]
        die = ctx.choose(pid, "die", options, (VIA_CARD,), Msg(N_("resolve which of your dice")), src)
        if die is None:
            return
        target = None
        if _needs_target(p.pool[die]):
            target = ctx.choose(pid, "target", living_characters(ctx), TARGET, Msg(N_("its target")), src)
        entries = [DieEntry(die, target)]
    resolve_dice(ctx, pid, entries, source=src, free=True, max_dice=1, rule="destiny.abilities.claim")


def _starship_graveyard(ctx: Ctx, src: str, _step: Any) -> None:
    pid = ctx.owner_of(src)
    options = sorted(
        {c for c in ctx.player(pid).discard if ctx.card(c).type in (CardType.UPGRADE, CardType.SUPPORT)}
    )
    code = ctx.choose(pid, "card", options, TARGET, Msg(N_("put which card on top of your deck")), src)
    if code is not None:
        ctx.move_card(src, pid, "discard", "deck", code)


def _blue_only() -> Any:
    return ability(
        "restriction",
        "Blue character only.",
        condition=character_color_only("blue"),
        rules=("destiny.terms.play-restrictions",),
    )


def _yellow_only() -> Any:
    return ability(
        "restriction",
        "Yellow character only.",
        condition=character_color_only("yellow"),
        rules=("destiny.terms.play-restrictions",),
    )


def _special(text: str, effect: Any) -> Any:
    return ability("special", text, effect, rules=("destiny.symbols.special",))


def _event(text: str, effect: Any) -> Any:
    return ability("play", text, effect, rules=("destiny.events.resolve-then-discard",))


def _claim(text: str, effect: Any) -> Any:
    return ability("claim", text, effect, rules=("destiny.abilities.claim",))


def _exhaust_action(text: str, effect: Any, condition: Any = _ready_this) -> Any:
    return ability("action", text, effect, condition=condition, rules=("destiny.actions.card-action",))


CARDS: list[CardDef] = [
    # ------------------------------------------------------------------ characters
    CardDef(
        "01002",
        "First Order Stormtrooper",
        C,
        "villain",
        "red",
        points=(7,),
        health=7,
        faces=faces("1RD", "2RD", "2RD1", "1R", "-", "-"),
        subtypes=("trooper",),
    ),
    CardDef(
        "01011",
        "Kylo Ren",
        C,
        "villain",
        "blue",
        subtitle="Vader's Disciple",
        unique=True,
        points=(10, 13),
        health=11,
        faces=faces("1MD", "2MD1", "1Sh", "1R", "Sp", "-"),
        subtypes=("apprentice",),
        abilities=(
            _special(
                "Choose an opponent's character, then look at a random card in that opponent's "
                "hand: deal the character damage equal to that card's cost.",
                _kylo_special,
            ),
        ),
    ),
    CardDef(
        "01021",
        "Jango Fett",
        C,
        "villain",
        "yellow",
        subtitle="Bounty Hunter",
        unique=True,
        points=(12, 16),
        health=10,
        faces=faces("1RD", "2RD", "1MD", "1R", "+1R", "-"),
        subtypes=("bounty-hunter",),
        abilities=(
            ability(
                "after",
                "After an opponent activates a character, you may activate him.",
                _jango,
                after_opponent_activates_character,
                optional=True,
                rules=("destiny.timing.after",),
            ),
        ),
    ),
    CardDef(
        "01022",
        "Tusken Raider",
        C,
        "villain",
        "yellow",
        points=(9,),
        health=8,
        faces=faces("1RD", "1MD", "3MD1", "1Sh", "1R", "-"),
        subtypes=("scavenger",),
        abilities=(
            ability(
                "after",
                "After you activate it, you may discard a card from hand to resolve one of "
                "its own or upgrade dice.",
                _tusken,
                after_you_activate_this,
                optional=True,
                rules=("destiny.timing.after",),
            ),
        ),
    ),
    CardDef(
        "01028",
        "Leia Organa",
        C,
        "hero",
        "red",
        subtitle="Born Leader",
        unique=True,
        points=(12, 16),
        health=11,
        faces=faces("1RD", "2RD", "2RD1", "1F", "1R", "-"),
        subtypes=("leader",),
        abilities=(
            ability(
                "action",
                "Remove one of her dice from your pool to reroll up to 2 of your dice.",
                _leia_action,
                condition=_leia_can,
                rules=("destiny.actions.card-action",),
            ),
        ),
    ),
    CardDef(
        "01037",
        "Qui-Gon Jinn",
        C,
        "hero",
        "blue",
        subtitle="Ataru Master",
        unique=True,
        points=(13, 17),
        health=11,
        faces=faces("1MD", "2MD", "1Sh", "2Sh", "1R", "-"),
        subtypes=("jedi",),
        abilities=(
            ability(
                "before",
                "Before he gains shields, you may remove 1 of his shields to deal 1 damage to a character.",
                _qui_gon,
                _before_qui_gon_shielded,
                optional=True,
                rules=("destiny.timing.before", "destiny.timing.trigger-condition"),
            ),
        ),
    ),
    CardDef(
        "01038",
        "Rey",
        C,
        "hero",
        "blue",
        subtitle="Force Prodigy",
        unique=True,
        points=(9, 12),
        health=10,
        faces=faces("1MD", "+2MD", "1Dc", "1R", "+1R", "-"),
        subtypes=("scavenger",),
        abilities=(
            ability(
                "after",
                "After you play an upgrade on her, you may take an extra action.",
                _extra_action,
                _after_upgrade_played_on_this,
                optional=True,
                rules=("destiny.timing.after", "destiny.actions.extra-actions-immediate"),
            ),
        ),
    ),
    CardDef(
        "01045",
        "Finn",
        C,
        "hero",
        "yellow",
        subtitle="First Order Defector",
        unique=True,
        points=(13, 16),
        health=10,
        faces=faces("1RD", "2RD", "1MD", "1Sh", "1R", "-"),
        subtypes=("scoundrel",),
        abilities=(
            ability(
                "constant",
                "Any weapon can be attached to him, ignoring its play restrictions.",
                query="ignore_restrictions",
                modify=_finn_weapons,
                rules=("destiny.abilities.constant", "destiny.terms.play-restrictions"),
            ),
            ability(
                "constant",
                "His team's deck may include red villain weapons and vehicles.",
                query="deck_allows",
                modify=_finn_deck,
                rules=("destiny.general.golden-rule", "destiny.deckbuilding.affiliation-match"),
            ),
        ),
    ),
    CardDef(
        "01046",
        "Han Solo",
        C,
        "hero",
        "yellow",
        subtitle="Scoundrel",
        unique=True,
        points=(14, 18),
        health=10,
        faces=faces("2RD", "3RD1", "2Dr", "1R", "1R", "-"),
        subtypes=("scoundrel",),
        abilities=(
            ability(
                "after",
                "After you play a card with Ambush, you may give him 1 shield.",
                _shield_self,
                _after_you_play_ambush,
                optional=True,
                rules=("destiny.timing.after", "destiny.keywords.ambush"),
            ),
        ),
    ),
    # ------------------------------------------------------------------ upgrades
    CardDef(
        "01008",
        "F-11D Rifle",
        U,
        "villain",
        "red",
        cost=2,
        faces=faces("2RD1", "+1RD", "+2RD", "1R", "Sp", "-"),
        subtypes=("weapon",),
        keywords=frozenset({"redeploy"}),
        abilities=(
            _special(
                "An opponent deals 2 damage to their own characters, split as they like.", _f11d_special
            ),
        ),
    ),
    CardDef(
        "01014",
        "Immobilize",
        U,
        "villain",
        "blue",
        cost=2,
        faces=faces("1Dr", "1Sh", "1Sh", "2Sh", "1R", "-"),
        subtypes=("ability",),
        abilities=(
            _blue_only(),
            ability(
                "action",
                "Remove this upgrade's die from your pool to turn a die to a blank.",
                _immobilize,
                condition=_immobilize_can,
                rules=("destiny.actions.card-action",),
            ),
        ),
    ),
    CardDef(
        "01017",
        "Infantry Grenades",
        U,
        "villain",
        "gray",
        cost=2,
        faces=faces("1RD", "2RD1", "1R", "Sp", "-", "-"),
        subtypes=("weapon",),
        abilities=(
            _special(
                "Deal 2 damage to each of an opponent's characters, then discard this upgrade.",
                _grenades_special,
            ),
        ),
    ),
    CardDef(
        "01023",
        "Crime Lord",
        U,
        "villain",
        "yellow",
        cost=4,
        faces=faces("2F", "3Dr1", "2Sh", "2R", "Sp", "Sp"),
        subtypes=("ability",),
        abilities=(
            _yellow_only(),
            _special(
                "Spend 5 resources to choose a character: it is defeated after this round ends.",
                _crime_lord_special,
            ),
        ),
    ),
    CardDef(
        "01033",
        "Scout",
        U,
        "hero",
        "red",
        cost=1,
        faces=faces("1F", "2Dr1", "1R", "Sp", "Sp", "-"),
        subtypes=("ability",),
        abilities=(
            ability(
                "special",
                "Look at an opponent's hand and discard its cheapest card (you choose on a tie).",
                _scout_special,
                rules=("destiny.symbols.special", "destiny.terms.look-at", "destiny.terms.cheapest"),
            ),
        ),
    ),
    CardDef(
        "01040",
        "Jedi Robes",
        U,
        "hero",
        "blue",
        cost=2,
        faces=faces("1F", "1F", "1Dr", "1R", "+1R", "-"),
        subtypes=("equipment",),
        abilities=(
            ability(
                "after",
                "After you play it, give the attached character 1 shield (2 in the first round).",
                _jedi_robes,
                after_you_play_this,
                rules=("destiny.timing.after",),
            ),
        ),
    ),
    CardDef(
        "01042",
        "One With The Force",
        U,
        "hero",
        "blue",
        cost=4,
        faces=faces("3RD", "2F", "3F", "3Dr", "2Sh", "2R"),
        subtypes=("ability",),
        abilities=(
            _blue_only(),
            ability(
                "before",
                "Before the attached character is defeated, this upgrade becomes a ready "
                "support for the rest of the game.",
                _one_with_the_force,
                before_attached_defeated,
                rules=("destiny.timing.before",),
            ),
        ),
    ),
    CardDef(
        "01044",
        "Rey's Staff",
        U,
        "hero",
        "gray",
        unique=True,
        cost=2,
        faces=faces("1MD", "1MD", "3MD1", "1R", "Sp", "-"),
        subtypes=("weapon",),
        abilities=(_special("Remove a die showing melee or ranged damage.", _rey_staff_special),),
    ),
    CardDef(
        "01057",
        "Force Throw",
        U,
        "neutral",
        "blue",
        cost=3,
        faces=faces("1RD", "1Dr", "2Dr", "Sp", "Sp", "-"),
        subtypes=("ability",),
        abilities=(
            _blue_only(),
            _special(
                "Remove a die to deal a character damage equal to its value (special and blank count 0).",
                _force_throw_special,
            ),
        ),
    ),
    CardDef(
        "01059",
        "Lightsaber",
        U,
        "neutral",
        "blue",
        cost=3,
        faces=faces("3MD1", "+2MD", "1Sh", "1R", "Sp", "-"),
        subtypes=("weapon",),
        keywords=frozenset({"redeploy"}),
        abilities=(_special("Deal 2 unblockable damage to a character.", _lightsaber_special),),
    ),
    CardDef(
        "01060",
        "Mind Probe",
        U,
        "neutral",
        "blue",
        cost=4,
        faces=faces("3RD1", "2Dr", "2Dc", "Sp", "Sp", "-"),
        subtypes=("ability",),
        abilities=(
            _blue_only(),
            _special(
                "Deal an opponent's character 1 damage per card in that opponent's hand.", _mind_probe_special
            ),
        ),
    ),
    CardDef(
        "01061",
        "Comlink",
        U,
        "neutral",
        "gray",
        cost=2,
        faces=faces("1F", "1F", "1Sh", "1R", "+1R", "-"),
        subtypes=("equipment",),
        abilities=(
            ability(
                "after",
                "After you play it, you may reroll any number of your dice, or any number "
                "of one opponent's dice.",
                _comlink,
                after_you_play_this,
                optional=True,
                rules=("destiny.timing.after",),
            ),
        ),
    ),
    CardDef(
        "01078",
        "Personal Escort",
        U,
        "villain",
        "red",
        cost=1,
        subtypes=("ability",),
        abilities=(
            ability(
                "constant",
                "The attached character has Guardian.",
                query="keywords",
                modify=_escort_guardian,
                rules=("destiny.abilities.constant", "destiny.keywords.guardian"),
            ),
        ),
    ),
    CardDef(
        "01137",
        "Second Chance",
        U,
        "hero",
        "yellow",
        cost=3,
        subtypes=("ability",),
        abilities=(
            _yellow_only(),
            ability(
                "instead",
                "Before the attached character would be defeated, heal 5 damage from it "
                "and discard this upgrade instead.",
                _second_chance,
                before_attached_defeated,
                rules=("destiny.replacement.instead",),
            ),
        ),
    ),
    CardDef(
        "01164",
        "Hunker Down",
        U,
        "neutral",
        "yellow",
        cost=0,
        subtypes=("ability",),
        abilities=(
            ability(
                "after",
                "If the attached character takes melee damage, discard this upgrade.",
                _discard_this,
                _after_host_takes_melee,
                rules=("destiny.damage.dealt-vs-taken",),
            ),
            _exhaust_action(
                "Exhaust this upgrade to give the attached character 1 shield.", _hunker_down_action
            ),
        ),
    ),
    # ------------------------------------------------------------------ supports
    CardDef(
        "01006",
        "First Order TIE Fighter",
        S,
        "villain",
        "red",
        cost=3,
        faces=faces("1RD", "2RD", "3RD1", "1Dr", "Sp", "-"),
        subtypes=("vehicle",),
        abilities=(_special("Remove all shields from all of an opponent's characters.", _tie_special),),
    ),
    CardDef(
        "01043",
        "BB-8",
        S,
        "hero",
        "gray",
        unique=True,
        cost=1,
        faces=faces("1F", "1Dr", "1Sh", "1R", "Sp", "-"),
        subtypes=("droid",),
        abilities=(
            _special(
                "Reroll this die and one other die of yours; this die stays in your pool.", _bb8_special
            ),
        ),
    ),
    CardDef(
        "01088",
        "Emperor's Favor",
        S,
        "villain",
        "blue",
        unique=True,
        cost=1,
        abilities=(
            ability(
                "constant",
                "Your hand limit is 1 higher.",
                query="hand_limit",
                modify=_emperors_favor,
                rules=("destiny.zones.hand-limit", "destiny.terms.increase"),
            ),
        ),
    ),
    CardDef(
        "01089",
        "Power of the Dark Side",
        S,
        "villain",
        "blue",
        cost=2,
        abilities=(
            _exhaust_action(
                "Exhaust this support to reroll one of your dice; if it lands on a blank, "
                "deal 2 unblockable damage to a character.",
                _power_of_the_dark_side,
                _dark_side_can,
            ),
        ),
    ),
    CardDef(
        "01101",
        "Underworld Connections",
        S,
        "villain",
        "yellow",
        cost=2,
        abilities=(_exhaust_action("Exhaust this support to gain 1 resource.", _underworld),),
    ),
    CardDef(
        "01124",
        "Awakening",
        S,
        "hero",
        "blue",
        cost=1,
        abilities=(
            _exhaust_action(
                "Exhaust this support to resolve one of your dice showing a modifier as if it had no plus.",
                _awakening,
            ),
        ),
    ),
    CardDef(
        "01150",
        "It Binds All Things",
        S,
        "neutral",
        "blue",
        cost=1,
        abilities=(
            ability(
                "before",
                "Before you play a blue upgrade, you may exhaust this support to lower its cost by 1.",
                _binds_all_things,
                _before_you_play_blue_upgrade,
                optional=True,
                rules=("destiny.timing.before", "destiny.terms.reduce"),
            ),
        ),
    ),
    # ------------------------------------------------------------------ events
    CardDef(
        "01075",
        "The Best Defense...",
        E,
        "villain",
        "red",
        cost=1,
        abilities=(
            _event(
                "Deal 3 damage to one of your red characters to remove up to 2 of an opponent's dice.",
                _best_defense,
            ),
        ),
    ),
    CardDef(
        "01081",
        "Enrage",
        E,
        "villain",
        "blue",
        cost=0,
        abilities=(_event("Deal 1 damage to one of your blue characters to gain 1 resource.", _enrage),),
    ),
    CardDef(
        "01084",
        "Intimidate",
        E,
        "villain",
        "blue",
        cost=0,
        abilities=(_event("Remove every shield from a character.", _intimidate),),
    ),
    CardDef(
        "01091",
        "Nowhere to Run",
        E,
        "villain",
        "gray",
        cost=2,
        abilities=(_event("Turn each of your blank dice to any face.", _nowhere_to_run),),
    ),
    CardDef(
        "01092",
        "Ace in the Hole",
        E,
        "villain",
        "yellow",
        cost=0,
        abilities=(
            _event(
                "Discard a yellow upgrade from hand to roll its die into your pool, if it has one; "
                "that die is set aside once resolved or removed.",
                _ace_in_the_hole,
            ),
        ),
    ),
    CardDef(
        "01117",
        "Heroism",
        E,
        "hero",
        "blue",
        cost=0,
        abilities=(
            _event(
                "Deal one of your unique characters damage equal to an opponent's melee or ranged "
                "die, then remove that die.",
                _heroism,
            ),
        ),
    ),
    CardDef(
        "01126",
        "Daring Escape",
        E,
        "hero",
        "gray",
        cost=2,
        keywords=frozenset({"ambush"}),
        abilities=(
            _event("Reroll any number of an opponent's dice, then remove their blank dice.", _daring_escape),
        ),
    ),
    CardDef(
        "01128",
        "Draw Attention",
        E,
        "hero",
        "yellow",
        cost=0,
        abilities=(
            _event(
                "Move up to 2 damage from one of your characters to another of yours, ignoring shields.",
                _draw_attention,
            ),
        ),
    ),
    CardDef(
        "01130",
        "Let The Wookiee Win",
        E,
        "hero",
        "yellow",
        cost=1,
        abilities=(
            _event(
                "An opponent chooses: 2 damage to one of their exhausted characters, or remove 2 of "
                "their dice.",
                _wookiee,
            ),
        ),
    ),
    CardDef(
        "01132",
        "Scavenge",
        E,
        "hero",
        "yellow",
        cost=0,
        abilities=(
            _event(
                "Discard your top 3 cards; then you may take an upgrade or support from your discard "
                "pile into your hand.",
                _scavenge,
            ),
        ),
    ),
    CardDef(
        "01146",
        "Disturbance in the Force",
        E,
        "neutral",
        "blue",
        cost=1,
        abilities=(_event("Reroll every die in every pool.", _disturbance),),
    ),
    CardDef(
        "01149",
        "Use The Force",
        E,
        "neutral",
        "blue",
        cost=1,
        abilities=(_event("If you can spot a blue character, turn any die to any face.", _use_the_force),),
    ),
    CardDef(
        "01151",
        "Aim",
        E,
        "neutral",
        "gray",
        cost=1,
        abilities=(_event("Turn one of your dice to a ranged damage face.", _aim),),
    ),
    CardDef(
        "01153",
        "Block",
        E,
        "neutral",
        "gray",
        cost=2,
        abilities=(_event("Remove every melee die of an opponent.", _block),),
    ),
    CardDef(
        "01154",
        "Close Quarters Assault",
        E,
        "neutral",
        "gray",
        cost=0,
        abilities=(
            _event("An opponent discards at random one card per melee die you show.", _close_quarters),
        ),
    ),
    CardDef(
        "01155",
        "Dodge",
        E,
        "neutral",
        "gray",
        cost=2,
        abilities=(_event("Remove every ranged die of an opponent.", _dodge),),
    ),
    CardDef(
        "01156",
        "Flank",
        E,
        "neutral",
        "gray",
        cost=1,
        abilities=(
            ability(
                "restriction",
                "Only if you have more ready characters than an opponent.",
                condition=_flank_ok,
                rules=("destiny.terms.play-restrictions",),
            ),
            _event("Remove one die of that opponent.", _flank),
        ),
    ),
    CardDef(
        "01157",
        "Take Cover",
        E,
        "neutral",
        "gray",
        cost=0,
        abilities=(_event("Give a character 1 shield.", _take_cover),),
    ),
    CardDef(
        "01162",
        "Unpredictable",
        E,
        "neutral",
        "yellow",
        cost=0,
        keywords=frozenset({"ambush"}),
        abilities=(_event("Reroll any one die, yours or an opponent's.", _unpredictable),),
    ),
    # ------------------------------------------------------------------ battlefields
    CardDef(
        "01168",
        "Frozen Wastes",
        B,
        "neutral",
        "gray",
        subtitle="Starkiller Base",
        abilities=(_claim("Remove a character die.", _frozen_wastes),),
    ),
    CardDef(
        "01171",
        "Rebel War Room",
        B,
        "neutral",
        "gray",
        subtitle="Yavin IV",
        abilities=(_claim("Resolve one of your dice without paying its resource cost.", _rebel_war_room),),
    ),
    CardDef(
        "01174",
        "Starship Graveyard",
        B,
        "neutral",
        "gray",
        subtitle="Jakku",
        abilities=(
            _claim(
                "Put an upgrade or support from your discard pile on top of your deck.", _starship_graveyard
            ),
        ),
    ),
]
