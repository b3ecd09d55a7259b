"""``arbiter replay``, ``rule`` and ``timeline`` through click's runner, on the example logs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from arbiter.cli import main
from replays.service import replay_json, ruling_json, timeline_json
from tests.helpers import EXAMPLES_DIR, SHARED, malformed_log


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_replay_each_example_is_valid(example: tuple[str, dict[str, Any]]) -> None:
    name, _ = example
    result = invoke("replay", str(EXAMPLES_DIR / name))
    assert result.exit_code == 0, result.output
    assert f"{Path(name).name}: valid" in result.output  # a game's folder (swtcg/) is not printed
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


def test_timeline_json_is_unchanged() -> None:
    path = EXAMPLES_DIR / "claim-then-auto-pass.json"
    as_json = invoke("timeline", str(path), "--json")
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.output) == json.loads(json.dumps(timeline_json(json.loads(path.read_text()))))


def _card(code: str) -> str:
    from judge.games import registry

    card = registry.get("destiny").default_cards().get(code)
    assert card is not None
    return str(card.name)


def test_timeline_text_header_steps_in_words_dispute_and_rejected_steps() -> None:
    path = EXAMPLES_DIR / "choices-order-guardian-redeploy.json"
    log = json.loads(path.read_text())
    result = invoke("timeline", str(path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    raider, kylo, bf = _card("01022"), _card("01011"), _card("05178")
    assert lines[0] == log["meta"]["title"]
    assert lines[1].startswith("Game: Star Wars Destiny (destiny), format sandbox, 3 steps, valid")
    assert f"  p1 Ana: {raider}; deck of 10 cards (unknown)" in lines
    assert f"Battlefield: {bf}, controlled by Ana" in lines
    assert "Outcome: none (the game goes on)" in lines
    step3 = next(line for line in lines if line.startswith("   3. "))
    assert step3.startswith(f"   3. Ana activates {raider}, rolling 3MD1: ")
    words, rules = step3.split("  [")
    assert f"Ben's {kylo} is defeated" in words and "p1.01022" not in words
    assert "destiny.keywords.guardian" in rules.rstrip("]").split(", ")
    assert f"      dispute: {log['steps'][2]['dispute']}" in lines
    assert lines[lines.index(f"      dispute: {log['steps'][2]['dispute']}") + 1] == "      ruling: legal"
    assert f"      note: {log['steps'][0]['note']}" in lines
    rejected = [line for line in lines if line.startswith(("   1. ", "   2. "))]
    assert all(line.startswith(f"   {i}. REJECTED (as the log expects) Ana activates {raider}")
               for i, line in zip((1, 2), rejected, strict=True))
    assert any(line.startswith("      illegal, breaks destiny.abilities.resolve-fully (") for line in lines)
    assert '{"' not in result.output and "sha256:" not in result.output


def test_timeline_text_marks_an_illegal_step_with_the_rule_it_breaks(tmp_path: Path) -> None:
    log = json.loads((EXAMPLES_DIR / "modifier-alone.json").read_text())
    del log["steps"][0]["expect"]  # no longer an expected rejection: the replay stops there
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(log))
    result = invoke("timeline", str(path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert ", 1 step, INVALID" in lines[1]
    step1 = next(line for line in lines if line.startswith("   1. "))
    assert step1 == f"   1. ILLEGAL Ana resolves {_card('05072')}'s die 1 at Ben's {_card('05019')}"
    assert f"      dispute: {log['steps'][0]['dispute']}" in lines
    ruling = next(line for line in lines if line.startswith("      ruling: "))
    assert ruling.startswith("      ruling: illegal, breaks destiny.dice.modifier-needs-base (A modifier")
    stopped = "Stopped at step 1: illegal-action [destiny.dice.modifier-needs-base]"
    assert any(line.startswith(stopped) for line in lines)


def test_timeline_text_of_a_selfplay_game_has_its_outcome_rounds_and_a_line_per_step(tmp_path: Path) -> None:
    from replays.selfplay import play_game

    game = play_game("timeline-text", max_steps=400)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.log))
    result = invoke("timeline", str(path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    winner = {p["id"]: p["name"] for p in game.log["players"]}[game.state.winner]
    outcome = next(line for line in lines if line.startswith("Outcome: "))
    assert outcome.startswith(f"Outcome: {winner} wins by {game.state.reason} in round {game.state.round}")
    assert outcome.endswith("]") and "destiny.victory." in outcome
    steps = [line for line in lines if line[:4].strip().isdigit() and line[4:6] == ". "]
    assert len(steps) == game.steps + 1  # the setup, then one line per step
    rounds = [line for line in lines if line.startswith("---- Round ")]
    assert len(rounds) == game.state.round
    assert '{"' not in result.output


def test_help_lists_every_registered_command() -> None:
    from arbiter.cli import COMMANDS

    result = invoke("--help")
    for name in COMMANDS:
        assert name in result.output


def test_a_ruling_and_a_malformed_log_in_polish_and_russian(tmp_path: Path) -> None:
    runner = CliRunner()
    example = SHARED / "examples" / "shields-cap.json"
    pl = runner.invoke(main, ["rule", str(example), "--lang", "pl"])
    assert pl.exit_code == 0, pl.output
    assert "Odpowiedź: Zgodne z zasadami." in pl.output and "Zastosowane zasady:" in pl.output
    assert "destiny.shields.max-three: Najwyżej trzy osłony na postać" in pl.output  # the summary in Polish
    ru = runner.invoke(main, ["rule", str(example)], env={"ARBITER_LANG": "ru"})
    assert "Ответ: По правилам." in ru.output and "Что изменилось:" in ru.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "arbiter.replay/1", "game": "destiny", "players": [], "setup": {},
                               "steps": []}))
    out = runner.invoke(main, ["--lang", "pl", "timeline", str(bad)])
    assert out.exit_code == 1
    assert "Wadliwy log:" in out.output and "/players: 'players' musi wymieniać od 2 do 4 graczy" in out.output


def test_the_timeline_in_polish_and_russian() -> None:
    example = SHARED / "examples" / "claim-then-auto-pass.json"
    runner = CliRunner()
    pl = runner.invoke(main, ["timeline", str(example), "--lang", "pl"])
    assert pl.exit_code == 0, pl.output
    lines = pl.output.splitlines()
    assert lines[1] == "Gracze: Ana, Ben" and lines[2] == "Wynik: brak (gra toczy się dalej)"
    assert any(ln.startswith("---- Runda 3, faza akcji ") for ln in lines)
    step2 = next(ln for ln in lines if ln.startswith("   2. "))
    assert "Ana zajmuje pole bitwy Outer Rim Outpost" in step2 and "[destiny.actions.claim-battlefield" in step2
    assert "      uwaga: Ana claimed" in pl.output  # the note is the log's own words
    ru = runner.invoke(main, ["timeline", str(example)], env={"ARBITER_LANG": "ru"})
    assert "Игроки: Ana, Ben" in ru.output and "---- Раунд 3, фаза действий" in ru.output
    en = runner.invoke(main, ["timeline", str(example)])
    assert "claims" in en.output and "Gracze" not in en.output  # English keeps the games' own summaries


def test_a_replay_in_polish() -> None:
    out = CliRunner().invoke(main, ["replay", str(EXAMPLES_DIR / "modifier-alone.json"), "--lang", "pl"])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[:2] == ["modifier-alone.json: poprawny", "Odtworzone kroki: 1"]
    assert "Punkty kontrolne: zgodne 1, niezgodne 0" in out.output


def test_a_log_file_of_too_many_values_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A file within the size limit holding more JSON values than a log may (about 186 MB of
    objects for 2 MB of text once read) is refused on its counted values, exit 2, for every command
    that reads one log."""
    from judge.limits import MAX_NODES

    many = tmp_path / "many.json"
    many.write_text('{"pad":[' + ",".join(["{}"] * (MAX_NODES + 1)) + "]}")
    for command in (["replay"], ["rule"], ["timeline"], ["export-html"]):
        result = CliRunner().invoke(main, [*command, str(many)])
        assert result.exit_code == 2, (command, result.output)
        assert f"a log holds at most {MAX_NODES:,} (MAX_NODES)" in result.output, command


def test_export_html_never_writes_over_its_own_log(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    log = Path("game.html")  # (a log named .html: the default output, here, is the log itself)
    text = (EXAMPLES_DIR / "shields-cap.json").read_text(encoding="utf-8")
    log.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["export-html", str(log)])
    assert result.exit_code == 2 and "is the log itself" in result.output
    assert log.read_text(encoding="utf-8") == text
    again = CliRunner().invoke(main, ["export-html", str(log), "--output", str(tmp_path / "game.html")])
    assert again.exit_code == 2 and log.read_text(encoding="utf-8") == text


def test_a_glob_follows_no_symlinked_folder_and_names_each_file_once(tmp_path: Path,
                                                                      monkeypatch: Any) -> None:
    """``**`` in a glob goes into no symlinked folder (two links to a folder above made glob's paths
    grow without end), matches hidden names only when asked, as glob does, and each file is one log."""
    from arbiter import batch

    (tmp_path / "lp" / "a").mkdir(parents=True)
    (tmp_path / "lp" / ".hid").mkdir()
    for name in ("lp/a/x.json", "lp/top.json", "lp/.hid/h.json", "lp/.dot.json"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "lp" / "a" / "up").symlink_to("..")
    (tmp_path / "lp" / "a" / "up2").symlink_to("..")
    monkeypatch.chdir(tmp_path)
    import threading

    found: list[Any] = []  # (in a thread, waited for 20 s: a glob into the links would run for ever)
    walker = threading.Thread(target=lambda: found.append(batch.find_logs("lp/**/*.json")), daemon=True)
    walker.start()
    walker.join(20)
    assert found == [[Path("lp/a/x.json"), Path("lp/top.json")]]
    assert batch.find_logs("**/x.json") == [Path("lp/a/x.json")]
    whole = [tmp_path / "lp/a/x.json", tmp_path / "lp/top.json"]
    assert batch.find_logs(str(tmp_path / "l*" / "**" / "*.json")) == whole
    assert batch.find_logs("lp/*/*.json") == [Path("lp/a/x.json")]
    assert batch.find_logs("lp/.hid/*.json") == [Path("lp/.hid/h.json")]
    folder = batch.find_logs("lp")  # (a folder given whole: every .json below it, links not followed)
    assert folder == sorted(Path(p) for p in ("lp/a/x.json", "lp/top.json", "lp/.hid/h.json", "lp/.dot.json"))


def test_a_port_out_of_range_is_a_usage_error() -> None:
    for command in ("serve", "run"):
        result = CliRunner().invoke(main, [command, "--port", "99999"])
        assert result.exit_code == 2 and "99999" in result.output, (command, result.output)
