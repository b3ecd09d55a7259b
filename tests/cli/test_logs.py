"""``arbiter replay``, ``rule`` and ``timeline`` through click's runner, on the example logs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from arbiter.cli import main
from replays.service import replay_json, ruling_json
from tests.helpers import EXAMPLES_DIR, malformed_log


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_replay_each_example_is_valid(example: tuple[str, dict[str, Any]]) -> None:
    name, _ = example
    result = invoke("replay", str(EXAMPLES_DIR / name))
    assert result.exit_code == 0, result.output
    assert f"{name}: valid" in result.output
    assert "0 failed" in result.output


def test_replay_json_is_the_spec_shape() -> None:
    path = EXAMPLES_DIR / "deck-out-both.json"
    result = invoke("replay", str(path), "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data == json.loads(json.dumps(replay_json(json.loads(path.read_text()))))
    assert {"valid", "steps", "final_state", "final_state_hash", "outcome", "checkpoints", "error",
            "faults"} <= data.keys()


def test_replay_exit_codes(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(malformed_log()))
    result = invoke("replay", str(bad))
    assert result.exit_code == 1
    assert "INVALID" in result.output and "/format" in result.output
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    assert invoke("replay", str(garbage)).exit_code == 2
    assert invoke("replay", str(tmp_path / "missing.json")).exit_code == 2


def test_rule_text_and_json() -> None:
    path = EXAMPLES_DIR / "modifier-alone.json"
    log = json.loads(path.read_text())
    ruling = ruling_json(log)
    text = invoke("rule", str(path))
    assert text.exit_code == 0, text.output
    assert text.output.startswith(f"Step {ruling['at']}: ")
    if not ruling["legal"]:
        assert ruling["violation"]["rule"] in text.output
    as_json = invoke("rule", str(path), "--json", "--at", "1")
    assert json.loads(as_json.output) == json.loads(json.dumps(ruling_json(log, 1)))


def test_rule_out_of_range_and_malformed(tmp_path: Path) -> None:
    result = invoke("rule", str(EXAMPLES_DIR / "shields-cap.json"), "--at", "999")
    assert result.exit_code == 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(malformed_log()))
    result = invoke("rule", str(bad))
    assert result.exit_code == 1


def test_timeline() -> None:
    result = invoke("timeline", str(EXAMPLES_DIR / "claim-then-auto-pass.json"))
    assert result.exit_code == 0, result.output
    assert result.output.strip()
    as_json = invoke("timeline", str(EXAMPLES_DIR / "claim-then-auto-pass.json"), "--json")
    assert isinstance(json.loads(as_json.output), dict)


def test_help_lists_every_registered_command() -> None:
    from arbiter.cli import COMMANDS

    result = invoke("--help")
    for name in COMMANDS:
        assert name in result.output
