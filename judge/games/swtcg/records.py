"""SW TCG's records: one class per kind of event a ruling or timeline writes, with one shape.

Each record names its JSON keys once (``keys``, in order; ``optional`` ones are left out when
None) and documents them as ``key: meaning`` lines; ``to_json`` writes
``{"event": kind, <keys>..., "rules": [...]}``. A record is immutable once made.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from judge.kernel.core import Record

Shape = tuple[frozenset[str], frozenset[str], set[tuple[str, ...]]]
_SHAPES: dict[type, Shape] = {}


def _shape(kind: type[_Rec]) -> Shape:
    """A record class's keys, those it always has, and the key lists (in their order) found right so
    far (made once per class: each place that makes a record names its keys in one order, so a
    record's keys are compared once per place, then only looked up)."""
    shape = _SHAPES.get(kind)
    if shape is None:
        keys = frozenset(kind.keys)
        shape = _SHAPES[kind] = (keys, keys - frozenset(kind.optional), set())
    return shape


class _Rec(Record):
    """A record: its rules and its values by JSON key. Made as cheaply as can be (a replay makes a
    dozen a step, and most are never written); its keys are checked against its class's when it is
    written (``to_json``): a place that makes a record names its keys in one order, so each list of
    keys is compared once, then only looked up. Immutable: ``Final`` attributes (the compiled engine
    refuses to set them again; in pure Python the type checker holds them, as for the actions)."""

    __slots__ = ("values", "rules")
    keys: ClassVar[tuple[str, ...]] = ()

    def __init__(self, rules: tuple[str, ...], **values: Any) -> None:
        self.values: Final[dict[str, Any]] = values
        self.rules: Final[tuple[str, ...]] = rules

    def get(self, key: str) -> Any:
        return self.values.get(key)

    def _check_keys(self) -> None:
        shape = _SHAPES.get(type(self))
        if shape is None:
            shape = _shape(type(self))
        values = self.values
        names = tuple(values)
        if names not in shape[2]:
            known, required = shape[0], shape[1]
            if not (values.keys() <= known and required <= values.keys()):
                unknown, missing = set(values) - known, required - set(values)
                raise TypeError(f"{type(self).__name__}: unknown {sorted(unknown)}, missing {sorted(missing)}")
            shape[2].add(names)

    def to_json(self) -> dict[str, Any]:
        self._check_keys()
        out: dict[str, Any] = {"event": self.kind}
        for key in self.keys:
            value = self.values.get(key)
            if value is None and key in self.optional:
                continue
            out[key] = list(value) if isinstance(value, tuple) else value
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


class ReadyRecord(_Rec):
    """The ready phase: every card untaps, each player gains 4 Force, the Light Side rolls for build points.

    untapped: the cards untapped, Dark Side's first
    force: each player's Force after gaining
    roll: the build-point die
    build: each player's build points (+1 with a unit in each arena)
    """

    kind: ClassVar[str] = "ready"
    keys = ("untapped", "force", "roll", "build")


class DrawRecord(_Rec):
    """A player draws cards (none from an empty deck: swtcg.build.empty-deck).

    player: who draws
    count: cards drawn
    asked: cards the rules asked for
    """

    kind: ClassVar[str] = "draw"
    keys = ("player", "count", "asked")


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


class PilotRecord(_Rec):
    """A pilot moves onto a unit, between units, or off to the Character arena or the build zone.

    player: who moves it
    pilot: the pilot
    onto: the unit, or ``character`` / ``build``
    """

    kind: ClassVar[str] = "pilot"
    keys = ("player", "pilot", "onto")


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


class RetreatRecord(_Rec):
    """A unit (and its pilot) retreats to the build zone.

    player: whose unit
    card: the unit (or a pilot retreating alone)
    tapped: whether retreating tapped it (the retreat step) or not (an effect)
    """

    kind: ClassVar[str] = "retreat"
    keys = ("player", "card", "tapped")


class PassRecord(_Rec):
    """A player passes (a chance to play, the rest of a build or retreat step, or setup).

    player: who passes
    what: what they pass on (``chance``, ``build``, ``retreat``, ``deploy``, ``partial``)
    auto: the engine passed for them: they had nothing else they could do
    """

    kind: ClassVar[str] = "pass"
    keys = ("player", "what", "auto")


class ChanceRecord(_Rec):
    """A chance to play opens, or the step ends with this player to act in it.

    kind: ``general``, ``attack`` (an attack declared, before its roll), ``reroll``, ``prevent`` or ``disrupt``
    player: who may play now
    passes: consecutive passes so far
    may: what they may do besides passing (abilities' and cards' IDs)
    """

    kind: ClassVar[str] = "chance"
    keys = ("kind", "player", "passes", "may")


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


class ChanceEndRecord(_Rec):
    """A chance to play ends (both players passed in a row, or nobody could play).

    kind: the chance's kind
    """

    kind: ClassVar[str] = "chance-end"
    keys = ("kind",)


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


class RerollRecord(_Rec):
    """Dice are rerolled in a reroll chance.

    player: who rerolls
    ability: the ability or card used
    which: the positions of the dice rerolled (from 0)
    dice: all the dice after the reroll
    """

    kind: ClassVar[str] = "reroll"
    keys = ("player", "ability", "which", "dice")


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


class PendingRecord(_Rec):
    """Damage is about to be dealt to a unit: it waits in a chance to prevent damage.

    target: the unit (or pilot)
    amount: damage
    source: the unit dealing it (None: no source, swtcg.damage.sourceless-counters)
    """

    kind: ClassVar[str] = "pending"
    keys = ("target", "amount", "source")


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


class DeflectRecord(_Rec):
    """Deflect sends the damage it prevented to a unit: the new damage waits for the next chance.

    player: who deflects
    ability: the Deflect used
    to: the unit that will be dealt the damage
    amount: the new damage
    """

    kind: ClassVar[str] = "deflect"
    keys = ("player", "ability", "to", "amount")


class DamageRecord(_Rec):
    """Damage counters are put on a unit.

    target: the unit (or pilot)
    counters: counters put
    total: counters on it now
    source: the unit that dealt it
    """

    kind: ClassVar[str] = "damage"
    keys = ("target", "counters", "total", "source")


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


class StunRecord(_Rec):
    """Stun: the damaged unit gets less power until end of battle.

    source: the unit that dealt the damage
    target: the unit stunned
    amount: the power lost
    """

    kind: ClassVar[str] = "stun"
    keys = ("source", "target", "amount")


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


class EffectRecord(_Rec):
    """One instruction of an ability or a card is carried out.

    source: the ability or card
    effect: what it does (``gain-force``, ``power``...)
    amount: how much
    target: the player or unit it applies to
    """

    kind: ClassVar[str] = "effect"
    keys = ("source", "effect", "amount", "target")


class InterceptRecord(_Rec):
    """Intercept: the attacker now attacks the intercepting unit (when it can).

    player: who intercepts
    ability: the Intercept used
    defender: the unit attacked now
    changed: whether the defender changed (swtcg.keywords.intercept-illegal-target)
    """

    kind: ClassVar[str] = "intercept"
    keys = ("player", "ability", "defender", "changed")


class RetaliateRecord(_Rec):
    """Retaliate is activated: dice of damage to the attacker when the attack ends, its value locked now.

    player: who activates it
    ability: the Retaliate used
    dice: the dice of damage (locked: swtcg.keywords.retaliate-value-lock)
    """

    kind: ClassVar[str] = "retaliate"
    keys = ("player", "ability", "dice")


class HeldRecord(_Rec):
    """A triggered ability triggers and waits (held) for the moment it may resolve.

    ability: the ability's ID
    player: its controller
    window: when it may resolve: ``chance`` (the next chance to play), ``reroll`` or ``prevent``
    """

    kind: ClassVar[str] = "held"
    keys = ("ability", "player", "window")


class ResolveRecord(_Rec):
    """A held triggered ability resolves.

    ability: the ability's ID
    player: its controller
    """

    kind: ClassVar[str] = "resolve"
    keys = ("ability", "player")


class UpkeepRecord(_Rec):
    """An Upkeep cost is paid, or ignored because no option can be paid.

    player: who pays
    ability: the Upkeep
    paid: the option paid (None: ignored)
    """

    kind: ClassVar[str] = "upkeep"
    keys = ("player", "ability", "paid")


class BountyRecord(_Rec):
    """A Bounty reward is collected at the start of a build step.

    player: who collects
    ability: the Bounty
    reward: what it gives
    """

    kind: ClassVar[str] = "bounty"
    keys = ("player", "ability", "reward")


class ForceRecord(_Rec):
    """A player's Force changes (never below zero: swtcg.effects.force-floor-zero).

    player: whose Force
    change: the change asked for
    force: Force now
    """

    kind: ClassVar[str] = "force"
    keys = ("player", "change", "force")


class DisruptedRecord(_Rec):
    """A battle card or ability is disrupted: its effect does not happen.

    ability: what was disrupted
    by: the disrupting card or ability
    """

    kind: ClassVar[str] = "disrupted"
    keys = ("ability", "by")


class VictoryRecord(_Rec):
    """The turn ends with a player controlling at least two arenas.

    winner: the winner
    arenas: each arena's controller (None: nobody)
    """

    kind: ClassVar[str] = "victory"
    keys = ("winner", "arenas")


class NotImplementedRecord(_Rec):
    """A card whose text the engine does not implement mattered here (the replay stops).

    card: the card's code
    text: the text not implemented
    """

    kind: ClassVar[str] = "not-implemented"
    keys = ("card", "text")
