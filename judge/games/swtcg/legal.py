"""What the player to act may do now: the candidate steps, each kept only if ``check`` passes.

``options`` names what a player could do besides passing (the chance record's ``may``); a player
with nothing there passes at once (swtcg.project.forced-pass). A battle card whose text the engine
does not implement counts as something they could play, so a chance never closes silently over it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Final

from judge.games.swtcg import engine as en
from judge.games.swtcg.actions import _stack_problem, attack_keyword_refusal, check
from judge.games.swtcg.engine import Ctx
from judge.games.swtcg.model import ACTIVATED, CardDef, CardPool, Keyword, Play, X
from judge.games.swtcg.state import ARENAS, ARENAS_OR_BUILD, IN_PLAY, UNKNOWN, Card, Facts, HandMemo, Player
from judge.games.swtcg.steps import (
    Attack,
    Build,
    Complete,
    Deploy,
    Equip,
    Pass,
    Pilot,
    PlayCard,
    Retreat,
    Skip,
    SwAction,
    Use,
    is_ref,
)

# the chance each play window may be played in (swtcg.abilities.activated-when and the windows)
FITS: Final = {"any": ("general", "attack"), "attack": ("attack",), "reroll": ("reroll",), "prevent": ("prevent",),
               "disrupt": ("disrupt",), "no-attack": ("general",), "build": (), "would-attack": ()}
CHANCE_KINDS: Final = frozenset(k for kinds in FITS.values() for k in kinds)


def candidates(ctx: Ctx, pid: str) -> list[SwAction]:
    """The steps ``pid`` may take now (passing last, when it is allowed)."""
    st = ctx.state
    if st.turn != pid or st.wait is None:
        return []
    ctx.checking = True  # (only checking: no problem is worded)
    try:
        ok = [a for _, group in _groups(ctx, pid, ordered=True) for a in group if check(ctx, a) is None]
    finally:
        ctx.checking = False
    if st.wait in ("deploy", "partial", "build", "retreat", "chance"):
        ok.append(Pass(pid))
    return ok


def has_option(ctx: Ctx, pid: str) -> bool:
    """Whether ``pid`` could do anything now besides passing (or letting a unit go through its turn)."""
    return bool(options(ctx, pid))


def options(ctx: Ctx, pid: str) -> list[str]:
    """What ``pid`` could do now besides passing or skipping (``verb`` plus card or ability), each
    name once: a name's steps are checked until one passes (a battle card with a target for every
    unit in play is one name, checked once, not once per unit)."""
    st = ctx.state
    if st.turn != pid or st.wait is None:
        return []
    if st.wait == "chance" and nothing_in_chance(ctx, pid):
        return []  # (most chances: _groups would find no step to check)
    return checked_options(ctx, pid)


def checked_options(ctx: Ctx, pid: str) -> list[str]:
    """``options`` of the player to act, ``pid``, found by checking ``_groups``' steps (the procedure
    asks ``nothing_in_chance`` first in a chance, as ``options`` does)."""
    out: list[str] = []
    seen: set[str] = set()
    ctx.checking = True
    try:
        for name, group in _groups(ctx, pid, ordered=False):
            if name in seen:
                continue
            for a in group:
                if check(ctx, a) is None:
                    out.append(name)
                    seen.add(name)
                    break
    finally:
        ctx.checking = False
    return out


def may(ctx: Ctx, pid: str) -> list[str]:
    """``checked_options`` of the player to act, ``pid``, sorted, each name once (what the state's
    ``may`` and the records say), found without making and checking each step where that is quick
    to tell (a retreat, setup's deploying, a build step's building and deploying, a unit's attacks:
    what ``check`` would say of the steps ``_groups`` makes, asked directly); the rest as
    ``checked_options`` finds it. tests/judge/swtcg/test_fast_paths.py compares the two at every
    wait of self-play games."""
    found = _may(ctx, pid, False)
    if found is None:
        return sorted(set(checked_options(ctx, pid)))
    found.sort()
    for i in range(1, len(found)):
        if found[i] == found[i - 1]:  # (a name twice: each once)
            return sorted(set(found))
    return found


def may_any(ctx: Ctx, pid: str) -> bool:
    """Whether ``may`` names something, found as ``may`` finds its names, stopping at the first: what
    the procedure asks when nobody reads the names now (a replay with no visitor: the state keeps
    them unfound, GameState.may_later). tests/judge/swtcg/test_fast_paths.py compares the two."""
    found = _may(ctx, pid, True)
    if found is None:
        return bool(checked_options(ctx, pid))
    return bool(found)


def _may(ctx: Ctx, pid: str, one: bool) -> list[str] | None:
    """``may``'s names as the wait's own function finds them, unsorted (None: as ``checked_options``
    finds them); ``one``: the first name only, or none."""
    w = ctx.state.wait
    found: list[str] | None = None
    ctx.checking = True
    try:
        if w == "retreat":
            found = _retreat_may(ctx, pid, one)
        elif w == "act":
            found = _act_may(ctx, pid, one)
        elif w == "build":
            found = _build_may(ctx, pid, one)
        elif w == "deploy":
            found = _deploy_may(ctx, pid, one)
        elif w == "chance":
            found = _chance_may(ctx, pid, one)
    finally:
        ctx.checking = False
    return found


def _retreat_may(ctx: Ctx, pid: str, one: bool) -> list[str]:
    """Retreat steps: ``pid``'s untapped cards in play, with no tapped pilot (_check_retreat); ``one``:
    the first only (``_may``)."""
    cards = ctx.state.cards
    out: list[str] = []
    for c in ctx.state.index().controlled(pid):
        if c.zone in IN_PLAY and not c.tapped:
            pilot = cards.get(c.pilot) if c.pilot else None
            if pilot is None or not pilot.tapped:
                out.append("retreat " + c.ref)
                if one:
                    return out
    return out


def _deploy_may(ctx: Ctx, pid: str, one: bool) -> list[str] | None:
    """Setup's deploy steps: the units in hand ``pid`` has the build points for and could stack
    (_check_deploy); None for a code the pool does not know or one with a dot (``checked_options``
    says what then); ``one``: the first only (``_may``)."""
    p = ctx.state.players[pid]
    hand = _hand_defs(ctx, p)
    if hand is None:
        return None
    left = en.SETUP_BUILD_POINTS - p.deployed
    out: list[str] = []
    for d in hand:
        if d.unit and d.cost <= left and _stack_problem(ctx, pid, d) is None:
            out.append("deploy " + d.code)
            if one:
                break
    return out


def _hand_defs(ctx: Ctx, p: Player) -> list[CardDef] | None:
    """The definitions of the cards ``p`` holds in hand, in its order, a code as often as it is there
    (``may`` names each step once; unknown cards left out); None for a code the pool does not know
    or one with a dot (``checked_options`` says what then)."""
    pool = ctx.cards.cards
    dotted: frozenset[str] = ctx.cards.memo("dotted-codes", _dotted_codes)  # (a code with a dot: most pools have none)
    out: list[CardDef] = []
    for code in p.hand:
        if code == UNKNOWN:
            continue
        d = pool.get(code)
        if d is None or (dotted and code in dotted):
            return None
        out.append(d)
    return out


def _dotted_codes(pool: CardPool) -> frozenset[str]:
    """The codes of the pool with a dot (``_hand_defs``)."""
    return frozenset(code for code in pool.cards if "." in code)


def _build_may(ctx: Ctx, pid: str, one: bool) -> list[str] | None:
    """A build step's steps: building from hand and on a card of the build zone, and deploying from
    it, told directly (_check_build, _check_deploy); completing, equipping, moving pilots and units'
    plays as ``checked_options`` finds them (each group's steps checked until one passes). None for a
    code in hand the pool does not know or one with a dot (``checked_options`` says what then);
    ``one``: stopping once one is found (``_may``)."""
    st = ctx.state
    p = st.players[pid]
    hand = _hand_defs(ctx, p)
    if hand is None:
        return None
    build = p.build
    out: list[str] = []
    for d in hand:
        if d.type == "battle" or not (build >= 1 or d.cost == 0):
            continue
        counters = max(0 if d.cost == 0 else 1, min(build, d.cost))
        if (counters >= 1 or d.cost <= 0) and counters <= build:
            out.append("build " + d.code)
            if one:
                return out
    uses = ctx.cards.derived("build-uses", _build_uses)  # (an empty set: a code with nothing to do in play)
    known_refs = ctx.cards.interned.refs  # (is_ref's answers)
    mine: list[str] | None = None
    in_order: _Refs | None = None
    for c in st.index().controlled(pid):
        if c.controller != pid:
            continue
        if c.zone != "build":
            use = uses.get(c.code)
            if use is not None and not use:
                continue
        d = ctx.card(c.code)
        ref = c.ref
        if c.zone == "build":
            if not c.built and build >= 1 and is_ref(ref, known_refs):
                out.append("build " + ref)  # (the counters _groups names: from 1 to the build points)
            if d.type == "mission":
                if in_order is None:
                    in_order = _Refs(st.cards, False)
                _first_passing(ctx, "complete " + ref, _complete_steps(ctx, pid, ref, d, in_order), out)
            elif d.type != "equipment" and (c.built or c.counters >= d.cost) and is_ref(ref, known_refs) \
                    and (d.unit or d.type == "location") \
                    and (d.type == "location" or _stack_problem(ctx, pid, d, moving=ref) is None):
                out.append("deploy " + ref)
        if d.type == "equipment" and c.zone in ("build", "equipped"):
            if mine is None:
                mine = [x.ref for x in st.index().controlled(pid)]
            _first_passing(ctx, "equip " + ref, _equip_steps(ctx, pid, ref, mine), out)
        if d.pilot is not None and _may_pilot(ctx, pid, c, d):
            out.append("pilot " + ref)
        if d.unit and d.plays:
            if in_order is None:
                in_order = _Refs(st.cards, False)
            for name, group in _unit_plays(ctx, pid, ref, in_order):
                _first_passing(ctx, name, group, out)
                if one and out:
                    return out
        if one and out:
            return out
    return out


def _may_pilot(ctx: Ctx, pid: str, c: Card, d: CardDef) -> bool:
    """Whether a step of ``_pilot_steps`` (in its order) passes ``check`` (_check_pilot): one onto a
    unit it makes always does; then onto ``character`` when the pilot is in the build zone or on a
    unit, onto ``build`` when it is on a unit."""
    if not c.built or c.moved or d.pilot is None:
        return False  # (no step)
    on_unit = c.zone == "pilot"
    zones = ARENAS_OR_BUILD if on_unit else ("space", "ground")
    kind = d.pilot.kind
    for t in ctx.state.index().controlled(pid):
        if t.controller == pid and t.zone in zones and (not on_unit or t.ref != c.on) and not t.pilot:
            u = ctx.card(t.code)
            if u.type in ("space", "ground") and not u.droid and u.has_subtype(kind):
                return True
    return on_unit or c.zone == "build"


def _act_may(ctx: Ctx, pid: str, one: bool) -> list[str]:
    """A unit's turn in a battle step: attacking each unit it could attack (_check_attack: can_attack
    asked directly), or its plays (each group's steps checked until one passes); ``one``: stopping
    once one is found (``_may``)."""
    st = ctx.state
    index = st.index()
    out: list[str] = []
    in_order: _Refs | None = None
    for ref in st.acting:
        arena = st.cards[ref].zone
        if _can_attack_one(ctx, pid, ref, index.zone(arena)) or (
                arena == "space" and en.kw_value(ctx, ref, "bombard")
                and _can_attack_one(ctx, pid, ref, index.zone("ground"))):
            out.append("attack " + ref)
            if one:
                return out
        d = ctx.cdef(ref)
        if not d.unit or not d.plays:
            continue  # (no play: _unit_plays would name none)
        if in_order is None:
            in_order = _Refs(st.cards, False)
        for name, group in _unit_plays(ctx, pid, ref, in_order):
            _first_passing(ctx, name, group, out)
            if one and out:
                return out
    return out


def _chance_may(ctx: Ctx, pid: str, one: bool) -> list[str] | None:
    """A chance to play's steps (``_groups``' chance groups, each group's steps checked until one
    passes), without the groups' generator: a battle card in hand that fits the chance and can be paid
    for, a card's plays and activated keywords (``_chance_cards``). None for a code in hand the pool
    does not know (``checked_options`` says what then); ``one``: stopping once one is found (``_may``:
    a code the pool does not know after it, checked_options would find that one too)."""
    st = ctx.state
    kind = st.chance.kind if st.chance is not None else ""
    p = st.players[pid]
    pool = ctx.cards.cards
    in_hand = ctx.cards.derived("hand-chances", _hand_chances)
    in_order = _Refs(st.cards, False)
    delta: int | None = None  # the cost change of pid's battle cards, found when first needed
    out: list[str] = []
    for code in p.hand:
        if code == UNKNOWN:
            continue
        d = pool.get(code)
        if d is None:
            return None
        if kind not in in_hand.get(code, CHANCE_KINDS):
            continue
        name = "play " + code
        if name in out:
            continue
        if not d.implemented:
            out.append(name)
            if one:
                return out
            continue
        play = d.plays[0]
        if not play.any_amount:  # (as _cannot_pay says, the cost change found once)
            if delta is None:
                delta = en.cost_delta(ctx, pid, "battle")
            if p.force < max(0, play.cost + delta):
                continue  # every step of it: swtcg.costs.must-pay
        _first_passing(ctx, name, _play_steps(ctx, pid, code, play, in_order), out)
        if one and out:
            return out
    for ref, fitting, activated in _chance_cards(ctx, pid, kind):
        if fitting is None:
            for name, group in _unit_plays(ctx, pid, ref, in_order):
                _first_passing(ctx, name, group, out)
                if one and out:
                    return out
        elif fitting:
            for name, group in _plays_of(ctx, pid, ref, fitting, in_order):
                _first_passing(ctx, name, group, out)
                if one and out:
                    return out
        for iid, k, first in activated:
            if not _keyword_idle(ctx, pid, ref, iid, first):
                _first_passing(ctx, "use " + iid, _keyword_steps(ctx, pid, ref, iid, k), out)
                if one and out:
                    return out
    return out


def _can_attack_one(ctx: Ctx, pid: str, ref: str, units: list[Card]) -> bool:
    for t in units:
        if t.controller != pid and en.can_attack(ctx, ref, t.ref) is None:
            return True
    return False


def _first_passing(ctx: Ctx, name: str, group: Iterable[SwAction], out: list[str]) -> None:
    """``name`` joins ``out`` when a step of ``group`` passes ``check`` (those after it are not made)."""
    for a in group:
        if check(ctx, a) is None:
            out.append(name)
            return


def nothing_in_chance(ctx: Ctx, pid: str) -> bool:
    """Whether ``_groups`` finds no group at all for ``pid`` in the chance to play open now, asked as
    ``_groups`` asks it, without making a step: no card in hand that may be played in this kind of
    chance and paid for (swtcg.costs.must-pay), no card in play with a play it can pay for or an
    activated keyword that is not idle (``_chance_cards``, ``_cannot_pay``, ``_keyword_idle``). A
    player with nothing there passes at once (swtcg.project.forced-pass). A code the pool does not
    know counts as something (``_groups`` asks ctx.card, which says so)."""
    st = ctx.state
    ch = st.chance
    kind = ch.kind if ch is not None else ""
    p = st.players[pid]
    memo = p.hand_memo  # (_hand_needs, its memo read here: the procedure asks several times a step)
    pool = ctx.cards
    needs = memo.needs if memo is not None and memo.pool is pool and memo.edits == pool.edits \
        and memo.hand == p.hand else _hand_needs(ctx, p)
    need = needs.get(kind) if needs else None
    if need is not None and (need == _ALWAYS or p.force >= max(0, need + en.cost_delta(ctx, pid, "battle"))):
        return False
    index = st._index  # (en.facts_of's quick answer, read here: the procedure asks several times a step)
    facts = index._facts if index is not None else None
    if facts is None or facts is not ctx._facts or st.phase is not ctx._facts_phase or facts.moves:
        facts = en.facts_of(ctx)
    by_kind = facts.chance_cards.get(pid)  # (_chance_cards, kept there)
    found: ChanceCards | None = by_kind.get(kind) if by_kind is not None else None
    if found is None:
        found = _chance_cards(ctx, pid, kind, facts)
    if not found:
        return True
    for ref, fitting, activated in found:
        if fitting is None:
            return False
        for _, play in fitting:
            if not _cannot_pay(ctx, pid, play, "ability", ref):
                return False
        for iid, _, first in activated:
            if not _keyword_idle(ctx, pid, ref, iid, first):
                return False
    return True


# ``_hand_needs``' value for a kind of chance a card in hand could always be a step in (a code the
# pool does not know, a text the engine does not implement, "pay any amount")
_ALWAYS: Final = -(1 << 30)


def _hand_needs(ctx: Ctx, p: Player) -> dict[str, int]:
    """For each kind of chance, the least printed Force cost of a card in ``p``'s hand that may be
    played in it (``_ALWAYS``: one that always counts, whatever ``p`` has): what ``nothing_in_chance``
    asks of the hand, ``p`` able to pay for one exactly when able to pay that least cost (plus the
    change, at least 0). Found once per hand (kept with ``p``, ``Player.hand_memo``, while the hand
    and the pool stay as they were)."""
    pool = ctx.cards
    memo = p.hand_memo
    if memo is not None and memo.pool is pool and memo.edits == pool.edits and memo.hand == p.hand:
        found: dict[str, int] = memo.needs
        return found
    table = _hand_table(ctx)
    needs: dict[str, int] = {}
    for c in p.hand:
        entries = table.get(c)
        if entries is None:
            if c == UNKNOWN:
                continue
            entries = _UNKNOWN_CODE  # (a code the pool does not know: any kind, always)
        for k, value in entries:
            old = needs.get(k)
            if old is None or value < old:
                needs[k] = value
    p.hand_memo = HandMemo(pool, list(p.hand), needs)
    return needs


_UNKNOWN_CODE: Final = tuple((k, _ALWAYS) for k in sorted(CHANCE_KINDS))
def _hand_table(ctx: Ctx) -> dict[str, tuple[tuple[str, int], ...]]:
    """For each code of the pool, the kinds of chance a card of it in hand may be played in, each with
    its printed Force cost (``_ALWAYS``: a text the engine does not implement, "pay any amount");
    made once per pool (``CardPool.memo``)."""
    found: dict[str, tuple[tuple[str, int], ...]] = ctx.cards.memo("hand-table", _make_hand_table)
    return found


def _make_hand_table(pool: CardPool) -> dict[str, tuple[tuple[str, int], ...]]:
    in_hand = pool.derived("hand-chances", _hand_chances)
    table: dict[str, tuple[tuple[str, int], ...]] = {}
    for code, d in pool.cards.items():
        kinds = in_hand.get(code, CHANCE_KINDS)
        if not kinds:
            table[code] = ()
            continue
        value = _ALWAYS if not d.implemented or d.plays[0].any_amount else d.plays[0].cost
        table[code] = tuple((k, value) for k in sorted(kinds))
    return table


Group = tuple[str, Iterable[SwAction]]

StepTable = dict[tuple[str, str, str, int, str], SwAction]
MAX_STEPS: Final = 8192


def _steps_table(ctx: Ctx) -> StepTable:
    """The simple steps ``_groups`` makes, each made once and shared (steps are immutable values, and
    the same ones come back at every wait), kept with the card pool (``Interned.steps``: the module
    keeps no table of its own); emptied when it holds MAX_STEPS."""
    found: StepTable = ctx.cards.interned.steps
    return found


def _step(steps: StepTable, verb: str, pid: str, card: str, counters: int = 0, target: str = "") -> SwAction:
    """``Deploy``, ``Build`` (``counters``), ``Retreat``, ``Skip`` or ``Attack`` (``target``) by ``pid``
    of ``card``, shared through ``steps`` (``_steps_table``)."""
    key = (verb, pid, card, counters, target)
    a = steps.get(key)
    if a is None:
        if len(steps) >= MAX_STEPS:
            steps.clear()
        a = (Deploy(pid, card=card) if verb == "deploy" else Build(pid, card=card, counters=counters)
             if verb == "build" else Retreat(pid, card=card) if verb == "retreat" else Skip(pid, card=card)
             if verb == "skip" else Attack(pid, card=card, target=target))
        steps[key] = a
    return a


def _groups(ctx: Ctx, pid: str, ordered: bool) -> Iterator[Group]:
    """The steps worth checking now (a few more than are legal; passing aside), in named groups
    (``verb`` plus card or ability, as ``options`` names them), each group's steps made only when
    asked for; ``ordered`` False: a group's steps in any order, and no skip group (``options`` asks
    whether one passes; skipping is no option, as passing is none)."""
    st = ctx.state
    w = st.wait
    p = st.players[pid]
    steps = _steps_table(ctx)
    if w in ("deploy", "partial", "build"):
        hand = sorted(set(p.hand) - {UNKNOWN})
    if w == "deploy":
        left = en.SETUP_BUILD_POINTS - p.deployed
        pool = ctx.cards.cards
        for code in hand:
            hd = pool.get(code)  # (an unknown code is checked: ctx.card says so)
            if hd is not None and (not hd.unit or hd.cost > left):
                continue  # check refuses it: swtcg.setup.units-only, swtcg.setup.out-of-units
            yield f"deploy {code}", (_step(steps, "deploy", pid, code),)
    elif w == "partial":
        left = en.SETUP_BUILD_POINTS - p.deployed
        for code in hand:
            d = ctx.card(code)
            if not d.unit:
                continue  # check refuses it: swtcg.setup.units-only
            if left >= 1:
                yield f"build {code}", (_step(steps, "build", pid, code, max(1, min(left, d.cost))),)
    elif w == "build":
        for code in hand:
            d = ctx.card(code)
            if d.type == "battle" and "." not in code:  # (a code with no dot is no card reference: steps.REF)
                continue  # check: battle cards are played, not built (swtcg.abilities.battle-cards), never a step
            if p.build >= 1 or d.cost == 0:
                yield f"build {code}", (_step(steps, "build", pid, code,
                                              max(0 if d.cost == 0 else 1, min(p.build, d.cost))),)
        # one's own cards (GameState.index), sorted for candidates (options: any order, as the names are the same)
        mine = [c.ref for c in st.index().controlled(pid)]
        if ordered:
            mine.sort()
        in_order = _Refs(st.cards, ordered)  # every card: targets
        # the codes of the cards with something to do in play here (pilot moves, plays): the other cards
        # outside the build zone have no candidate, skipped without looking their card up
        uses = ctx.cards.derived_codes("build-uses", _build_uses)
        busy = uses.get("pilot", frozenset()) | uses.get("plays", frozenset()) | uses.get("equip", frozenset())
        known = ctx.cards.derived("build-uses", _build_uses)  # every code of the pool (ctx.card: the others)
        for ref in mine:
            c = st.cards[ref]
            if c.controller != pid or (c.zone != "build" and c.code not in busy and c.code in known):
                continue
            d = ctx.card(c.code)
            if c.zone == "build":
                if not c.built and p.build >= 1:
                    yield f"build {ref}", (_step(steps, "build", pid, ref, max(1, min(p.build, d.cost - c.counters))),)
                if d.type == "mission":  # swtcg.base.mission
                    yield f"complete {ref}", _complete_steps(ctx, pid, ref, d, in_order)
                elif d.type != "equipment" and (c.built or c.counters >= d.cost):
                    # (else check says swtcg.base.build or swtcg.build.partial-build)
                    yield f"deploy {ref}", (_step(steps, "deploy", pid, ref),)
            if d.type == "equipment" and c.zone in ("build", "equipped"):  # swtcg.base.equip
                yield f"equip {ref}", _equip_steps(ctx, pid, ref, mine)
            if d.pilot is not None:
                yield f"pilot {ref}", _pilot_steps(ctx, pid, ref, mine)
            if d.unit and d.plays:
                yield from _unit_plays(ctx, pid, ref, in_order)
    elif w == "retreat":
        # swtcg.retreat.untapped-only: one's own, untapped, in play (check refuses the others)
        for ref in sorted(c.ref for c in st.index().controlled(pid) if c.zone in IN_PLAY and not c.tapped):
            yield f"retreat {ref}", (_step(steps, "retreat", pid, ref),)
    elif w == "act":
        in_order = _Refs(st.cards, ordered)
        for ref in st.acting:
            yield f"attack {ref}", _attack_steps(ctx, pid, ref, ordered)
            yield from _unit_plays(ctx, pid, ref, in_order)
            if ordered:
                yield f"skip {ref}", (_step(steps, "skip", pid, ref),)
    elif w == "chance":
        kind = st.chance.kind if st.chance is not None else ""
        in_hand = ctx.cards.derived("hand-chances", _hand_chances)
        in_order = _Refs(st.cards, ordered)
        delta: int | None = None  # the cost change of pid's battle cards, found when first needed
        # only the battle cards playable in this kind of chance (an unknown code: ctx.card says so)
        for code in sorted({c for c in p.hand if c != UNKNOWN and kind in in_hand.get(c, CHANCE_KINDS)}):
            d = ctx.card(code)
            if not d.implemented:
                yield f"play {code}", (PlayCard(pid, card=code),)
                continue
            play = d.plays[0]
            if not play.any_amount:  # (as _cannot_pay says, the cost change found once)
                if delta is None:
                    delta = en.cost_delta(ctx, pid, "battle")
                if p.force < max(0, play.cost + delta):
                    continue  # every step of it: swtcg.costs.must-pay (check says so, and why, when asked)
            yield f"play {code}", _play_steps(ctx, pid, code, play, in_order)
        for ref, fitting, activated in _chance_cards(ctx, pid, kind):
            if fitting is None:
                yield from _unit_plays(ctx, pid, ref, in_order)  # (a code the pool does not know: ctx.card says so)
            elif fitting:
                yield from _plays_of(ctx, pid, ref, fitting, in_order)
            for iid, k, first in activated:
                if not _keyword_idle(ctx, pid, ref, iid, first):
                    yield f"use {iid}", _keyword_steps(ctx, pid, ref, iid, k)


Fitting = list[tuple[int, Play]]
ChanceCards = list[tuple[str, Fitting | None, list[tuple[str, Keyword, Keyword]]]]
# a card of ``_chance_base``: its reference, its plays with the kinds of chance each fits (None: a
# code the pool does not know), its activated keyword instances (ID, keyword, the first keyword of
# that ID) with the kinds of chance each may be used in
BaseCard = tuple[str, list[tuple[int, Play, frozenset[str]]] | None,
                 list[tuple[str, Keyword, Keyword, tuple[str, ...]]]]


def _chance_cards(ctx: Ctx, pid: str, kind: str, facts: Facts | None = None) -> ChanceCards:
    """The cards of ``pid``'s with something of their own, their pilot's or granted to use in a chance
    of ``kind``, sorted, each with its plays that fit the chance (number and play, as ``_unit_plays``
    finds them; None for a code the pool does not know: ``_unit_plays`` asks ctx.card) and its activated
    keyword instances of that kind (ID, keyword, and the keyword check finds for that ID: find_keyword's,
    the first with it); a card with neither is left out. Found from ``_chance_base`` (the cards with
    something for any kind of chance), once while the cards stay where they are (GameState.index)."""
    if facts is None:
        facts = en.facts_of(ctx)
    by_kind = facts.chance_cards.get(pid)
    if by_kind is None:
        by_kind = facts.chance_cards[pid] = {}
    found: ChanceCards | None = by_kind.get(kind)
    if found is not None:
        return found
    found = []
    for ref, plays, activated in _chance_base(ctx, pid, facts):
        fitting: Fitting | None = None if plays is None else [(n, play) for n, play, kinds in plays if kind in kinds]
        mine = [(iid, k, first) for iid, k, first, kinds in activated if kind in kinds]
        if fitting is not None and not fitting and not mine:
            continue
        found.append((ref, fitting, mine))
    by_kind[kind] = found
    return found


def _chance_base(ctx: Ctx, pid: str, facts: Facts) -> list[BaseCard]:
    """The cards of ``pid``'s with something of their own, their pilot's or granted to use in some kind
    of chance, sorted (``_chance_cards`` keeps those of one kind), found from where the cards are
    (GameState.index; ``facts``: its facts), once while they stay there: those of a code with something
    in a chance, of a code the pool does not know (any kind, as in_play.get(code, CHANCE_KINDS) says),
    with Equipment on them (what it gives may be used, swtcg.base.equip), or with such a pilot; all of
    them while a card grants keywords. A unit's plays work only while its abilities do (check:
    swtcg.abilities.partially-built-inactive)."""
    found: list[BaseCard] | None = facts.chance_base.get(pid)
    pending = facts.chance_moved
    moved = pending.get(pid)
    if moved is not None:
        del pending[pid]
    if found is not None:
        if moved:  # cards of pid's moved (no pilot, no Equipment, no card granting keywords): theirs again
            found = facts.chance_base[pid] = _chance_base_moved(ctx, pid, found, moved)
        return found
    st = ctx.state
    index = st.index()
    grants = en.grant_sources(ctx)
    cards = st.cards
    if grants:
        among: Iterable[Card] = index.controlled(pid)
    else:
        in_play = ctx.cards.derived("chances", _chances)
        piloting = ctx.cards.derived("pilot-chances", _pilot_chances)
        own = ctx.cards.derived_codes("chances", _chances).get("", frozenset())
        piloted = ctx.cards.derived_codes("pilot-chances", _pilot_chances).get("", frozenset())
        equipment = index.zone("equipped") if ctx.cards.with_static("equip") else []
        among = [*index.of_codes(own), *index.outside(in_play),
                 *(cards[c.on] for c in equipment if c.on in cards),
                 *(c for c in index.piloted if c.pilot in cards and (
                     (pcode := cards[c.pilot].code) in piloted or pcode not in piloting))]
    found = []
    for ref in sorted({c.ref for c in among if c.controller == pid}):
        entry = _chance_entry(ctx, ref, grants)
        if entry is not None:
            found.append(entry)
    facts.chance_base[pid] = found
    return found


def _chance_entry(ctx: Ctx, ref: str, grants: list[tuple[Card, Any]]) -> BaseCard | None:
    """``_chance_base``'s entry of the card ``ref`` (None: nothing of its own, its pilot's or granted
    to use in a chance)."""
    st = ctx.state
    instances = en.keyword_instances(ctx, ref, grants)
    first: dict[str, Keyword] = {}
    for iid, k in instances:
        first.setdefault(iid, k)
    activated = [(iid, k, first[iid], FITS[window]) for iid, k in instances
                 if (window := ACTIVATED.get(k.name)) is not None and FITS[window]]
    c = st.cards[ref]
    d = ctx.cards.cards.get(c.code)
    plays: list[tuple[int, Play, frozenset[str]]] | None = None
    if d is not None:
        plays = []
        if d.unit and en.active(st, c):
            for n, play in enumerate(d.plays):
                kinds = frozenset(k for w in play.windows for k in FITS[w])
                if kinds:
                    plays.append((n, play, kinds))
        if not plays and not activated:
            return None
    return ref, plays, activated


def _chance_base_moved(ctx: Ctx, pid: str, kept: list[BaseCard], moved: set[str]) -> list[BaseCard]:
    """``_chance_base`` of ``pid`` found from the one ``kept`` before the cards ``moved`` moved or got,
    lost or moved with a pilot (each with no Equipment, while no card grants keywords: only their own
    entries may change, and whether each has one, engine._settle): theirs found again, asked as
    ``_chance_base`` asks which cards have one (their code's text, their pilot's), the others' kept."""
    cards = ctx.state.cards
    in_play = ctx.cards.derived("chances", _chances)
    own = ctx.cards.derived_codes("chances", _chances).get("", frozenset())
    piloting = ctx.cards.derived("pilot-chances", _pilot_chances)
    piloted = ctx.cards.derived_codes("pilot-chances", _pilot_chances).get("", frozenset())
    grants = en.grant_sources(ctx)
    found = [entry for entry in kept if entry[0] not in moved]
    for ref in moved:
        c = cards.get(ref)
        if c is None or c.controller != pid:
            continue
        p = cards.get(c.pilot) if c.pilot else None
        if c.code in own or c.code not in in_play or (p is not None and (p.code in piloted
                                                                         or p.code not in piloting)) \
                or (c.gear and _equipped_on(ctx, ref)):
            entry = _chance_entry(ctx, ref, grants)
            if entry is not None:
                found.append(entry)
    found.sort(key=_first)
    return found


def _equipped_on(ctx: Ctx, ref: str) -> bool:
    """Whether Equipment is on ``ref`` while some card's Equipment gives something (``_chance_base``)."""
    if not ctx.cards.with_static("equip"):
        return False
    return any(c.on == ref for c in ctx.state.index().zone("equipped"))


def _first(entry: BaseCard) -> str:
    return entry[0]


def _complete_steps(ctx: Ctx, pid: str, ref: str, d: CardDef, in_order: _Refs) -> Iterator[SwAction]:
    """A Mission's completion, one step per option and target of its effect."""
    if not d.plays:
        yield Complete(pid, card=ref)
        return
    for option, target, pay, _ in _variants(ctx, pid, d.plays[0], in_order):
        yield Complete(pid, card=ref, option=option, target=target, pay=pay)


def _hand_chances(d: CardDef) -> frozenset[str]:
    """The kinds of chance a card in hand may be a step in: a battle card's windows (any kind for
    one whose text the engine does not implement: ``check`` says)."""
    if d.type != "battle":
        return frozenset()
    if not d.implemented:
        return CHANCE_KINDS
    return frozenset(k for w in d.plays[0].windows for k in FITS[w])


def _chances(d: CardDef) -> frozenset[str]:
    """The kinds of chance a card in play may have a step in, from its own text: a unit's plays and
    its activated keywords (a pilot's and granted keywords aside)."""
    kinds = {k for play in (d.plays if d.unit else ()) for w in play.windows for k in FITS[w]}
    kinds.update(k for kw in d.keywords if kw.name in ACTIVATED for k in FITS[ACTIVATED[kw.name]])
    return frozenset(kinds | {""}) if kinds else frozenset()  # "": some kind (legal._chance_base)


def _build_uses(d: CardDef) -> frozenset[str]:
    """What a card in play may do in the build step whatever its zone (``_groups``): move as a pilot,
    a unit's plays, an Equipment's move to another unit."""
    return frozenset(("pilot",) * (d.pilot is not None) + ("plays",) * bool(d.unit and d.plays)
                     + ("equip",) * (d.type == "equipment"))


def _pilot_chances(d: CardDef) -> frozenset[str]:
    """The kinds of chance the unit a card pilots may have a step in, from the pilot's keywords."""
    keywords = d.pilot.keywords if d.pilot is not None else ()
    kinds = {k for kw in keywords if kw.name in ACTIVATED for k in FITS[ACTIVATED[kw.name]]}
    return frozenset(kinds | {""}) if kinds else frozenset()  # "": some kind (legal._chance_base)


def _pilot_steps(ctx: Ctx, pid: str, ref: str, refs: list[str]) -> Iterator[SwAction]:
    st = ctx.state
    c = st.cards[ref]
    if not c.built or c.moved:
        return  # swtcg.abilities.partially-built-inactive, swtcg.pilots.build-step-move: whatever it goes onto
    zones = ARENAS_OR_BUILD if c.zone == "pilot" else ("space", "ground")  # swtcg.pilots.build-step-move
    pdef = ctx.card(c.code).pilot
    if pdef is None:
        return  # no Pilot ability (_groups asks for a pilot's moves only)
    kind = pdef.kind
    for target in refs:
        t = st.cards[target]
        # a Space or Ground unit one controls (swtcg.pilots.move-onto-units), another than the one it pilots,
        # no Droid (swtcg.pilots.no-droid-units), of the type it pilots (swtcg.pilots.type-match), with no
        # pilot (swtcg.pilots.one-per-unit): what check asks of the unit, asked first
        # (and built: a partially built card is no unit yet, swtcg.abilities.partially-built-inactive)
        if t.controller == pid and t.zone in zones and (c.zone != "pilot" or target != c.on) and not t.pilot \
                and t.built:
            u = ctx.card(t.code)
            if u.type in ("space", "ground") and not u.droid and u.has_subtype(kind):
                yield Pilot(pid, card=ref, onto=target)
    yield Pilot(pid, card=ref, onto="character")
    yield Pilot(pid, card=ref, onto="build")


def _attack_steps(ctx: Ctx, pid: str, ref: str, ordered: bool) -> Iterator[SwAction]:
    """An attack on each enemy unit in the attacker's arena (and in the Ground arena for Bombard)."""
    st = ctx.state
    steps = _steps_table(ctx)
    arena = st.cards[ref].zone
    enemies: Iterable[str] = (c.ref for c in st.index().zone(arena) if c.controller != pid)
    for target in sorted(enemies) if ordered else enemies:
        yield _step(steps, "attack", pid, ref, 0, target)
    if arena == "space" and en.kw_value(ctx, ref, "bombard"):
        below: Iterable[str] = (c.ref for c in st.index().zone("ground") if c.controller != pid)
        for target in sorted(below) if ordered else below:
            yield _step(steps, "attack", pid, ref, 0, target)


def _keyword_steps(ctx: Ctx, pid: str, ref: str, iid: str, k: Keyword) -> Iterator[SwAction]:
    st = ctx.state
    if k.name == "deflect":
        where = en.arena_of(ctx, ref)
        if where:
            for u in sorted(st.units_in(where), key=lambda c: c.ref):
                yield Use(pid, ability=iid, to=u.ref)
    elif k.name == "prevent":
        for d in st.damage:
            yield Use(pid, ability=iid, target=d["target"])
    elif k.name == "evade" and k.value == X:
        due = sum(d["amount"] - d["prevented"] for d in st.damage if d["target"] == ref)
        most = min(due, st.players[pid].force - en.cost_delta(ctx, pid, "ability", ref))
        if most > 0:
            yield Use(pid, ability=iid, amount=most)
    elif k.name == "lucky":
        yield Use(pid, ability=iid, dice=_misses(ctx, k.value))
    else:
        yield Use(pid, ability=iid)


def _misses(ctx: Ctx, most: int) -> tuple[int, ...]:
    roll = ctx.state.roll
    if roll is None:
        return ()
    misses = [i for i, d in enumerate(roll.dice) if d < 4]
    return tuple(misses[:most])


def _unit_plays(ctx: Ctx, pid: str, ref: str, in_order: _Refs) -> Iterator[Group]:
    d = ctx.cdef(ref)
    if not d.unit or not d.plays:
        return
    st = ctx.state
    kind = st.chance.kind if st.chance is not None else ""
    for n, play in enumerate(d.plays):
        if not any(kind in FITS[w] or (w == "build" and st.wait == "build")
                   or (w == "would-attack" and st.wait == "act") for w in play.windows):
            continue
        if _cannot_pay(ctx, pid, play, "ability", ref):
            continue
        iid = f"{ref}:play" + (f".{n + 1}" if n else "")
        yield f"use {iid}", _use_steps(ctx, pid, iid, play, in_order)


def _plays_of(ctx: Ctx, pid: str, ref: str, fitting: Fitting, in_order: _Refs) -> Iterator[Group]:
    """``_unit_plays`` in a chance to play, its plays that fit the chance found already (``_chance_cards``)."""
    for n, play in fitting:
        if _cannot_pay(ctx, pid, play, "ability", ref):
            continue
        iid = f"{ref}:play" + (f".{n + 1}" if n else "")
        yield f"use {iid}", _use_steps(ctx, pid, iid, play, in_order)


# A group's steps are made by a generator function, one at a time as asked for (options stops at the
# first that passes check): mypyc compiles a generator expression as a list, every step made at once.
def _play_steps(ctx: Ctx, pid: str, code: str, play: Play, in_order: _Refs) -> Iterator[SwAction]:
    """A battle card's steps, one per option and target."""
    for option, target, pay, dice in _variants(ctx, pid, play, in_order):
        yield PlayCard(pid, card=code, option=option, target=target, pay=pay, dice=dice)


def _use_steps(ctx: Ctx, pid: str, iid: str, play: Play, in_order: _Refs) -> Iterator[SwAction]:
    """A unit's play's steps, one per option and target; X: the target's build cost, the least that
    reaches it (swtcg.costs.x-uses-printed-cost)."""
    x = play.cost == X
    for option, target, pay, dice in _variants(ctx, pid, play, in_order):
        if x:
            yield Use(pid, ability=iid, option=option, target=target, pay=pay, dice=dice,
                      amount=ctx.cdef(target).cost if target is not None else 0)
        else:
            yield Use(pid, ability=iid, option=option, target=target, pay=pay, dice=dice)


def _equip_steps(ctx: Ctx, pid: str, ref: str, mine: list[str]) -> Iterator[SwAction]:
    """An Equipment's moves onto each unit of one's own in the arenas."""
    cards = ctx.state.cards
    for u in mine:
        if cards[u].controller == pid and cards[u].zone in ARENAS:
            yield Equip(pid, card=ref, onto=u)


def _cannot_pay(ctx: Ctx, pid: str, play: Play, scope: str, source: str | None = None) -> bool:
    """Whether ``pid`` cannot pay a play's Force cost whatever its option and target: check refuses
    each of its steps then (swtcg.costs.must-pay, the last of its checks), so none is made; ``any_amount``:
    the steps pay what ``pid`` has; X: at least 0 plus the changes."""
    printed = 0 if play.cost == X else play.cost
    return not play.any_amount and \
        ctx.state.players[pid].force < max(0, printed + en.cost_delta(ctx, pid, scope, source))


def _keyword_idle(ctx: Ctx, pid: str, ref: str, iid: str, k: Keyword) -> bool:
    """Whether check refuses every use of an activated keyword of ``ref`` (instance ``iid``) now,
    whatever its step says: a Force cost ``pid`` cannot pay (swtcg.costs.must-pay; X: the step says
    how much), Evade or Deflect with no damage waiting for ``ref`` (swtcg.damage.prevent-when);
    Intercept, Retaliate or Lucky with no attack under way or used in it already, or whose unit the
    attack does not concern (check's last questions for them: swtcg.keywords.*). Hidden Cost has
    checks of its own."""
    name = k.name
    if name == "hidden-cost":
        return False
    st = ctx.state
    # (any one reason is enough: the cheap ones first, the cost last)
    if name in ("evade", "deflect"):
        for d in st.damage:
            target: str | None = d["target"]  # (typed: compared as strings, compiled)
            if target == ref:
                break
        else:
            return True  # (no damage waiting for ref)
    elif name in ("intercept", "retaliate", "lucky"):
        if attack_keyword_refusal(ctx, name, iid, ref, pid):
            return True
    return k.cost != X and st.players[pid].force < en.keyword_due(ctx, pid, k, ref, k.cost)


class _Refs:
    """The references of the cards in play: ``ordered``, sorted when first asked for (most of the
    candidates need no target); else in any order."""

    def __init__(self, cards: dict[str, Card], ordered: bool, refs: list[str] | None = None) -> None:
        self.cards = cards
        self.ordered = ordered
        self.sorted = refs

    def refs(self) -> Iterable[str]:
        if not self.ordered:
            return self.sorted if self.sorted is not None else self.cards.keys()
        if self.sorted is None:
            self.sorted = sorted(self.cards)
        return self.sorted


TARGETED: Final = frozenset(("your-unit", "enemy-unit", "any-unit", "character", "character-unit",
                             "enemy-character-unit", "enemy-ground-or-character-unit", "dark-character-unit"))
Variant = tuple[int | None, str | None, int | None, tuple[int, ...] | None]


def _variants(ctx: Ctx, pid: str, play: Play, in_order: _Refs) -> Iterator[Variant]:
    """(option, target, pay, dice) of each step of a play, one per option and target (a few:
    self-play tries them in turn)."""
    st = ctx.state
    for chosen, reroll, mine, theirs, prevents, targeted, only in _shapes(ctx, play):
        dice = _misses(ctx, reroll) if reroll is not None else None
        pay = st.players[pid].force if play.any_amount else None
        if not targeted:
            yield chosen, None, pay, dice
            continue
        for ref in in_order.refs():
            c = st.cards[ref]
            if c.zone in IN_PLAY and not (mine and c.controller != pid) and not (theirs and c.controller == pid) \
                    and not (prevents and not any(d["target"] == ref for d in st.damage)) \
                    and (en.target_problem(ctx, only, pid, ref, None) is None if only is not None
                         else all(en.target_problem(ctx, kind, pid, ref, None) is None for kind in targeted)):
                yield chosen, ref, pay, dice  # (a target the effects cannot have: check would say so)


# an option of a play as ``_variants`` reads it: its number (None: the play has one), the amount of its
# last reroll effect (None: none), whether it targets one's own units only, enemy units only, units
# with damage waiting only (prevent), the kinds of target it has (sorted), the one kind when one
Shape = tuple[int | None, int | None, bool, bool, bool, tuple[str, ...], str | None]
_THEIRS: Final = frozenset(("enemy-unit", "enemy-character-unit", "enemy-ground-or-character-unit",
                            "dark-character-unit"))


def _no_shapes(_: CardPool) -> dict[int, tuple[Play, list[Shape]]]:
    return {}


def _shapes(ctx: Ctx, play: Play) -> list[Shape]:
    """``play``'s options as ``_variants`` reads them, found once per play (kept with the pool, by the
    play's identity: a play of the pool's cards)."""
    table: dict[int, tuple[Play, list[Shape]]] = ctx.cards.memo("play-shapes", _no_shapes)
    found = table.get(id(play))
    if found is not None and found[0] is play:
        return found[1]
    shapes: list[Shape] = []
    several = len(play.options) > 1
    for option, effects in enumerate(play.options):
        kinds = {e.target for e in effects if e.kind not in ("reroll", "disrupt")}
        reroll: int | None = None
        for e in effects:
            if e.kind == "reroll":
                reroll = e.amount
        targeted = tuple(sorted(kinds & TARGETED))
        shapes.append((option if several else None, reroll, "your-unit" in kinds, bool(kinds & _THEIRS),
                       any(e.kind == "prevent" for e in effects), targeted,
                       targeted[0] if len(targeted) == 1 else None))
    table[id(play)] = (play, shapes)
    return shapes
