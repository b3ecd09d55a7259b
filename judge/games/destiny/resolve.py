"""Resolving dice (destiny.actions.resolve-dice): the dice named, their one symbol, modifiers with
their base die, face costs, and what each symbol does; indirect damage, focus and specials. Cards
that resolve dice call ``resolve_dice`` as the resolve action does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from i18n import N_, Msg
from judge.games.destiny import records as rec
from judge.games.destiny.choices import validate_turns
from judge.games.destiny.dice import Face
from judge.games.destiny.refs import card_of_die, parse_ref
from judge.games.destiny.state import Player
from judge.games.destiny.steps import DieEntry
from judge.kernel.core import Decision, IllegalAction

if TYPE_CHECKING:  # pragma: no cover
    from judge.games.destiny.engine import Ctx


def resolve_dice(ctx: Ctx, pid: str, entries: Sequence[DieEntry] | None, source: str | None = None, bonus: int = 0,
                 free: bool = False, only: Callable[[str], bool] | None = None,
                 max_dice: int | None = None, rule: str = "destiny.actions.resolve-dice",
                 unmodified: bool = False) -> None:
    """Resolve dice from ``pid``'s pool: one symbol, modifiers with a base, costs, effects.
    ``unmodified``: a modifier face resolves as if it had no plus (a card says so)."""
    if not entries:
        raise IllegalAction("destiny.actions.resolve-at-least-one", Msg(N_("name at least one die to resolve")))
    seen: set[str] = set()
    symbol: str | None = None
    p = ctx.player(pid)
    now: list[tuple[str, Face, DieEntry]] = []
    late: list[tuple[str, DieEntry]] = []
    for entry in entries:
        die = ctx.canon_die(entry.die)
        if die in seen:
            raise IllegalAction("destiny.actions.resolve-once-each", Msg(
                N_("{die} is named twice in one action"),
                die=die,
            ))
        seen.add(die)
        if die not in p.pool:
            owner = ctx.owner_of(die)
            if owner != pid and die in ctx.player(owner).pool:
                raise IllegalAction("destiny.dice.pool-only", Msg(
                    N_("{die} is in {owner}'s pool, not {pid}'s"),
                    die=die, owner=owner, pid=pid,
                ))
            raise IllegalAction("destiny.dice.pool-only", Msg(
                N_("{die} is not in {pid}'s dice pool"),
                die=die, pid=pid,
            ))
        if only is not None and not only(die):
            raise IllegalAction(rule, Msg(N_("{die} cannot be resolved by {source}"), die=die, source=source))
        face = _resolving_face(p.pool[die], unmodified)
        if face.symbol == "-" or (symbol is not None and face.symbol != symbol):  # (face.is_blank, inline)
            # it may still come to show the chosen symbol during the action
            # (destiny.actions.resolve-late-joiners); checked again when the others have resolved
            late.append((die, entry))
            continue
        symbol = face.symbol
        now.append((die, face, entry))
    if max_dice is not None and len(seen) > max_dice:
        raise IllegalAction(rule, Msg(N_("{source} resolves at most {max_dice} die"), source=source, max_dice=max_dice))
    if symbol is None:
        die = late[0][0]
        raise IllegalAction("destiny.symbols.blank", Msg(N_("{die} shows a blank, which cannot be resolved"), die=die))
    _resolve_groups(ctx, pid, p, _group(ctx, p, now, unmodified), source, bonus, free, rule)
    if not late:
        return
    joined: list[tuple[str, Face, DieEntry]] = []
    for die, entry in late:
        if die not in p.pool:
            raise IllegalAction("destiny.dice.pool-only", Msg(
                N_("{die} left the pool before it could resolve"),
                die=die,
            ))
        face = _resolving_face(p.pool[die], unmodified)
        if face.symbol == "-":  # (face.is_blank, inline)
            raise IllegalAction("destiny.symbols.blank", Msg(
                N_("{die} shows a blank, which cannot be resolved"),
                die=die,
            ))
        if face.symbol != symbol:
            raise IllegalAction("destiny.actions.resolve-one-symbol", Msg(
                N_("{die} shows {notation}: all dice resolved in one action must show the same symbol ({symbol})"),
                die=die, notation=face.notation(), symbol=symbol,
            ))
        joined.append((die, face, entry))
    ctx.records.append(rec.LateJoinersRecord(tuple(d for d, _, _ in joined), symbol,
                                     ("destiny.actions.resolve-late-joiners",)))
    _resolve_groups(ctx, pid, p, _group(ctx, p, joined, unmodified), source, bonus, free, rule)


def resolvable_alone(ctx: Ctx, pid: str, die: str) -> bool:
    """Whether ``die`` of ``pid``'s pool could be resolved as the one die a card lets its player
    resolve: not a blank (destiny.symbols.blank), not a modifier, which never resolves alone
    (destiny.dice.resolve-via-card-modifiers), and its face's cost payable now or made free
    (destiny.dice.resolve-via-card-cost, destiny.terms.free)."""
    face = ctx.player(pid).pool[die]
    if face.is_blank or face.modifier:
        return False
    return face.cost <= ctx.player(pid).resources or bool(ctx.query("free_die", die, False))


def _resolving_face(face: Face, unmodified: bool) -> Face:
    return Face(face.symbol, face.value, False, face.cost) if unmodified and face.modifier else face


def _group(ctx: Ctx, p: Player, dice: list[tuple[str, Face, DieEntry]], unmodified: bool,
           ) -> dict[str, list[tuple[str, Face, DieEntry]]]:
    """Base dice, each with the modifiers resolved with it (destiny.dice.modifier-needs-base),
    in the order named."""
    groups: dict[str, list[tuple[str, Face, DieEntry]]] = {}
    for die, face, entry in dice:
        if not face.modifier:
            groups[die] = [(die, face, entry)]
    for die, face, entry in dice:
        if not face.modifier:
            continue
        base = entry.modifies  # (the field: entry.get("modifies"), without a call)
        if base is None:
            bases = [b for b in groups if p.pool[b].symbol == face.symbol]
            if len(bases) != 1:
                raise IllegalAction("destiny.dice.modifier-needs-base", Msg(
                    N_("{die} shows a modifier ({notation}) and can only be resolved together with a base die of "
                       "the same symbol in the same action{hint}"),
                    die=die, notation=face.notation(), hint=Msg(N_(" (name it with 'modifies')")) if bases else "",
                ))
            base = bases[0]
        base = ctx.canon_die(base)
        if base not in groups:
            raise IllegalAction("destiny.dice.modifier-needs-base",
                                Msg(
                                    N_("{die} modifies {base}, which is not a base die resolved in this action"),
                                    die=die, base=base,
                                ))
        groups[base].append((die, face, entry))
    return groups


def _resolve_groups(ctx: Ctx, pid: str, p: Player, groups: dict[str, list[tuple[str, Face, DieEntry]]],
                    source: str | None, bonus: int, free: bool, rule: str) -> None:
    """Resolve each group of ``pid``'s dice (``p``: that player)."""
    pool = p.pool
    for base, group in groups.items():
        left = base not in pool
        for d, _, _ in group:  # (a loop, not any(...): no generator made for each group)
            if d not in pool:
                left = True
        if left:
            raise IllegalAction("destiny.dice.pool-only", Msg(
                N_("{base} left the pool before it could resolve"),
                base=base,
            ))
        _resolve_group(ctx, pid, p, group, source, bonus, free, rule)


def _resolve_group(ctx: Ctx, pid: str, p: Player, group: list[tuple[str, Face, DieEntry]], source: str | None,
                   bonus: int, free: bool, rule: str) -> None:
    base_die, base_face, entry = group[0]
    value = bonus
    cost = 0
    dice: list[str] = []
    for d, f, _ in group:  # (die_value read inline for a face that shows its value: most do)
        value += f.value if f.value is not None else ctx.die_value(d, f)
        cost += f.cost
        dice.append(d)
    if cost:
        free = free or bool(ctx.query("free_die", base_die, False))
        if free:
            ctx.records.append(rec.FreeRecord(base_die, cost, ("destiny.terms.free",)))
        else:
            ctx.spend(pid, cost, "destiny.dice.face-cost", f"the face of {base_die}")
    if ctx.recording:
        ctx.records.append(rec.ResolveRecord(pid, tuple(dice), base_face.symbol, value, source,
                                             (rule, "destiny.dice.symbol", "destiny.dice.modifier-needs-base")
                                             if len(group) > 1 else (rule, "destiny.dice.symbol")))
    # the die returns to its card as it resolves (destiny.actions.resolve-dice)
    for d in dice:
        p.pool.pop(d, None)
    src = base_die
    sym = base_face.symbol
    target = entry.target  # (the field: entry.get("target"), without a call)
    if sym in ("MD", "RD"):
        if not isinstance(target, str):
            raise IllegalAction("destiny.symbols.damage-one-target", Msg(
                N_("{base_die} needs a target character"),
                base_die=base_die,
            ))
        ctx.deal_damage(src, target, value, symbol=sym)
    elif sym == "ID":
        opp = target if isinstance(target, str) and target in ctx.state.players else None
        if opp is None:
            if isinstance(target, str) and parse_ref(target, ctx.cards.refs):
                opp = ctx.owner_of(target)
            else:
                opp = ctx.opponent(pid, src, Msg(N_("which opponent takes the indirect damage")))
        if opp == pid or opp not in ctx.state.opponents(pid):
            raise IllegalAction("destiny.symbols.indirect", Msg(
                N_("indirect damage goes to an opponent, not {opp}"),
                opp=opp,
            ))
        indirect(ctx, src, opp, value, split=entry.get("split"))
    elif sym == "Sh":
        if not isinstance(target, str):
            raise IllegalAction("destiny.symbols.shield", Msg(
                N_("{base_die} needs a character to shield"),
                base_die=base_die,
            ))
        ctx.give_shields(src, target, value)
    elif sym == "R":
        ctx.gain(src, pid, value)
    elif sym in ("Dr", "Dc"):
        opp = target if isinstance(target, str) and target in ctx.state.players else ctx.opponent(pid, src)
        rule = "destiny.symbols.disrupt" if sym == "Dr" else "destiny.symbols.discard"
        if opp not in ctx.state.opponents(pid):
            raise IllegalAction(rule, Msg(
                N_("{base_die} affects an opponent of {pid}, not {opp}"),
                base_die=base_die, pid=pid, opp=opp,
            ))
        if sym == "Dr":
            ctx.lose(src, opp, value)
        else:
            ctx.discard_random(src, opp, value)
    elif sym == "F":
        focus(ctx, pid, src, value, entry.get("turn"))
    elif sym == "Sp":
        for d, _f, e in group:
            special(ctx, pid, d, e)


def indirect(ctx: Ctx, source: str, opp: str, amount: int, split: Any = None) -> None:
    """Indirect damage: the opponent splits it among their characters (destiny.symbols.indirect)."""
    alive = [c.ref for c in ctx.player(opp).alive()]
    if not alive or amount <= 0:
        return
    if len(alive) == 1:
        shares = {alive[0]: amount}
    else:
        answer = split
        if answer is None:
            answer = ctx.decide(Decision(opp, "split", tuple(alive),
                                          ("destiny.symbols.indirect",),
                                          Msg(
                                              N_("split {amount} indirect damage among your characters"),
                                              amount=amount,
                                          ),
                                          source, True, amount))
        if not isinstance(answer, dict) or any(not isinstance(v, int) or isinstance(v, bool) or v < 0
                                               for v in answer.values()):
            raise IllegalAction("destiny.symbols.indirect", Msg(N_("a split maps characters to amounts")))
        shares = {ctx.canon(k): v for k, v in answer.items()}
        if any(k not in alive for k in shares) or sum(shares.values()) != amount:
            raise IllegalAction("destiny.symbols.indirect", Msg(
                N_("the split must put exactly {amount} damage on {opp}'s characters ({alive})"),
                amount=amount, opp=opp, alive=', '.join(alive),
            ))
    ctx.records.append(rec.IndirectRecord(opp, amount, shares, ("destiny.symbols.indirect",)))
    for ref, n in shares.items():
        if n and not ctx.player(opp).characters[ref].defeated:
            ctx.deal_damage(source, ref, n, symbol="ID")


def focus(ctx: Ctx, pid: str, source: str, value: int, turns: Any) -> None:
    """Turn up to ``value`` of your other dice (destiny.symbols.focus, .focus-own-only)."""
    if turns is None:
        turns = ctx.decide(Decision(pid, "turn", tuple(ctx.player(pid).pool),
                                     ("destiny.symbols.focus",), source=source, multiple=True,
                                     prompt=Msg(N_("turn up to {value} of your other dice"), value=value), count=value))
    if not isinstance(turns, dict):
        raise IllegalAction("destiny.symbols.focus", Msg(N_("a focus names dice and the faces to turn them to")))
    if len(turns) > value:
        raise IllegalAction("destiny.symbols.focus", Msg(N_("focus {value} turns at most {value} dice"), value=value))
    for die in turns:
        d = ctx.canon_die(die)
        if d == source:
            raise IllegalAction("destiny.symbols.focus", Msg(N_("a focus die does not turn itself")))
        if ctx.owner_of(d) != pid:
            raise IllegalAction("destiny.symbols.focus-own-only", Msg(
                N_("focus cannot turn {d}, an opponent's die"),
                d=d,
            ))
    checked = validate_turns(ctx, turns, {ctx.canon_die(d): None for d in turns}, "destiny.symbols.focus", most=value)
    for d, face in checked.items():
        ctx.turn_die(source, d, face)


def special(ctx: Ctx, pid: str, die: str, entry: DieEntry) -> None:
    """A special face runs its own card's special ability (destiny.symbols.special-own-card)."""
    code = ctx.code_of(card_of_die(die))
    card = ctx.card(code)
    specials = card.abilities_for("special")
    if not specials:
        ctx.not_implemented(code, "its special ability")
    ctx.records.append(rec.SpecialRecord(die, code,
                                 ("destiny.symbols.special", "destiny.abilities.resolve-fully")))
    for ab in specials:
        if ab.effect is not None:
            ab.effect(ctx, card_of_die(die), entry)
