"""Destiny's part of self-play: a new log between two starter decks, and the seeded policies that
answer every decision the rules give a player (replays.selfplay plays the games).

- ``RandomPolicy`` answers every decision with a drawn option, and lets self-play try the legal
  steps in a drawn order. It is the ``Game``'s own ``policy``: the golden corpus's self-play games
  and the hash ledger were played with it, so what it draws never changes.
- ``HeuristicPolicy`` plays as a person would (``arbiter selfplay``'s default): it ranks the legal
  steps (``order``) by what they do to the table, looking ahead by applying a step to a copy of
  the state (``Game.apply``, through the ``lookahead`` self-play gives it: never the game's own
  dice), and answers decisions for its own good (damage on the opponent's characters, shields and
  healing on its own). Seeded: its generator only decides when to reroll.

Its ranking, in short: play an upgrade on a ready character before activating it; activate
characters (and supports with dice); resolve dice for what they do (damage where it defeats a
character, else on the most damaged one; shields, resources, disrupt, discard); play events and
use abilities that change the table for the better; reroll blank dice now and then when the deck
can spare the card; claim the battlefield once nothing better is left; pass. It never plays or
discards the last card of an empty deck (which would lose by deck-out at the round's end).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import isqrt
from typing import Any

from judge.games.destiny import steps as st_
from judge.games.destiny.dice import Face
from judge.games.destiny.model import CardPool
from judge.games.destiny.refs import parse_ref
from judge.games.destiny.state import GameState, Player
from judge.kernel.core import Decision
from judge.kernel.rng import ALGORITHM, Rng

# the names ``replays.selfplay`` knows the policies by (the first is ``arbiter selfplay``'s default)
POLICIES = ("heuristic", "random")


class RandomPolicy:
    """Answers every decision with a uniformly drawn legal-looking option."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def __call__(self, ctx: Any, d: Decision) -> Any:
        r = self.rng
        opts = list(d.options)
        if d.kind == "order":
            r.shuffle(opts)
            return opts
        if d.kind == "may":
            return r.below(2) == 0
        if d.kind in ("split", "shields"):
            n = d.count or 0
            out: dict[str, int] = {}
            for _ in range(n):
                k = r.choice(opts)
                out[k] = out.get(k, 0) + 1
            return out
        if d.kind == "turn":
            return {}
        return r.choice(opts) if opts else None

    # The game's other self-play policies, by name (``POLICIES``): the ``Game`` hands out this
    # policy (``Game.policy``), and self-play asks it for another one by name.
    policies = POLICIES

    def named(self, name: str) -> Any:
        """The policy called ``name``, drawing from this one's generator."""
        if name == "random":
            return self
        if name == "heuristic":
            return HeuristicPolicy(self.rng)
        raise KeyError(name)


# ----------------------------------------------------------------------------- the heuristic
# What the heuristic values on the table, per player (its own counts, an opponent's against it),
# in hundredths of a point of health: integers only, so that every platform ranks alike.
HEALTH = 100  # a point of health left on a character standing
STANDING = 300  # a character not defeated
DIE = 150  # a die a character, an upgrade or a support brings
SHIELD = 70
RESOURCE = 40
CARD = 25  # a card in hand
UPGRADE = 120
SUPPORT = 150
CONTROL = 50  # controlling the battlefield
DECKED = 2_000  # no card in hand nor deck: the round's end loses the game (destiny.victory.deck-out)
WIN = 1_000_000
# a die showing a face in the pool, per point of its value
POOL = {"MD": 40, "RD": 40, "ID": 35, "Sh": 30, "R": 25, "Dr": 20, "Dc": 15, "F": 15, "Sp": 20}
# the steps that look ahead; an activation or a reroll would peek at dice not yet rolled
LOOKED_AHEAD = (st_.Resolve, st_.Play, st_.Use, st_.Claim)
READY_HOST = 300  # an upgrade played on a character not yet activated rolls with it this round
ACTIVATE = 250  # an activation, plus per die it rolls:
ROLLED_DIE = 100
REROLL = 90  # per blank die rerolled
CLAIM = 10  # claiming when nothing better is left, plus a quarter of what its ability does

# (the action, the state after it and what applying it recorded) or None when it breaks a rule
Lookahead = Callable[[st_.DestinyAction], "tuple[GameState, Any] | None"]

_HOSTILE = ("damage", "defeat", "exhaust", "remove", "discard", "deal", "blank", "opponent", "target of that die",
            "its target")
_FRIENDLY = ("heal", "shield", "move", "on which", "activate", "ready", "give")


def _code(ref: str) -> str:
    parsed = parse_ref(ref)
    return parsed.code if parsed is not None else ref


def _owner(ref: str) -> str | None:
    parsed = parse_ref(ref)
    return parsed.player if parsed is not None else None


def _curve(left: int) -> int:
    """A small bonus that grows slower than health left: a point of damage is worth more on a
    character near defeat (the heuristic focuses its damage)."""
    return 6 * isqrt(100 * max(left, 0))


def _face_worth(face: Face) -> int:
    if face.is_blank:
        return 0
    value = face.value if face.value is not None else 1
    return POOL.get(face.symbol, 10) * max(value, 1)


class HeuristicPolicy:
    """A seeded player that plays cards with an effect, activates its characters, resolves damage
    on the opponent's characters, takes shields and resources, rerolls bad dice now and then,
    claims when nothing better is left and passes at the end (see the module's docstring)."""

    def __init__(self, rng: Rng):
        self.rng = rng
        self._rerolled: set[tuple[str, int]] = set()  # (player, round): one reroll a round at most

    # -- valuing a table --------------------------------------------------------------------
    def value(self, state: GameState, me: str, cards: CardPool) -> int:
        """How good ``state`` is for ``me`` (its counts less the opponents')."""
        if state.winner is not None:
            return WIN if state.winner == me else -WIN
        total = 0
        for pid, p in state.players.items():
            worth = self._player_worth(p, cards) + (CONTROL if state.controller == pid else 0)
            total += worth if pid == me else -worth
        return total

    def _player_worth(self, p: Player, cards: CardPool) -> int:
        if p.eliminated:
            return 0
        worth = RESOURCE * p.resources + CARD * len(p.hand)
        if not p.hand and not p.deck:
            worth -= DECKED
        for ch in p.characters.values():
            if ch.defeated:
                continue
            card = cards.get(ch.code)
            left = max((card.health or 0) if card is not None else 0, 0) - ch.damage
            worth += STANDING + DIE * ch.dice + HEALTH * left + _curve(left) + SHIELD * ch.shields
        for up in p.upgrades.values():
            card = cards.get(up.code)
            worth += UPGRADE + (DIE if card is not None and card.has_die else 0)
        for su in p.supports.values():
            worth += SUPPORT + DIE * su.dice
        worth += sum(_face_worth(face) for face in p.pool.values())
        return worth

    # -- ranking the steps ------------------------------------------------------------------
    def order(self, game: Any, state: GameState, legal: Sequence[st_.DestinyAction], cards: CardPool,
              lookahead: Lookahead) -> list[st_.DestinyAction]:
        """The legal steps worth taking, best first, then passing (always last)."""
        me = game.actor(state)
        if me is None:
            return list(legal)
        before = self.value(state, me, cards)
        p = state.players[me]
        reroll = self._reroll(state, me, legal, cards)
        ranked: list[tuple[int, int, st_.DestinyAction]] = []
        passes: list[st_.DestinyAction] = []
        for i, action in enumerate(legal):
            if isinstance(action, st_.Pass):
                passes.append(action)
                continue
            score: int | None = None
            if isinstance(action, st_.Activate):
                score = ACTIVATE + ROLLED_DIE * self._dice_rolled(p, action.card, cards)
            elif isinstance(action, st_.Reroll):
                score = reroll.get(action)
            elif isinstance(action, st_.Play) and self._cost(action.card, cards) > p.resources:
                score = None  # not affordable (a cost reduced by an ability is missed: a cheap look)
            elif isinstance(action, LOOKED_AHEAD):
                tried = lookahead(action)
                if tried is not None:
                    gain = self.value(tried[0], me, cards) - before
                    if isinstance(action, st_.Claim):
                        score = CLAIM + max(gain, 0) // 4
                    elif isinstance(action, st_.Play) and action.on is not None:
                        host = p.characters.get(action.on)
                        score = gain + (READY_HOST if host is not None and not host.exhausted else 0)
                    else:
                        score = gain
            if score is not None and score > 0:
                ranked.append((-score, i, action))
        ranked.sort(key=lambda t: (t[0], t[1]))
        return [a for _, _, a in ranked] + passes

    @staticmethod
    def _dice_rolled(p: Player, ref: str, cards: CardPool) -> int:
        ch = p.characters.get(ref)
        if ch is None:
            su = p.supports.get(ref)
            return su.dice if su is not None else 0
        extra = 0
        for up in ch.upgrades:
            u = p.upgrades.get(up)
            card = cards.get(u.code) if u is not None else None
            extra += 1 if card is not None and card.has_die else 0
        return ch.dice + extra

    def _reroll(self, state: GameState, me: str, legal: Sequence[st_.DestinyAction], cards: CardPool,
                ) -> dict[st_.DestinyAction, int]:
        """Now and then (one time in two, once a round), the reroll of exactly the blank dice of
        one's pool, discarding the cheapest card in hand, when the deck can spare it."""
        p = state.players[me]
        blanks = tuple(die for die, face in p.pool.items() if face.is_blank)
        if not blanks or (me, state.round) in self._rerolled or len(p.deck) < 2 or len(p.hand) < 2:
            return {}
        offers = [a for a in legal if isinstance(a, st_.Reroll) and set(a.dice) == set(blanks)]
        if not offers or self.rng.below(2):
            return {}
        cheapest = min(offers, key=lambda a: (self._cost(a.discard, cards), a.discard))
        self._rerolled.add((me, state.round))
        return {cheapest: REROLL * len(blanks)}

    @staticmethod
    def _cost(code: str, cards: CardPool) -> int:
        card = cards.get(code)
        return card.cost if card is not None and card.cost is not None else 0

    # -- answering decisions ----------------------------------------------------------------
    def __call__(self, ctx: Any, d: Decision) -> Any:
        state: GameState = ctx.state
        cards: CardPool = ctx.cards
        opts = list(d.options)
        kind = d.kind
        if kind == "order":
            return opts
        if kind == "may":
            p = state.players.get(d.by)
            # a "may" that costs a card is declined when that card is the last one left
            return not ("discard" in d.prompt and p is not None and len(p.hand) <= 1 and not p.deck)
        if kind == "battlefield":
            return d.by if d.by in opts else opts[0]
        if kind in ("shields", "split"):
            return self._spread(state, d, cards)
        if kind == "turn":
            return self._focus(state, d, cards)
        if kind == "dice":
            return opts[: d.count] if d.count else opts
        if not opts:
            return None
        if kind == "target":
            return self._target(state, d, cards)
        if kind == "die":
            return self._die(state, d)
        if kind in ("discard", "discard-upgrade") or (kind == "card" and "discard" in d.prompt):
            return min(opts, key=lambda o: (self._cost(_code(str(o)), cards), str(o)))
        if kind == "card":
            return max(opts, key=lambda o: (self._cost(str(o), cards), str(o)))
        return opts[0]

    def _left(self, state: GameState, ref: str, cards: CardPool) -> int:
        owner = _owner(ref)
        ch = state.players[owner].characters.get(ref) if owner in state.players else None
        card = cards.get(_code(ref))
        if ch is None or card is None:
            return 0
        return (card.health or 0) - ch.damage

    def _spread(self, state: GameState, d: Decision, cards: CardPool) -> dict[str, int]:
        """Shields placed (or indirect damage taken), one at a time, on the character with the
        fewest shields and the most health left (the most health left, for damage)."""
        p = state.players[d.by]
        shields = {ref: p.characters[ref].shields if ref in p.characters else 0 for ref in d.options}
        left = {ref: self._left(state, ref, cards) for ref in d.options}
        out: dict[str, int] = {}
        for _ in range(d.count or 0):
            if d.kind == "shields":
                ref = min(d.options, key=lambda r: (shields[r], -left[r]))
                shields[ref] += 1
            else:
                ref = max(d.options, key=lambda r: left[r])
                left[ref] -= 1
            out[ref] = out.get(ref, 0) + 1
        return out

    def _focus(self, state: GameState, d: Decision, cards: CardPool) -> dict[str, str]:
        """Turn one's dice (up to ``count``) showing the least to the best face they have."""
        p = state.players.get(d.by)
        if p is None:
            return {}
        gains: list[tuple[int, str, str]] = []
        for die in d.options:
            face = p.pool.get(die)
            holder = parse_ref(die)
            card = cards.get(holder.code) if holder is not None else None
            if face is None or card is None or not card.faces or face.modifier:
                continue
            best = max((f for f in card.faces if not f.modifier and f.cost == 0), key=_face_worth, default=None)
            if best is not None and _face_worth(best) > _face_worth(face):
                gains.append((_face_worth(best) - _face_worth(face), die, best.notation()))
        gains.sort(key=lambda g: (-g[0], g[1]))
        return {die: face for _, die, face in gains[: d.count or 0]}

    def _target(self, state: GameState, d: Decision, cards: CardPool) -> Any:
        mine = [o for o in d.options if isinstance(o, str) and _owner(o) == d.by]
        theirs = [o for o in d.options if isinstance(o, str) and _owner(o) not in (None, d.by)]
        prompt = d.prompt.lower()
        hostile = any(w in prompt for w in _HOSTILE) and not ("shield" in prompt and "remove" not in prompt)
        friendly = not hostile and any(w in prompt for w in _FRIENDLY)
        if theirs and (hostile or not friendly or not mine):
            if "remove" in prompt and "shield" in prompt:
                return max(theirs, key=lambda r: (self._shields(state, r), -self._left(state, r, cards)))
            return min(theirs, key=lambda r: (self._left(state, r, cards), r))
        if mine:
            if "heal" in prompt:
                return min(mine, key=lambda r: (self._left(state, r, cards), r))
            if "shield" in prompt:
                return min(mine, key=lambda r: (self._shields(state, r), self._left(state, r, cards)))
            return max(mine, key=lambda r: (self._left(state, r, cards), r))
        return d.options[0]

    @staticmethod
    def _shields(state: GameState, ref: str) -> int:
        owner = _owner(ref)
        ch = state.players[owner].characters.get(ref) if owner in state.players else None
        return ch.shields if ch is not None else 0

    def _die(self, state: GameState, d: Decision) -> Any:
        """An opponent's die: the one showing the most; one's own: the least when it is to be
        rerolled, removed or blanked, else the most."""

        def worth(die: Any) -> int:
            owner = _owner(str(die).rsplit("/", 1)[0])
            p = state.players.get(owner) if owner is not None else None
            face = p.pool.get(die) if p is not None else None
            return _face_worth(face) if face is not None else 0

        own = all(_owner(str(o).rsplit("/", 1)[0]) == d.by for o in d.options)
        low = own and any(w in d.prompt.lower() for w in ("reroll", "remove", "blank"))
        pick = min if low else max
        return pick(d.options, key=lambda o: (worth(o), str(o)))


def new_log(seed: str, hero: str = "LEG-H", villain: str = "LEG-V", *more: str) -> dict[str, Any]:
    """A log from the beginning between starter decks (p1 the first side, p2 the second, ...)."""
    from judge.games.destiny.starters import STARTERS

    sides: Sequence[str] = (hero, villain, *more)
    # each seat is named after its deck's hero ("Luke Skywalker bot"), with its seat number when
    # two seats play the same deck
    names = [STARTERS[side].name.removesuffix(" Starter Set") + " bot" if side in STARTERS else f"Bot {i + 1}"
             for i, side in enumerate(sides)]
    names = [f"{n} {i + 1}" if names.count(n) > 1 else n for i, n in enumerate(names)]
    return {
        "format": "arbiter.replay/1",
        "game": "destiny",
        "meta": {"format": "starter", "title": f"self-play {' v '.join(sides)}, seed {seed}"},
        "rng": {"algorithm": ALGORITHM, "seed": seed},
        "players": [STARTERS[side].player(f"p{i + 1}", names[i]) for i, side in enumerate(sides)],
        "setup": {},
        "steps": [],
    }
