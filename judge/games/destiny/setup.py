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

from i18n import N_, NP_, Msg
from judge.games.destiny import records as rec
from judge.games.destiny.dice import Face, FaceError, parse_face
from judge.games.destiny.engine import HAND_LIMIT, Ctx
from judge.games.destiny.model import CardDef, CardPool, CardType
from judge.games.destiny.refs import CODE, parse_ref
from judge.games.destiny.state import UNKNOWN, Character, Delayed, GameState, Player, Support, Upgrade
from judge.games.inputs import Faults, Inputs, escape, parse_inputs
from judge.games.jsonbounds import at_most, is_int, whole
from judge.kernel.core import Decision, IllegalAction, MissingOutcome
from judge.kernel.rng import Rng
from judge.limits import MAX_COUNTER, MAX_IN_PLAY, MAX_INPUTS, MAX_ROUND, MAX_ZONE_CARDS


def _seat(value: Any, seats: Mapping[str, Any]) -> str | None:
    """``value`` when it names a seat of ``seats`` (a player ID: a string, never an unhashable
    value that could not even be looked up), else None."""
    return value if isinstance(value, str) and value in seats else None


# ====================================================================== from a position
def from_position(pos: Any, players: list[dict[str, Any]], cards: CardPool, path: str = "/setup/position"
                  ) -> tuple[GameState | None, Faults]:
    faults: Faults = []

    def bad(sub: str, msg: str) -> None:
        faults.append((f"{path}{sub}", msg))

    if not isinstance(pos, dict):
        return None, [(path, Msg(N_("a position is a state view object (spec section 5)")))]
    st = GameState()
    rnd = pos.get("round", 1)
    if not is_int(rnd, 1, MAX_ROUND):
        bad("/round", Msg(N_("'round' must be {whole}"), whole=whole("MAX_ROUND", 1)))
    else:
        st.round = rnd
    if "phase" in pos and not isinstance(pos["phase"], str):
        bad("/phase", Msg(N_("'phase' must be a str")))
    st.phase = pos.get("phase", "action") if isinstance(pos.get("phase"), str) else "action"
    if st.phase not in ("action", "upkeep"):
        bad("/phase", Msg(N_("a position starts in the 'action' phase (or 'upkeep' awaiting the log's upkeep step)")))
    ids: list[str] = [p["id"] for p in players if isinstance(p, dict) and isinstance(p.get("id"), str)]
    names = {p.get("id"): p.get("name", "") for p in players if isinstance(p, dict)}
    raw_players = pos.get("players")
    if not isinstance(raw_players, dict) or not raw_players:
        bad("/players", Msg(N_("'players' must map each player ID to that player's state")))
        return None, faults
    for pid in raw_players:
        if pid not in ids:
            bad(f"/players/{escape(pid)}", Msg(N_("'{pid}' is not listed in the log's top-level 'players'"), pid=pid))
    for pid in ids:
        if pid not in raw_players:
            bad("/players", Msg(N_("player '{pid}' has no state in the position"), pid=pid))
    for pid in ids:
        raw = raw_players.get(pid)
        if not isinstance(raw, dict):
            if pid in raw_players:
                bad(f"/players/{escape(pid)}", Msg(N_("a player's state is an object (spec section 5)")))
            continue
        st.players[pid] = _player(pid, names.get(pid, ""), raw, cards, f"{path}/players/{pid}", faults)
    turn = _seat(pos.get("turn"), st.players)
    if st.phase == "action":
        if turn is None:
            bad("/turn", Msg(N_("'turn' must name the player whose turn it is")))
        st.turn = turn
    claimed = pos.get("claimed_by")
    if claimed is not None and _seat(claimed, st.players) is None:
        bad("/claimed_by", Msg(N_("'claimed_by' must be null or a player ID")))
    st.claimed_by = _seat(claimed, st.players)
    bf = pos.get("battlefield")
    if bf is not None:
        if not isinstance(bf, dict) or not isinstance(bf.get("card"), str) or not CODE.match(bf["card"]):
            bad("/battlefield", Msg(N_("'battlefield' must be {\"card\": code, \"controller\": player}")))
        else:
            card = cards.get(bf["card"])
            if card is None:
                bad("/battlefield/card", Msg(N_("card {code} is not known"), code=bf["card"]))
            elif card.type != CardType.BATTLEFIELD:
                bad("/battlefield/card", Msg(N_("{card} is not a battlefield"), card=card.name))
            ctrl = _seat(bf.get("controller"), st.players)
            if ctrl is None:
                bad("/battlefield/controller", Msg(N_("the battlefield's controller must be a player ID")))
            st.battlefield = bf["card"]
            st.controller = ctrl
            owner = bf.get("owner", ctrl)
            if owner is not None and _seat(owner, st.players) is None:
                bad("/battlefield/owner", Msg(N_("the battlefield's owner must be a player ID")))
            st.battlefield_owner = _seat(owner, st.players) or st.controller
    for key in ("winner",):
        if pos.get(key) is not None:
            bad(f"/{key}", Msg(N_("a position is a game still being played")))
    passes = pos.get("passes", 0)
    if not is_int(passes, 0, MAX_COUNTER):
        bad("/passes", Msg(N_("'passes' counts consecutive passes: {whole}"), whole=whole("MAX_COUNTER")))
    else:
        st.passes = passes
    delayed = pos.get("delayed", [])
    if not isinstance(delayed, list):
        bad("/delayed", Msg(N_("'delayed' is a list of delayed effects")))
    elif len(delayed) > MAX_IN_PLAY:
        bad("/delayed",
            Msg(N_("a position has {at_most}"), at_most=at_most("MAX_IN_PLAY", NP_("at most", "delayed effects"))))
    else:
        for i, d in enumerate(delayed):
            if not isinstance(d, dict) or d.get("when") != "round-end" or d.get("kind") != "defeat" \
                    or not isinstance(d.get("target"), str) or not isinstance(d.get("source", ""), str) \
                    or not is_int(d.get("round"), 0, MAX_ROUND):
                bad(f"/delayed/{i}", Msg(N_("a delayed effect is {{\"when\": \"round-end\", \"kind\": \"defeat\", "
                                            "\"target\", \"source\", \"round\"}} (the round {whole})"),
                                         whole=whole("MAX_ROUND")))
                continue
            st.delayed.append(Delayed("round-end", "defeat", d["target"],
                                      d.get("source", ""), d["round"]))
    extra = pos.get("extra_action")
    if extra is not None:
        if _seat(extra, st.players) is None:
            bad("/extra_action", Msg(N_("'extra_action' must be null or a player ID")))
        else:
            st.extra_action = extra
    more = pos.get("extra_more", 0)
    if more != 0:
        if type(more) is not int or not 0 < more <= 9 or st.extra_action is None:
            bad("/extra_more", Msg(N_("'extra_more' is how many more extra actions the player of 'extra_action' "
                                      "has still to take (1-9)")))
        else:
            st.extra_more = more
    return (None if faults else st), faults


def _second_copy(unique: dict[str, str], pid: str, card: CardDef, ref: str) -> Msg | None:
    """Why ``card`` (``ref``) cannot be in play for ``pid`` beside the unique cards already in ``unique``
    (title: ref), or None, ``ref`` then kept there when ``card`` is unique: one copy of a unique card a
    player (destiny.uniqueness.one-copy-in-play, per player: destiny.uniqueness.per-player), the title
    deciding, not the subtitle (destiny.uniqueness.subtitle-irrelevant)."""
    if not card.unique:
        return None
    other = unique.get(card.name)
    if other is None:
        unique[card.name] = ref
        return None
    return Msg(N_("{pid} already has {card} ({ref}): a unique card has one copy in play "
                  "(destiny.uniqueness.one-copy-in-play)"), pid=pid, card=card.name, ref=other)


def _player(pid: str, name: str, raw: dict[str, Any], cards: CardPool, path: str, faults: Faults) -> Player:
    def bad(sub: str, msg: str) -> None:
        faults.append((f"{path}{sub}", msg))

    p = Player(pid, name)
    res = raw.get("resources", 0)
    if not is_int(res, 0, MAX_COUNTER):
        bad("/resources", Msg(N_("'resources' must be {whole}"), whole=whole("MAX_COUNTER")))
    else:
        p.resources = res
    p.hand = _cards(raw.get("hand", []), f"{path}/hand", faults, cards)
    p.deck = deque(_cards(raw.get("deck", []), f"{path}/deck", faults, cards))
    p.discard = _cards(raw.get("discard", []), f"{path}/discard", faults, cards, allow_unknown=False)
    if "passed" in raw and not isinstance(raw["passed"], bool):
        bad("/passed", Msg(N_("'passed' is true or false")))
    p.passed = bool(raw.get("passed", False))
    if "eliminated" in raw and not isinstance(raw["eliminated"], bool):
        bad("/eliminated", Msg(N_("'eliminated' is true or false")))
    elif raw.get("eliminated"):
        p.eliminated = True  # out of the game (destiny.multiplayer.elimination): skipped, not an opponent
    chars = raw.get("characters", {})
    if not isinstance(chars, dict) or not chars:
        bad("/characters", Msg(N_("each player needs at least one character")))
        chars = {}
    elif len(chars) > MAX_IN_PLAY:
        bad("/characters",
            Msg(N_("a player has {at_most}"), at_most=at_most("MAX_IN_PLAY", NP_("at most", "characters"))))
        chars = {}
    unique: dict[str, str] = {}  # a unique card's title: the ref of pid's copy in play
    for ref, c in chars.items():
        sub = f"/characters/{escape(ref)}"
        r = parse_ref(ref)
        if r is None or r.player != pid or r.die is not None:
            bad(sub, Msg(N_("'{ref}' must be a character reference of {pid}, such as {pid}.05031"), ref=ref, pid=pid))
            continue
        card = cards.get(r.code)
        if card is None:
            bad(sub, Msg(N_("card {code} is not known"), code=r.code))
            continue
        if card.type != CardType.CHARACTER:
            bad(sub, Msg(N_("{card} is not a character"), card=card.name))
            continue
        if not isinstance(c, dict):
            bad(sub, Msg(N_("a character's state is an object")))
            continue
        canon = f"{pid}.{r.code}" + (f"#{r.serial}" if r.serial and r.serial > 1 else "")
        if card.unique:
            # destiny.uniqueness.one-copy-in-play, destiny.uniqueness.subtitle-irrelevant: one character
            # of a unique title a player (destiny.deckbuilding.unique-characters: one in the team)
            twice = _second_copy(unique, pid, card, canon)
            if twice is not None:
                bad(sub, twice)
                continue
        dice = c.get("dice", 1)
        if not is_int(dice, 1, 2):  # 2.0 is no number of dice
            bad(f"{sub}/dice", Msg(N_("a character has 1 or 2 dice (destiny.characters.point-value)")))
            dice = 1
        elif dice == 2 and not card.unique:
            bad(f"{sub}/dice", Msg(N_("{card} is not unique: it has one die (destiny.characters.non-unique-one-die)"),
                                   card=card.name))
            dice = 1
        ch = Character(canon, r.code, dice)
        for key in ("damage", "shields"):
            v = c.get(key, 0)
            if not is_int(v, 0, MAX_COUNTER):
                bad(f"{sub}/{key}", Msg(N_("'{key}' must be {whole}"), key=key, whole=whole("MAX_COUNTER")))
            else:
                setattr(ch, key, v)
        if ch.shields > 3:
            bad(f"{sub}/shields", Msg(N_("a character never has more than 3 shields (destiny.shields.max-three)")))
        for key in ("defeated", "exhausted"):
            if key in c and not isinstance(c[key], bool):
                bad(f"{sub}/{key}", Msg(N_("'{key}' is true or false"), key=key))
            setattr(ch, key, bool(c.get(key, False)))
        if not ch.defeated and card.health and ch.damage >= card.health:
            bad(f"{sub}/damage",
                Msg(N_("{card} has {health} health: with {damage} damage it is defeated"), card=card.name,
                                     health=card.health, damage=ch.damage))
        ups = c.get("upgrades", [])
        if not isinstance(ups, list):
            bad(f"{sub}/upgrades", Msg(N_("'upgrades' is a list of upgrade references")))
            ups = []
        elif len(ups) > MAX_IN_PLAY:
            bad(f"{sub}/upgrades", Msg(N_("a character has {at_most} in a log (and at most 3 by the rules: "
                                          "destiny.upgrades.max-three)"),
                                       at_most=at_most("MAX_IN_PLAY", NP_("at most", "upgrades"))))
            ups = []
        elif ups and ch.defeated:  # (the engine discards them with the defeat: no table has them)
            bad(f"{sub}/upgrades", Msg(N_("{card} is defeated: its upgrades were discarded with it "
                                          "(destiny.defeat.cleanup)"), card=card.name))
            ups = []
        for i, u in enumerate(ups):
            ur = parse_ref(u)
            ucard = cards.get(ur.code) if ur else None
            if ur is None or ur.player != pid or ur.die is not None:
                bad(f"{sub}/upgrades/{i}",
                    Msg(N_("'{ref}' must be an upgrade reference of {pid}, such as {pid}.05058#1"),
                                              ref=u, pid=pid))
                continue
            if ucard is None:
                bad(f"{sub}/upgrades/{i}", Msg(N_("card {code} is not known"), code=ur.code))
                continue
            if ucard.type != CardType.UPGRADE:
                bad(f"{sub}/upgrades/{i}", Msg(N_("{card} is not an upgrade"), card=ucard.name))
                continue
            serial = ur.serial or 1
            uref = f"{pid}.{ur.code}#{serial}"
            if uref in p.upgrades:
                bad(f"{sub}/upgrades/{i}", Msg(N_("{ref} is attached twice"), ref=uref))
                continue
            twice = _second_copy(unique, pid, ucard, uref)
            if twice is not None:
                bad(f"{sub}/upgrades/{i}", twice)
                continue
            p.upgrades[uref] = Upgrade(uref, ur.code, canon)
            p.serials[ur.code] = max(p.serials.get(ur.code, 0), serial)
            ch.upgrades.append(uref)
        if len(ch.upgrades) > 3:
            bad(f"{sub}/upgrades", Msg(N_("a character has at most 3 upgrades (destiny.upgrades.max-three)")))
        p.characters[canon] = ch
    up_state = raw.get("upgrades", {})
    if isinstance(up_state, dict) and len(up_state) > MAX_IN_PLAY:
        bad("/upgrades", Msg(N_("a player has {at_most}"), at_most=at_most("MAX_IN_PLAY", NP_("at most", "upgrades"))))
    elif isinstance(up_state, dict):
        for ref, u in up_state.items():
            ur = parse_ref(ref)
            key = f"{pid}.{ur.code}#{ur.serial or 1}" if ur else ref
            if key not in p.upgrades:
                bad(f"/upgrades/{escape(ref)}", Msg(N_("{ref} is not attached to any of {pid}'s characters"), ref=ref,
                                                   pid=pid))
            elif isinstance(u, dict):
                p.upgrades[key].exhausted = bool(u.get("exhausted", False))
    sups = raw.get("supports", {})
    if not isinstance(sups, dict):
        bad("/supports", Msg(N_("'supports' maps support references to their state")))
        sups = {}
    elif len(sups) > MAX_IN_PLAY:
        bad("/supports", Msg(N_("a player has {at_most}"), at_most=at_most("MAX_IN_PLAY", NP_("at most", "supports"))))
        sups = {}
    for ref, s in sups.items():
        sr = parse_ref(ref)
        scard = cards.get(sr.code) if sr else None
        if sr is None or sr.player != pid:
            bad(f"/supports/{escape(ref)}", Msg(N_("'{ref}' must be a support reference of {pid}"), ref=ref, pid=pid))
            continue
        if scard is None or scard.type != CardType.SUPPORT:
            bad(f"/supports/{escape(ref)}", Msg(N_("{code} is not a known support"), code=sr.code))
            continue
        sref = f"{pid}.{sr.code}#{sr.serial or 1}"
        twice = _second_copy(unique, pid, scard, sref)
        if twice is not None:
            bad(f"/supports/{escape(ref)}", twice)
            continue
        p.supports[sref] = Support(sref, sr.code, bool(isinstance(s, dict) and
                                                                          s.get("exhausted", False)),
                                   1 if scard.has_die else 0)
        p.serials[sr.code] = max(p.serials.get(sr.code, 0), sr.serial or 1)
    pool = raw.get("pool", {})
    if not isinstance(pool, dict):
        bad("/pool", Msg(N_("'pool' maps die references to the face they show")))
        pool = {}
    elif len(pool) > MAX_IN_PLAY:
        bad("/pool", Msg(N_("a player's pool has {at_most}"), at_most=at_most("MAX_IN_PLAY", NP_("at most", "dice"))))
        pool = {}
    for die, face in pool.items():
        sub = f"/pool/{escape(die)}"
        dr = parse_ref(die)
        if dr is None or dr.die is None or dr.player != pid:
            bad(sub, Msg(N_("'{die}' must be a die reference of {pid}, such as {pid}.05031/1"), die=die, pid=pid))
            continue
        card_ref = f"{pid}.{dr.code}" + (f"#{dr.serial}" if dr.serial else "")
        owner_card = _die_card(p, card_ref, dr.code)
        if owner_card is None:
            bad(sub, Msg(N_("no card of {pid} in play carries die {die}"), pid=pid, die=die))
            continue
        ccard = cards.get(dr.code)
        try:
            f = parse_face(face)
        except FaceError as exc:
            bad(sub, str(exc))
            continue
        if ccard is not None and f not in ccard.faces:
            bad(sub, Msg(N_("{card}'s die has no face {face}"), card=ccard.name, face=face))
            continue
        if isinstance(owner_card, Character) and owner_card.defeated:
            bad(sub, Msg(N_("{ref} is defeated: its dice were removed from the game (destiny.defeat.cleanup)"),
                         ref=owner_card.ref))
            continue
        if isinstance(owner_card, Character) and dr.die > owner_card.dice:
            bad(sub, Msg(N_("{ref} has {n} dice"), ref=owner_card.ref, n=owner_card.dice))
            continue
        if not isinstance(owner_card, Character) and ccard is not None and dr.die > (1 if ccard.has_die else 0):
            # an upgrade or support has its one die, if its card has a die (destiny.upgrades.dice,
            # destiny.supports.dice)
            bad(sub, Msg(N_("{ref} has {n} dice"), ref=owner_card.ref, n=1 if ccard.has_die else 0))
            continue
        canon_die = f"{owner_card.ref}/{dr.die}"
        p.pool[canon_die] = f
    used = raw.get("power_used", [])
    if isinstance(used, list) and len(used) > MAX_IN_PLAY:
        bad("/power_used", at_most("MAX_IN_PLAY", NP_("at most", "powers used")))
    elif isinstance(used, list):
        p.power_used = [u for u in used if isinstance(u, str)]
    serials = raw.get("serials", {})
    if not isinstance(serials, dict) or len(serials) > MAX_ZONE_CARDS \
            or not all(is_int(v, 0, MAX_COUNTER) for v in serials.values()):
        bad("/serials", Msg(N_("'serials' maps card codes to how many copies have entered play ({whole}; "
                               "{at_most})"), whole=whole("MAX_COUNTER"),
                            at_most=at_most("MAX_ZONE_CARDS", NP_("at most", "codes"))))
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
    """A zone's cards (a list of codes, or ``{"unknown": n}``), checked against ``MAX_ZONE_CARDS``
    before anything is built for them."""
    if isinstance(raw, dict) and allow_unknown:
        n = raw.get("unknown")
        if len(raw) != 1 or type(n) is not int or n < 0:
            faults.append((path, Msg(N_("a list of card codes, or {\"unknown\": n} (n a whole number)"))))
            return []
        if n > MAX_ZONE_CARDS:
            faults.append((f"{path}/unknown",
                           Msg(N_("a zone holds {at_most}, unknown cards included; this one has {n}"),
                               at_most=at_most("MAX_ZONE_CARDS", NP_("at most", "cards")), n=n)))
            return []
        return [UNKNOWN] * n
    if not isinstance(raw, list):
        faults.append((path, Msg(N_("a list of card codes, or {\"unknown\": n}")) if allow_unknown
                       else Msg(N_("a list of card codes"))))
        return []
    if len(raw) > MAX_ZONE_CARDS:
        faults.append((path, Msg(N_("a zone holds {at_most}; this one has {n}"),
                                 at_most=at_most("MAX_ZONE_CARDS", NP_("at most", "cards")), n=len(raw))))
        return []
    out = []
    for i, code in enumerate(raw):
        if code == UNKNOWN and allow_unknown:
            out.append(code)
        elif not isinstance(code, str) or not CODE.match(code):
            faults.append((f"{path}/{i}", Msg(N_("{code} is not a card code"), code=repr(code))))
        elif code not in cards:
            faults.append((f"{path}/{i}", Msg(N_("card {code} is not known"), code=code)))
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
            faults.append((f"{path}/characters", Msg(N_("a list of {\"card\": code, \"dice\": 1 or 2}"))))
        elif len(chars) > MAX_IN_PLAY:
            faults.append((f"{path}/characters", Msg(N_("a player has {at_most}"),
                                                    at_most=at_most("MAX_IN_PLAY", NP_("at most", "characters")))))
        else:
            for k, c in enumerate(chars):
                if not isinstance(c, dict) or not isinstance(c.get("card"), str):
                    faults.append((f"{path}/characters/{k}", Msg(N_("{\"card\": code, \"dice\": 1 or 2}"))))
                    continue
                card = cards.get(c["card"])
                if card is None:
                    faults.append((f"{path}/characters/{k}/card", Msg(N_("card {code} is not known"), code=c["card"])))
                elif card.type != CardType.CHARACTER:
                    faults.append((f"{path}/characters/{k}/card", Msg(N_("{card} is not a character"), card=card.name)))
                if not is_int(c.get("dice", 1), 1, 2):
                    faults.append((f"{path}/characters/{k}/dice", Msg(N_("1 or 2 (destiny.characters.point-value)"))))
        bf = p.get("battlefield")
        if not isinstance(bf, str) or bf not in cards or cards.cards[bf].type != CardType.BATTLEFIELD:
            faults.append((f"{path}/battlefield", Msg(N_("the code of a known battlefield"))))
        deck = p.get("deck")
        if not isinstance(deck, list):
            faults.append((f"{path}/deck", Msg(N_("a list of card codes"))))
        elif len(deck) > MAX_ZONE_CARDS:
            faults.append((f"{path}/deck",
                           Msg(N_("a deck holds {at_most}"),
                               at_most=at_most("MAX_ZONE_CARDS", NP_("at most", "cards")))))
        else:
            known = cards.cards  # (asked directly: a deck is read a card at a time)
            for k, code in enumerate(deck):
                if not isinstance(code, str) or code not in known:
                    faults.append((f"{path}/deck/{k}", Msg(N_("{code} is not a known card code"), code=repr(code))))
    return faults


def check_beginning(setup: Mapping[str, Any], players: Sequence[str], faults: Faults) -> None:
    """The JSON shape of the outcomes of setup (see the module's docstring), faults appended under
    ``/setup``: every map is keyed by a player of the log, every list bounded, before anything is
    looked up or built from them. Whether the outcomes are those the rules allow (a deck order
    with exactly that deck's cards, a mulligan of cards in hand, a battlefield roll of faces the
    dice have) is for the setup itself to say (destiny.setup.order), as an illegal action."""

    def per_player(key: str) -> dict[str, Any]:
        raw = setup.get(key)
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            faults.append((f"/setup/{key}", Msg(N_("'{key}' maps player IDs to their {what}"), key=key,
                                                   what=Msg(_SETUP_KEYS[key]))))
            return {}
        out = {}
        for pid, value in raw.items():
            if pid not in players:
                faults.append((f"/setup/{key}/{escape(pid)}", Msg(N_("'{pid}' is not a player of this log"), pid=pid)))
            else:
                out[pid] = value
        return out

    for key in ("decks", "mulligan", "mulligan_decks"):
        for pid, codes in per_player(key).items():
            at = f"/setup/{key}/{escape(pid)}"
            if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                faults.append((at, Msg(N_("a list of card codes"))))
            elif len(codes) > MAX_ZONE_CARDS:
                faults.append((at,
                               Msg(N_("a deck holds {at_most}"),
                                   at_most=at_most("MAX_ZONE_CARDS", NP_("at most", "cards")))))
    for pid, split in per_player("shields").items():
        at = f"/setup/shields/{escape(pid)}"
        if not isinstance(split, dict) or len(split) > MAX_IN_PLAY \
                or not all(is_int(v, -MAX_COUNTER, MAX_COUNTER) for v in split.values()):
            faults.append((at, Msg(N_("a map of that player's characters to the shields placed on them (whole numbers "
                                      "of at most {n}: limit MAX_COUNTER; {at_most})"), n=MAX_COUNTER,
                                   at_most=at_most("MAX_IN_PLAY", NP_("at most", "characters")))))
    rolls = setup.get("battlefield_roll")
    if rolls is not None:
        if not isinstance(rolls, list):
            faults.append(("/setup/battlefield_roll", Msg(N_("'battlefield_roll' is a list of rolls, one per try"))))
        elif len(rolls) > MAX_INPUTS:
            faults.append(("/setup/battlefield_roll", at_most("MAX_INPUTS", NP_("at most", "tries"))))
        else:
            for i, roll in enumerate(rolls):
                at = f"/setup/battlefield_roll/{i}"
                if not isinstance(roll, dict):
                    faults.append((at,
                                   Msg(N_("a roll maps each player to the faces of their character dice, in order"))))
                    continue
                for pid, faces in roll.items():
                    if pid not in players:
                        faults.append((f"{at}/{escape(pid)}", Msg(N_("'{pid}' is not a player of this log"), pid=pid)))
                    elif not isinstance(faces, list) or len(faces) > MAX_IN_PLAY \
                            or not all(isinstance(f, str) for f in faces):
                        faults.append((f"{at}/{escape(pid)}",
                                       Msg(N_("a list of die faces such as \"2RD\" ({at_most})"),
                                           at_most=at_most("MAX_IN_PLAY", NP_("at most", "dice")))))
    chosen = setup.get("battlefield")
    if chosen is not None and not isinstance(chosen, str):
        faults.append(("/setup/battlefield", Msg(N_("'battlefield' names the player whose battlefield is used"))))


# what the per-player outcomes of setup hold
_SETUP_KEYS = {"decks": N_("deck orders"), "mulligan": N_("cards shuffled back"), "mulligan_decks": N_("deck orders"),
               "shields": N_("shields placed")}


def setup_inputs(setup: Mapping[str, Any], players: Sequence[str], faults: Faults) -> Inputs:
    """The choices logged for setup (``setup.choices``), faults appended under ``/setup``."""
    return parse_inputs({"choices": setup["choices"]} if "choices" in setup else {}, "/setup", players, faults)


def from_beginning(players: list[dict[str, Any]], setup: dict[str, Any], cards: CardPool, rng: Rng | None,
                   policy: Any = None) -> tuple[GameState, Ctx]:
    """Carry out setup (destiny.setup.order). Raises PendingDecision / MissingOutcome / IllegalAction."""
    st = GameState(phase="setup")
    for entry in players:
        pid = entry["id"]
        p = Player(pid, entry.get("name", ""))
        seen: dict[str, int] = {}
        for c in entry["characters"]:
            code = c["card"]
            seen[code] = seen.get(code, 0) + 1
            ref = f"{pid}.{code}" + (f"#{seen[code]}" if seen[code] > 1 else "")
            p.characters[ref] = Character(ref, code, c.get("dice", 1))
        p.deck = deque(entry.get("deck", []))
        st.players[pid] = p
    ctx = Ctx(st, cards, None, setup_inputs(setup, [e["id"] for e in players], []), rng, policy)
    ctx.record(rec.SetupRecord(("destiny.setup.order", "destiny.setup.characters",
                                      "destiny.setup.battlefields", "destiny.zones.set-aside-dice")))
    decks = setup.get("decks") or {}  # null: not given (check_beginning read the shape)
    for pid, p in st.players.items():
        p.deck = deque(_ordered(p.deck, decks.get(pid), rng, f"{pid}'s deck order after shuffling",
                                "destiny.setup.opening-hand"))
        ctx.draw("setup", pid, HAND_LIMIT)
    mull = setup.get("mulligan") or {}
    mdecks = setup.get("mulligan_decks") or {}
    for pid, p in st.players.items():
        back = mull.get(pid, [])
        if not back:
            continue
        for code in back:
            if code not in p.hand:
                raise IllegalAction("destiny.setup.mulligan", Msg(
                    N_("{pid} cannot shuffle back {code}: not in hand"),
                    pid=pid, code=code,
                ))
            p.hand.remove(code)
            p.deck.append(code)
        p.deck = deque(_ordered(p.deck, mdecks.get(pid), rng, f"{pid}'s deck order after the mulligan",
                                "destiny.setup.mulligan"))
        ctx.record(rec.MulliganRecord(pid, len(back), ("destiny.setup.mulligan",)))
        ctx.draw("setup", pid, len(back))
    for p in st.players.values():
        p.resources = 2
    ctx.record(rec.ResourcesRecord(2, ("destiny.setup.resources",)))
    _battlefield_roll(ctx, players, setup, rng)
    st.phase = "action"
    st.round = 1
    st.turn = st.controller
    ctx.record(rec.RoundBeginsRecord(1, st.turn,
                                     ("destiny.battlefields.first-action", "destiny.round.action-phase")))
    return st, ctx


def _ordered(cards_: Sequence[str], given: Any, rng: Rng | None, what: str, rule: str) -> list[str]:
    if given is not None:
        if not isinstance(given, list) or sorted(given) != sorted(cards_):
            raise IllegalAction(rule, Msg(N_("{what} must list exactly the cards of that deck"), what=what))
        return list(given)
    if rng is None:
        raise MissingOutcome(Msg(N_("the log does not give {what} and has no rng"), what=what), rule)
    out = list(cards_)
    rng.shuffle(out)
    return out


def _battlefield_roll(ctx: Ctx, players: list[dict[str, Any]], setup: dict[str, Any], rng: Rng | None) -> None:
    st = ctx.state
    rolls = setup.get("battlefield_roll") or []
    contenders = st.seats()
    tries = 0
    winner: str | None = None
    while winner is None:
        if tries > 50:
            raise IllegalAction("destiny.setup.battlefield-roll", Msg(N_("the battlefield roll never broke the tie")))
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
                    raise IllegalAction("destiny.setup.battlefield-roll", Msg(
                        N_("battlefield roll {n} must give {pid}'s {n_dice} character dice"),
                        n=tries + 1, pid=pid, n_dice=len(dice),
                    ))
                for d, r in zip(dice, raw, strict=True):
                    try:
                        f = parse_face(r)
                    except FaceError as exc:
                        raise IllegalAction("destiny.cards.die-faces", Msg(N_("{d}: {exc}"), d=d, exc=exc)) from None
                    if f not in ctx.die_faces(d):
                        raise IllegalAction("destiny.cards.die-faces", Msg(N_("{d} has no face {r}"), d=d, r=r))
                    faces.append(f)
            elif rng is not None:
                faces = [ctx.die_faces(d)[rng.below(6)] for d in dice]
            else:
                raise MissingOutcome(Msg(N_("the log does not give the battlefield roll and has no rng")),
                                     "destiny.setup.battlefield-roll")
            totals[pid] = sum(ctx.die_value(d, f) for d, f in zip(dice, faces, strict=True))
            shown[pid] = [f.notation() for f in faces]
        tries += 1
        best = max(totals.values())
        top = [pid for pid in contenders if totals[pid] == best]
        ctx.record(rec.BattlefieldRollRecord(tries, shown, totals, (
            ("destiny.setup.battlefield-roll", "destiny.multiplayer.battlefield-roll") if len(st.players) > 2
            else ("destiny.setup.battlefield-roll",))))
        if len(top) == 1:
            winner = top[0]
        elif len(st.players) > 2:
            contenders = top  # only the tied players roll again
    bfs = {e["id"]: e["battlefield"] for e in players}
    chosen = setup.get("battlefield")
    if chosen is None:
        chosen = ctx.decide(Decision(winner, "battlefield", tuple(bfs),
                                     ("destiny.setup.battlefield-roll",),
                                     Msg(N_("whose battlefield is used"))))
    elif chosen not in bfs:
        raise IllegalAction("destiny.setup.battlefield-roll", Msg(
            N_("'{chosen}' is not a player whose battlefield can be used"),
            chosen=chosen,
        ))
    st.battlefield = bfs[chosen]
    st.battlefield_owner = chosen
    st.controller = chosen
    ctx.record(rec.BattlefieldChosenRecord(winner, st.battlefield, chosen,
                                           ("destiny.setup.battlefield-roll", "destiny.battlefields.one-used",
                                                  "destiny.battlefields.single-controller")))
    for pid, code in bfs.items():
        if pid != chosen:
            # only one battlefield is used; the others are removed from the game (destiny.battlefields.one-used)
            st.players[pid].removed.append(code)
            ctx.record(rec.BattlefieldUnusedRecord(pid, code,
                                                   ("destiny.battlefields.one-used",)))
    n = 2 if len(st.players) == 2 else 1
    rule = "destiny.setup.battlefield-compensation" if n == 2 else "destiny.multiplayer.battlefield-roll"
    shields = setup.get("shields") or {}
    for pid, p in st.players.items():
        if pid == chosen:
            continue
        alive = list(p.characters)
        split = shields.get(pid)
        if split is None:
            if len(alive) == 1:
                split = {alive[0]: n}
            else:
                split = ctx.decide(Decision(pid, "shields", tuple(alive), (rule,),
                                            Msg(
                                                N_("place {n} shield(s) on your characters"),
                                                n=n,
                                            ), multiple=True,
                                            count=n))
        if not isinstance(split, dict) or any(k not in p.characters for k in split) \
                or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in split.values()) \
                or sum(split.values()) != n:
            raise IllegalAction(rule, Msg(
                N_("{pid} places exactly {n} shield(s) on their own characters"),
                pid=pid, n=n,
            ))
        for ref, k in split.items():
            p.characters[ref].shields = min(3, p.characters[ref].shields + k)
        ctx.record(rec.CompensationRecord(pid, split, (rule,)))
    ctx.record(rec.DiceReturnRecord(("destiny.setup.return-dice",)))
