"""Performing Destiny's events: what each event does to the state once the kernel lets it
happen (judge.kernel.core: replacements, before-abilities, then ``Ctx.perform``), and playing a
card (destiny.actions.play-card-sequence). Each handler records the event with what it did and the
rules it applied (a typed record of judge.games.destiny.records) and says whether the event happened.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from i18n import N_, Msg
from judge.games.abilities import Source
from judge.games.destiny import events as ev
from judge.games.destiny import records as rec
from judge.games.destiny.dice import parse_face
from judge.games.destiny.model import CardType
from judge.games.destiny.refs import card_of_die
from judge.games.destiny.rounds import check_all_defeated
from judge.games.destiny.state import Player, Support, Upgrade

if TYPE_CHECKING:  # pragma: no cover
    from judge.games.destiny.engine import Ctx

MAX_UPGRADES = 3
MAX_SHIELDS = 3


def _perform_activate(ctx: Ctx, e: ev.Activate) -> bool:
    p = ctx.owner(e.card)
    if e.card in p.characters:
        ch = p.characters[e.card]
        if ch._defeated or ch.exhausted:  # (the field, not its property, on this hot path)
            return False
        ch.exhausted = True
    else:
        su = p.supports[e.card]
        if su.exhausted:
            return False
        su.exhausted = True
    if not ctx.recording:  # (no record: nor the faces' notation it holds)
        for die in ctx.dice_of(e.card):
            p.pool[die] = ctx.roll_die(die)
        return True
    rolled: dict[str, str] = {}
    for die in ctx.dice_of(e.card):
        face = ctx.roll_die(die)
        p.pool[die] = face
        rolled[die] = face.notation()
    ctx.records.append(rec.ActivateRecord(e, rolled, (*e.rules, "destiny.cards.exhausted")))
    return True


# the rules a damage symbol's damage applies (a table made once, not at each damage)
_SYMBOL_RULES: Final = {
    "MD": ("destiny.symbols.melee", "destiny.symbols.damage-one-target"),
    "RD": ("destiny.symbols.ranged", "destiny.symbols.damage-one-target"),
    "ID": ("destiny.symbols.indirect",),
}


def _perform_damage(ctx: Ctx, e: ev.Damage) -> bool:
    ch = ctx.owner(e.target).characters[e.target]
    if ch._defeated:  # (the field, not its property, on this hot path)
        return False
    blocked = 0
    rules = list(e.rules)
    if e.unblockable:
        rules.append("destiny.damage.unblockable")
    elif ch.shields:
        blocked = min(ch.shields, e.amount)
        ch.shields -= blocked
        rules += ["destiny.damage.shields-block", "destiny.shields.mandatory"]
    taken = e.amount - blocked
    health = ctx.card(ch.code).health or 0
    placed = min(taken, max(0, health - ch.damage))
    ch.damage += placed
    if blocked and not taken:
        rules.append("destiny.damage.dealt-vs-taken")
    if placed < taken:
        rules.append("destiny.defeat.excess-ignored")
    symbol = e.symbol
    if symbol is not None and symbol in _SYMBOL_RULES:
        rules += _SYMBOL_RULES[symbol]
    ctx.records.append(rec.DamageRecord(e, blocked, taken, tuple(rules)))
    if health and ch.damage >= health:
        ctx.emit(ev.Defeat(ch.ref, e.source))
    return True


def _perform_defeat(ctx: Ctx, e: ev.Defeat) -> bool:
    owner = ctx.owner_of(e.target)
    p = ctx.player(owner)
    ch = p.characters[e.target]
    health = ctx.card(ch.code).health or 0
    if ch.defeated or (ch.damage < health and not e.forced):
        return False  # healed or saved before it happened
    ch.defeated = True
    ch.exhausted = False
    removed_dice = [d for d in list(p.pool) if card_of_die(d) == ch.ref or card_of_die(d) in ch.upgrades]
    for d in removed_dice:
        del p.pool[d]
    discarded = []
    leaving = []
    for up in list(ch.upgrades):
        # what the upgrade's keywords let it do once it has left play (Redeploy), as they are now
        abilities = ctx.keyword_abilities(up)
        if abilities:
            leaving.append((Source(up, ctx.code_of(up), owner, ctx.card(ctx.code_of(up))), abilities))
        discarded.append(up)
    ctx.left_play = leaving
    for up in discarded:
        leave_play_upgrade(ctx, p, up, to_discard=True)
    ch.upgrades = []
    ctx.records.append(rec.DefeatRecord(e, tuple(removed_dice), tuple(discarded),
                                (*e.rules, "destiny.dice.leave-with-card")))
    check_all_defeated(ctx)
    return True


def leave_play_upgrade(ctx: Ctx, p: Player, ref: str, to_discard: bool = True) -> None:
    up = p.upgrades.pop(ref, None)
    if up is None:
        return
    ctx.last_known_host[ref] = up.on
    host = p.characters.get(up.on)
    if host and ref in host.upgrades:
        host.upgrades.remove(ref)
    die = f"{ref}/1"
    if die in p.pool and host is not None and not host.defeated:
        # two copies on one character, both dice in the pool: the dice are alike, so the
        # controller picks which one is set aside (destiny.dice.duplicate-upgrade-dice)
        twins = [f"{o}/1" for o in host.upgrades if o in p.upgrades and p.upgrades[o].code == up.code
                 and f"{o}/1" in p.pool]
        if twins and p.pool[twins[0]] != p.pool[die]:
            gone = ctx.choose(p.id, "die", [die, twins[0]], ("destiny.dice.duplicate-upgrade-dice",),
                              Msg(N_("{ref} leaves play: which of its two alike dice is set aside"), ref=ref), ref)
            showing = p.pool[gone].notation()
            if gone == twins[0]:
                p.pool[twins[0]] = p.pool[die]  # the die left in the pool belongs to the copy that stays
            ctx.records.append(rec.DieSetAsideRecord(ref, showing,
                                             ("destiny.dice.duplicate-upgrade-dice",)))
    p.pool.pop(die, None)
    if to_discard:
        p.discard.append(up.code)


def _perform_shields(ctx: Ctx, e: ev.GainShields) -> bool:
    ch = ctx.character(e.target)
    before = ch.shields
    ch.shields = min(MAX_SHIELDS, ch.shields + e.amount)
    ctx.records.append(rec.ShieldsRecord(e, ch.shields - before, e.amount - (ch.shields - before),
                                 e.rules))
    return True


def _perform_remove_shields(ctx: Ctx, e: ev.RemoveShields) -> bool:
    ch = ctx.character(e.target)
    n = min(ch.shields, e.amount)
    ch.shields -= n
    ctx.records.append(rec.RemoveShieldsRecord(e, n))
    return n > 0


def _perform_heal(ctx: Ctx, e: ev.Heal) -> bool:
    ch = ctx.character(e.target)
    n = min(ch.damage, e.amount)
    ch.damage -= n
    rules = (*e.rules, "destiny.terms.heal-none") if n == 0 else e.rules
    ctx.records.append(rec.HealRecord(e, n, rules))
    return n > 0


def _perform_gain(ctx: Ctx, e: ev.GainResources) -> bool:
    ctx.player(e.player).resources += e.amount
    if ctx.recording:
        ctx.records.append(rec.GainResourcesRecord(e, (*e.rules, "destiny.symbols.resource") if "/" in e.source
                                               else e.rules))
    return True


def _perform_lose(ctx: Ctx, e: ev.LoseResources) -> bool:
    p = ctx.player(e.player)
    n = min(p.resources, e.amount)
    p.resources -= n
    if ctx.recording:
        rules = (*e.rules, "destiny.symbols.disrupt") if "/" in e.source else e.rules
        ctx.records.append(rec.LoseResourcesRecord(e, n, rules))
    return True


def _perform_draw(ctx: Ctx, e: ev.Draw) -> bool:
    p = ctx.player(e.player)
    deck = p.deck
    n = min(e.amount, len(deck))
    p.hand.extend([deck.popleft() for _ in range(n)])  # together, from the top (destiny.draw.simultaneous)
    if ctx.recording:
        ctx.records.append(rec.DrawRecord(e, n, e.rules))
    return n > 0


def _perform_discard(ctx: Ctx, e: ev.DiscardFromHand) -> bool:
    p = ctx.player(e.player)
    if e.card not in p.hand:
        return False
    p.hand.remove(e.card)
    p.discard.append(e.card)
    if ctx.recording:
        rule = "destiny.symbols.discard" if e.random else "destiny.zones.discard-pile"
        ctx.records.append(rec.DiscardRecord(e, (rule,)))
    return True


def _perform_reroll(ctx: Ctx, e: ev.Reroll) -> bool:
    recording = ctx.recording
    faces: dict[str, str] = {}
    for die in e.dice:  # all chosen before any is rerolled (destiny.actions.reroll-by-discard)
        p = ctx.owner(die)
        if die not in p.pool:
            continue
        face = ctx.roll_die(die)
        p.pool[die] = face
        if recording:
            faces[die] = face.notation()
    if recording:
        ctx.records.append(rec.RerollRecord(e, faces))
    return True


def _perform_turn(ctx: Ctx, e: ev.TurnDie) -> bool:
    p = ctx.owner(e.die)
    if e.die not in p.pool:
        return False
    p.pool[e.die] = parse_face(e.face)
    ctx.records.append(rec.TurnRecord(e, e.rules))
    return True


def _perform_remove_die(ctx: Ctx, e: ev.RemoveDie) -> bool:
    p = ctx.owner(e.die)
    if e.die not in p.pool:
        return False
    del p.pool[e.die]
    ctx.records.append(rec.RemoveDieRecord(e, e.rules))
    return True


def _perform_play(ctx: Ctx, e: ev.Play) -> bool:
    play_card(ctx, e)
    return True


def _perform_claim(ctx: Ctx, e: ev.Claim) -> bool:
    st = ctx.state
    before = st.controller
    st.controller = e.player
    st.claimed_by = e.player
    if not ctx.recording:
        return True
    rules = list(e.rules) + ["destiny.actions.claim-once-per-round"]
    if before == e.player:
        rules.append("destiny.actions.claim-while-controlling")
    rules.append("destiny.battlefields.single-controller")
    ctx.records.append(rec.ClaimRecord(e, before, tuple(rules)))
    return True


PERFORM: dict[type, Callable[[Any, Any], bool]] = {
    ev.Activate: _perform_activate,
    ev.Damage: _perform_damage,
    ev.Defeat: _perform_defeat,
    ev.GainShields: _perform_shields,
    ev.RemoveShields: _perform_remove_shields,
    ev.Heal: _perform_heal,
    ev.GainResources: _perform_gain,
    ev.LoseResources: _perform_lose,
    ev.Draw: _perform_draw,
    ev.DiscardFromHand: _perform_discard,
    ev.Reroll: _perform_reroll,
    ev.TurnDie: _perform_turn,
    ev.RemoveDie: _perform_remove_die,
    ev.Play: _perform_play,
    ev.Claim: _perform_claim,
}


# the commonest kinds of event, each held in a Final (a C static, compiled: ``ev.Damage`` would be
# read from the events module by name at each use)
_GAIN: Final = ev.GainResources
_REROLL: Final = ev.Reroll
_DISCARD: Final = ev.DiscardFromHand
_ACTIVATE: Final = ev.Activate
_PLAY: Final = ev.Play
_DRAW: Final = ev.Draw
_DAMAGE: Final = ev.Damage


def perform_event(ctx: Ctx, e: Any) -> bool:
    """Perform ``e`` with its handler (``PERFORM``); the commonest kinds called directly, which the
    compiled engine does natively, not through a Python call (tests/judge/destiny/test_fast_paths.py
    checks each is the handler ``PERFORM`` names)."""
    kind = type(e)
    if kind is _GAIN:
        return _perform_gain(ctx, e)
    if kind is _REROLL:
        return _perform_reroll(ctx, e)
    if kind is _DISCARD:
        return _perform_discard(ctx, e)
    if kind is _ACTIVATE:
        return _perform_activate(ctx, e)
    if kind is _PLAY:
        return _perform_play(ctx, e)
    if kind is _DRAW:
        return _perform_draw(ctx, e)
    if kind is _DAMAGE:
        return _perform_damage(ctx, e)
    handler = PERFORM.get(kind)
    if handler is None:  # pragma: no cover - every event type has a handler
        raise RuntimeError(f"no handler for {kind.__name__}")
    return handler(ctx, e)


# ====================================================================== playing cards
def play_card(ctx: Ctx, e: ev.Play) -> None:
    """Pay and resolve a card being played (destiny.actions.play-card-sequence)."""
    pid = e.player
    p = ctx.player(pid)
    card = ctx.card(e.code)
    recording = ctx.recording
    replaced_cost = 0
    if e.replaces:
        replaced_cost = ctx.card(ctx.code_of(e.replaces)).cost or 0
    reduction = ctx.cost_reduction + replaced_cost
    pay = max(0, ctx.cost_of(pid, e.code, e.on) - reduction)
    p.hand.remove(e.code)
    ctx.spend(pid, pay, "destiny.cards.cost", f"playing {card.name}")
    if recording:
        rules = ["destiny.actions.play-card-sequence", "destiny.cards.cost"]
        if e.replaces:
            rules.append("destiny.upgrades.replace")
        if reduction:
            rules.append("destiny.terms.reduce")
        ctx.records.append(rec.PlayRecord(e, pay, tuple(rules)))
    ref: str | None = None
    if card.type == CardType.EVENT:
        if recording:
            ctx.records.append(rec.LimboRecord(e.code, ("destiny.events.limbo",)))
        plays = card.abilities_for("play")
        if not [a for a in plays if a.effect is not None] and card.unimplemented:
            ctx.not_implemented(e.code, "its effect")
        for ab in plays:
            if ab.effect is not None:
                ab.effect(ctx, f"{pid}.{e.code}", ctx.step)
        p.discard.append(e.code)
        if recording:
            ctx.records.append(rec.DiscardedRecord(e.code, ("destiny.events.resolve-then-discard",)))
    elif card.type == CardType.UPGRADE:
        assert e.on is not None
        if e.replaces:
            leave_play_upgrade(ctx, p, e.replaces, to_discard=True)
            ctx.records.append(rec.ReplacedUpgradeRecord(e.replaces, ("destiny.upgrades.replace",)))
        ref = enter_upgrade(ctx, pid, e.code, e.on)
        enforce_upgrade_limit(ctx, pid, e.on)
    elif card.type == CardType.SUPPORT:
        n = p.serials.get(e.code, 0) + 1
        p.serials[e.code] = n
        ref = f"{pid}.{e.code}#{n}"
        p.supports[ref] = Support(ref, e.code, False, 1 if card.has_die else 0)
        if recording:
            ctx.records.append(rec.EntersPlayRecord(ref, None, (
                ("destiny.supports.play", "destiny.cards.enter-ready", "destiny.supports.dice") if card.has_die
                else ("destiny.supports.play", "destiny.cards.enter-ready"))))
    if ref is not None:
        if card.unimplemented:
            ctx.not_implemented(e.code, "part of its text", fatal=False)
        for ab in card.abilities_for("play"):
            if ab.effect is not None:
                ab.effect(ctx, ref, ctx.step)


def enter_upgrade(ctx: Ctx, pid: str, code: str, on: str, keep: str | None = None) -> str:
    """An upgrade enters play on ``on``. A card that enters play anew is a new instance (the next
    ``#n`` of its code); a card that moves (``keep``: its reference before the move, e.g. a
    Redeployed upgrade) keeps its identity, so a later step names it as before."""
    p = ctx.player(pid)
    if keep is not None:
        ref = keep
    else:
        n = p.serials.get(code, 0) + 1
        p.serials[code] = n
        ref = f"{pid}.{code}#{n}"
    p.upgrades[ref] = Upgrade(ref, code, on)
    p.characters[on].upgrades.append(ref)
    if ctx.recording:
        ctx.records.append(rec.EntersPlayRecord(ref, on, (
            ("destiny.upgrades.attach", "destiny.cards.enter-ready", "destiny.upgrades.dice")
            if ctx.card(code).has_die else ("destiny.upgrades.attach", "destiny.cards.enter-ready"))))
    return ref


def enforce_upgrade_limit(ctx: Ctx, pid: str, on: str) -> None:
    """More than 3 upgrades: the controller discards down to 3 (destiny.upgrades.max-three)."""
    p = ctx.player(pid)
    ch = p.characters[on]
    while len(ch.upgrades) > MAX_UPGRADES:
        ref = ctx.choose(pid, "discard-upgrade", list(ch.upgrades), ("destiny.upgrades.max-three",),
                         Msg(N_("{on} has more than 3 upgrades: discard one"), on=on))
        leave_play_upgrade(ctx, p, ref, to_discard=True)
        ctx.records.append(rec.DiscardUpgradeRecord(ref, ("destiny.upgrades.max-three",)))
