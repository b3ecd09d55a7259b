"""Card definitions: data plus small hooks (STYLE.md section 6).

Most of a card is data: its stats, its die faces, its keywords. What a card *does* is a tuple of
``Ability`` entries, each keyed by its timing word (destiny.abilities.types):

- ``action`` / ``power``: an Action or Power Action (destiny.actions.card-action, .power-action);
- ``claim``: a battlefield's Claim ability (destiny.abilities.claim);
- ``special``: what a special face does when resolved (destiny.symbols.special);
- ``before`` / ``after``: triggered abilities (destiny.timing.before, destiny.timing.after);
- ``instead``: a replacement effect (destiny.replacement.instead);
- ``constant``: a standing modifier the engine asks about by name (destiny.abilities.constant);
- ``play``: what an event does when played, or an upgrade/support on entering play;
- ``restriction``: a play restriction ("only", destiny.terms.play-restrictions) as ``condition``.

The names constant abilities answer (``query``), each folded over a starting value:
``keywords`` (granted keywords), ``keywords_lost`` (taken away after every grant,
destiny.keywords.loss), ``forbid`` (a "cannot": any one that says so forbids, whatever else allows
it, destiny.negative.cannot-overrides-can; its subject is ``(verb, player, step)``), ``x_value``
(the X on the card's own die, destiny.terms.x), ``cost``, ``hand_limit``, ``upkeep_resources``,
``ignore_restrictions``, ``free_die``, ``deck_allows``.

Trigger tests may be marked with ``on(EventType, ...)`` so the engine asks them only about those
events.

The engine never branches on a card's code or name: it asks the card's abilities.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import TYPE_CHECKING, Any

from judge.games.destiny.dice import Face, parse_face
from judge.games.destiny.refs import Ref

if TYPE_CHECKING:  # pragma: no cover
    from judge.games.destiny.engine import Ctx


class CardType(StrEnum):
    CHARACTER = "character"
    UPGRADE = "upgrade"
    SUPPORT = "support"
    EVENT = "event"
    BATTLEFIELD = "battlefield"
    PLOT = "plot"


# Every card is hero, villain or neutral (destiny.cards.affiliation).
AFFILIATIONS = ("hero", "villain", "neutral")

TIMINGS = ("action", "power", "claim", "special", "before", "after", "instead", "constant", "play", "restriction")

# An effect: (ctx, ability source ref, the event that triggered it or None) -> None
Effect = Callable[["Ctx", str, Any], None]
# A trigger test for before/after/instead: (ctx, ability source ref, event) -> bool
Trigger = Callable[["Ctx", str, Any], bool]
# A constant modifier: (ctx, ability source ref, subject, current value) -> new value
Modifier = Callable[["Ctx", str, Any, Any], Any]
# A condition (play restriction, "only"): (ctx, player id, extra) -> bool
Condition = Callable[["Ctx", str, Any], bool]


def on(*event_types: type) -> Callable[[Trigger], Trigger]:
    """Mark a trigger test as looking only at events of these types (its first check is an
    ``isinstance``). The engine then never asks it about other events; a test without the mark
    is asked about every event."""

    def mark(test: Trigger) -> Trigger:
        try:
            test.event_types = event_types  # type: ignore[attr-defined]
        except AttributeError:  # a compiled function (a card module built with mypyc) takes no attribute
            return Marked(test, event_types)
        return test

    return mark


class Marked:
    """A trigger test marked with its event types (``on``), where the test itself cannot carry them:
    compiled with mypyc, a function takes no attribute. Called as the test is."""

    __slots__ = ("test", "event_types")

    def __init__(self, test: Trigger, event_types: tuple[type, ...]) -> None:
        self.test = test
        self.event_types = event_types

    def __call__(self, ctx: Any, src: str, e: Any) -> bool:
        return self.test(ctx, src, e)


@dataclass(frozen=True)
class Ability:
    """One ability of a card. ``text`` is the project's own wording of what it does."""

    timing: str
    text: str
    effect: Effect | None = None
    trigger: Trigger | None = None
    optional: bool = False  # "may" (destiny.abilities.resolve-fully)
    query: str | None = None  # for constant abilities: the name the engine asks about
    modify: Modifier | None = None
    condition: Condition | None = None  # can this action/power action be used now
    rules: tuple[str, ...] = ()
    keyword: str | None = None  # a keyword's ability (judge.games.destiny.keywords): its ID is "<ref>:<keyword>"

    def __post_init__(self) -> None:
        if self.timing not in TIMINGS:
            raise ValueError(f"unknown ability timing {self.timing!r}")


@dataclass(frozen=True)
class CardDef:
    """A card as the engine knows it. ``implemented`` is False when the card's text has effects
    the project has not written yet: a ruling that meets such a card says so."""

    code: str
    name: str
    type: CardType
    affiliation: str = "neutral"  # hero | villain | neutral
    color: str = "gray"  # red | blue | yellow | gray
    subtitle: str | None = None
    unique: bool = False
    cost: int | None = None
    points: tuple[int, ...] = ()  # (one die,) or (one die, two dice)
    health: int | None = None
    faces: tuple[Face, ...] = ()
    subtypes: tuple[str, ...] = ()
    keywords: frozenset[str] = frozenset()
    abilities: tuple[Ability, ...] = ()
    set_code: str = ""
    implemented: bool = True
    unimplemented: str = ""  # the part of the card's text the engine does not apply

    def __post_init__(self) -> None:
        if self.affiliation not in AFFILIATIONS:  # destiny.cards.affiliation
            raise ValueError(f"card {self.code}: affiliation {self.affiliation!r} is not one of "
                             f"{', '.join(AFFILIATIONS)}")
        if self.type == CardType.BATTLEFIELD and self.color != "gray":
            # every battlefield is considered gray, whatever its data says (destiny.battlefields.gray)
            object.__setattr__(self, "color", "gray")

    @property
    def has_die(self) -> bool:
        return bool(self.faces)

    def abilities_for(self, timing: str) -> tuple[Ability, ...]:
        return self._by_timing.get(timing, ())

    @cached_property
    def _by_timing(self) -> dict[str, tuple[Ability, ...]]:
        out: dict[str, tuple[Ability, ...]] = {}
        for a in self.abilities:
            out[a.timing] = (*out.get(a.timing, ()), a)
        return out


def faces(*notation: str) -> tuple[Face, ...]:
    """Six faces from SWDestinyDB notation: ``faces("1RD", "2RD", "1MD", "1Sh", "1R", "-")``."""
    if len(notation) != 6:
        raise ValueError(f"a die has 6 faces, got {len(notation)}")
    return tuple(parse_face(n) for n in notation)


@dataclass
class CardPool:
    """The cards the engine can use: the project's own definitions, plus any imported."""

    cards: dict[str, CardDef] = field(default_factory=dict)
    # the engine's cache of which codes have triggered abilities (engine.Ctx._timed_codes)
    timed_cache: Any = field(default=None, init=False, repr=False, compare=False)
    # deck checks already made against this pool (deckcheck.check_deck), by the deck's content
    deck_checks: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    # what references and codes the steps and the engine read with this pool read as (refs.parse_ref,
    # refs.is_code: bounded memos, kept here as the module keeps none)
    refs: dict[str, Ref | None] = field(default_factory=dict, init=False, repr=False, compare=False)
    codes: dict[str, bool] = field(default_factory=dict, init=False, repr=False, compare=False)
    # the index of the cards' names (judge.games.cardnames.NameIndexes), built when a log first names one
    names: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.timed_cache = None  # set here too: a compiled dataclass does not set init=False defaults
        self.deck_checks = {}
        self.refs = {}
        self.codes = {}
        self.names = {}

    def add(self, card: CardDef, replace: bool = False) -> None:
        if card.code in self.cards and not replace:
            raise ValueError(f"card {card.code} defined twice")
        self.cards[card.code] = card
        self.timed_cache = None
        self.deck_checks = {}
        self.refs = {}
        self.codes = {}
        self.names = {}

    def get(self, code: str) -> CardDef | None:
        return self.cards.get(code)

    def __contains__(self, code: object) -> bool:
        return code in self.cards

    def __len__(self) -> int:
        return len(self.cards)
