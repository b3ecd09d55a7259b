"""Checking a step apart from applying it (STYLE.md section 4): ``check`` names the rule a step
breaks before anything changes, or None; ``legal_actions`` lists the steps that pass, for the player
to act (self-play). ``engine.apply_step`` trusts what passed here."""

from __future__ import annotations

from i18n import N_, Msg
from judge.games.relic import actions as ac
from judge.games.relic.cards import CHARACTERISTIC, COLOR_OF, TYPE_WINDOWS, Effect
from judge.games.relic.state import Contest, Held, Player, RelicState

Violation = tuple[str, str] | None
PHASE_AFTER = {"movement": "exploration", "exploration": "encounter", "encounter": "experience"}
WEAPON_ARMOUR = ("weapon", "armour", "armor")


def check(state: RelicState, action: ac.RelicAction) -> Violation:
    if state.phase == "over":
        return "relic.scenario.first-to-win", Msg(N_("the game is over"))
    if isinstance(action, ac.Discard) and action.by != state.turn:
        return "relic.discard.experience-phase-only", Msg(
            N_("{by} may discard by choice only in the Experience phase of their own turn"),
            by=action.by,
        )
    if state.turn is None or action.by != state.turn:
        return "relic.base.turn", Msg(N_("it is {turn}'s turn: only the active player acts"), turn=state.turn)
    p = state.players[state.turn]
    c = state.contest
    if isinstance(action, ac.EndPhase):
        if c is not None:
            return "relic.base.battle", Msg(
                N_("the {kind} under way must be settled ('resolve') before the phase ends"),
                kind=c.kind,
            )
        return None
    if isinstance(action, ac.Reach):
        if state.phase != "movement":
            return "relic.base.turn", Msg(N_("a character reaches the scenario space by moving, in the Movement phase"))
        if p.at_scenario:
            return "relic.base.winning", Msg(N_("{player} is on the scenario space already"), player=p.id)
        return None
    if isinstance(action, ac.Battle) or isinstance(action, ac.Confront) or isinstance(action, ac.Test):
        if state.phase != "encounter":
            return "relic.scenario.confrontation" if isinstance(action, ac.Confront) else "relic.base.turn", \
                Msg(
                    N_("a {verb} takes place in the Encounter phase (this is the {phase} phase)"),
                    verb=action.verb, phase=state.phase,
                )
        if c is not None:
            return "relic.base.battle", Msg(N_("a {kind} is under way"), kind=c.kind)
        if state.ended is not None:
            return _ended(state)
        if isinstance(action, ac.Battle):
            return _check_enemies(state, action.enemies)
        if isinstance(action, ac.Confront):
            if state.scenario is None:
                return "relic.scenario.confrontation", Msg(N_("this game has no scenario sheet"))
            if not p.at_scenario:
                return "relic.scenario.confrontation", Msg(N_("{player} is not on the scenario space"), player=p.id)
            if state.confronted:
                return "relic.base.winning", Msg(
                    N_("{player} resolved the Confrontation already this Encounter phase: once each Encounter "
                       "phase, again in the next turn's"),
                    player=p.id,
                )
        return None
    if isinstance(action, ac.Buy):
        card = state.card(action.card)
        if card is None:
            return "relic.cards.anatomy", Msg(
                N_("card {card} is not defined (setup.cards or the project's pool)"),
                card=action.card,
            )
        if card.influence is None or card.enemy:
            return "relic.cards.influence-cost", Msg(
                N_("{card} has no Influence cost: it cannot be bought"),
                card=card.name,
            )
        if state.phase != "encounter" or c is not None:
            return "relic.project.buying", Msg(N_("cards are bought in the Encounter phase, outside a battle or test"))
        if state.ended is not None:
            return _ended(state)
        if p.influence < card.influence:
            return "relic.cards.influence-cost", Msg(
                N_("{card} costs {influence} Influence; {player} has {has}"),
                card=card.name, influence=card.influence, player=p.id, has=p.influence,
            )
        return None
    if isinstance(action, ac.Discard):
        if state.phase != "experience":
            return "relic.discard.experience-phase-only", \
                Msg(
                    N_("a player discards by choice only in their own Experience phase (this is the {phase} phase)"),
                    phase=state.phase,
                )
        if len(set(action.cards)) != len(action.cards):
            return "relic.discard.player-chooses", Msg(N_("a card is named twice"))
        for ref in action.cards:
            if p.held(ref) is None:
                return "relic.discard.player-chooses", Msg(N_("{player} holds no card {ref}"), player=p.id, ref=ref)
        return None
    # the rest happen inside a battle or a skill test
    if c is None:
        if isinstance(action, ac.Use):
            return _check_use(state, p, action)  # some effects are used outside battles and tests
        if isinstance(action, ac.Power):
            return "relic.base.power", Msg(N_("a power number replaces the die of a battle's or a skill test's roll"))
        return "relic.base.battle", Msg(N_("'{verb}' needs a battle or a skill test under way"), verb=action.verb)
    if isinstance(action, ac.Roll):
        if c.stage != "prepare":
            return "relic.dice.additional-simultaneous", Msg(
                N_("the dice were rolled already: no die is added after the roll but by exploding"),
            )
        return None
    if isinstance(action, ac.Resolve):
        if c.stage != "rolled":
            return "relic.base.battle", Msg(N_("the {kind} is settled after the roll"), kind=c.kind)
        return None
    if isinstance(action, ac.Declare):
        return _check_declare(state, p, action)
    if isinstance(action, ac.Power):
        held = next((h for h in p.hand if h.ref == action.card), None)
        card = state.card(held.code) if held else None
        if held is None or card is None or not card.power or card.number is None:
            return "relic.base.power", Msg(N_("{player} holds no Power card {card}"), player=p.id, card=action.card)
        if c.stage != "prepare":
            return "relic.base.power", Msg(N_("a power number replaces a die just before it is rolled"))
        if c.power is not None:
            return "relic.base.power", Msg(N_("only one power number per roll"))
        return None
    if isinstance(action, ac.Use):
        return _check_use(state, p, action)
    return None


def _ended(state: RelicState) -> Violation:
    return "relic.base.threats", Msg(
        N_("{player} lost a battle this Encounter phase, which ended the phase's threats at once: the threats "
           "left stay unresolved, and only ending the phase ('end-phase') remains")
        if state.ended == "lost" else
        N_("{player} tied a battle this Encounter phase, which ended the phase's threats at once: the threats "
           "left stay unresolved, and only ending the phase ('end-phase') remains"),
        player=state.turn,
    )


def _check_enemies(state: RelicState, enemies: tuple[str, ...]) -> Violation:
    colors = set()
    for code in enemies:
        card = state.card(code)
        if card is None:
            return "relic.cards.anatomy", Msg(
                N_("card {code} is not defined (setup.cards or the project's pool)"),
                code=code,
            )
        if card.battle is None:
            return "relic.base.battle", Msg(N_("{card} is not an enemy"), card=card.name)
        colors.add(card.battle[0])
    if len(colors) > 1:
        return "relic.base.threats", Msg(N_("enemies of different colours are separate battles"))
    return None


def _check_charge(state: RelicState, p: Player, held: Held) -> Violation:
    if held.ref in p.spent:
        return "relic.charges.one-per-card-per-turn", Msg(
            N_("a charge was spent from {ref} this turn already"),
            ref=held.ref,
        )
    if held.charges <= 0:
        return "relic.charges.spend", Msg(N_("{ref} has no charge token left"), ref=held.ref)
    return None


def _check_declare(state: RelicState, p: Player, action: ac.Declare) -> Violation:
    c = state.contest
    assert c is not None
    held = next((h for h in p.assets if h.ref == action.card), None)
    card = state.card(held.code) if held else None
    if held is None or card is None:
        return "relic.base.assets", Msg(N_("{player} has no asset {card} in their play area"), player=p.id,
                                        card=action.card)
    if action.bonus >= len(card.bonuses):
        return "relic.cards.anatomy", Msg(
            N_("{card} has {n_bonuses} bonus(es); there is no bonus {bonus}"),
            card=card.name, n_bonuses=len(card.bonuses), bonus=action.bonus,
        )
    bonus = card.bonuses[action.bonus]
    declare_rule = "relic.bonuses.battle-declare" if c.kind == "battle" else "relic.bonuses.skill-declare"
    if c.stage != "prepare":
        return declare_rule, Msg(N_("bonuses are declared before the die roll"))
    if c.kind == "battle" and bonus.kind == "skill":
        return "relic.bonuses.skill", Msg(N_("a skill bonus never adds to a battle score"))
    if c.kind == "test" and bonus.kind == "battle":
        return "relic.bonuses.battle", Msg(N_("a battle bonus adds only to a battle score"))
    if bonus.kind == "skill" and bonus.color != c.color:
        return "relic.bonuses.skill-colors", Msg(
            N_("a {color} skill bonus boosts {characteristic}, not {other}"),
            color=bonus.color, characteristic=CHARACTERISTIC[bonus.color], other=CHARACTERISTIC[c.color],
        )
    if bonus.kind == "battle" and bonus.color not in (c.color, "gray"):
        return "relic.bonuses.battle-colors", Msg(
            N_("a {color} battle bonus fits {characteristic} battles, not a {other} battle"),
            color=bonus.color, characteristic=CHARACTERISTIC[bonus.color], other=CHARACTERISTIC[c.color],
        )
    if any(d["card"] == action.card and d["bonus"] == action.bonus for d in c.declared):
        return declare_rule, Msg(N_("that bonus is declared already"))
    kind = card.type.lower()
    allowed = TYPE_WINDOWS.get(kind)
    if allowed is not None and c.kind not in allowed:  # a weapon's or armour's bonus too, as its effect
        return "relic.cards.type-timing", Msg(
            N_("a {type} is used only in a {allowed}"),
            type=card.type, allowed=' or '.join(allowed),
        )
    violation = second_arm(state, p, c, kind, action.card, by_effect=False)
    if violation is not None:
        return violation
    if bonus.charge:
        return _check_charge(state, p, held)
    return None


def second_arm(state: RelicState, p: Player, c: Contest, kind: str, ref: str, by_effect: bool) -> Violation:
    """relic.base.battle: at most one weapon and one armour in a battle. Another card of ``ref``'s
    ``kind`` (a card type) counts when its bonus is declared in the battle or its effect was used there,
    even if its last charge has discarded it since; ``by_effect``: ``ref``'s effect is what is used now.
    Where an effect is what makes a card count, relic.project.effect-uses-card is the rule."""
    if c.kind != "battle" or kind not in WEAPON_ARMOUR:
        return None
    kind = kind.replace("armor", "armour")
    others = [(str(d["card"]), str(d.get("code", "")), False) for d in c.declared]
    others += [(used, used.split(".", 1)[-1].split("#")[0], True) for used in c.used]
    for other_ref, code, used in others:
        if other_ref == ref:
            continue
        other = p.held(other_ref)
        card = state.card(other.code if other is not None else code)
        if card is None or card.type.lower().replace("armor", "armour") != kind:
            continue
        if by_effect or used:
            return "relic.project.effect-uses-card", Msg(
                N_("at most one {kind} per battle (relic.base.battle), and {card} is this battle's: a card whose "
                   "effect is used counts as one whose bonus is declared"),
                kind=kind, card=card.name)
        return "relic.base.battle", Msg(N_("at most one {kind} per battle"), kind=kind)
    return None


def window_open(state: RelicState, window: str) -> bool:
    c = state.contest
    if window == "turn":
        return True
    if window in ("battle", "test"):
        return c is not None and c.kind == window
    return state.phase == window


def _check_use(state: RelicState, p: Player, action: ac.Use) -> Violation:
    c = state.contest
    held = p.held(action.card)
    card = state.card(held.code) if held else None
    if held is None or card is None:
        return "relic.base.assets", Msg(N_("{player} holds no card {card}"), player=p.id, card=action.card)
    effect = card.effect
    if effect is None:
        return "relic.cards.anatomy", Msg(N_("{card} has no effect to use"), card=card.name)
    if not effect.implemented:
        return None  # the engine says it cannot rule (not-implemented), rather than a rule
    if effect.timing != "during":
        return "relic.timing.during", Msg(
            N_("{card}'s effect resolves at the {timing} of its window by itself; only 'during' effects are used "
               "by choice"),
            card=card.name, timing=effect.timing,
        )
    allowed = TYPE_WINDOWS.get(card.type.lower())
    if allowed is not None and not (c is not None and c.kind in allowed):
        return "relic.cards.type-timing", Msg(
            N_("a {type} is used only in a {allowed}"),
            type=card.type, allowed=' or '.join(allowed),
        )
    if c is not None:
        violation = second_arm(state, p, c, card.type.lower(), held.ref, by_effect=True)
        if violation is not None:
            return violation
    if not window_open(state, effect.window):
        return "relic.timing.during", Msg(
            N_("{card}'s effect is used during the {window}"),
            card=card.name, window=effect.window,
        )
    violation = _check_effect_now(state, effect, action)
    if violation is not None:
        return violation
    if effect.charge:
        return _check_charge(state, p, held)
    return None


def _check_effect_now(state: RelicState, effect: Effect, action: ac.Use) -> Violation:
    c = state.contest
    if effect.kind in ("reroll", "modify"):
        rule = "relic.dice.reroll" if effect.kind == "reroll" else "relic.dice.modify"
        if c is None or c.stage != "rolled":
            return rule, Msg(N_("a {kind} changes a die already rolled"), kind=effect.kind)
        die = c.die(action.die) if action.die else None
        if die is None or die.side != "player" or die.void:
            return rule, Msg(
                N_("name one of the player's dice ({counted})"),
                counted=', '.join(d.id for d in c.counted('player')),
            )
        return None
    if effect.kind == "extra-die":
        if c is None:
            return "relic.dice.additional-simultaneous", Msg(
                N_("an additional die is rolled in a battle or a skill test"),
            )
        if c.stage != "prepare":
            return "relic.dice.additional-simultaneous", Msg(
                N_("all dice are rolled together: after the roll no additional die may be added, except by "
                   "exploding"),
            )
        return None
    if effect.kind in ("score", "enemy-score", "difficulty") and c is None:
        return "relic.dice.modify", Msg(N_("a score changes in a battle or a skill test"))
    if action.die is not None:
        return "relic.cards.anatomy", Msg(N_("this effect ({kind}) names no die"), kind=effect.kind)
    return None


def candidates(state: RelicState) -> list[ac.RelicAction]:
    """Steps worth checking now (self-play's menu)."""
    pid = state.turn
    if pid is None or state.phase == "over":
        return []
    p = state.players[pid]
    c = state.contest
    out: list[ac.RelicAction] = []
    if c is None:
        out.append(ac.EndPhase(by=pid))
        if state.phase == "movement":
            out.append(ac.Reach(by=pid))
        if state.phase == "encounter":
            if p.at_scenario:
                out.append(ac.Confront(by=pid))
            enemies = sorted(code for code, card in state.pool.cards.items() if card.enemy)
            out += [ac.Battle(by=pid, enemies=(code,)) for code in enemies]
            out += [ac.Test(by=pid, skill=s, target=t) for s in COLOR_OF for t in (6, 9)]
            out += [ac.Buy(by=pid, card=code) for code, card in sorted(state.pool.cards.items())
                    if card.influence is not None]
        if state.phase == "experience":
            out += [ac.Discard(by=pid, cards=(h.ref,)) for h in (*p.assets, *p.hand)]
    else:
        if c.stage == "prepare":
            out.append(ac.Roll(by=pid))
            for h in p.assets:
                card = state.card(h.code)
                if card is not None:
                    out += [ac.Declare(by=pid, card=h.ref, bonus=i) for i in range(len(card.bonuses))]
            out += [ac.Power(by=pid, card=h.ref) for h in p.hand]
        else:
            out.append(ac.Resolve(by=pid))
        for h in (*p.assets, *p.hand):
            card = state.card(h.code)
            if card is None or card.effect is None or not card.effect.implemented:
                continue
            if card.effect.kind in ("reroll", "modify"):
                out += [ac.Use(by=pid, card=h.ref, die=d.id) for d in c.counted("player")]
            else:
                out.append(ac.Use(by=pid, card=h.ref))
    return out


def legal_actions(state: RelicState) -> list[ac.RelicAction]:
    return [a for a in candidates(state) if check(state, a) is None]
