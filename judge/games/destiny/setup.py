"""Starting a Destiny game: from a position (a FEN for a card table), or from the beginning.

From a position, ``setup.position`` is the state view with hand and deck as lists of codes;
a deck may be ``{"unknown": n}``. From the beginning, ``setup`` holds the outcomes of setup
(destiny.setup.order) — see docs/replay-format.md for the keys:

- ``decks``: each player's deck order after shuffling, top first (else drawn from ``rng``);
- ``mulligan``: cards each player shuffles back (destiny.setup.mulligan), and
  ``mulligan_decks``: the deck order after that shuffle (else ``rng``);
- ``battlefield_roll``: a list of rolls, one per try (a tie repeats), each mapping player to
  faces of their character dice in order (else ``rng``);
- ``battlefield``: the player whose battlefield is used (the roll winner's choice);
- ``shields``: for each player whose battlefield is not used, their characters' shields.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from judge.games.destiny import records as rec
from judge.games.destiny.dice import Face, FaceError, parse_face
from judge.games.destiny.engine import HAND_LIMIT, Ctx
from judge.games.destiny.model import CardPool, CardType
from judge.games.destiny.refs import CODE, parse_ref
from judge.games.destiny.state import UNKNOWN, Character, Delayed, GameState, Player, Support, Upgrade
from judge.games.inputs import Faults, Inputs, escape, parse_inputs
from judge.kernel.core import Decision, IllegalAction, MissingOutcome
from judge.kernel.rng import Rng


# ====================================================================== from a position
def from_position(pos: Any, players: list[dict[str, Any]], cards: CardPool, path: str = "/setup/position"
                  ) -> tuple[GameState | None, Faults]:
    faults: Faults = []

    def bad(sub: str, msg: str) -> None:
        faults.append((f"{path}{sub}", msg))

    if not isinstance(pos, dict):
        return None, [(path, "a position is a state view object (spec section 5)")]
    st = GameState()
    for key, typ in (("round", int), ("phase", str)):
        if key in pos and not isinstance(pos[key], typ):
            bad(f"/{key}", f"'{key}' must be a {typ.__name__}")
    st.round = pos.get("round", 1) if isinstance(pos.get("round", 1), int) else 1
    st.phase = pos.get("phase", "action") if isinstance(pos.get("phase"), str) else "action"
    if st.phase not in ("action", "upkeep"):
        bad("/phase", "a position starts in the 'action' phase (or 'upkeep' awaiting the log's upkeep step)")
    ids: list[str] = [p["id"] for p in players if isinstance(p, dict) and isinstance(p.get("id"), str)]
    names = {p.get("id"): p.get("name", "") for p in players if isinstance(p, dict)}
    raw_players = pos.get("players")
    if not isinstance(raw_players, dict) or not raw_players:
        bad("/players", "'players' must map each player ID to that player's state")
        return None, faults
    for pid in raw_players:
        if pid not in ids:
            bad(f"/players/{pid}", f"'{pid}' is not listed in the log's top-level 'players'")
    for pid in ids:
        if pid not in raw_players:
            bad("/players", f"player '{pid}' has no state in the position")
    for pid in ids:
        raw = raw_players.get(pid)
        if not isinstance(raw, dict):
            continue
        st.players[pid] = _player(pid, names.get(pid, ""), raw, cards, f"{path}/players/{pid}", faults)
    turn = pos.get("turn")
    if st.phase == "action":
        if turn not in st.players:
            bad("/turn", "'turn' must name the player whose turn it is")
        st.turn = turn if turn in st.players else None
    claimed = pos.get("claimed_by")
    if claimed is not None and claimed not in st.players:
        bad("/claimed_by", "'claimed_by' must be null or a player ID")
    st.claimed_by = claimed if claimed in st.players else None
    bf = pos.get("battlefield")
    if bf is not None:
        if not isinstance(bf, dict) or not isinstance(bf.get("card"), str) or not CODE.match(bf["card"]):
            bad("/battlefield", "'battlefield' must be {\"card\": code, \"controller\": player}")
        else:
            card = cards.get(bf["card"])
            if card is None:
                bad("/battlefield/card", f"card {bf['card']} is not known")
            elif card.type != CardType.BATTLEFIELD:
                bad("/battlefield/card", f"{card.name} is not a battlefield")
            ctrl = bf.get("controller")
            if ctrl not in st.players:
                bad("/battlefield/controller", "the battlefield's controller must be a player ID")
            st.battlefield = bf["card"]
            st.controller = ctrl if ctrl in st.players else None
            owner = bf.get("owner", ctrl)
            st.battlefield_owner = owner if owner in st.players else st.controller
    for key in ("winner",):
        if pos.get(key) is not None:
            bad(f"/{key}", "a position is a game still being played")
    passes = pos.get("passes", 0)
    if not isinstance(passes, int) or passes < 0:
        bad("/passes", "'passes' counts consecutive passes (0 or more)")
    else:
        st.passes = passes
    delayed = pos.get("delayed", [])
    if not isinstance(delayed, list):
        bad("/delayed", "'delayed' is a list of delayed effects")
    else:
        for i, d in enumerate(delayed):
            if not isinstance(d, dict) or d.get("when") != "round-end" or d.get("kind") != "defeat" \
                    or not isinstance(d.get("target"), str) or not isinstance(d.get("round"), int):
                bad(f"/delayed/{i}", "a delayed effect is {\"when\": \"round-end\", \"kind\": \"defeat\", "
                    "\"target\", \"source\", \"round\"}")
                continue
            st.delayed.append(Delayed(when="round-end", kind="defeat", target=d["target"],
                                      source=str(d.get("source", "")), round=d["round"]))
    extra = pos.get("extra_action")
    if extra is not None:
        if extra not in st.players:
            bad("/extra_action", "'extra_action' must be null or a player ID")
        else:
            st.extra_action = extra
    return (None if faults else st), faults


def _player(pid: str, name: str, raw: dict[str, Any], cards: CardPool, path: str, faults: Faults) -> Player:
    def bad(sub: str, msg: str) -> None:
        faults.append((f"{path}{sub}", msg))

    p = Player(id=pid, name=name)
    res = raw.get("resources", 0)
    if not isinstance(res, int) or isinstance(res, bool) or res < 0:
        bad("/resources", "'resources' must be a whole number, 0 or more")
    else:
        p.resources = res
    p.hand = _cards(raw.get("hand", []), f"{path}/hand", faults, cards)
    p.deck = deque(_cards(raw.get("deck", []), f"{path}/deck", faults, cards))
    p.discard = _cards(raw.get("discard", []), f"{path}/discard", faults, cards, allow_unknown=False)
    if "passed" in raw and not isinstance(raw["passed"], bool):
        bad("/passed", "'passed' is true or false")
    p.passed = bool(raw.get("passed", False))
    if "eliminated" in raw and not isinstance(raw["eliminated"], bool):
        bad("/eliminated", "'eliminated' is true or false")
    elif raw.get("eliminated"):
        p.eliminated = True  # out of the game (destiny.multiplayer.elimination): skipped, not an opponent
    chars = raw.get("characters", {})
    if not isinstance(chars, dict) or not chars:
        bad("/characters", "each player needs at least one character")
        chars = {}
    for ref, c in chars.items():
        sub = f"/characters/{escape(ref)}"
        r = parse_ref(ref)
        if r is None or r.player != pid or r.die is not None:
            bad(sub, f"'{ref}' must be a character reference of {pid}, such as {pid}.05031")
            continue
        card = cards.get(r.code)
        if card is None:
            bad(sub, f"card {r.code} is not known")
            continue
        if card.type != CardType.CHARACTER:
            bad(sub, f"{card.name} is not a character")
            continue
        if not isinstance(c, dict):
            bad(sub, "a character's state is an object")
            continue
        canon = f"{pid}.{r.code}" + (f"#{r.serial}" if r.serial and r.serial > 1 else "")
        dice = c.get("dice", 1)
        if dice not in (1, 2):
            bad(f"{sub}/dice", "a character has 1 or 2 dice")
            dice = 1
        ch = Character(ref=canon, code=r.code, dice=dice)
        for key in ("damage", "shields"):
            v = c.get(key, 0)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                bad(f"{sub}/{key}", f"'{key}' must be a whole number, 0 or more")
            else:
                setattr(ch, key, v)
        if ch.shields > 3:
            bad(f"{sub}/shields", "a character never has more than 3 shields (destiny.shields.max-three)")
        for key in ("defeated", "exhausted"):
            if key in c and not isinstance(c[key], bool):
                bad(f"{sub}/{key}", f"'{key}' is true or false")
            setattr(ch, key, bool(c.get(key, False)))
        if not ch.defeated and card.health and ch.damage >= card.health:
            bad(f"{sub}/damage", f"{card.name} has {card.health} health: with {ch.damage} damage it is defeated")
        ups = c.get("upgrades", [])
        if not isinstance(ups, list):
            bad(f"{sub}/upgrades", "'upgrades' is a list of upgrade references")
            ups = []
        for i, u in enumerate(ups):
            ur = parse_ref(u)
            ucard = cards.get(ur.code) if ur else None
            if ur is None or ur.player != pid or ur.die is not None:
                bad(f"{sub}/upgrades/{i}", f"'{u}' must be an upgrade reference of {pid}, such as {pid}.05058#1")
                continue
            if ucard is None:
                bad(f"{sub}/upgrades/{i}", f"card {ur.code} is not known")
                continue
            if ucard.type != CardType.UPGRADE:
                bad(f"{sub}/upgrades/{i}", f"{ucard.name} is not an upgrade")
                continue
            serial = ur.serial or 1
            uref = f"{pid}.{ur.code}#{serial}"
            if uref in p.upgrades:
                bad(f"{sub}/upgrades/{i}", f"{uref} is attached twice")
                continue
            p.upgrades[uref] = Upgrade(ref=uref, code=ur.code, on=canon)
            p.serials[ur.code] = max(p.serials.get(ur.code, 0), serial)
            ch.upgrades.append(uref)
        if len(ch.upgrades) > 3:
            bad(f"{sub}/upgrades", "a character has at most 3 upgrades (destiny.upgrades.max-three)")
        p.characters[canon] = ch
    up_state = raw.get("upgrades", {})
    if isinstance(up_state, dict):
        for ref, u in up_state.items():
            ur = parse_ref(ref)
            key = f"{pid}.{ur.code}#{ur.serial or 1}" if ur else ref
            if key not in p.upgrades:
                bad(f"/upgrades/{escape(ref)}", f"{ref} is not attached to any of {pid}'s characters")
            elif isinstance(u, dict):
                p.upgrades[key].exhausted = bool(u.get("exhausted", False))
    sups = raw.get("supports", {})
    if not isinstance(sups, dict):
        bad("/supports", "'supports' maps support references to their state")
        sups = {}
    for ref, s in sups.items():
        sr = parse_ref(ref)
        scard = cards.get(sr.code) if sr else None
        if sr is None or sr.player != pid:
            bad(f"/supports/{escape(ref)}", f"'{ref}' must be a support reference of {pid}")
            continue
        if scard is None or scard.type != CardType.SUPPORT:
            bad(f"/supports/{escape(ref)}", f"{sr.code} is not a known support")
            continue
        sref = f"{pid}.{sr.code}#{sr.serial or 1}"
        p.supports[sref] = Support(ref=sref, code=sr.code, exhausted=bool(isinstance(s, dict) and
                                                                          s.get("exhausted", False)),
                                   dice=1 if scard.has_die else 0)
        p.serials[sr.code] = max(p.serials.get(sr.code, 0), sr.serial or 1)
    pool = raw.get("pool", {})
    if not isinstance(pool, dict):
        bad("/pool", "'pool' maps die references to the face they show")
        pool = {}
    for die, face in pool.items():
        sub = f"/pool/{escape(die)}"
        dr = parse_ref(die)
        if dr is None or dr.die is None or dr.player != pid:
            bad(sub, f"'{die}' must be a die reference of {pid}, such as {pid}.05031/1")
            continue
        card_ref = f"{pid}.{dr.code}" + (f"#{dr.serial}" if dr.serial else "")
        owner_card = _die_card(p, card_ref, dr.code)
        if owner_card is None:
            bad(sub, f"no card of {pid} in play carries die {die}")
            continue
        ccard = cards.get(dr.code)
        try:
            f = parse_face(face)
        except FaceError as exc:
            bad(sub, str(exc))
            continue
        if ccard is not None and f not in ccard.faces:
            bad(sub, f"{ccard.name}'s die has no face {face}")
            continue
        if isinstance(owner_card, Character) and dr.die > owner_card.dice:
            bad(sub, f"{owner_card.ref} has {owner_card.dice} dice")
            continue
        canon_die = f"{owner_card.ref}/{dr.die}"
        p.pool[canon_die] = f
    used = raw.get("power_used", [])
    if isinstance(used, list):
        p.power_used = [u for u in used if isinstance(u, str)]
    serials = raw.get("serials", {})
    if not isinstance(serials, dict) or not all(isinstance(v, int) and v >= 0 for v in serials.values()):
        bad("/serials", "'serials' maps card codes to how many copies have entered play")
    else:
        for code, n in serials.items():
            p.serials[code] = max(p.serials.get(code, 0), n)
    return p


def _die_card(p: Player, card_ref: str, code: str) -> Character | Upgrade | Support | None:
    if card_ref in p.characters:
        return p.characters[card_ref]
    for table in (p.upgrades, p.supports):
        if card_ref in table:
            return table[card_ref]
        matches = [v for k, v in table.items() if k.startswith(card_ref + "#")] if "#" not in card_ref else []
        if len(matches) == 1:
            return matches[0]
    return None


def _cards(raw: Any, path: str, faults: Faults, cards: CardPool, allow_unknown: bool = True) -> list[str]:
    if isinstance(raw, dict) and allow_unknown:
        n = raw.get("unknown")
        if set(raw) != {"unknown"} or not isinstance(n, int) or n < 0:
            faults.append((path, "a list of card codes, or {\"unknown\": n}"))
            return []
        return [UNKNOWN] * n
    if not isinstance(raw, list):
        faults.append((path, "a list of card codes" + (", or {\"unknown\": n}" if allow_unknown else "")))
        return []
    out = []
    for i, code in enumerate(raw):
        if code == UNKNOWN and allow_unknown:
            out.append(code)
        elif not isinstance(code, str) or not CODE.match(code):
            faults.append((f"{path}/{i}", f"{code!r} is not a card code"))
        elif code not in cards:
            faults.append((f"{path}/{i}", f"card {code} is not known"))
        else:
            out.append(code)
    return out


# ====================================================================== from the beginning
def check_players(players: list[Any], cards: CardPool) -> Faults:
    """Shape of full player entries (characters, battlefield, deck) for a game from the beginning."""
    faults: Faults = []
    for i, p in enumerate(players):
        path = f"/players/{i}"
        if not isinstance(p, dict):
            continue
        chars = p.get("characters")
        if not isinstance(chars, list) or not chars:
            faults.append((f"{path}/characters", "a list of {\"card\": code, \"dice\": 1 or 2}"))
        else:
            for k, c in enumerate(chars):
                if not isinstance(c, dict) or not isinstance(c.get("card"), str):
                    faults.append((f"{path}/characters/{k}", "{\"card\": code, \"dice\": 1 or 2}"))
                    continue
                card = cards.get(c["card"])
                if card is None:
                    faults.append((f"{path}/characters/{k}/card", f"card {c['card']} is not known"))
                elif card.type != CardType.CHARACTER:
                    faults.append((f"{path}/characters/{k}/card", f"{card.name} is not a character"))
                if c.get("dice", 1) not in (1, 2):
                    faults.append((f"{path}/characters/{k}/dice", "1 or 2"))
        bf = p.get("battlefield")
        if not isinstance(bf, str) or bf not in cards or cards.cards[bf].type != CardType.BATTLEFIELD:
            faults.append((f"{path}/battlefield", "the code of a known battlefield"))
        deck = p.get("deck")
        if not isinstance(deck, list):
            faults.append((f"{path}/deck", "a list of card codes"))
        else:
            for k, code in enumerate(deck):
                if not isinstance(code, str) or code not in cards:
                    faults.append((f"{path}/deck/{k}", f"{code!r} is not a known card code"))
    return faults


def setup_inputs(setup: Mapping[str, Any], players: Sequence[str], faults: Faults) -> Inputs:
    """The choices logged for setup (``setup.choices``), faults appended under ``/setup``."""
    return parse_inputs({"choices": setup["choices"]} if "choices" in setup else {}, "/setup", players, faults)


def from_beginning(players: list[dict[str, Any]], setup: dict[str, Any], cards: CardPool, rng: Rng | None,
                   policy: Any = None) -> tuple[GameState, Ctx]:
    """Carry out setup (destiny.setup.order). Raises PendingDecision / MissingOutcome / IllegalAction."""
    st = GameState(phase="setup")
    for entry in players:
        pid = entry["id"]
        p = Player(id=pid, name=entry.get("name", ""))
        seen: dict[str, int] = {}
        for c in entry["characters"]:
            code = c["card"]
            seen[code] = seen.get(code, 0) + 1
            ref = f"{pid}.{code}" + (f"#{seen[code]}" if seen[code] > 1 else "")
            p.characters[ref] = Character(ref=ref, code=code, dice=c.get("dice", 1))
        p.deck = deque(entry.get("deck", []))
        st.players[pid] = p
    ctx = Ctx(st, cards, None, setup_inputs(setup, [e["id"] for e in players], []), rng, policy)
    ctx.record(rec.SetupRecord(rules=("destiny.setup.order", "destiny.setup.characters",
                                      "destiny.setup.battlefields", "destiny.zones.set-aside-dice")))
    decks = setup.get("decks", {})
    for pid, p in st.players.items():
        p.deck = deque(_ordered(p.deck, decks.get(pid), rng, f"{pid}'s deck order after shuffling",
                                "destiny.setup.opening-hand"))
        ctx.draw("setup", pid, HAND_LIMIT)
    mull = setup.get("mulligan", {})
    mdecks = setup.get("mulligan_decks", {})
    for pid, p in st.players.items():
        back = mull.get(pid, [])
        if not back:
            continue
        for code in back:
            if code not in p.hand:
                raise IllegalAction("destiny.setup.mulligan", f"{pid} cannot shuffle back {code}: not in hand")
            p.hand.remove(code)
            p.deck.append(code)
        p.deck = deque(_ordered(p.deck, mdecks.get(pid), rng, f"{pid}'s deck order after the mulligan",
                                "destiny.setup.mulligan"))
        ctx.record(rec.MulliganRecord(player=pid, returned=len(back), rules=("destiny.setup.mulligan",)))
        ctx.draw("setup", pid, len(back))
    for p in st.players.values():
        p.resources = 2
    ctx.record(rec.ResourcesRecord(amount=2, rules=("destiny.setup.resources",)))
    _battlefield_roll(ctx, players, setup, rng)
    st.phase = "action"
    st.round = 1
    st.turn = st.controller
    ctx.record(rec.RoundBeginsRecord(round=1, first=st.turn,
                                     rules=("destiny.battlefields.first-action", "destiny.round.action-phase")))
    return st, ctx


def _ordered(cards_: Sequence[str], given: Any, rng: Rng | None, what: str, rule: str) -> list[str]:
    if given is not None:
        if not isinstance(given, list) or sorted(given) != sorted(cards_):
            raise IllegalAction(rule, f"{what} must list exactly the cards of that deck")
        return list(given)
    if rng is None:
        raise MissingOutcome(f"the log does not give {what} and has no rng", rule)
    out = list(cards_)
    rng.shuffle(out)
    return out


def _battlefield_roll(ctx: Ctx, players: list[dict[str, Any]], setup: dict[str, Any], rng: Rng | None) -> None:
    st = ctx.state
    rolls = setup.get("battlefield_roll", [])
    contenders = st.seats()
    tries = 0
    winner: str | None = None
    while winner is None:
        if tries > 50:
            raise IllegalAction("destiny.setup.battlefield-roll", "the battlefield roll never broke the tie")
        given = rolls[tries] if tries < len(rolls) else None
        totals: dict[str, int] = {}
        shown: dict[str, list[str]] = {}
        for pid in contenders:
            dice = [d for ch in st.players[pid].characters.values() for d in
                    (f"{ch.ref}/{n}" for n in range(1, ch.dice + 1))]
            faces: list[Face] = []
            if given is not None:
                raw = given.get(pid) if isinstance(given, dict) else None
                if not isinstance(raw, list) or len(raw) != len(dice):
                    raise IllegalAction("destiny.setup.battlefield-roll", f"battlefield roll {tries + 1} must give "
                                        f"{pid}'s {len(dice)} character dice")
                for d, r in zip(dice, raw, strict=True):
                    f = parse_face(r)
                    if f not in ctx.die_faces(d):
                        raise IllegalAction("destiny.cards.die-faces", f"{d} has no face {r}")
                    faces.append(f)
            elif rng is not None:
                faces = [ctx.die_faces(d)[rng.below(6)] for d in dice]
            else:
                raise MissingOutcome("the log does not give the battlefield roll and has no rng",
                                     "destiny.setup.battlefield-roll")
            totals[pid] = sum(ctx.die_value(d, f) for d, f in zip(dice, faces, strict=True))
            shown[pid] = [f.notation() for f in faces]
        tries += 1
        best = max(totals.values())
        top = [pid for pid in contenders if totals[pid] == best]
        ctx.record(rec.BattlefieldRollRecord(try_=tries, rolled=shown, totals=totals, rules=(
            ("destiny.setup.battlefield-roll", "destiny.multiplayer.battlefield-roll") if len(st.players) > 2
            else ("destiny.setup.battlefield-roll",))))
        if len(top) == 1:
            winner = top[0]
        elif len(st.players) > 2:
            contenders = top  # only the tied players roll again
    bfs = {e["id"]: e["battlefield"] for e in players}
    chosen = setup.get("battlefield")
    if chosen is None:
        chosen = ctx.decide(Decision(by=winner, kind="battlefield", options=tuple(bfs),
                                     rules=("destiny.setup.battlefield-roll",),
                                     prompt="whose battlefield is used"))
    elif chosen not in bfs:
        raise IllegalAction("destiny.setup.battlefield-roll", f"'{chosen}' is not a player whose battlefield "
                            "can be used")
    st.battlefield = bfs[chosen]
    st.battlefield_owner = chosen
    st.controller = chosen
    ctx.record(rec.BattlefieldChosenRecord(by=winner, battlefield=st.battlefield, controller=chosen,
                                           rules=("destiny.setup.battlefield-roll", "destiny.battlefields.one-used",
                                                  "destiny.battlefields.single-controller")))
    for pid, code in bfs.items():
        if pid != chosen:
            # only one battlefield is used; the others are removed from the game (destiny.battlefields.one-used)
            st.players[pid].removed.append(code)
            ctx.record(rec.BattlefieldUnusedRecord(player=pid, battlefield=code,
                                                   rules=("destiny.battlefields.one-used",)))
    n = 2 if len(st.players) == 2 else 1
    rule = "destiny.setup.battlefield-compensation" if n == 2 else "destiny.multiplayer.battlefield-roll"
    shields = setup.get("shields", {})
    for pid, p in st.players.items():
        if pid == chosen:
            continue
        alive = list(p.characters)
        split = shields.get(pid)
        if split is None:
            if len(alive) == 1:
                split = {alive[0]: n}
            else:
                split = ctx.decide(Decision(by=pid, kind="shields", options=tuple(alive), rules=(rule,),
                                            prompt=f"place {n} shield(s) on your characters", multiple=True,
                                            count=n))
        if not isinstance(split, dict) or any(k not in p.characters for k in split) \
                or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in split.values()) \
                or sum(split.values()) != n:
            raise IllegalAction(rule, f"{pid} places exactly {n} shield(s) on their own characters")
        for ref, k in split.items():
            p.characters[ref].shields = min(3, p.characters[ref].shields + k)
        ctx.record(rec.CompensationRecord(player=pid, shields=split, rules=(rule,)))
    ctx.record(rec.DiceReturnRecord(rules=("destiny.setup.return-dice",)))
