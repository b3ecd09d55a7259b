"""The live-ability index, shared by every game: which abilities of the cards in play may answer an
event, found without asking every card about every event.

A game lists its cards in play (``Source``: the reference, the controller and the card
definition) whenever what is in play has changed, i.e. when its state's play generation moved;
``build`` turns that list into a ``LiveIndex`` kept on the state until the generation moves again.
The index files the triggered abilities (``before``, ``after``, ``instead``) and the constant
abilities (``constant:<query>``) of each card by timing, and answers, per event type, which of
them may trigger (a trigger test marked with the event types it looks at is asked about those
only) and whether no ability at all answers it (the fast path: such an event is simply
performed, as the pipeline would do).

A card definition needs ``abilities`` (each with ``timing``, ``trigger``, ``query``) and
``abilities_for(timing)``; a card pool needs ``cards`` (code -> definition) and a
``timed_cache`` attribute this module owns.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

TRIGGERED = ("before", "after", "instead")


@dataclass
class Source:
    """A card in play whose abilities are live."""

    ref: str
    code: str
    controller: str
    card: Any


class LiveIndex:
    """Live abilities by timing (``live``), with the caches built from them on demand. A plain
    class (one is made each time what is in play changes): compiled, a dataclass's generated
    ``__init__`` stays interpreted (see ``judge.kernel.core.Record``)."""

    __slots__ = ("gen", "cards", "live", "by_event", "quiet_types", "calm_types", "watched", "watches_all")

    def __init__(self, gen: int, cards: Any, live: dict[str, list[tuple[Source, tuple[Any, ...]]]],
                 by_event: dict[tuple[str, type], list[tuple[Source, Any, str]]] | None = None,
                 quiet_types: dict[type, bool] | None = None, watched: tuple[type, ...] = (),
                 watches_all: bool = False, calm_types: dict[type, bool] | None = None) -> None:
        self.gen = gen
        self.cards = cards
        self.live = live
        self.by_event: dict[tuple[str, type], list[tuple[Source, Any, str]]] = {} if by_event is None else by_event
        self.quiet_types: dict[type, bool] = {} if quiet_types is None else quiet_types
        self.calm_types: dict[type, bool] = {} if calm_types is None else calm_types
        # what the triggered abilities look at: the event types their tests are marked with, and
        # whether any test is unmarked (it looks at every event); an event of no such type is quiet
        self.watched = watched
        self.watches_all = watches_all

    def candidates(self, timing: str, event_type: type) -> list[tuple[Source, Any, str]]:
        """The live ``timing`` abilities that may answer an event of ``event_type``, each with its
        ability ID (the source's reference, plus ``:k`` when the card has several)."""
        key = (timing, event_type)
        got = self.by_event.get(key)
        if got is None:
            got = self.by_event[key] = candidates(self.live.get(timing, ()), event_type)
        return got

    def quiet(self, event_type: type) -> bool:
        """No live ability could replace an event of this type, interrupt it or follow it."""
        got = self.quiet_types.get(event_type)
        if got is None:
            if not self.watches_all and not issubclass(event_type, self.watched):
                got = True
            else:
                got = not any(self.candidates(t, event_type) for t in TRIGGERED)
            self.quiet_types[event_type] = got
        return got

    def calm(self, event_type: type) -> bool:
        """No live ability could replace an event of this type or interrupt it (``instead``,
        ``before``): only after-abilities may follow it, so it is performed and they are queued."""
        got = self.calm_types.get(event_type)
        if got is None:
            got = self.calm_types[event_type] = (not self.candidates("instead", event_type)
                                                 and not self.candidates("before", event_type))
        return got


def timed(card: Any) -> dict[str, tuple[Any, ...]]:
    """A card's triggered abilities by timing, and its constant abilities by the name the engine
    asks about (``constant:<query>``)."""
    got = {t: card.abilities_for(t) for t in TRIGGERED if card.abilities_for(t)}
    for ab in card.abilities:
        if ab.timing == "constant" and ab.query:
            got["constant:" + ab.query] = got.get("constant:" + ab.query, ()) + (ab,)
    return got


def timed_codes(cards: Any) -> dict[str, dict[str, tuple[Any, ...]]]:
    """Codes of a pool's cards that have triggered or constant abilities, with them by timing.
    Kept on the pool until it changes size (a pool that replaces a card resets it)."""
    return _timed_cache(cards)[1]


def codes_with(cards: Any, key: str) -> frozenset[str]:
    """The codes of a pool's cards that have abilities filed under ``key`` (a timing, or
    ``constant:<query>``), kept with the pool's table."""
    cache = _timed_cache(cards)
    got = cache[2].get(key)
    if got is None:
        got = cache[2][key] = frozenset(code for code, by_timing in cache[1].items() if key in by_timing)
    return got


_TimedCache = tuple[int, dict[str, dict[str, tuple[Any, ...]]], dict[str, frozenset[str]], dict[Any, "LiveIndex"]]


def _timed_cache(cards: Any) -> _TimedCache:
    cached = cards.timed_cache
    if cached is None or cached[0] != len(cards.cards):
        table = {code: t for code, card in cards.cards.items() if (t := timed(card))}
        cached = (len(cards.cards), table, {}, {})
        cards.timed_cache = cached
    out: _TimedCache = cached
    return out


# the most indexes kept per card pool (see ``build_shared``); past it the memo starts again
MAX_SHARED_INDEXES = 4096


def build_shared(gen: int, cards: Any, key: Hashable, sources: Callable[[], Iterable[Source]],
                 keyword_abilities: Callable[[Source], tuple[Any, ...]] | None = None) -> LiveIndex:
    """``build``, for a ``key`` that says exactly which sources (reference, code, controller, in
    order) and which keyword abilities the index is of: an index once built for the same key and
    pool is shared rather than built again, with the per-event answers it has worked out so far.
    Those answers depend only on the live abilities, so sharing them changes no result; a game whose
    play generation moves while the same cards stay in play (a card played and discarded, a
    character defeated and another readied) then finds its index, and its answers, ready. The
    memo lives with the card pool (as the timed-abilities table does); it only ever holds pure,
    equal values, so two threads that fill it at once at worst build one index twice."""
    memo = _timed_cache(cards)[3]
    core = memo.get(key)
    if core is None:
        index = build(gen, cards, sources(), keyword_abilities)
        if len(memo) >= MAX_SHARED_INDEXES:
            memo.clear()
        memo[key] = index
        return index
    return LiveIndex(gen, cards, core.live, core.by_event, core.quiet_types, core.watched, core.watches_all,
                     core.calm_types)


def build(gen: int, cards: Any, sources: Iterable[Source],
          keyword_abilities: Callable[[Source], tuple[Any, ...]] | None = None) -> LiveIndex:
    """The index of the live abilities of ``sources``, in the order given (the order in which
    simultaneous abilities are offered): every card's own abilities first, then the keyword
    abilities ``keyword_abilities(source)`` gives each card (a game's keywords that act at a timing,
    written once as abilities; their IDs are ``<ref>:<keyword>``)."""
    live: dict[str, list[tuple[Source, tuple[Any, ...]]]] = {}
    keyed: list[tuple[Source, tuple[Any, ...]]] = []
    timed_ = timed_codes(cards)
    for src in sources:
        by_timing = timed_.get(src.code)
        if by_timing is not None:
            for timing, abilities in by_timing.items():
                live.setdefault(timing, []).append((src, abilities))
        if keyword_abilities is not None:
            extra = keyword_abilities(src)
            if extra:
                keyed.append((src, extra))
    for src, extra in keyed:
        for ab in extra:
            live.setdefault(ab.timing, []).append((src, (ab,)))
    watched: set[type] = set()
    watches_all = False
    for timing in TRIGGERED:
        for _src, abilities in live.get(timing, ()):
            for ab in abilities:
                if ab.trigger is None:
                    continue
                types = getattr(ab.trigger, "event_types", None)
                if types is None:
                    watches_all = True
                else:
                    watched.update(types)
    return LiveIndex(gen, cards, live, watched=tuple(watched), watches_all=watches_all)


def candidates(live: Sequence[tuple[Source, tuple[Any, ...]]], event_type: type) -> list[tuple[Source, Any, str]]:
    """The abilities that may answer an event of ``event_type``: all but those whose trigger test
    is marked for other event types. Each with its ability ID."""
    out = []
    for src, abilities in live:
        for k, ab in enumerate(abilities):
            if ab.trigger is None:
                continue
            types = getattr(ab.trigger, "event_types", None)
            if types is not None and not issubclass(event_type, types):
                continue
            keyword = getattr(ab, "keyword", None)
            aid = f"{src.ref}:{keyword}" if keyword else src.ref if len(abilities) == 1 else f"{src.ref}:{k + 1}"
            out.append((src, ab, aid))
    return out
