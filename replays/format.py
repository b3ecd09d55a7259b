"""Reading a log (docs/replay-format.md sections 1-3): every fault found, with its JSON Pointer.

``parse_log(data)`` returns a ``Log`` or raises ``MalformedLog`` listing all faults, as
python-chess collects a game's errors instead of stopping at the first. Before anything reads the
log, its JSON structure is scanned once against the bounds of judge/limits.py (depth, sizes,
strings, numbers: ``structure_faults``); a log out of bounds is refused with those faults alone (a
step its game reads at once and bounds itself is scanned as the reader comes to it: ``_deferred``).
The envelope (format, game, meta, rng, players' IDs, annotations and logged inputs of each step) is
read here for every game; the game named by ``game`` reads its players, its setup and each step's
action (``judge.games.base.Game``), parsed once into typed values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from i18n import N_
from judge.games import registry
from judge.games.base import PLAYER, names_reader
from judge.games.inputs import ANNOTATION_KEYS, INPUT_KEYS, NO_INPUTS, Inputs, escape, nearest, parse_inputs
from judge.games.jsonbounds import is_int, scan, small_within, sound_within
from judge.kernel.rng import ALGORITHM
from judge.limits import MAX_FAULTS, MAX_NODES, MAX_RNG_DRAWN, MAX_SEED_CHARS, MAX_SEED_INT, MAX_STEPS
from replays.errors import Fault, MalformedLog

FORMAT = "arbiter.replay/1"
SUPPORTED_FORMATS = (FORMAT,)
TOP_KEYS = ("format", "game", "rules", "meta", "rng", "players", "setup", "steps")
# where an integer may exceed MAX_INT: an integer seed, up to MAX_SEED_INT
WIDE_INTS = {"/rng/seed": MAX_SEED_INT}


# a step's keys whose values its game's ``quick_step`` does not read (logged inputs, annotations, a checkpoint)
_UNREAD_KEYS: Final = frozenset((*INPUT_KEYS, *ANNOTATION_KEYS))


def _deferred(data: Any) -> int:
    """The bounds of a log whose game reads its commonest steps at once (``quick_step``, with
    ``quick_nodes``), read now but for its steps' own: the values counted (its steps each as one),
    or -1 when the log is read at once (``structure_faults``), when it is out of bounds there, or
    when its game reads no step so. ``parse_log`` then reads each step's bounds as it comes to it: a
    step ``quick_step`` reads with none of ``_UNREAD_KEYS`` is within them by the game's word
    (judge.games.base.Game.quick_nodes), and counts as ``quick_nodes`` values; any other is read
    (``jsonbounds.sound_within``) before anything else reads it. A log out of bounds anywhere is so
    refused with the faults ``structure_faults`` finds, alone, as when it is read at once."""
    if type(data) is not dict:
        return -1
    steps = data.get("steps")
    game = game_of(data)
    if game is None or type(steps) is not list or len(steps) > MAX_STEPS or not getattr(game, "quick_nodes", 0) \
            or getattr(game, "quick_step", None) is None:
        return -1
    return sound_within(data, 1, 1, steps)


def _sound_or_raise(data: Any) -> None:
    """``MalformedLog`` with ``structure_faults(data)`` when there are any."""
    faults = structure_faults(data)
    if faults:
        raise MalformedLog(faults)


def structure_faults(data: Any) -> list[Fault]:
    """The faults of a log's JSON structure alone (judge.games.jsonbounds: depth, sizes, string
    lengths, valid Unicode, integer range, finite numbers), found in one pass before anything else
    reads the log; a log with any is read no further."""
    return [Fault(p, m) for p, m in scan(data, WIDE_INTS)]


@dataclass
class Log:
    raw: dict[str, Any]
    game: str
    players: list[dict[str, Any]]
    setup: dict[str, Any]
    steps: list[dict[str, Any]]
    rng_seed: str | None = None
    rng_drawn: int = 0
    meta: dict[str, Any] = field(default_factory=dict)
    actions: list[Any] = field(default_factory=list)  # each step parsed once (the game's typed action)
    inputs: list[Inputs] = field(default_factory=list)  # each step's logged outcomes and choices
    rules: Any = None  # the game (judge.games.base.Game)

    @property
    def player_ids(self) -> list[str]:
        return [p["id"] for p in self.players]

    @property
    def from_position(self) -> bool:
        return "position" in self.setup

    @property
    def deck_format(self) -> str:
        fmt = self.meta.get("format")
        return fmt if isinstance(fmt, str) else str(self.rules.default_deck_format)

    def dispute_step(self) -> int | None:
        for i, step in enumerate(self.steps, 1):
            if "dispute" in step:
                return i
        return None


def game_of(data: Any) -> Any:
    """The game a log names (``game``), or None when it names none the registry has."""
    game = data.get("game") if isinstance(data, dict) else None
    return registry.get(game) if isinstance(game, str) and game in registry.WRITTEN else None


def game_member(game: Any, name: str) -> Any:
    """The game's optional member ``name`` (None without it), a static method as its function: a
    compiled game's class gives its ``staticmethod`` object itself, which each call would go through
    (its arguments packed in a tuple), once per step for ``quick_step``."""
    found = getattr(game, name, None)
    return found.__func__ if isinstance(found, staticmethod) else found


def sorted_keys(value: Any) -> Any:
    """``value`` with every object's keys in sorted order (lists keep theirs); iterative."""
    if not isinstance(value, (dict, list)):
        return value
    root: list[Any] = [None]
    todo: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while todo:
        node, parent, slot = todo.pop()
        if isinstance(node, dict):
            copy_: Any = {}
            parent[slot] = copy_
            for key in sorted(node):
                copy_[key] = None
                todo.append((node[key], copy_, key))
        elif isinstance(node, list):
            copy_ = [None] * len(node)
            parent[slot] = copy_
            for i, item in enumerate(node):
                todo.append((item, copy_, i))
        else:
            parent[slot] = node
    return root[0]


def nearest_name(word: Any, known: Any) -> str | None:
    """The known name nearest ``word`` (a likely typo), or None."""
    near = nearest(word, known)
    return near[len(" (did you mean '"):-len("'?)")] if near else None


def parse_log(data: Any, cards: Any = None) -> Log:
    """``cards``: the card pool to read the log with (default: the game's own)."""
    # the values counted so far while the steps' own are read with them (_deferred), or -1: the
    # whole log was read at once
    nodes = _deferred(data)
    if nodes < 0:
        faults = structure_faults(data)
        if faults:
            raise MalformedLog(faults)
    else:
        faults = []

    def bad(path: str, msg: str) -> None:  # a game's own fault (English)
        faults.append(Fault(path, msg))

    def fault(path: str, template: str, **params: Any) -> None:  # the format's own: worded in any language
        faults.append(Fault.of(path, template, **params))

    def one_of(path: str, plain: str, suggest: str, value: Any, known: Any) -> None:
        near = nearest_name(value, known)
        if near:
            fault(path, suggest, known=", ".join(known), near=near)
        else:
            fault(path, plain, known=", ".join(known))

    if not isinstance(data, dict):
        raise MalformedLog([Fault.of("", N_("a log is a JSON object with format, game, players, setup and steps"))])
    fmt = data.get("format")
    if fmt not in SUPPORTED_FORMATS:
        fault("/format", N_("unsupported format {value}: this engine reads {known}"), value=repr(fmt),
              known=", ".join(SUPPORTED_FORMATS))
    game_id = data.get("game")
    game = game_of(data)
    if game is None:
        if game_id in registry.KNOWN:
            fault("/game", N_("the {game} engine is not written yet: only {written} logs can be replayed"),
                  game=game_id, written=", ".join(registry.written()))
        else:
            one_of("/game", N_("'game' must be one of {known}"), N_("'game' must be one of {known} (did you mean "
                   "'{near}'?)"), game_id, registry.KNOWN)
    elif cards is None:
        cards = game.default_cards()
    for key in data:
        if key not in TOP_KEYS:
            near = nearest_name(key, TOP_KEYS)
            if near:
                fault(f"/{escape(key)}", N_("unknown top-level key '{key}' (did you mean '{near}'?); the known keys "
                      "are {known}"), key=key, near=near, known=", ".join(TOP_KEYS))
            else:
                fault(f"/{escape(key)}", N_("unknown top-level key '{key}'; the known keys are {known}"), key=key,
                      known=", ".join(TOP_KEYS))
    if "rules" in data and not isinstance(data["rules"], str):
        fault("/rules", N_("'rules' names a rules edition (a string)"))
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        fault("/meta", N_("'meta' must be an object"))
        meta = {}
    elif game is not None and "format" in meta and meta["format"] not in game.deck_formats:
        one_of("/meta/format", N_("'meta.format' must be one of {known}"),
               N_("'meta.format' must be one of {known} (did you mean '{near}'?)"), meta["format"], game.deck_formats)
    seed: str | None = None
    rng_drawn = 0
    rng = data.get("rng")
    if rng is not None:
        if not isinstance(rng, dict):
            fault("/rng", N_("'rng' must be {shape}"), shape='{"algorithm": "sha256-ctr", "seed": "..."}')
        else:
            if rng.get("algorithm") != ALGORITHM:
                fault("/rng/algorithm", N_("unknown rng algorithm {value}: the engine has {known}"),
                      value=repr(rng.get("algorithm")), known=ALGORITHM)
            raw_seed = rng.get("seed")
            if type(raw_seed) is str and len(raw_seed) <= MAX_SEED_CHARS:
                seed = raw_seed
            elif is_int(raw_seed, 0, MAX_SEED_INT):
                seed = str(raw_seed)
            elif type(raw_seed) is str:
                fault("/rng/seed", N_("'seed' has at most {n} characters (limit {limit})"), n=MAX_SEED_CHARS,
                      limit="MAX_SEED_CHARS")
            elif type(raw_seed) is int:
                fault("/rng/seed", N_("an integer 'seed' is from 0 to {n} (limit {limit})"), n=MAX_SEED_INT,
                      limit="MAX_SEED_INT")
            else:
                fault("/rng/seed", N_("'seed' must be a string (or a whole number: a float is not a seed)"))
            drawn = rng.get("drawn", 0)
            if not is_int(drawn, 0, MAX_RNG_DRAWN):
                fault("/rng/drawn", N_("'drawn' is how many words of the stream were already used: a whole number "
                      "from 0, at most {n} words (limit {limit})"), n=MAX_RNG_DRAWN, limit="MAX_RNG_DRAWN")
            else:
                rng_drawn = drawn
    players = data.get("players")
    lo, hi = (game.min_players, game.max_players) if game is not None else (2, 4)
    ids: list[str] = []
    if not isinstance(players, list) or not lo <= len(players) <= hi:
        fault("/players", N_("'players' must list {lo} to {hi} players"), lo=lo, hi=hi)
        players = []
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            fault(f"/players/{i}", N_("a player is an object with 'id' and 'name'"))
            continue
        pid = p.get("id")
        if not isinstance(pid, str) or not PLAYER.match(pid):
            fault(f"/players/{i}/id", N_("'id' must be a short identifier such as p1"))
        elif pid in ids:
            fault(f"/players/{i}/id", N_("player ID '{id}' is used twice"), id=pid)
        else:
            ids.append(pid)
        if "name" in p and not isinstance(p["name"], str):
            fault(f"/players/{i}/name", N_("'name' must be a string"))
    setup = data.get("setup")
    if not isinstance(setup, dict):
        fault("/setup", N_("'setup' must be an object: {shape} or the outcomes of setup"), shape='{"position": ...}')
        setup = {}
    elif game is not None and not faults:
        names = names_reader(game)
        # (optional: a setup that names no card by name, told at a glance, is not read again)
        plain_setup = game_member(game, "plain_setup")
        if names is not None and (plain_setup is None or not plain_setup(players, setup, cards)):
            # cards named by name, as codes (judge.games.cardnames)
            players, setup, name_faults = names.setup_codes(players, setup, cards)
            for path, msg in name_faults:
                bad(path, msg)
        if not faults:
            for path, msg in game.check_setup(players, setup, cards):
                bad(path, msg)
    steps = data.get("steps", [])
    if not isinstance(steps, list):
        fault("/steps", N_("'steps' must be a list"))
        steps = []
    elif len(steps) > MAX_STEPS:
        fault("/steps", N_("a log has at most {n} steps (limit {limit}); this one has {count}"), n=MAX_STEPS,
              limit="MAX_STEPS", count=len(steps))
        steps = []
    actions: list[Any] = []
    inputs: list[Inputs] = []
    if game is not None:
        parse_step = game_member(game, "parse_step")
        # (optional: the commonest steps read at once; the step's JSON Pointer is made only for the
        # others, which a fault may name)
        quick_step = game_member(game, "quick_step")
        names = names_reader(game)
        step_codes = names.step_codes if names is not None else None
        answer_codes = names.answer_codes if names is not None else None
        # (optional: answers that name no card by name, told at a glance, are not read again)
        plain_answers = game_member(game, "plain_answers")
        copied = False
        in_faults: list[tuple[str, str]] = []
        no_inputs = NO_INPUTS
        named_in: Any = None  # the pool names are looked up in (the log's own cards too: names_pool)

        def names_cards() -> Any:
            nonlocal named_in
            if named_in is None:
                names_pool = getattr(names, "names_pool", None)
                named_in = cards if names_pool is None else names_pool(setup, cards)
            return named_in

        quick_nodes: int = getattr(game, "quick_nodes", 0)
        stopped = False
        for i, step in enumerate(steps):
            if faults and len(faults) >= MAX_FAULTS:  # each fault may cost a search for the nearest name: stop here
                fault(f"/steps/{i}", N_("at most {n} faults are listed (limit {limit}); reading stopped at this "
                      "step"), n=MAX_FAULTS, limit="MAX_FAULTS")
                stopped = True
                break
            action = quick_step(step, ids, cards) if quick_step is not None else None
            if nodes >= 0:  # the step's bounds, not read yet (_deferred)
                if action is not None and _UNREAD_KEYS.isdisjoint(step):
                    nodes += quick_nodes  # (at most: the game's word, judge.games.base.Game.quick_nodes)
                else:  # (a small step, its choices or its checkpoint, read at once: jsonbounds.small_within)
                    counted = small_within(step, 3, nodes) if type(step) is dict else -2
                    nodes = counted if counted >= 0 else sound_within(step, 3, nodes)
                    if nodes < 0:  # out of bounds, or the count of quick steps' values too loose to tell
                        _sound_or_raise(data)
            if action is not None:  # read at once: no fault, no name to look up
                if "choices" in step or "roll" in step or "random" in step or "expect" in step:
                    path = f"/steps/{i}"
                else:  # the commonest step: nothing more to read in it
                    inputs.append(no_inputs)
                    actions.append(action)
                    continue
                step_faults: Any = ()
            else:
                path = f"/steps/{i}"
                action, step_faults = parse_step(step, path, ids, cards)
            if step_faults and step_codes is not None:
                # a step that names a card by its name: read again with codes (judge.games.cardnames)
                coded, name_faults = step_codes(step, path, ids, names_cards())
                if coded is not step or name_faults:
                    action, step_faults = parse_step(coded, path, ids, cards)
                    if name_faults:
                        named = {p_ for p_, _ in name_faults}
                        step_faults = [*name_faults, *(f for f in step_faults if f[0] not in named)]
                        action = None
                    elif coded is not step:
                        if not copied:
                            steps, copied = list(steps), True  # the log as given stays as it was
                        steps[i] = step = coded
            if step_faults:
                for p_, m in step_faults:
                    bad(p_, m)
            if not isinstance(step, dict):
                inputs.append(NO_INPUTS)
                actions.append(action)
                continue
            chosen = "choices" in step
            if answer_codes is not None and (chosen or ("expect" in step and isinstance(step["expect"], dict)
                                                        and "state" in step["expect"])):
                # answers and checkpoints naming cards by name, as codes
                coded = (step if plain_answers is not None and plain_answers(step, ids, cards)
                         else answer_codes(step, ids, names_cards()))
                if coded is not step:
                    if not copied:
                        steps, copied = list(steps), True
                    steps[i] = step = coded
            if chosen or "roll" in step or "random" in step:
                inputs.append(parse_inputs(step, path, ids, in_faults))
            else:
                inputs.append(NO_INPUTS)
            if in_faults:
                for p_, m in in_faults:
                    bad(p_, m)
                in_faults.clear()
            actions.append(action)
        if nodes >= 0 and (stopped or nodes > MAX_NODES):  # steps left unread; a count too loose to tell
            _sound_or_raise(data)
    if faults:
        raise MalformedLog(faults)
    # An object's key order is not part of a log (its content address sorts keys): the setup is read
    # in sorted order, so that a log posted with its keys in any order replays the same, options and
    # all (a stored log is read back with its keys sorted).
    setup = sorted_keys(setup)
    return Log(raw=data, game=str(game_id), players=players, setup=setup, steps=steps, rng_seed=seed, meta=meta,
               rng_drawn=rng_drawn, actions=actions, inputs=inputs, rules=game)
