"""The Destiny actions (destiny.actions.list) plus passing and the upkeep record.

Each step of a log is one typed action (judge.games.destiny.steps, where malformed steps are
found); ``apply_step`` applies it, raising ``IllegalAction`` with the broken rule's ID when the
rules forbid it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.games.destiny import events as ev
from judge.games.destiny import steps as st_
from judge.games.destiny.engine import (
    UPKEEP_RESOURCES,
    Ctx,
    GameOver,
    _eliminate,
    _end_game,
    _next_seat,
)
from judge.games.destiny.model import CardType
from judge.kernel.core import IllegalAction


# ====================================================================== applying steps
def apply_step(ctx: Ctx, upkeep_next: bool = False) -> None:
    """Apply one well-formed step. ``upkeep_next``: the log's next step records the upkeep."""
    try:
        _apply(ctx, upkeep_next)
    except GameOver:
        ctx.kernel.queue.clear()
        return
    ctx.check_inputs_used()


def _apply(ctx: Ctx, upkeep_next: bool) -> None:
    st = ctx.state
    step = ctx.step
    do = step.verb
    if st.phase == "over":
        raise IllegalAction("destiny.victory.all-defeated" if st.reason == "all-defeated" else
                            "destiny.victory.deck-out", f"the game is over: {st.winner} won ({st.reason})")
    if st.phase == "upkeep":
        run_upkeep(ctx, step.discard if isinstance(step, st_.Upkeep) else None)
        if do == "upkeep":
            return
    elif do == "upkeep":
        raise IllegalAction("destiny.round.end-on-consecutive-passes",
                            "the upkeep phase comes only after the action phase ends on consecutive passes")
    by = step.by
    assert by is not None  # every step but the upkeep names its player (steps.parse_step)
    expected = st.extra_action or st.turn
    if by != expected:
        rule = "destiny.actions.extra-actions-immediate" if st.extra_action else "destiny.round.action-phase"
        raise IllegalAction(rule, f"it is {expected}'s turn, not {by}'s")
    extra = st.take_extra_action() is not None
    p = ctx.player(by)
    if do == "pass":
        if extra:
            ctx.note({"event": "decline-extra-action", "player": by,
                      "rules": ["destiny.actions.extra-actions-immediate"]})
        else:
            p.passed = True
            st.passes += 1
            ctx.note({"event": "pass", "player": by, "rules": ["destiny.round.pass"]})
        _advance(ctx, by, upkeep_next)
        return
    forbidden = ctx.forbidden(do, by, step)
    if forbidden is not None:  # whatever lets them (destiny.negative.cannot-overrides-can)
        raise IllegalAction("destiny.negative.cannot-overrides-can", f"{by} cannot {do} now: {forbidden}")
    ACTIONS[do](ctx, by)
    ctx.kernel.drain()
    p.passed = False
    st.passes = 0
    if st.extra_action == by:
        st.turn = by
        return
    _advance(ctx, by, upkeep_next)


def _advance(ctx: Ctx, after: str, upkeep_next: bool) -> None:
    """Give the turn to the next player; a player who claimed this round passes automatically
    (destiny.actions.claim-battlefield); consecutive passes of all players end the action phase."""
    st = ctx.state
    active = [q for q, p in st.players.items() if not p.eliminated]
    if st.passes >= len(active):
        _end_action_phase(ctx, upkeep_next)
        return
    st.turn = _next_seat(st, after)
    while st.turn == st.claimed_by and st.phase == "action":
        ctx.note({"event": "pass", "player": st.turn, "automatic": True,
                  "rules": ["destiny.actions.claim-battlefield", "destiny.round.pass"]})
        st.players[st.turn].passed = True
        st.passes += 1
        if st.passes >= len(active):
            _end_action_phase(ctx, upkeep_next)
            return
        st.turn = _next_seat(st, st.turn)


def _end_action_phase(ctx: Ctx, upkeep_next: bool) -> None:
    st = ctx.state
    ctx.note({"event": "action-phase-ends", "round": st.round,
              "rules": ["destiny.round.end-on-consecutive-passes"]
              + (["destiny.multiplayer.turn-order"] if len(st.players) > 2 else [])})
    st.phase = "upkeep"
    st.turn = None
    if not upkeep_next:
        run_upkeep(ctx, None)


def run_upkeep(ctx: Ctx, discards: Mapping[str, Sequence[str]] | None) -> None:
    """The upkeep phase (destiny.round.upkeep), the end of the round and its victory checks."""
    st = ctx.state
    discards = discards or {}
    alive = [pid for pid in st.seats() if not st.players[pid].eliminated]
    ctx.note({"event": "upkeep", "round": st.round, "rules": ["destiny.round.upkeep", "destiny.round.phases"]})
    for pid in alive:
        p = st.players[pid]
        for ch in p.characters.values():
            ch.exhausted = False
        for su in p.supports.values():
            su.exhausted = False
        for up in p.upgrades.values():
            up.exhausted = False
    for pid in alive:
        st.players[pid].pool.clear()
    for pid in alive:
        bonus = int(ctx.query("upkeep_resources", pid, 0))
        ctx.gain("upkeep", pid, UPKEEP_RESOURCES + bonus)
    for pid in alive:
        p = st.players[pid]
        for code in discards.get(pid, []):
            if code not in p.hand:
                if "?" in p.hand:
                    code_in_hand = "?"
                else:
                    raise IllegalAction("destiny.round.upkeep", f"{pid} cannot discard {code} in upkeep: it is not "
                                        "in their hand")
            else:
                code_in_hand = code
            p.hand.remove(code_in_hand)
            p.discard.append(code)
            ctx.note({"event": "discard", "player": pid, "card": code, "rules": ["destiny.round.upkeep"]})
        limit = ctx.hand_limit(pid)
        need = limit - len(p.hand)
        if need > 0:
            ctx.draw("upkeep", pid, need)
        else:
            ctx.note({"event": "draw", "player": pid, "amount": 0, "drawn": 0,
                      "rules": ["destiny.round.upkeep-draw-limits", "destiny.zones.hand-limit"]})
        p.power_used.clear()
    ctx.kernel.drain()
    _round_end(ctx)


def _round_end(ctx: Ctx) -> None:
    st = ctx.state
    due = [d for d in st.delayed if d.when == "round-end" and d.round <= st.round]
    st.delayed = [d for d in st.delayed if d not in due]
    for d in due:
        ctx.note({"event": "delayed-resolves", "kind": d.kind, "target": d.target,
                  "rules": ["destiny.delayed.definition"]})
        if d.kind == "defeat":
            owner = ctx.owner_of(d.target)
            ch = st.players[owner].characters.get(d.target)
            if ch and not ch.defeated:
                ctx.emit(ev.Defeat(target=d.target, source=d.source, forced=True))
    ctx.kernel.drain()
    alive = [pid for pid in st.seats() if not st.players[pid].eliminated]
    out = [pid for pid in alive if not st.players[pid].hand and not st.players[pid].deck]
    if out:
        if len(st.players) == 2:
            if len(out) == 2:
                _end_game(ctx, ctx.battlefield_controller(), "deck-out-both",
                          ["destiny.victory.deck-out", "destiny.victory.deck-out-both"])
            winner = next(pid for pid in alive if pid not in out)
            _end_game(ctx, winner, "deck-out", ["destiny.victory.deck-out"])
        for pid in out:
            _eliminate(ctx, pid, "no cards in hand or deck at the end of the round")
    st.round += 1
    st.phase = "action"
    st.claimed_by = None
    st.passes = 0
    st.extra_action = None
    for p in st.players.values():
        p.passed = False
    st.turn = ctx.battlefield_controller()
    ctx.note({"event": "round-begins", "round": st.round, "first": st.turn,
              "rules": ["destiny.battlefields.first-action", "destiny.round.action-phase"]})


# ---------------------------------------------------------------------- the six actions
def _play(ctx: Ctx, pid: str) -> None:
    step = ctx.step
    assert isinstance(step, st_.Play)
    code = step.card
    p = ctx.player(pid)
    if code not in p.hand:
        if "?" in p.hand:  # a hand of unknown cards: the log reveals this one
            p.hand[p.hand.index("?")] = code
        else:
            raise IllegalAction("destiny.actions.play-card-sequence", f"{code} is not in {pid}'s hand")
    card = ctx.card(code)
    if card.type not in (CardType.EVENT, CardType.UPGRADE, CardType.SUPPORT):
        raise IllegalAction("destiny.deckbuilding.deck-card-types", f"{card.name} is a {card.type.value} and cannot "
                            "be played from hand")
    on = ctx.canon(step.on) if step.on else None
    if card.unique and card.type != CardType.EVENT:
        for ref in list(p.upgrades) + list(p.supports):
            other = ctx.card(ctx.code_of(ref))
            if other.name == card.name:
                raise IllegalAction("destiny.uniqueness.one-copy-in-play", f"{pid} already has {card.name} "
                                    f"({ref}) in play")
    replaces = None
    if card.type == CardType.UPGRADE:
        if on is None:
            raise IllegalAction("destiny.upgrades.attach", f"{card.name} is an upgrade: name the character it goes "
                                "on with 'on'")
        if on not in p.characters:
            raise IllegalAction("destiny.upgrades.attach", f"{on} is not one of {pid}'s characters")
        if p.characters[on].defeated:
            raise IllegalAction("destiny.defeat.no-further-use", f"{on} is defeated")
        if step.replaces:
            replaces = ctx.canon(step.replaces)
            if replaces not in p.characters[on].upgrades:
                raise IllegalAction("destiny.upgrades.replace", f"{replaces} is not an upgrade on {on}")
    elif on is not None:
        raise IllegalAction("destiny.actions.play-card-sequence", f"{card.name} is a {card.type.value}: only "
                            "upgrades name a character with 'on'")
    ignore = bool(on and ctx.query("ignore_restrictions", (code, on), False))
    for ab in card.abilities_for("play"):
        if ab.condition is not None and not ignore and not ab.condition(ctx, pid, on):
            raise IllegalAction("destiny.terms.play-restrictions", f"{card.name} cannot be played: {ab.text}")
    for ab in card.abilities_for("restriction"):
        if ab.condition is not None and not ignore and not ab.condition(ctx, pid, on):
            raise IllegalAction("destiny.terms.play-restrictions", f"{card.name} cannot be played: {ab.text}")
    ctx.emit(ev.Play(player=pid, code=code, on=on, replaces=replaces))
    ctx.cost_reduction = 0
    if "ambush" in ctx.keywords_of(card, (pid, code)):  # printed or granted, unless lost (destiny.keywords.loss)
        ctx.kernel.drain()
        ctx.grant_extra_action(pid, "destiny.keywords.ambush")


def _activate(ctx: Ctx, pid: str) -> None:
    ref = ctx.canon(ctx.step.card)
    if ctx.owner_of(ref) != pid:
        raise IllegalAction("destiny.terms.controller", f"{pid} cannot activate {ref}, which {ctx.owner_of(ref)} "
                            "controls")
    ctx.check_activate(pid, ref)
    ctx.emit(ev.Activate(player=pid, card=ref))


def _resolve(ctx: Ctx, pid: str) -> None:
    ctx.resolve_dice(pid, ctx.step.dice)


def _reroll(ctx: Ctx, pid: str) -> None:
    step = ctx.step
    assert isinstance(step, st_.Reroll)
    p = ctx.player(pid)
    if not p.pool:
        raise IllegalAction("destiny.actions.reroll-needs-dice", f"{pid} has no dice in their pool to reroll")
    dice = [ctx.canon_die(d) for d in step.dice]
    if not dice:
        raise IllegalAction("destiny.actions.reroll-by-discard", "name at least one die to reroll")
    if len(set(dice)) != len(dice):
        raise IllegalAction("destiny.actions.reroll-by-discard", "a die is named twice")
    for d in dice:
        if d not in p.pool:
            raise IllegalAction("destiny.dice.pool-only", f"{d} is not in {pid}'s dice pool")
    code = step.discard
    if code not in p.hand:
        if "?" not in p.hand:
            raise IllegalAction("destiny.actions.reroll-by-discard", f"{code} is not in {pid}'s hand")
        p.hand[p.hand.index("?")] = code
    ctx.emit(ev.DiscardFromHand(source=pid, player=pid, card=code))
    ctx.note({"event": "reroll-action", "player": pid, "rules": ["destiny.actions.reroll-by-discard"]})
    ctx.reroll(pid, dice)


def _use(ctx: Ctx, pid: str) -> None:
    step = ctx.step
    assert isinstance(step, st_.Use)
    ref = ctx.canon(step.card)
    if ctx.owner_of(ref) != pid:
        raise IllegalAction("destiny.actions.card-action", f"{pid} does not control {ref}")
    p = ctx.player(pid)
    if ref in p.characters:
        if p.characters[ref].defeated:
            raise IllegalAction("destiny.defeat.no-further-use", f"{ref} is defeated")
    elif ref not in p.upgrades and ref not in p.supports:
        raise IllegalAction("destiny.actions.card-action", f"{ref} is not in play under {pid}'s control")
    code = ctx.code_of(ref)
    card = ctx.card(code)
    abilities = [a for a in card.abilities if a.timing in ("action", "power")]
    if not abilities:
        if card.unimplemented:
            ctx.not_implemented(code, "its action ability")
        raise IllegalAction("destiny.actions.card-action", f"{card.name} has no action ability")
    k = step.ability or 1
    if k > len(abilities):
        raise IllegalAction("destiny.actions.card-action", f"{card.name} has {len(abilities)} action abilities")
    ab = abilities[k - 1]
    rules = ["destiny.actions.card-action"]
    if ab.timing == "power":
        rules.append("destiny.actions.power-action")
        if ref in p.power_used:
            raise IllegalAction("destiny.actions.power-action", f"{card.name}'s power action was already used "
                                "this round")
        p.power_used.append(ref)
    if ab.condition is not None and not ab.condition(ctx, pid, ref):
        raise IllegalAction("destiny.actions.card-action", f"{card.name}'s action cannot be used now: {ab.text}")
    ctx.note({"event": "use", "player": pid, "card": ref, "ability": ab.text, "rules": rules})
    if ab.effect is not None:
        ab.effect(ctx, ref, step)


def _claim(ctx: Ctx, pid: str) -> None:
    st = ctx.state
    if st.claimed_by is not None:
        raise IllegalAction("destiny.actions.claim-once-per-round", f"{st.claimed_by} already claimed the "
                            "battlefield this round")
    if not st.battlefield:
        raise IllegalAction("destiny.battlefields.one-used", "there is no battlefield in play")
    ctx.emit(ev.Claim(player=pid, battlefield=st.battlefield))
    if ctx.step.claim_ability is not False:
        card = ctx.card(st.battlefield)
        claims = card.abilities_for("claim")
        if not claims and card.unimplemented:
            ctx.not_implemented(card.code, "its Claim ability")
        for ab in claims:
            ctx.note({"event": "claim-ability", "card": st.battlefield, "text": ab.text,
                      "rules": ["destiny.abilities.claim"]})
            if ab.effect is not None:
                ab.effect(ctx, f"{pid}.{st.battlefield}", ctx.step)


ACTIONS = {
    "play": _play,
    "activate": _activate,
    "resolve": _resolve,
    "reroll": _reroll,
    "use": _use,
    "claim": _claim,
}

__all__ = ["ACTIONS", "apply_step", "run_upkeep"]
