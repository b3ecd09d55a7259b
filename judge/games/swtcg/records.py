"""SW TCG's records: one class per kind of event a ruling or timeline writes, with one shape.

Each record names its JSON keys once (``keys``, in order; ``optional`` ones are left out when
None) and documents them as ``key: meaning`` lines; ``to_json`` writes
``{"event": kind, <keys>..., "rules": [...]}``. A record is immutable once made.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from judge.kernel.core import Record


class _Rec(Record):
    """A record: its rules and its values, one attribute per JSON key (``keys``, in order; a key named
    ``kind`` is kept as ``kind_``, beside the class's event ``kind``), each class with its own
    ``__init__`` taking them by name (the required ones without a default, the ``optional`` ones
    None when left out): made as cheaply as can be (a replay makes several a step, and most are never
    written), with no table of keyword arguments. Immutable: ``Final`` attributes (the compiled engine
    refuses to set them again; in pure Python the type checker holds them, as for the actions)."""

    __slots__ = ("rules",)
    keys: ClassVar[tuple[str, ...]] = ()

    def __init__(self, rules: tuple[str, ...]) -> None:
        self.rules: Final[tuple[str, ...]] = rules

    def get(self, key: str) -> Any:
        """The value of JSON key ``key`` (None: no such key, or an optional one left out)."""
        return getattr(self, "kind_" if key == "kind" else key, None) if key in self.keys else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind}
        for key in self.keys:
            value = getattr(self, "kind_" if key == "kind" else key)
            if value is None and key in self.optional:
                continue
            # (a list copied too: a record may share its list with the state, e.g. ``may``, ``acting``)
            out[key] = list(value) if isinstance(value, (tuple, list)) else value
        out["rules"] = list(self.rules)
        return out


class PhaseRecord(_Rec):
    """A phase or step begins.

    round: the turn number
    phase: ready, command, battle or over
    step: the step (build, retreat, battle) or the phase again
    player: whose build or retreat step it is
    arena: the battle step's arena
    """

    kind: ClassVar[str] = "phase"
    keys = ("round", "phase", "step", "player", "arena")
    optional = ("player", "arena")
    __slots__ = ("round", "phase", "step", "player", "arena")

    def __init__(self, rules: tuple[str, ...], *, round: Any, phase: Any, step: Any, player: Any = None,
                 arena: Any = None) -> None:
        _Rec.__init__(self, rules)
        self.round: Final = round
        self.phase: Final = phase
        self.step: Final = step
        self.player: Final = player
        self.arena: Final = arena


class ReadyRecord(_Rec):
    """The ready phase: every card untaps, each player gains 4 Force, the Light Side rolls for build points.

    untapped: the cards untapped, Dark Side's first
    force: each player's Force after gaining
    roll: the build-point die
    build: each player's build points (+1 with a unit in each arena)
    """

    kind: ClassVar[str] = "ready"
    keys = ("untapped", "force", "roll", "build")
    __slots__ = ("untapped", "force", "roll", "build")

    def __init__(self, rules: tuple[str, ...], *, untapped: Any, force: Any, roll: Any, build: Any) -> None:
        _Rec.__init__(self, rules)
        self.untapped: Final = untapped
        self.force: Final = force
        self.roll: Final = roll
        self.build: Final = build


class DrawRecord(_Rec):
    """A player draws cards (none from an empty deck: swtcg.build.empty-deck).

    player: who draws
    count: cards drawn
    asked: cards the rules asked for
    """

    kind: ClassVar[str] = "draw"
    keys = ("player", "count", "asked")
    __slots__ = ("player", "count", "asked")

    def __init__(self, rules: tuple[str, ...], *, player: Any, count: Any, asked: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.count: Final = count
        self.asked: Final = asked


class DeployRecord(_Rec):
    """A unit enters its arena (from hand in setup, from the build zone later) or joins a stack.

    player: whose unit
    card: the card's reference
    code: its code
    arena: the arena
    stacked: the unit it was stacked with
    """

    kind: ClassVar[str] = "deploy"
    keys = ("player", "card", "code", "arena", "stacked")
    optional = ("stacked",)
    __slots__ = ("player", "card", "code", "arena", "stacked")

    def __init__(self, rules: tuple[str, ...], *, player: Any, card: Any, code: Any, arena: Any,
                 stacked: Any = None) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.card: Final = card
        self.code: Final = code
        self.arena: Final = arena
        self.stacked: Final = stacked


class BuildRecord(_Rec):
    """Build counters are put on a card in the build zone (a new card starts face down).

    player: who builds
    card: the card's reference
    counters: counters added
    total: counters on it now
    cost: its build cost
    build: build points left
    """

    kind: ClassVar[str] = "build"
    keys = ("player", "card", "counters", "total", "cost", "build")
    __slots__ = ("player", "card", "counters", "total", "cost", "build")

    def __init__(self, rules: tuple[str, ...], *, player: Any, card: Any, counters: Any, total: Any, cost: Any,
                 build: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.card: Final = card
        self.counters: Final = counters
        self.total: Final = total
        self.cost: Final = cost
        self.build: Final = build


class PilotRecord(_Rec):
    """A pilot moves onto a unit, between units, or off to the Character arena or the build zone.

    player: who moves it
    pilot: the pilot
    onto: the unit, or ``character`` / ``build``
    """

    kind: ClassVar[str] = "pilot"
    keys = ("player", "pilot", "onto")
    __slots__ = ("player", "pilot", "onto")

    def __init__(self, rules: tuple[str, ...], *, player: Any, pilot: Any, onto: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.pilot: Final = pilot
        self.onto: Final = onto


class CompleteRecord(_Rec):
    """A Mission is completed: its effect happens, then it is discarded (swtcg.base.mission).

    player: who completes it
    card: the Mission's reference
    code: its code
    cost: Force paid
    option: the option chosen ("Choose one")
    target: the effect's target
    """

    kind: ClassVar[str] = "complete"
    keys = ("player", "card", "code", "cost", "option", "target")
    optional = ("option", "target")
    __slots__ = ("player", "card", "code", "cost", "option", "target")

    def __init__(self, rules: tuple[str, ...], *, player: Any, card: Any, code: Any, cost: Any, option: Any = None,
                 target: Any = None) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.card: Final = card
        self.code: Final = code
        self.cost: Final = cost
        self.option: Final = option
        self.target: Final = target


class EquipRecord(_Rec):
    """Equipment is attached to a unit, from the build zone or moved from another unit (swtcg.base.equip).

    player: who equips
    card: the Equipment's reference
    onto: the unit
    was: the unit it was on before
    paid: the Equip cost paid (``[kind, amount]``: build points or Force)
    """

    kind: ClassVar[str] = "equip"
    keys = ("player", "card", "onto", "was", "paid")
    optional = ("was",)
    __slots__ = ("player", "card", "onto", "was", "paid")

    def __init__(self, rules: tuple[str, ...], *, player: Any, card: Any, onto: Any, paid: Any,
                 was: Any = None) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.card: Final = card
        self.onto: Final = onto
        self.was: Final = was
        self.paid: Final = paid


class RetreatRecord(_Rec):
    """A unit (and its pilot) retreats to the build zone.

    player: whose unit
    card: the unit (or a pilot retreating alone)
    tapped: whether retreating tapped it (the retreat step) or not (an effect)
    """

    kind: ClassVar[str] = "retreat"
    keys = ("player", "card", "tapped")
    __slots__ = ("player", "card", "tapped")

    def __init__(self, rules: tuple[str, ...], *, player: Any, card: Any, tapped: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.card: Final = card
        self.tapped: Final = tapped


class PassRecord(_Rec):
    """A player passes (a chance to play, the rest of a build or retreat step, or setup).

    player: who passes
    what: what they pass on (``chance``, ``build``, ``retreat``, ``deploy``, ``partial``)
    auto: the engine passed for them: they had nothing else they could do
    """

    kind: ClassVar[str] = "pass"
    keys = ("player", "what", "auto")
    __slots__ = ("player", "what", "auto")

    def __init__(self, rules: tuple[str, ...], *, player: Any, what: Any, auto: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.what: Final = what
        self.auto: Final = auto


class ChanceRecord(_Rec):
    """A chance to play opens, or the step ends with this player to act in it.

    kind: ``general``, ``attack`` (an attack declared, before its roll), ``reroll``, ``prevent`` or ``disrupt``
    player: who may play now
    passes: consecutive passes so far
    may: what they may do besides passing (abilities' and cards' IDs)
    """

    kind: ClassVar[str] = "chance"
    keys = ("kind", "player", "passes", "may")
    __slots__ = ("kind_", "player", "passes", "may")

    def __init__(self, rules: tuple[str, ...], *, kind: Any, player: Any, passes: Any, may: Any) -> None:
        _Rec.__init__(self, rules)
        self.kind_: Final = kind
        self.player: Final = player
        self.passes: Final = passes
        self.may: Final = may


class AwaitRecord(_Rec):
    """The step ends with this player to act outside a chance to play (a chance ends with ``chance``).

    player: who acts now
    wait: what they are asked: ``deploy``, ``partial``, ``build``, ``retreat`` or ``act``
    acting: the units whose turn it is (``act``)
    may: what they may do besides passing (or letting the unit go through its turn)
    """

    kind: ClassVar[str] = "await"
    keys = ("player", "wait", "acting", "may")
    optional = ("acting",)
    __slots__ = ("player", "wait", "acting", "may")

    def __init__(self, rules: tuple[str, ...], *, player: Any, wait: Any, may: Any, acting: Any = None) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.wait: Final = wait
        self.acting: Final = acting
        self.may: Final = may


class ChanceEndRecord(_Rec):
    """A chance to play ends (both players passed in a row, or nobody could play).

    kind: the chance's kind
    """

    kind: ClassVar[str] = "chance-end"
    keys = ("kind",)
    __slots__ = ("kind_",)

    def __init__(self, rules: tuple[str, ...], *, kind: Any) -> None:
        _Rec.__init__(self, rules)
        self.kind_: Final = kind


class AttackRecord(_Rec):
    """A unit attacks (it taps); or, with ``skip``, goes through the battle step without attacking.

    player: the attacker's controller
    attacker: the attacking unit
    defender: the unit attacked
    arena: the arena
    skip: the unit did not attack
    """

    kind: ClassVar[str] = "attack"
    keys = ("player", "attacker", "defender", "arena", "skip")
    optional = ("defender", "skip")
    __slots__ = ("player", "attacker", "defender", "arena", "skip")

    def __init__(self, rules: tuple[str, ...], *, player: Any, attacker: Any, arena: Any, defender: Any = None,
                 skip: Any = None) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.attacker: Final = attacker
        self.defender: Final = defender
        self.arena: Final = arena
        self.skip: Final = skip


class RollRecord(_Rec):
    """Dice are rolled (an attack, dice of damage, build points).

    player: who rolls
    purpose: ``attack``, ``dice`` or ``build``
    dice: the natural results
    source: the unit whose dice they are
    """

    kind: ClassVar[str] = "roll"
    keys = ("player", "purpose", "dice", "source")
    optional = ("source",)
    __slots__ = ("player", "purpose", "dice", "source")

    def __init__(self, rules: tuple[str, ...], *, player: Any, purpose: Any, dice: Any, source: Any = None) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.purpose: Final = purpose
        self.dice: Final = dice
        self.source: Final = source


class RerollRecord(_Rec):
    """Dice are rerolled in a reroll chance.

    player: who rerolls
    ability: the ability or card used
    which: the positions of the dice rerolled (from 0)
    dice: all the dice after the reroll
    """

    kind: ClassVar[str] = "reroll"
    keys = ("player", "ability", "which", "dice")
    __slots__ = ("player", "ability", "which", "dice")

    def __init__(self, rules: tuple[str, ...], *, player: Any, ability: Any, which: Any, dice: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.ability: Final = ability
        self.which: Final = which
        self.dice: Final = dice


class HitsRecord(_Rec):
    """A roll is read: hits and damage.

    target: the unit the damage is for
    hits: dice that hit
    need: the lowest total that hits (4, or 5 against Armor)
    accuracy: added to each die
    critical: extra damage of Critical Hit (a natural 6)
    damage: the damage to deal
    """

    kind: ClassVar[str] = "hits"
    keys = ("target", "hits", "need", "accuracy", "critical", "damage")
    __slots__ = ("target", "hits", "need", "accuracy", "critical", "damage")

    def __init__(self, rules: tuple[str, ...], *, target: Any, hits: Any, need: Any, accuracy: Any, critical: Any,
                 damage: Any) -> None:
        _Rec.__init__(self, rules)
        self.target: Final = target
        self.hits: Final = hits
        self.need: Final = need
        self.accuracy: Final = accuracy
        self.critical: Final = critical
        self.damage: Final = damage


class PendingRecord(_Rec):
    """Damage is about to be dealt to a unit: it waits in a chance to prevent damage.

    target: the unit (or pilot)
    amount: damage
    source: the unit dealing it (None: no source, swtcg.damage.sourceless-counters)
    """

    kind: ClassVar[str] = "pending"
    keys = ("target", "amount", "source")
    __slots__ = ("target", "amount", "source")

    def __init__(self, rules: tuple[str, ...], *, target: Any, amount: Any, source: Any) -> None:
        _Rec.__init__(self, rules)
        self.target: Final = target
        self.amount: Final = amount
        self.source: Final = source


class DoubledRecord(_Rec):
    """Damage a unit would do is doubled before it can be prevented (a Location: Hoth Battle Plains).

    source: the card that doubles it
    by: the unit doing the damage
    target: the unit it is done to
    was: the damage before
    amount: the damage now
    """

    kind: ClassVar[str] = "doubled"
    keys = ("source", "by", "target", "was", "amount")
    __slots__ = ("source", "by", "target", "was", "amount")

    def __init__(self, rules: tuple[str, ...], *, source: Any, by: Any, target: Any, was: Any, amount: Any) -> None:
        _Rec.__init__(self, rules)
        self.source: Final = source
        self.by: Final = by
        self.target: Final = target
        self.was: Final = was
        self.amount: Final = amount


class PreventRecord(_Rec):
    """Damage is prevented (never removed: swtcg.damage.prevent-not-remove).

    player: who prevents
    ability: the ability or card used
    target: the unit protected
    prevented: damage prevented
    wasted: prevention beyond the damage (swtcg.damage.excess-prevention-wasted)
    """

    kind: ClassVar[str] = "prevent"
    keys = ("player", "ability", "target", "prevented", "wasted")
    __slots__ = ("player", "ability", "target", "prevented", "wasted")

    def __init__(self, rules: tuple[str, ...], *, player: Any, ability: Any, target: Any, prevented: Any,
                 wasted: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.ability: Final = ability
        self.target: Final = target
        self.prevented: Final = prevented
        self.wasted: Final = wasted


class DeflectRecord(_Rec):
    """Deflect sends the damage it prevented to a unit: the new damage waits for the next chance.

    player: who deflects
    ability: the Deflect used
    to: the unit that will be dealt the damage
    amount: the new damage
    """

    kind: ClassVar[str] = "deflect"
    keys = ("player", "ability", "to", "amount")
    __slots__ = ("player", "ability", "to", "amount")

    def __init__(self, rules: tuple[str, ...], *, player: Any, ability: Any, to: Any, amount: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.ability: Final = ability
        self.to: Final = to
        self.amount: Final = amount


class DamageRecord(_Rec):
    """Damage counters are put on a unit.

    target: the unit (or pilot)
    counters: counters put
    total: counters on it now
    source: the unit that dealt it
    """

    kind: ClassVar[str] = "damage"
    keys = ("target", "counters", "total", "source")
    __slots__ = ("target", "counters", "total", "source")

    def __init__(self, rules: tuple[str, ...], *, target: Any, counters: Any, total: Any, source: Any) -> None:
        _Rec.__init__(self, rules)
        self.target: Final = target
        self.counters: Final = counters
        self.total: Final = total
        self.source: Final = source


class DiscardRecord(_Rec):
    """A card leaves play, or a player's hand, for a discard pile (its owner's: swtcg.zones.owner-global-rule).

    card: the card
    owner: whose discard pile it goes to
    why: ``damage``, ``unique``, ``pilot`` (its unit left), ``effect``, ``equipment`` (its unit left),
        ``location`` (another came to its arena), ``completed`` (a Mission), ``hand`` (discarded from
        the hand: swtcg.zones.discard-default-hand)
    player: who discards it from their hand (``hand`` only)
    source: the ability or card that made them (``hand`` only)
    """

    kind: ClassVar[str] = "discard"
    keys = ("card", "owner", "why", "player", "source")
    optional = ("player", "source")
    __slots__ = ("card", "owner", "why", "player", "source")

    def __init__(self, rules: tuple[str, ...], *, card: Any, owner: Any, why: Any, player: Any = None,
                 source: Any = None) -> None:
        _Rec.__init__(self, rules)
        self.card: Final = card
        self.owner: Final = owner
        self.why: Final = why
        self.player: Final = player
        self.source: Final = source


class StunRecord(_Rec):
    """Stun: the damaged unit gets less power until end of battle.

    source: the unit that dealt the damage
    target: the unit stunned
    amount: the power lost
    """

    kind: ClassVar[str] = "stun"
    keys = ("source", "target", "amount")
    __slots__ = ("source", "target", "amount")

    def __init__(self, rules: tuple[str, ...], *, source: Any, target: Any, amount: Any) -> None:
        _Rec.__init__(self, rules)
        self.source: Final = source
        self.target: Final = target
        self.amount: Final = amount


class UseRecord(_Rec):
    """A player plays an activated ability or a battle card, paying its cost.

    player: who plays it
    ability: the ability's ID (``<card>:<keyword>``) or the battle card's code
    cost: Force paid
    option: the option chosen ("Choose one")
    target: its target
    """

    kind: ClassVar[str] = "use"
    keys = ("player", "ability", "cost", "option", "target")
    optional = ("option", "target")
    __slots__ = ("player", "ability", "cost", "option", "target")

    def __init__(self, rules: tuple[str, ...], *, player: Any, ability: Any, cost: Any, option: Any = None,
                 target: Any = None) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.ability: Final = ability
        self.cost: Final = cost
        self.option: Final = option
        self.target: Final = target


class EffectRecord(_Rec):
    """One instruction of an ability or a card is carried out.

    source: the ability or card
    effect: what it does (``gain-force``, ``power``...)
    amount: how much
    target: the player or unit it applies to
    """

    kind: ClassVar[str] = "effect"
    keys = ("source", "effect", "amount", "target")
    __slots__ = ("source", "effect", "amount", "target")

    def __init__(self, rules: tuple[str, ...], *, source: Any, effect: Any, amount: Any, target: Any) -> None:
        _Rec.__init__(self, rules)
        self.source: Final = source
        self.effect: Final = effect
        self.amount: Final = amount
        self.target: Final = target


class InterceptRecord(_Rec):
    """Intercept: the attacker now attacks the intercepting unit (when it can).

    player: who intercepts
    ability: the Intercept used
    defender: the unit attacked now
    changed: whether the defender changed (swtcg.keywords.intercept-illegal-target)
    """

    kind: ClassVar[str] = "intercept"
    keys = ("player", "ability", "defender", "changed")
    __slots__ = ("player", "ability", "defender", "changed")

    def __init__(self, rules: tuple[str, ...], *, player: Any, ability: Any, defender: Any, changed: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.ability: Final = ability
        self.defender: Final = defender
        self.changed: Final = changed


class RetaliateRecord(_Rec):
    """Retaliate is activated: dice of damage to the attacker when the attack ends, its value locked now.

    player: who activates it
    ability: the Retaliate used
    dice: the dice of damage (locked: swtcg.keywords.retaliate-value-lock)
    """

    kind: ClassVar[str] = "retaliate"
    keys = ("player", "ability", "dice")
    __slots__ = ("player", "ability", "dice")

    def __init__(self, rules: tuple[str, ...], *, player: Any, ability: Any, dice: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.ability: Final = ability
        self.dice: Final = dice


class HeldRecord(_Rec):
    """A triggered ability triggers and waits (held) for the moment it may resolve.

    ability: the ability's ID
    player: its controller
    window: when it may resolve: ``chance`` (the next chance to play), ``reroll`` or ``prevent``
    """

    kind: ClassVar[str] = "held"
    keys = ("ability", "player", "window")
    __slots__ = ("ability", "player", "window")

    def __init__(self, rules: tuple[str, ...], *, ability: Any, player: Any, window: Any) -> None:
        _Rec.__init__(self, rules)
        self.ability: Final = ability
        self.player: Final = player
        self.window: Final = window


class ResolveRecord(_Rec):
    """A held triggered ability resolves.

    ability: the ability's ID
    player: its controller
    """

    kind: ClassVar[str] = "resolve"
    keys = ("ability", "player")
    __slots__ = ("ability", "player")

    def __init__(self, rules: tuple[str, ...], *, ability: Any, player: Any) -> None:
        _Rec.__init__(self, rules)
        self.ability: Final = ability
        self.player: Final = player


class UpkeepRecord(_Rec):
    """An Upkeep cost is paid, or ignored because no option can be paid.

    player: who pays
    ability: the Upkeep
    paid: the option paid (None: ignored)
    """

    kind: ClassVar[str] = "upkeep"
    keys = ("player", "ability", "paid")
    __slots__ = ("player", "ability", "paid")

    def __init__(self, rules: tuple[str, ...], *, player: Any, ability: Any, paid: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.ability: Final = ability
        self.paid: Final = paid


class BountyRecord(_Rec):
    """A Bounty reward is collected at the start of a build step.

    player: who collects
    ability: the Bounty
    reward: what it gives
    """

    kind: ClassVar[str] = "bounty"
    keys = ("player", "ability", "reward")
    __slots__ = ("player", "ability", "reward")

    def __init__(self, rules: tuple[str, ...], *, player: Any, ability: Any, reward: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.ability: Final = ability
        self.reward: Final = reward


class ForceRecord(_Rec):
    """A player's Force changes (never below zero: swtcg.effects.force-floor-zero).

    player: whose Force
    change: the change asked for
    force: Force now
    """

    kind: ClassVar[str] = "force"
    keys = ("player", "change", "force")
    __slots__ = ("player", "change", "force")

    def __init__(self, rules: tuple[str, ...], *, player: Any, change: Any, force: Any) -> None:
        _Rec.__init__(self, rules)
        self.player: Final = player
        self.change: Final = change
        self.force: Final = force


class DisruptedRecord(_Rec):
    """A battle card or ability is disrupted: its effect does not happen.

    ability: what was disrupted
    by: the disrupting card or ability
    """

    kind: ClassVar[str] = "disrupted"
    keys = ("ability", "by")
    __slots__ = ("ability", "by")

    def __init__(self, rules: tuple[str, ...], *, ability: Any, by: Any) -> None:
        _Rec.__init__(self, rules)
        self.ability: Final = ability
        self.by: Final = by


class VictoryRecord(_Rec):
    """The turn ends with a player controlling at least two arenas.

    winner: the winner
    arenas: each arena's controller (None: nobody)
    """

    kind: ClassVar[str] = "victory"
    keys = ("winner", "arenas")
    __slots__ = ("winner", "arenas")

    def __init__(self, rules: tuple[str, ...], *, winner: Any, arenas: Any) -> None:
        _Rec.__init__(self, rules)
        self.winner: Final = winner
        self.arenas: Final = arenas


class NotImplementedRecord(_Rec):
    """A card whose text the engine does not implement mattered here (the replay stops).

    card: the card's code
    text: the text not implemented
    """

    kind: ClassVar[str] = "not-implemented"
    keys = ("card", "text")
    __slots__ = ("card", "text")

    def __init__(self, rules: tuple[str, ...], *, card: Any, text: Any) -> None:
        _Rec.__init__(self, rules)
        self.card: Final = card
        self.text: Final = text
