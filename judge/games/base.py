"""The seam between the shared replay layer and each game: the ``Game`` interface.

Everything under ``replays/``, ``worker/``, ``api/`` and the CLI reaches a game only through this
interface, chosen by the log's ``game`` field in the registry (``judge.games.registry``). A game is
one package under ``judge/games/`` whose ``game`` module exposes ``GAME``, an object with the
members below. Where a step goes, file by file:

1. ``replays.format.parse_log`` checks the log's envelope and asks the game for its players
   (``check_players``) and each step (``parse_step``: a typed action, or faults with JSON Pointers).
2. ``replays.replayer.replay`` builds the state before step 1 (``from_position`` or ``begin``,
   after ``deck_violations``), then for each step calls ``apply`` (which checks as it goes and
   says which rule a step breaks), and reads ``outcome`` at the end.
3. The visitors (rulings, the timeline, the checkpoint verifier) read the state through
   ``GameState`` (``view``, ``state_hash``) and describe steps with ``summarize``.
4. Self-play asks ``legal_actions`` and plays one of them under the game's ``policy``.
5. The command line's ``arbiter cards`` uses the card-data members of ``judge.games.carddata``
   (``CardTools``: import a user's card data, load it, describe a card, check a decklist).

Shared by every game and written once: the timing kernel (``judge.kernel.core``), the step's
logged inputs (``judge.games.inputs``), canonical hashing (``judge.games.canon``) and the seeded
generator (``judge.kernel.rng``).
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from judge.kernel.core import Decision, Record
from judge.kernel.rng import Rng

# a player's ID in every game's logs: p1, ana, team-2
PLAYER = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")
# (JSON Pointer, message): a fault of a malformed log, found without playing it
Faults = list[tuple[str, str]]
# A policy answers a decision the log does not (self-play): (game context, decision) -> answer
Policy = Callable[[Any, Decision], Any]


class GameState(Protocol):
    """What the shared layer reads of a game's state."""

    round: int
    phase: str
    turn: str | None
    winner: str | None
    reason: str | None
    rng_drawn: int | None

    def copy(self) -> Any: ...
    def view(self, hidden: bool = False) -> dict[str, Any]: ...
    def position(self) -> dict[str, Any]: ...
    def canonical(self) -> bytes: ...
    def state_hash(self) -> str: ...


class Action(Protocol):
    """A step of a log parsed once into a typed, frozen value that writes itself back."""

    by: str | None

    def to_json(self) -> dict[str, Any]: ...


class Applied:
    """What applying one step (or carrying out setup) did: its records in order (typed, written to
    JSON only when read: ``written``), its decisions, the choices a policy wrote for it, and the
    error that stopped it (a kernel exception with ``kind``, ``rule`` and ``message``), if any.
    A plain class, made once per step: the compiled engine builds it natively (a dataclass's
    generated ``__init__`` stays interpreted, see ``judge.kernel.core.Record``)."""

    __slots__ = ("records", "decisions", "written_choices", "error")

    def __init__(self, records: list[Record] | None = None, decisions: list[dict[str, Any]] | None = None,
                 written_choices: list[dict[str, Any]] | None = None, error: Exception | None = None) -> None:
        self.records: list[Record] = [] if records is None else records
        self.decisions: list[dict[str, Any]] = [] if decisions is None else decisions
        self.written_choices: list[dict[str, Any]] = [] if written_choices is None else written_choices
        self.error = error

    def __repr__(self) -> str:
        return (f"Applied(records={self.records!r}, decisions={self.decisions!r}, "
                f"written_choices={self.written_choices!r}, error={self.error!r})")


def written(records: list[Record]) -> list[dict[str, Any]]:
    """Records as rulings and timelines write them (docs/events.md)."""
    return [r.to_json() for r in records]


class Game(Protocol):
    """One game's rules behind one interface (see the module's docstring)."""

    id: str  # the log's ``game`` field
    name: str
    min_players: int
    max_players: int
    deck_formats: tuple[str, ...]  # meta.format values
    default_deck_format: str  # a log without meta.format
    verbs: tuple[str, ...]  # a step's ``do``
    errors: tuple[type[Exception], ...]  # what ``apply`` may stop with (each has kind, rule, message)

    def default_cards(self) -> Any:
        """The project's own card pool for this game."""
        ...

    # -- reading a log ------------------------------------------------------------------------
    def check_setup(self, players: Sequence[Any], setup: Mapping[str, Any], cards: Any) -> Faults:
        """Faults of the players' entries and of ``setup`` (a position is read by ``from_position``)."""
        ...

    def parse_step(self, step: Any, path: str, players: Sequence[str], cards: Any) -> tuple[Action | None, Faults]:
        """One step as a typed action, or every fault found in it (JSON Pointers under ``path``)."""
        ...

    # Optional: ``quick_step(step, players, cards) -> action | None``, ``parse_step``'s action for a
    # step read at once without a fault, else None; a log's reader asks it first and makes the step's
    # JSON Pointer and calls ``parse_step`` only for the other steps (replays.format.parse_log).
    # ``quick_nodes`` (optional, with it): the game's word that a step ``quick_step`` reads, holding
    # none of the logged inputs and annotations (judge.games.inputs.INPUT_KEYS, ANNOTATION_KEYS), is
    # within the bounds of judge.games.jsonbounds and holds at most ``quick_nodes`` JSON values below
    # it: every value of such a step is read and bounded by the game (a bounded pattern, a code of the
    # pool, a small number). ``quick_step`` is then asked before the step's bounds are read, and
    # answers None, raising nothing, for any value at all. The log's reader then reads the bounds of
    # the other steps only (replays.format._deferred).

    # Optional (judge.games.cardnames): ``names_module``, the dotted path of the game's module that
    # writes cards named by name as codes when a log is read (``names_reader`` imports it). It has:
    # ``setup_codes(players, setup, cards) -> (players, setup, faults)``, run once before
    # ``check_setup``; ``step_codes(step, path, players, cards) -> (step, faults)``, run for a step
    # ``parse_step`` found faults in (so a game's reader faults on a name, even one shaped like a
    # code or a reference), and the step is read again as it gives it (a log written with codes
    # never pays for it). Each returns the same objects where nothing was named by name.
    # ``answer_codes(step, players, cards) -> step``, run for a step with ``choices`` or ``expect``:
    # the cards its answers and its checkpoint's expected state name by name, as codes, never a fault
    # (an answer the decision cannot take, a state that differs, is the replay's to say).
    # ``names_pool(setup, cards) -> pool`` (optional): the pool ``step_codes`` and ``answer_codes``
    # look names up in when the log's setup defines cards of its own (the game's pool with them);
    # asked once, for the first step that needs it, with the setup as ``setup_codes`` gave it.
    # ``warm_names(cards)``: index the pool's names ahead of the first log (``replays.service.warm``:
    # a worker imports the module and calls it before it forks).
    # Optional, on the game: ``plain_setup(players, setup, cards) -> bool`` and ``plain_answers(step,
    # players, cards) -> bool``, True only when ``setup_codes`` (with no fault) and ``answer_codes``
    # would give back what they are given, told at a glance: the log's reader then does not ask them.

    def deck_violations(self, players: Sequence[Mapping[str, Any]], cards: Any, deck_format: str,
                        ) -> list[dict[str, Any]]: ...

    # -- states -------------------------------------------------------------------------------
    def from_position(self, position: Any, players: Sequence[Mapping[str, Any]], cards: Any,
                      ) -> tuple[GameState | None, Faults]: ...

    def begin(self, players: Sequence[Mapping[str, Any]], setup: Mapping[str, Any], cards: Any, rng: Rng | None,
              policy: Policy | None) -> tuple[GameState, Applied]:
        """Carry out setup; ``Applied.error`` says why it stopped, if it did."""
        ...

    def empty_state(self, players: Sequence[Mapping[str, Any]]) -> GameState:
        """The state of a log whose setup cannot be carried out (only the players)."""
        ...

    # -- steps --------------------------------------------------------------------------------
    def check(self, state: GameState, action: Action, cards: Any) -> tuple[str, str] | None:
        """The rule an action breaks before anything changes, as ``(rule ID, message)``, or None.
        A step that passes may still break a rule while it resolves (``apply`` says so)."""
        ...

    def apply(self, state: GameState, action: Action, inputs: Any, cards: Any, rng: Rng | None,
              policy: Policy | None, next_action: Action | None) -> Applied:
        """Apply one step in place. ``inputs`` are the step's logged outcomes and choices;
        ``next_action`` is the log's next step (a game may record a phase as its own step)."""
        ...

    # Optional: ``apply_unrecorded``, ``apply`` with the same arguments for a caller that reads no
    # record (a replay with no visitor and no policy: replays.replayer.replay): the decisions and the
    # error are ``apply``'s, and the state after a step applied without an error (a rejected step's
    # state is the caller's to drop, as the replayer drops it); ``Applied.records`` may leave out any
    # of the step's records.

    def legal_actions(self, state: GameState, cards: Any) -> list[Action]:
        """Actions whose ``check`` passes now, for the player to act."""
        ...

    def chooser(self, state: GameState) -> tuple[str, str]:
        """Who orders simultaneous abilities of several players (the kernel asks), and the rule."""
        ...

    def pending(self, applied: Applied) -> dict[str, Any] | None:
        """The decision a step stopped on because the log lacks it, or None."""
        ...

    def rules(self) -> list[Any]:
        """This game's entries of the rule index (judge.rules.index)."""
        ...

    def actor(self, state: GameState) -> str | None:
        """The player who acts next, or None when the game is over."""
        ...

    def outcome(self, state: GameState) -> dict[str, Any] | None:
        """``{"winner", "reason", "rules"}`` once the game is over, else None."""
        ...

    def summarize(self, action: Action | None, events: Sequence[Mapping[str, Any]], cards: Any) -> str:
        """One readable line for a step (None: the setup)."""
        ...

    def viewer_cards(self, names: Iterable[str], cards: Any) -> dict[str, Any]:
        """What a replay viewer (replays.viewer) needs to draw the cards among ``names`` (strings
        of a replay's states and events): ``refs`` maps each string that names a card (a code, a
        card in play, a die) to ``{"code", "player"?, "die"?}``; ``cards`` maps each such code to
        its data (``name``, ``type`` and, where the card has them, ``subtitle``, ``health``,
        ``cost``, ``color``, ``faces``); ``symbols`` names the die-face symbols. Optional
        ``table``, how the viewer words the state view's table: ``play``, the keys of the zones whose
        cards are in play (default: every zone); ``links``, ``{key: {"words": [made, undone], "zone"?,
        "field"?}}`` for a key holding ``{card: card}`` (words marked for translation, with ``{card}``
        and ``{other}``; the cards of ``zone`` and the cards' ``field`` are then told by the link);
        ``places``, ``{value: words}`` for the places an event names by a word (``{key|place}``)."""
        ...

    # -- self-play ----------------------------------------------------------------------------
    def selfplay_sides(self) -> tuple[str, ...]:
        """The decks self-play can seat (e.g. starter sets)."""
        ...

    def selfplay_log(self, seed: str, sides: Sequence[str]) -> dict[str, Any]:
        """A new log without steps, seating ``sides``."""
        ...

    def policy(self, rng: Rng) -> Policy:
        """Self-play's seeded answer to every decision the rules give a player."""
        ...


def names_reader(game: Any) -> Any:
    """The module a game reads cards named by name with (its ``names_module``), or None: imported
    when first asked for, so that a process that reads no log never loads it (then read from
    ``sys.modules``: ``import_module`` runs the import machinery's Python code at every call, and
    every log asks)."""
    path = getattr(game, "names_module", None)
    if not path:
        return None
    module = sys.modules.get(path)
    return module if module is not None else importlib.import_module(path)
