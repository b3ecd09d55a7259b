"""Checking apart from applying (STYLE.md section 4): ``check(state, action)`` names the rule an
action breaks before anything changes, and ``legal_actions(state)`` lists the actions whose check
passes for the player to act.

The check reads the state and asks the cards' constant abilities and play restrictions; it never
changes the state. ``apply`` (actions.py) runs the same checks (``check_play``, ``check_use``...)
before it changes anything. What only resolving can show (paying, after abilities that reduce a
cost; a target an effect chooses; a die that leaves the pool while others resolve) is found by
``apply``, which stops the step with the rule it breaks: a check may pass a step that ``apply``
rejects, never the other way round.
"""

from __future__ import annotations

from i18n import N_, Msg
from judge.games.destiny import steps as st_
from judge.games.destiny.engine import Ctx, NotImplementedCard
from judge.games.destiny.model import Ability, CardDef, CardPool, CardType
from judge.games.destiny.state import UNKNOWN, GameState
from judge.kernel.core import IllegalAction

Violation = tuple[str, str]
DAMAGE = ("MD", "RD")


def check(state: GameState, action: st_.DestinyAction, cards: CardPool) -> Violation | None:
    """The rule ``action`` breaks now, as ``(rule ID, message)``, or None."""
    ctx = Ctx(state, cards, action)
    try:
        _check(ctx, state, action)
    except (IllegalAction, NotImplementedCard) as exc:
        return exc.rule, exc.message
    finally:
        ctx.close()
    return None


def _check(ctx: Ctx, st: GameState, a: st_.DestinyAction) -> None:
    if st.phase == "over":
        raise IllegalAction("destiny.victory.all-defeated" if st.reason == "all-defeated" else
                            "destiny.victory.deck-out", Msg(
                                N_("the game is over: {winner} won ({reason})"),
                                winner=st.winner, reason=st.reason,
                            ))
    if isinstance(a, st_.Upkeep):
        if st.phase != "upkeep":
            raise IllegalAction("destiny.round.end-on-consecutive-passes",
                                Msg(
                                    N_("the upkeep phase comes only after the action phase ends on consecutive "
                                       "passes"),
                                ))
        return
    if st.phase == "upkeep":
        return  # the upkeep runs first when the log does not record it; the step is checked after it
    expected = st.extra_action or st.turn
    if a.by != expected:
        rule = "destiny.actions.extra-actions-immediate" if st.extra_action else "destiny.round.action-phase"
        raise IllegalAction(rule, Msg(N_("it is {expected}'s turn, not {by}'s"), expected=expected, by=a.by))
    pid = a.by
    assert pid is not None
    if isinstance(a, st_.Pass):
        return
    forbidden = ctx.forbidden(a.verb, pid, a)
    if forbidden is not None:
        raise IllegalAction("destiny.negative.cannot-overrides-can", Msg(
            N_("{pid} cannot {verb} now: {forbidden}"),
            pid=pid, verb=a.verb, forbidden=forbidden,
        ))
    if isinstance(a, st_.Play):
        check_play(ctx, pid, a)
    elif isinstance(a, st_.Activate):
        check_activate(ctx, pid, a)
    elif isinstance(a, st_.Resolve):
        _check_resolve(ctx, pid, a)
    elif isinstance(a, st_.Reroll):
        check_reroll(ctx, pid, a)
    elif isinstance(a, st_.Use):
        check_use(ctx, pid, a)
    elif isinstance(a, st_.Claim):
        check_claim(ctx)


def check_play(ctx: Ctx, pid: str, a: st_.Play) -> tuple[CardDef, str | None, str | None]:
    """What playing a card requires before it is paid (destiny.actions.play-card-sequence): the
    card, the character an upgrade goes on and the upgrade it replaces (both canonical). Paying
    is checked as the card is played: an ability may reduce the cost first."""
    p = ctx.player(pid)
    if a.card not in p.hand and UNKNOWN not in p.hand:
        raise IllegalAction("destiny.actions.play-card-sequence", Msg(
            N_("{card} is not in {pid}'s hand"),
            card=a.card, pid=pid,
        ))
    card = ctx.card(a.card)
    if card.type not in (CardType.EVENT, CardType.UPGRADE, CardType.SUPPORT):
        raise IllegalAction("destiny.deckbuilding.deck-card-types", Msg(
            N_("{card} is a {type} and cannot be played from hand"),
            card=card.name, type=card.type.value,
        ))
    on = ctx.canon(a.on) if a.on else None
    if card.unique and card.type != CardType.EVENT:
        for ref in list(p.upgrades) + list(p.supports):
            if ctx.card(ctx.code_of(ref)).name == card.name:
                raise IllegalAction("destiny.uniqueness.one-copy-in-play", Msg(
                    N_("{pid} already has {card} ({ref}) in play"),
                    pid=pid, card=card.name, ref=ref,
                ))
    replaces = None
    if card.type == CardType.UPGRADE:
        if on is None:
            raise IllegalAction("destiny.upgrades.attach", Msg(
                N_("{card} is an upgrade: name the character it goes on with 'on'"),
                card=card.name,
            ))
        if on not in p.characters:
            raise IllegalAction("destiny.upgrades.attach", Msg(
                N_("{on} is not one of {pid}'s characters"),
                on=on, pid=pid,
            ))
        if p.characters[on].defeated:
            raise IllegalAction("destiny.defeat.no-further-use", Msg(N_("{on} is defeated"), on=on))
        if a.replaces:
            replaces = ctx.canon(a.replaces)
            if replaces not in p.characters[on].upgrades:
                raise IllegalAction("destiny.upgrades.replace", Msg(
                    N_("{replaces} is not an upgrade on {on}"),
                    replaces=replaces, on=on,
                ))
    elif on is not None:
        raise IllegalAction("destiny.actions.play-card-sequence", Msg(
            N_("{card} is a {type}: only upgrades name a character with 'on'"),
            card=card.name, type=card.type.value,
        ))
    ignore = bool(on and ctx.query("ignore_restrictions", (a.card, on), False))
    for ab in card.abilities_for("play") + card.abilities_for("restriction"):
        if ab.condition is not None and not ignore and not ab.condition(ctx, pid, on):
            raise IllegalAction("destiny.terms.play-restrictions", Msg(
                N_("{card} cannot be played: {ability}"),
                card=card.name, ability=ab.text,
            ))
    return card, on, replaces


def _check_resolve(ctx: Ctx, pid: str, a: st_.Resolve) -> None:
    p = ctx.player(pid)
    seen: set[str] = set()
    symbol = None
    for entry in a.dice:
        die = ctx.canon_die(entry.die)
        if die in seen:
            raise IllegalAction("destiny.actions.resolve-once-each", Msg(
                N_("{die} is named twice in one action"),
                die=die,
            ))
        seen.add(die)
        if die not in p.pool:
            raise IllegalAction("destiny.dice.pool-only", Msg(
                N_("{die} is not in {pid}'s dice pool"),
                die=die, pid=pid,
            ))
        face = p.pool[die]
        if face.is_blank or (symbol is not None and face.symbol != symbol):
            continue  # it may come to show the symbol while the others resolve (destiny.actions.resolve-late-joiners)
        symbol = face.symbol
        if face.symbol in DAMAGE and not face.modifier:
            if entry.target is None:
                raise IllegalAction("destiny.symbols.damage-one-target", Msg(
                    N_("{die} needs a target character"),
                    die=die,
                ))
            ctx.character(entry.target)
        if face.symbol == "Sh" and not face.modifier:
            if entry.target is None:
                raise IllegalAction("destiny.symbols.shield", Msg(N_("{die} needs a character to shield"), die=die))
            ctx.character(entry.target)
    if symbol is None:
        raise IllegalAction("destiny.symbols.blank", Msg(N_("every die named shows a blank, which cannot be resolved")))
    bases = [e for e in a.dice if not p.pool[ctx.canon_die(e.die)].modifier]
    if not bases:
        raise IllegalAction("destiny.dice.modifier-needs-base", Msg(
            N_("a modifier can only be resolved together with a base die of the same symbol in the same action"),
        ))


def check_reroll(ctx: Ctx, pid: str, a: st_.Reroll) -> list[str]:
    """What the reroll action requires (destiny.actions.reroll-by-discard): the dice, canonical."""
    p = ctx.player(pid)
    if not p.pool:
        raise IllegalAction("destiny.actions.reroll-needs-dice", Msg(
            N_("{pid} has no dice in their pool to reroll"),
            pid=pid,
        ))
    dice = [ctx.canon_die(d) for d in a.dice]
    if not dice:
        raise IllegalAction("destiny.actions.reroll-by-discard", Msg(N_("name at least one die to reroll")))
    if len(set(dice)) != len(dice):
        raise IllegalAction("destiny.actions.reroll-by-discard", Msg(N_("a die is named twice")))
    for d in dice:
        if d not in p.pool:
            raise IllegalAction("destiny.dice.pool-only", Msg(N_("{d} is not in {pid}'s dice pool"), d=d, pid=pid))
    if a.discard not in p.hand and UNKNOWN not in p.hand:
        raise IllegalAction("destiny.actions.reroll-by-discard", Msg(
            N_("{discard} is not in {pid}'s hand"),
            discard=a.discard, pid=pid,
        ))
    return dice


def check_use(ctx: Ctx, pid: str, a: st_.Use) -> tuple[str, Ability]:
    """What using a card's action requires (destiny.actions.card-action): the card (canonical) and
    the ability used. Its condition is checked too (``Ability.condition``)."""
    ref = ctx.canon(a.card)
    if ctx.owner_of(ref) != pid:
        raise IllegalAction("destiny.actions.card-action", Msg(N_("{pid} does not control {ref}"), pid=pid, ref=ref))
    p = ctx.player(pid)
    if ref in p.characters:
        if p.characters[ref].defeated:
            raise IllegalAction("destiny.defeat.no-further-use", Msg(N_("{ref} is defeated"), ref=ref))
    elif ref not in p.upgrades and ref not in p.supports:
        raise IllegalAction("destiny.actions.card-action", Msg(
            N_("{ref} is not in play under {pid}'s control"),
            ref=ref, pid=pid,
        ))
    code = ctx.code_of(ref)
    card = ctx.card(code)
    abilities = [ab for ab in card.abilities if ab.timing in ("action", "power")]
    if not abilities:
        if card.unimplemented:
            ctx.not_implemented(code, "its action ability")
        raise IllegalAction("destiny.actions.card-action", Msg(N_("{card} has no action ability"), card=card.name))
    k = a.ability or 1
    if k > len(abilities):
        raise IllegalAction("destiny.actions.card-action", Msg(
            N_("{card} has {n_abilities} action abilities"),
            card=card.name, n_abilities=len(abilities),
        ))
    ab = abilities[k - 1]
    if ab.timing == "power" and ref in p.power_used:
        raise IllegalAction("destiny.actions.power-action", Msg(
            N_("{card}'s power action was already used this round"),
            card=card.name,
        ))
    if ab.condition is not None and not ab.condition(ctx, pid, ref):
        raise IllegalAction("destiny.actions.card-action", Msg(
            N_("{card}'s action cannot be used now: {ability}"),
            card=card.name, ability=ab.text,
        ))
    return ref, ab


def check_claim(ctx: Ctx) -> str:
    """What claiming the battlefield requires: the battlefield (destiny.actions.claim-once-per-round)."""
    st = ctx.state
    if st.claimed_by is not None:
        raise IllegalAction("destiny.actions.claim-once-per-round", Msg(
            N_("{claimed_by} already claimed the battlefield this round"),
            claimed_by=st.claimed_by,
        ))
    if not st.battlefield:
        raise IllegalAction("destiny.battlefields.one-used", Msg(N_("there is no battlefield in play")))
    return st.battlefield


def check_activate(ctx: Ctx, pid: str, a: st_.Activate) -> str:
    """What activating requires (destiny.actions.activate): the card (canonical)."""
    ref = ctx.canon(a.card)
    if ctx.owner_of(ref) != pid:
        raise IllegalAction("destiny.terms.controller", Msg(
            N_("{pid} cannot activate {ref}, which {owner} controls"),
            pid=pid, ref=ref, owner=ctx.owner_of(ref),
        ))
    ctx.check_activate(pid, ref)
    return ref


# ====================================================================== generating
def candidates(state: GameState, cards: CardPool) -> list[st_.DestinyAction]:
    """Actions worth checking for the player to act, in a fixed order (pass last): each ready
    character and support activated; each base die resolved at each fitting target with the
    modifiers of its symbol; a reroll of all dice, and of each die, for each card in hand; each
    implemented card in hand played (an upgrade on each living character); each action ability
    used; the claim."""
    pid = state.extra_action or state.turn
    if state.phase == "over" or pid is None:
        return []
    p = state.players[pid]
    enemies = [c.ref for o in state.opponents(pid) for c in state.players[o].alive()]
    friends = [c.ref for c in p.alive()]
    out: list[st_.DestinyAction] = []
    for ref, ch in p.characters.items():
        if not ch.defeated and not ch.exhausted:
            out.append(st_.Activate(by=pid, card=ref))
    for ref, su in p.supports.items():
        if not su.exhausted and su.dice:
            out.append(st_.Activate(by=pid, card=ref))
    for die, face in p.pool.items():
        if face.modifier or face.is_blank:
            continue
        mods = tuple(st_.DieEntry(die=m, modifies=die) for m, f in p.pool.items() if f.modifier
                     and f.symbol == face.symbol)
        targets: list[str | None] = [None]
        if face.symbol in DAMAGE:
            targets = list(enemies)
        elif face.symbol == "Sh":
            targets = list(friends)
        for target in targets:
            out.append(st_.Resolve(by=pid, dice=(st_.DieEntry(die=die, target=target), *mods)))
    if p.pool:
        for code in sorted(set(p.hand) - {UNKNOWN}):
            out.append(st_.Reroll(by=pid, discard=code, dice=tuple(p.pool)))
            if len(p.pool) > 1:
                out.extend(st_.Reroll(by=pid, discard=code, dice=(d,)) for d in p.pool)
    for code in sorted(set(p.hand) - {UNKNOWN}):
        card = cards.get(code)
        if card is None or not card.implemented:
            continue  # a card whose text the engine does not apply is never chosen
        if card.type == CardType.UPGRADE:
            out.extend(st_.Play(by=pid, card=code, on=f) for f in friends)
        else:
            out.append(st_.Play(by=pid, card=code))
    for ref in list(p.characters) + list(p.upgrades) + list(p.supports):
        card = cards.get(ref.split(".")[1].split("#")[0])
        if card is None:
            continue
        n = len([ab for ab in card.abilities if ab.timing in ("action", "power")])
        out.extend(st_.Use(by=pid, card=ref, ability=k if n > 1 else None) for k in range(1, n + 1))
    if state.claimed_by is None:
        out.append(st_.Claim(by=pid))
    out.append(st_.Pass(by=pid))
    return out


def legal_actions(state: GameState, cards: CardPool) -> list[st_.DestinyAction]:
    """Every candidate action whose ``check`` passes (passing always does while the game goes on)."""
    return [a for a in candidates(state, cards) if check(state, a, cards) is None]

