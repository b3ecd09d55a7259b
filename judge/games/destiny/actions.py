"""The Destiny actions (destiny.actions.list) plus passing and the upkeep record.

Each step of a log is one input. ``check_step_shape`` finds structural faults (a malformed log,
reported with JSON Pointers); ``apply_step`` applies a well-formed step, raising
``IllegalAction`` with the broken rule's ID when the rules forbid it.
"""

from __future__ import annotations

from typing import Any

from judge.games.destiny import events as ev
from judge.games.destiny.engine import (
    UPKEEP_RESOURCES,
    VERBS,
    Ctx,
    GameOver,
    _eliminate,
    _end_game,
    _next_seat,
)
from judge.games.destiny.model import CardType
from judge.games.destiny.refs import CODE, PLAYER, parse_ref
from judge.kernel.core import IllegalAction

STEP_KEYS = {"by", "do", "card", "on", "replaces", "roll", "random", "choices", "dice", "discard", "ability",
             "claim_ability", "note", "expect", "dispute", "target", "targets"}


# ====================================================================== shape (malformed logs)
def check_step_shape(step: Any, path: str, players: list[str]) -> list[tuple[str, str]]:
    """Structural faults of one step as (JSON Pointer, message) pairs."""
    faults: list[tuple[str, str]] = []
    if not isinstance(step, dict):
        return [(path, "a step must be a JSON object")]
    do = step.get("do")
    if do not in VERBS:
        _bad(faults, path, "/do",
             f"'do' must be one of {', '.join(VERBS)}" + (f" (got {do!r})" if do is not None else ""))
        return faults
    by = step.get("by")
    if do != "upkeep":
        if not isinstance(by, str):
            _bad(faults, path, "/by", "'by' must name the player taking the step")
        elif by not in players:
            _bad(faults, path, "/by", f"'{by}' is not a player of this log ({', '.join(players)})")
    if do in ("play",):
        if not isinstance(step.get("card"), str) or not CODE.match(step["card"]):
            _bad(faults, path, "/card", "'card' must be a card code such as 05058")
        for key in ("on", "replaces"):
            if key in step and not _is_ref(step[key]):
                _bad(faults, path, f"/{key}", f"'{key}' must be a card reference such as p1.05031")
    if do in ("activate", "use"):
        if not _is_ref(step.get("card")):
            _bad(faults, path, "/card", "'card' must be a reference to a card in play such as p1.05031")
    if do == "use" and "ability" in step and (not isinstance(step["ability"], int) or step["ability"] < 1):
        _bad(faults, path, "/ability", "'ability' is the number of the card's action ability, from 1")
    if do == "resolve" or (do == "use" and "dice" in step):
        dice = step.get("dice")
        if not isinstance(dice, list) or (do == "resolve" and not dice):
            _bad(faults, path, "/dice", "'dice' must be a non-empty list of {\"die\": ..., \"target\": ...}")
        else:
            for i, entry in enumerate(dice):
                if not isinstance(entry, dict):
                    _bad(faults, path, f"/dice/{i}", "each die entry must be an object with 'die'")
                    continue
                if not _is_ref(entry.get("die")) or "/" not in entry.get("die", ""):
                    _bad(faults, path, f"/dice/{i}/die", "'die' must be a die reference such as p1.05031/1")
                for key in ("target", "modifies"):
                    if key in entry and not isinstance(entry[key], str):
                        _bad(faults, path, f"/dice/{i}/{key}", f"'{key}' must be a reference string")
                for key in ("turn", "split"):
                    if key in entry and not isinstance(entry[key], dict):
                        _bad(faults, path, f"/dice/{i}/{key}", f"'{key}' must be an object")
    if do == "reroll":
        if not isinstance(step.get("discard"), str) or not CODE.match(step["discard"]):
            _bad(faults, path, "/discard", "'discard' must be the code of the card discarded from hand")
        dice = step.get("dice")
        if not isinstance(dice, list) or not all(isinstance(d, str) for d in dice):
            _bad(faults, path, "/dice", "'dice' must be a list of die references")
    if do == "upkeep":
        disc = step.get("discard", {})
        if not isinstance(disc, dict):
            _bad(faults, path, "/discard", "'discard' must map player IDs to lists of card codes")
        else:
            for pid, codes in disc.items():
                if pid not in players:
                    _bad(faults, path, f"/discard/{pid}", f"'{pid}' is not a player of this log")
                elif not isinstance(codes, list) or not all(isinstance(c, str) and CODE.match(c) for c in codes):
                    _bad(faults, path, f"/discard/{pid}", "a list of card codes")
    if do == "claim" and "claim_ability" in step and not isinstance(step["claim_ability"], bool):
        _bad(faults, path, "/claim_ability", "'claim_ability' is true or false")
    for key in ("roll",):
        if key in step and (not isinstance(step[key], list) or not all(isinstance(x, str) for x in step[key])):
            _bad(faults, path, f"/{key}", "'roll' must be a list of die faces such as \"2RD\"")
    if "random" in step and not isinstance(step["random"], list):
        _bad(faults, path, "/random", "'random' must be a list of outcomes")
    if "choices" in step:
        if not isinstance(step["choices"], list):
            _bad(faults, path, "/choices", "'choices' must be a list of {\"by\", \"kind\", \"answer\"}")
        else:
            for i, ch in enumerate(step["choices"]):
                if not isinstance(ch, dict) or "answer" not in ch:
                    _bad(faults, path, f"/choices/{i}", "a choice is an object with 'by', 'kind' and 'answer'")
                elif "by" in ch and ch["by"] not in players:
                    _bad(faults, path, f"/choices/{i}/by", f"'{ch['by']}' is not a player of this log")
    for key in ("note", "dispute"):
        if key in step and not isinstance(step[key], str):
            _bad(faults, path, f"/{key}", f"'{key}' must be a string")
    if "expect" in step and not isinstance(step["expect"], dict):
        _bad(faults, path, "/expect", "'expect' must be an object with 'hash', 'state' and/or 'error'")
    for key in step:
        if key not in STEP_KEYS:
            _bad(faults, path, f"/{_escape(key)}", f"unknown key '{key}' in a {do} step")
    return faults


def _bad(faults: list[tuple[str, str]], path: str, sub: str, msg: str) -> None:
    faults.append((path + sub, msg))


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _is_ref(value: Any) -> bool:
    return isinstance(value, str) and parse_ref(value) is not None


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
    do = step["do"]
    if st.phase == "over":
        raise IllegalAction("destiny.victory.all-defeated" if st.reason == "all-defeated" else
                            "destiny.victory.deck-out", f"the game is over: {st.winner} won ({st.reason})")
    if st.phase == "upkeep":
        run_upkeep(ctx, step.get("discard") if do == "upkeep" else None)
        if do == "upkeep":
            return
    elif do == "upkeep":
        raise IllegalAction("destiny.round.end-on-consecutive-passes",
                            "the upkeep phase comes only after the action phase ends on consecutive passes")
    by = step["by"]
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


def run_upkeep(ctx: Ctx, discards: dict[str, list[str]] | None) -> None:
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
    code = step["card"]
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
    on = ctx.canon(step["on"]) if step.get("on") else None
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
        if step.get("replaces"):
            replaces = ctx.canon(step["replaces"])
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
    ref = ctx.canon(ctx.step["card"])
    if ctx.owner_of(ref) != pid:
        raise IllegalAction("destiny.terms.controller", f"{pid} cannot activate {ref}, which {ctx.owner_of(ref)} "
                            "controls")
    ctx.check_activate(pid, ref)
    ctx.emit(ev.Activate(player=pid, card=ref))


def _resolve(ctx: Ctx, pid: str) -> None:
    ctx.resolve_dice(pid, ctx.step["dice"])


def _reroll(ctx: Ctx, pid: str) -> None:
    step = ctx.step
    p = ctx.player(pid)
    if not p.pool:
        raise IllegalAction("destiny.actions.reroll-needs-dice", f"{pid} has no dice in their pool to reroll")
    dice = [ctx.canon_die(d) for d in step["dice"]]
    if not dice:
        raise IllegalAction("destiny.actions.reroll-by-discard", "name at least one die to reroll")
    if len(set(dice)) != len(dice):
        raise IllegalAction("destiny.actions.reroll-by-discard", "a die is named twice")
    for d in dice:
        if d not in p.pool:
            raise IllegalAction("destiny.dice.pool-only", f"{d} is not in {pid}'s dice pool")
    code = step["discard"]
    if code not in p.hand:
        if "?" not in p.hand:
            raise IllegalAction("destiny.actions.reroll-by-discard", f"{code} is not in {pid}'s hand")
        p.hand[p.hand.index("?")] = code
    ctx.emit(ev.DiscardFromHand(source=pid, player=pid, card=code))
    ctx.note({"event": "reroll-action", "player": pid, "rules": ["destiny.actions.reroll-by-discard"]})
    ctx.reroll(pid, dice)


def _use(ctx: Ctx, pid: str) -> None:
    step = ctx.step
    ref = ctx.canon(step["card"])
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
    k = step.get("ability", 1)
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
    if ctx.step.get("claim_ability", True):
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

__all__ = ["ACTIONS", "apply_step", "check_step_shape", "run_upkeep", "PLAYER"]
