"""The golden corpus: logs with their expected replays and rulings, compared in full by
tests/replays/test_golden.py.

    .venv/bin/python -m tests.replays.golden          # write the expected files again from the engine
    .venv/bin/python -m tests.replays.golden --logs   # also play the corpus's self-play logs again

Run it only on purpose, when a change of the rulings' content is meant, and read the diff before
committing it: the test exists so that nothing changes by accident. The state hashes themselves
are held apart, in the hash ledger (tests/replays/ledger.py), which this command never writes.

The corpus: every example log of replays/examples, and self-play games between the starter decks
(tests/replays/golden/logs/). For each log, ``expected/<name>.json`` holds the replay result and
the ruling on every step (every tenth step, and the last, for self-play games).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

GOLDEN = ROOT / "tests" / "replays" / "golden"
LOGS = GOLDEN / "logs"
EXPECTED = GOLDEN / "expected"
EXAMPLES = ROOT / "replays" / "examples"
SELFPLAY = (("LEG-H", "LEG-V", "golden-1"), ("AW-H", "AW-V", "golden-2"), ("LEG-H", "AW-V", "golden-3"),
            ("AW-H", "LEG-V", "golden-4"), ("LEG-V", "AW-H", "golden-5"), ("AW-V", "LEG-H", "golden-6"))
MAX_STEPS = 400


def corpus() -> list[tuple[str, dict[str, Any]]]:
    """(name, log) for every log of the corpus, examples first."""
    out = []
    for path in sorted(EXAMPLES.glob("*.json")) + sorted(LOGS.glob("*.json")):
        out.append((path.stem, json.loads(path.read_text(encoding="utf-8"))))
    return out


def ruled_steps(name: str, log: dict[str, Any]) -> list[int]:
    n = len(log["steps"])
    if name.startswith("selfplay-"):
        return sorted({*range(0, n + 1, 10), n})
    return list(range(0 if "position" not in log["setup"] else 1, n + 1))


def expected(name: str, log: dict[str, Any]) -> dict[str, Any]:
    from replays.service import replay_json, ruling_json

    return {"replay": replay_json(log), "rulings": {str(at): ruling_json(log, at) for at in ruled_steps(name, log)}}


def write_logs() -> None:
    from replays.selfplay import play_game

    LOGS.mkdir(parents=True, exist_ok=True)
    for hero, villain, seed in SELFPLAY:
        game = play_game(seed, hero, villain, max_steps=MAX_STEPS)
        path = LOGS / f"selfplay-{seed}.json"
        path.write_text(json.dumps(game.log, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {game.steps} steps")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--logs", action="store_true", help="play the self-play logs of the corpus again")
    args = ap.parse_args()
    if args.logs:
        write_logs()
    EXPECTED.mkdir(parents=True, exist_ok=True)
    for name, log in corpus():
        path = EXPECTED / f"{name}.json"
        path.write_text(json.dumps(expected(name, log), indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
