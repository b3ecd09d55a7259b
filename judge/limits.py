"""Every bound on what a log, a position or a request may carry, in one place.

Each count, size and number read from untrusted input is checked against one of these before
anything is allocated or looped over for it; beyond a bound the input is refused with the JSON
Pointer of the value (a fault of the log, a 422 problem over HTTP, a 413 for the body). The API
documents them in docs/api.md and in its OpenAPI schema from these names, so this file is the one
place to change a limit.

The bounds are generous for real play (a Destiny deck has 30 cards, a game a few hundred steps)
and small enough that the worst request the body limit allows is answered in bounded time and
memory (``make bench``, bench/bench_limits.py).
"""

from __future__ import annotations

from typing import Final

# ---------------------------------------------------------------- HTTP
#: largest request body, in bytes (413 beyond it, before anything is read)
MAX_BODY_BYTES: Final = 2 * 1024 * 1024

# ---------------------------------------------------------------- any JSON document (a log)
#: deepest nesting of arrays and objects
MAX_DEPTH: Final = 32
#: JSON values (objects, arrays, strings, numbers, ...) in one log
MAX_NODES: Final = 200_000
#: characters in one string (a note, a title, a key)
MAX_STRING: Final = 10_000
#: members of one object or items of one array
MAX_ITEMS: Final = 10_000
#: largest magnitude of any integer (JSON's safe integers, 2**53 - 1)
MAX_INT: Final = 2**53 - 1
#: faults listed for one log by the structural scan (it stops there; the last fault says so)
MAX_FAULTS: Final = 100

# ---------------------------------------------------------------- a log
#: steps in one log
MAX_STEPS: Final = 10_000
#: logged die results, random outcomes and choices in one step (each)
MAX_INPUTS: Final = 200
#: characters of an rng seed
MAX_SEED_CHARS: Final = 256
#: largest integer seed (a string seed may be any text up to MAX_SEED_CHARS)
MAX_SEED_INT: Final = 2**64 - 1
#: words of the rng stream already used (``rng.drawn``)
MAX_RNG_DRAWN: Final = 10**7

# ---------------------------------------------------------------- a table (position or setup)
#: cards in one zone (deck, hand, discard), ``{"unknown": n}`` included
MAX_ZONE_CARDS: Final = 200
#: cards of one kind in play for one player (characters, supports, upgrades, dice in the pool)
MAX_IN_PLAY: Final = 60
#: a player's resources, a card's damage, and any other counter on the table
MAX_COUNTER: Final = 999
#: the round number of a position
MAX_ROUND: Final = 10_000

# ---------------------------------------------------------------- work done for one request
#: replay work done in the request thread: a log's steps, each step with a checkpoint (``expect``)
#: counting twice; a heavier log is stored and replayed by a worker job (202). Measured on a table
#: at every bound, where a step or a checkpoint costs about 1 ms (bench/bench_limits.py)
MAX_STEPS_IN_REQUEST: Final = 250
#: jobs waiting in the queue (``ARBITER_MAX_QUEUED``); a request that would queue one more is a 503
MAX_QUEUED_JOBS: Final = 1_000
#: creators' annotation sets made for one replay (each holds at most MAX_ITEMS notes)
MAX_ANNOTATION_SETS: Final = 1_000
#: replays listed in one page of ``GET /v1/replays``
MAX_PAGE_SIZE: Final = 100

#: name -> (value, what it bounds): the table docs/api.md and the OpenAPI document show
LIMITS: Final[dict[str, tuple[int, str]]] = {
    "MAX_BODY_BYTES": (MAX_BODY_BYTES, "bytes of a request body (413 beyond)"),
    "MAX_DEPTH": (MAX_DEPTH, "nesting depth of arrays and objects in a log"),
    "MAX_NODES": (MAX_NODES, "JSON values in one log"),
    "MAX_STRING": (MAX_STRING, "characters in one string"),
    "MAX_ITEMS": (MAX_ITEMS, "members of one object or items of one array"),
    "MAX_INT": (MAX_INT, "magnitude of any integer"),
    "MAX_FAULTS": (MAX_FAULTS, "faults listed for one log: the structure scan and the step reader stop there, "
                   "and a replay keeps the details of that many failed checkpoints"),
    "MAX_STEPS": (MAX_STEPS, "steps in one log"),
    "MAX_INPUTS": (MAX_INPUTS, "rolls, random outcomes and choices logged in one step (each)"),
    "MAX_SEED_CHARS": (MAX_SEED_CHARS, "characters of a string rng seed"),
    "MAX_SEED_INT": (MAX_SEED_INT, "largest integer rng seed"),
    "MAX_RNG_DRAWN": (MAX_RNG_DRAWN, "words of the rng stream already used (rng.drawn)"),
    "MAX_ZONE_CARDS": (MAX_ZONE_CARDS, "cards in one zone (deck, hand, discard), unknown cards included"),
    "MAX_IN_PLAY": (MAX_IN_PLAY, "cards or dice of one kind in play for one player"),
    "MAX_COUNTER": (MAX_COUNTER, "resources, damage, shields and other counters"),
    "MAX_ROUND": (MAX_ROUND, "round number of a position"),
    "MAX_STEPS_IN_REQUEST": (MAX_STEPS_IN_REQUEST, "steps a request replays itself, a step with `expect` "
                             "counting twice (a heavier log: 202, replayed by a worker)"),
    "MAX_QUEUED_JOBS": (MAX_QUEUED_JOBS, "jobs waiting in the queue (503 for a request that would queue "
                        "more; ARBITER_MAX_QUEUED)"),
    "MAX_ANNOTATION_SETS": (MAX_ANNOTATION_SETS, "creators' annotation sets made for one replay (409 beyond)"),
    "MAX_PAGE_SIZE": (MAX_PAGE_SIZE, "items in one page of a list (page_size)"),
}
