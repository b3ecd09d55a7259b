"""Build hook: with ``ARBITER_COMPILE=1`` the engine's hot modules are compiled with mypyc (the
same typed source, as native extension modules); without it the package is pure Python.

The list is the replay path: kernel, step inputs, each game's rules engine, its steps, records and
state (Destiny, SW TCG, Relic), Destiny's card definitions and keyword abilities (a card's
trigger test marked with ``model.on`` is wrapped there: a compiled function takes no attribute),
the replayer. Importers, self-play and summaries stay interpreted. A compiled class is a plain
class (slots, ``Final`` attributes), not a frozen dataclass with a ``ClassVar`` (mypyc makes the
``ClassVar`` a field, mypyc/mypyc#1122); a dataclass made on the replay path writes its own
``__init__`` (the one the dataclass generates stays interpreted) and ``__reduce__`` (a compiled
object is made by its ``__init__``, which ``copy`` and ``pickle`` would otherwise call without its
fields).
``make compiled`` builds them in a copy of the tree under var/ (never in place, so an edited
``.py`` is never shadowed by a stale extension); ``make test`` runs the engine and replay tests
against that build too, and ``make bench`` measures both.
"""

import os

from setuptools import setup

COMPILED = [
    "judge/kernel/core.py",
    "judge/kernel/rng.py",
    "judge/games/inputs.py",
    "judge/games/jsonbounds.py",
    "judge/games/base.py",
    "judge/games/abilities.py",
    "judge/games/canon.py",
    "judge/games/destiny/actions.py",
    "judge/games/destiny/cards/awakenings.py",
    "judge/games/destiny/cards/common.py",
    "judge/games/destiny/cards/legacies.py",
    "judge/games/destiny/choices.py",
    "judge/games/destiny/keywords.py",
    "judge/games/destiny/deckcheck.py",
    "judge/games/destiny/dice.py",
    "judge/games/destiny/engine.py",
    "judge/games/destiny/events.py",
    "judge/games/destiny/legal.py",
    "judge/games/destiny/perform.py",
    "judge/games/destiny/records.py",
    "judge/games/destiny/resolve.py",
    "judge/games/destiny/rounds.py",
    "judge/games/destiny/model.py",
    "judge/games/destiny/refs.py",
    "judge/games/destiny/setup.py",
    "judge/games/destiny/state.py",
    "judge/games/destiny/steps.py",
    "judge/games/destiny/game.py",
    "judge/games/relic/actions.py",
    "judge/games/relic/cards.py",
    "judge/games/relic/engine.py",
    "judge/games/relic/events.py",
    "judge/games/relic/game.py",
    "judge/games/relic/legal.py",
    "judge/games/relic/scoring.py",
    "judge/games/relic/setup.py",
    "judge/games/relic/state.py",
    "judge/games/swtcg/actions.py",
    "judge/games/swtcg/engine.py",
    "judge/games/swtcg/game.py",
    "judge/games/swtcg/legal.py",
    "judge/games/swtcg/model.py",
    "judge/games/swtcg/opening.py",
    "judge/games/swtcg/procedure.py",
    "judge/games/swtcg/records.py",
    "judge/games/swtcg/setup.py",
    "judge/games/swtcg/shape.py",
    "judge/games/swtcg/state.py",
    "judge/games/swtcg/steps.py",
    "replays/format.py",
    "replays/replayer.py",
]

# The compiled functions call each other directly, not through the shared object's symbol table:
# GCC, building position-independent code, takes any global function as one the dynamic linker may
# replace at load time (semantic interposition), so every call between two of mypyc's functions went
# through the PLT and none was inlined or specialised. Only ``PyInit_*`` needs to be seen from
# outside (Python's PyMODINIT_FUNC marks it visible), so every other symbol is hidden. (Measured in
# one run, compiled, the bench corpora: Destiny's replay 58.9 -> 53.6 ms, SW TCG's 31.6 -> 29.9 ms.)
NATIVE_CFLAGS = ["-fvisibility=hidden", "-fno-semantic-interposition"]

# A profile-guided build (tools/build_compiled.py drives it): first built with
# ``ARBITER_PGO_GENERATE=DIR`` (instrumented: each run writes its counts under DIR), run on training
# games (tools/pgo_training.py), then built again with ``ARBITER_PGO_USE=DIR``: GCC lays out and inlines
# the code by what ran. ``-fprofile-partial-training``: a function the training did not run is
# optimised as without a profile (not for size), so a path no training game took is not slower for it.
# ``-Wno-missing-profile``: a module the training did not load has no counts (mypyc builds with -Werror).
PGO_GENERATE = os.environ.get("ARBITER_PGO_GENERATE")
PGO_USE = os.environ.get("ARBITER_PGO_USE")


def pgo_flags() -> tuple[list[str], list[str]]:
    """The compile and link flags of the profile-guided build's stage (none outside it)."""
    if PGO_GENERATE:
        return [f"-fprofile-generate={PGO_GENERATE}"], [f"-fprofile-generate={PGO_GENERATE}"]
    if PGO_USE:
        return [f"-fprofile-use={PGO_USE}", "-fprofile-partial-training", "-fprofile-correction",
                "-Wno-missing-profile"], []
    return [], []


if os.environ.get("ARBITER_COMPILE") == "1":
    from mypyc.build import mypycify

    extensions = mypycify(COMPILED, opt_level="3")
    compile_flags, link_flags = pgo_flags()
    for extension in extensions:
        extension.extra_compile_args = [*extension.extra_compile_args, *NATIVE_CFLAGS, *compile_flags]
        extension.extra_link_args = [*extension.extra_link_args, *link_flags]
    setup(ext_modules=extensions)
else:
    setup()
