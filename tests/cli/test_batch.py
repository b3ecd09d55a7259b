"""``arbiter replay DIR|GLOB``: every log replayed on all cores or on RQ workers (real Redis, a real
worker run in-process), the same lines as one replay at a time, bad files reported and counted."""

from __future__ import annotations

import functools
import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter import batch
from arbiter.cli import main
from replays.selfplay import play_game
from replays.service import replay_json
from worker.queue import make_queue


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("logs")
    for i in range(12):
        log = play_game(f"batch-{i}", "AW-H", "AW-V", policy="heuristic").log
        (out / f"game-{i:02}.json").write_text(json.dumps(log), encoding="utf-8")
    sub = out / "more"
    sub.mkdir()
    illegal = play_game("batch-x", policy="heuristic").log
    illegal["steps"][3]["by"] = "p2" if illegal["steps"][3]["by"] == "p1" else "p1"  # out of turn
    (sub / "illegal.json").write_text(json.dumps(illegal), encoding="utf-8")
    (sub / "malformed.json").write_text(json.dumps({"format": "arbiter.replay/1", "game": "chess"}))
    (sub / "broken.json").write_text("{not json")
    return out


def expected_line(path: Path) -> dict:
    try:
        log = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return {"file": str(path), "valid": False}
    return batch.summary_of(str(path), replay_json(log))


def test_every_core_gives_the_lines_of_one_at_a_time(folder: Path) -> None:
    files = batch.find_logs(str(folder))
    assert len(files) == 15 and files == sorted(files)
    one = batch.run_local(files, 1)
    two = batch.run_local(files, 2)
    assert one == two
    for line, path in zip(one, files, strict=True):
        want = expected_line(path)
        assert {k: line[k] for k in want} == want
    by_name = {Path(ln["file"]).name: ln for ln in one}
    assert by_name["illegal.json"]["error"].startswith("step 4: illegal-action")
    assert by_name["malformed.json"]["error"].startswith("malformed: /")
    assert by_name["broken.json"]["error"].startswith("unreadable:")
    totals = batch.summarize(one)
    assert (totals["logs"], totals["valid"], totals["invalid"]) == (15, 12, 3)
    assert sum(totals["outcomes"].values()) == 12


@pytest.mark.parametrize("deaths", [("game-03.json",), ("game-00.json", "game-07.json", "broken.json")])
def test_a_file_whose_process_dies_is_its_line_and_every_other_file_is_replayed(
        folder: Path, monkeypatch: pytest.MonkeyPatch, deaths: tuple[str, ...]) -> None:
    files = batch.find_logs(str(folder))
    want = batch.run_local(files, 1)
    replay_file = batch.replay_file

    def dies_on_some(path: str) -> dict[str, Any]:  # (the forked worker processes run this one)
        if Path(path).name in deaths:
            os._exit(9)  # as a process the kernel killed: no exception, no answer
        return replay_file(path)

    monkeypatch.setattr(batch, "replay_file", dies_on_some)
    monkeypatch.setattr(batch, "CHUNK", 4)
    counted: list[int] = []
    got = batch.run_local(files, 2, progress=counted.append)
    assert [ln["file"] for ln in got] == [str(f) for f in files] and sum(counted) == len(files)
    for line, before in zip(got, want, strict=True):
        if Path(line["file"]).name in deaths:
            assert line["valid"] is False and line["error"].startswith("the process replaying it died")
        else:
            assert line == before


def test_the_command_prints_a_summary_and_says_by_its_exit_code(folder: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["replay", str(folder), "-j", "2"])
    assert result.exit_code == 1, result.output
    assert "15 logs" in result.output and "invalid" in result.output and "illegal.json" in result.output
    good = runner.invoke(main, ["replay", str(folder / "game-0*.json"), "--json"])
    assert good.exit_code == 0, good.output
    body = json.loads(good.output)
    assert body["summary"]["logs"] == 10 and body["summary"]["invalid"] == 0
    assert [Path(ln["file"]).name for ln in body["logs"]] == [f"game-{i:02}.json" for i in range(10)]
    none = runner.invoke(main, ["replay", str(folder / "nothing-*.json")])
    assert none.exit_code == 2 and "no log files match" in none.output


def test_a_link_to_nothing_and_a_name_that_is_not_utf8_get_their_lines(folder: Path, tmp_path: Path) -> None:
    """A dangling link (or a loop of links) is a line that says it cannot be read, not left out of the
    count; a file name of bytes that are not UTF-8 is written escaped, so that --json stays UTF-8."""
    good = (folder / "game-00.json").read_bytes()
    (tmp_path / "ok.json").write_bytes(good)
    os.symlink(tmp_path / "gone.json", tmp_path / "dangling.json")
    os.symlink(tmp_path / "loopb.json", tmp_path / "loopa.json")
    os.symlink(tmp_path / "loopa.json", tmp_path / "loopb.json")
    os.makedirs(tmp_path / "raw")
    with open(os.path.join(os.fsencode(tmp_path / "raw"), b"caf\xe9.json"), "wb") as f:
        f.write(good)
    files = batch.find_logs(str(tmp_path))
    assert sorted(f.name for f in files) == sorted(["ok.json", "dangling.json", "loopa.json", "loopb.json",
                                                    os.fsdecode(b"caf\xe9.json")])
    result = CliRunner().invoke(main, ["replay", str(tmp_path), "--json", "-j", "1"])
    assert result.exit_code == 1
    body = json.loads(result.stdout_bytes.decode("utf-8"))  # (strict: the output is UTF-8)
    lines = {Path(ln["file"]).name: ln for ln in body["logs"]}
    assert lines["caf\\xe9.json"]["valid"] is True
    assert all(lines[n]["error"].startswith("unreadable:") for n in ("dangling.json", "loopa.json", "loopb.json"))
    assert body["summary"]["invalid"] == 3 and body["summary"]["not_replayed"] == 0


def test_a_checkpoint_fault_names_its_step_once() -> None:
    line = batch.summary_of("x.json", {"valid": False, "error": {
        "at": 1, "kind": "checkpoint-mismatch", "message": "step 1: the state hash differs"}})
    assert line["error"] == "step 1: checkpoint-mismatch: the state hash differs"


def test_an_interrupted_batch_stops_handing_out_work_and_says_how_far_it_got(
        folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C: the chunks not begun are dropped (a pool went on replaying the whole batch, then printed
    only 'Aborted!'), the command says how many logs it answered and exits 130."""
    begun: list[int] = []
    real = batch._replay_chunk

    def chunk(paths: Any) -> Any:
        begun.append(len(paths))
        raise KeyboardInterrupt

    monkeypatch.setattr(batch, "run_local", lambda files, jobs, progress: [chunk(files[:1])])
    result = CliRunner().invoke(main, ["replay", str(folder), "-j", "2"])
    assert result.exit_code == 130, result.output
    assert "interrupted: 0 of 15 logs answered" in result.output
    monkeypatch.undo()
    # the pool: after the interrupt, the chunks not yet handed out never start
    monkeypatch.setattr(batch, "_replay_chunk", functools.partial(_slow_chunk, str(tmp_path)))
    tasks = [[f"log-{i}"] for i in range(15)]

    def progress(n: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        batch._pooled(tasks, 2, progress)
    started = len(list(tmp_path.glob("*.started")))
    assert 1 <= started <= 6, started  # (the ones under way, and the pool's few handed out ahead)
    assert real is not batch._replay_chunk


def _slow_chunk(folder: str, paths: Any) -> list[dict[str, Any]]:
    """A chunk that marks it began and takes a while (a forked pool process runs this one)."""
    Path(folder, paths[0] + ".started").touch()
    time.sleep(0.3)
    return [{"file": p, "valid": True, "steps": 0, "outcome": None, "error": None} for p in paths]


def test_queued_batch_runs_on_workers_and_is_rerun_safe(folder: Path, redis_url: str, redis_db: redis.Redis,
                                                        run_jobs: Callable[[], bool], tmp_path: Path) -> None:
    copy = tmp_path / "the-same-game.json"  # a log already stored under another name: one job serves both
    copy.write_text((folder / "game-00.json").read_text(encoding="utf-8"), encoding="utf-8")
    deep = tmp_path / "too-deep.json"  # out of the format's bounds: no content address, a malformed line
    nested: list = []
    for _ in range(40):
        nested = [nested]
    deep.write_text(json.dumps({"format": "arbiter.replay/1", "meta": nested}))
    files = [*batch.find_logs(str(folder)), deep, copy]
    conn = redis.Redis.from_url(redis_url)
    out: list = []
    runner = threading.Thread(target=lambda: out.append(batch.run_queued(files, conn, timeout=120)))
    runner.start()
    while runner.is_alive():
        run_jobs()
        runner.join(0.2)
    lines = out[0]
    from arbiter import store

    for path in files[:3]:  # stored as the canonical text its ID hashes
        log = json.loads(path.read_text(encoding="utf-8"))
        assert redis_db.get(store.log_key(store.log_id(log))) == json.dumps(
            log, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    local = batch.run_local(files, 1)
    assert lines == local  # the same lines as replaying here, bad files included
    assert lines[-2]["error"].startswith("malformed: /meta/") and lines[-2]["valid"] is False
    assert {**lines[-1], "file": ""} == {**lines[0], "file": ""} and lines[-1]["valid"]
    assert make_queue(conn).count == 0
    again = batch.run_queued(files, conn, timeout=5)  # every result is stored: nothing is queued again
    assert again == lines
    assert make_queue(conn).count == 0


def test_a_new_log_is_stored_only_once_its_job_found_it_well_formed(
        folder: Path, redis_url: str, redis_db: redis.Redis, run_jobs: Callable[[], bool], client: Any) -> None:
    """The batch stages a new log unchecked (never listed nor served) and its replay job checks it: a
    well-formed log (one that breaks a rule among them) is stored with its result, as the API stores
    it; a malformed one is dropped, its faults its answer: the lines of a replay here. A re-run
    stages and queues nothing again."""
    from arbiter import store

    files = batch.find_logs(str(folder))
    conn = redis.Redis.from_url(redis_url)
    queued = batch.run_queued(files, conn, timeout=0)  # no worker yet
    assert all(not ln["valid"] for ln in queued)
    ids = {}
    for path in files:
        if path.name != "broken.json":
            ids[path.name], _ = batch.unchecked_canonical(json.loads(path.read_text(encoding="utf-8")))
    assert len(redis_db.keys("arbiter:replay:*:staged")) == len(ids) == 14
    assert redis_db.keys("arbiter:replay:*:log") == [] and redis_db.zcard(store.INDEX_KEY) == 0
    for rid in (ids["malformed.json"], ids["game-00.json"]):
        assert client.get(f"/v1/replays/{rid}").status_code == 404  # staged: not served
    assert make_queue(conn).count == 14
    run_jobs()
    lines = batch.run_queued(files, conn, timeout=5)
    assert lines == batch.run_local(files, 1)
    assert redis_db.keys("arbiter:replay:*:staged") == [] and make_queue(conn).count == 0
    for path, line in zip(files, lines, strict=True):
        if path.name == "broken.json":
            continue
        rid, log = ids[path.name], json.loads(path.read_text(encoding="utf-8"))
        if path.name == "malformed.json":
            assert line["error"].startswith("malformed: /")
            assert not redis_db.exists(store.log_key(rid)) and redis_db.zscore(store.INDEX_KEY, rid) is None
            assert store.get_replay_error(redis_db, rid)["kind"] == "malformed"
            assert client.get(f"/v1/replays/{rid}").status_code == 404
            continue
        assert store.get_log(redis_db, rid) == log and redis_db.zscore(store.INDEX_KEY, rid) is not None
        assert store.get_result(redis_db, rid) == json.loads(json.dumps(replay_json(log)))
        meta = json.loads(redis_db.get(store.meta_key(rid)))
        assert {k: meta[k] for k in ("id", "game", "steps")} == {"id": rid, "game": log["game"],
                                                                 "steps": len(log["steps"])}
        assert client.get(f"/v1/replays/{rid}").status_code == 200
    assert redis_db.exists(store.log_key(ids["illegal.json"]))  # well-formed, breaks a rule: stored
    again = batch.run_queued(files, conn, timeout=5)  # nothing staged or queued again, the same lines
    assert again == lines
    assert redis_db.keys("arbiter:replay:*:staged") == [] and make_queue(conn).count == 0


def test_the_unchecked_log_id_is_log_id_or_the_same_fault(folder: Path) -> None:
    """batch.unchecked_canonical: the ID log_id gives a log within its JSON bounds, with the text it
    hashes (the same JSON value); for a log outside them, either log_id's MalformedLog or an ID no
    stored log has whose validation finds the fault log_id raises."""
    import hashlib

    from arbiter import store
    from replays.service import MalformedLog, log_id, validate

    logs = [json.loads(p.read_text(encoding="utf-8")) for p in batch.find_logs(str(folder))
            if p.name != "broken.json"]
    deep: list = []
    for _ in range(40):
        deep = [deep]
    good = logs[0]
    outside = [
        {"format": "arbiter.replay/1", "meta": deep},  # nested too deeply for the bounds
        {**good, "meta": {"title": "x" * 1_000_000}},  # a string too long
        {**good, "meta": {"n": 10**40}},  # an integer out of range
        {**good, "meta": {"n": float("nan")}},  # not finite: the canonical text cannot be written
        {**good, "meta": {"title": "\ud800"}},  # a lone surrogate: nor can it be encoded
        {**good, "meta": {"title": "é and ü", "tags": ["ß"]}},  # within bounds, not ASCII
    ]
    for log in logs + outside:
        try:
            expected = log_id(log)
        except MalformedLog as exc:
            try:
                got, _ = batch.unchecked_canonical(log)
            except MalformedLog as again:
                assert [f.to_json() for f in again.faults] == [f.to_json() for f in exc.faults]
            else:
                assert [f.to_json() for f in validate(log)] == [f.to_json() for f in exc.faults]
                assert got != store.log_id(good)
            continue
        got, canon = batch.unchecked_canonical(log)
        assert got == expected and canon is not None and hashlib.sha256(canon).hexdigest() == got
        assert json.loads(canon) == log


def test_a_replay_does_not_depend_on_the_order_of_the_logs_keys() -> None:
    """The batch stores a log as its canonical text (keys sorted): each game's logs, the examples
    among them, replay to the same result in either order (what a content address assumes)."""
    examples = sorted((Path(__file__).resolve().parents[2] / "replays" / "examples").rglob("*.json"))
    logs = [json.loads(p.read_text(encoding="utf-8")) for p in examples]
    logs += [play_game(f"order-d-{i}", "AW-H", "LEG-V", policy="heuristic").log for i in range(3)]
    logs += [play_game(f"order-s-{i}", "DARK-60", "LIGHT-60", game="swtcg", max_steps=400).log for i in range(2)]
    logs += [play_game(f"order-r-{i}", "battle-sister", "tech-priest", game="relic").log for i in range(2)]
    assert {log["game"] for log in logs} == {"destiny", "swtcg", "relic"}
    moved = 0
    for log in logs:
        canon = json.loads(json.dumps(log, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
        moved += json.dumps(canon) != json.dumps(log)
        assert replay_json(canon) == replay_json(log)
    assert moved >= len(logs) // 2  # (the keys of most did move)


def test_a_look_at_the_results_reads_on_only_while_a_chunk_had_finished_ones(
        redis_db: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    from arbiter import store

    monkeypatch.setattr(batch, "GATHER", 3)
    rids = [f"{n:064x}" for n in range(8)]
    waiting = {i: (f"f{i}", rid) for i, rid in enumerate(rids)}
    result = {"valid": True, "steps": 3, "outcome": {"winner": "p1", "reason": "r"}}
    for n in (4, 7):  # finished out of order, behind a chunk (0-2) with none finished
        redis_db.set(store.result_key(rids[n]), json.dumps(result))
    lines: dict = {}
    assert batch._gather(redis_db, waiting, lines, every=False) == []
    redis_db.set(store.replay_error_key(rids[1]), json.dumps({"kind": "ceiling", "message": "too slow"}))
    assert batch._gather(redis_db, waiting, lines, every=False) == [1, 4, 7]  # 3-5 had one: 6-7 read too
    assert lines[1]["error"] == "ceiling: too slow" and lines[4] == batch.summary_of("f4", result)
    for i in (1, 4, 7):
        del waiting[i]
    lines.clear()
    redis_db.set(store.result_key(rids[6]), json.dumps(result))
    assert batch._gather(redis_db, waiting, lines, every=False) == []  # 0, 2, 3: none finished
    assert batch._gather(redis_db, waiting, lines, every=True) == [6]  # the last look reads them all
    assert lines == {6: batch.summary_of("f6", result)}


def test_a_look_reads_a_few_results_first_then_twice_as_many_a_chunk(
        redis_db: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    from arbiter import store

    monkeypatch.setattr(batch, "GATHER_FIRST", 2)
    monkeypatch.setattr(batch, "GATHER", 4)
    rids = [f"{n:064x}" for n in range(20)]
    waiting = {i: (f"f{i}", rid) for i, rid in enumerate(rids)}
    result = {"valid": True, "steps": 3, "outcome": None}
    for n in (0, 5, 13):  # chunks 0-1, 2-5, 6-9 (none: the look stops), 10-13, ...
        redis_db.set(store.result_key(rids[n]), json.dumps(result))
    lines: dict = {}
    assert batch._gather(redis_db, waiting, lines, every=False) == [0, 5]
    assert batch._gather(redis_db, waiting, lines, every=True) == [0, 5, 13]


def test_looks_come_quicker_once_the_rest_would_finish_within_a_poll() -> None:
    poll = batch.POLL
    assert batch._pause(2000, 2000, 1.0) == poll  # nothing finished yet: the rate is not known
    assert batch._pause(2000, 500, 30.0) == poll  # 50 a second: 500 take ten seconds
    assert batch._pause(2000, 11, 40.0) == poll and batch._pause(2000, 9, 40.0) == poll / 4  # the last ~10
    assert batch._pause(3, 3, 0.0) == poll / 4  # a batch of a few, just queued


def test_the_collector_is_paused_for_a_chunk_only_and_left_as_it_was() -> None:
    import gc

    assert gc.isenabled()
    with batch._cyclic_gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), batch._cyclic_gc_paused():
        raise RuntimeError("a chunk that fails")
    assert gc.isenabled()
    gc.disable()
    try:
        with batch._cyclic_gc_paused():
            pass
        assert not gc.isenabled()  # disabled before: not enabled by the batch
    finally:
        gc.enable()


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20)


def _canonical_as_before(text: str) -> tuple[str, bytes | None] | type:
    """What the batch made of a file's text before orjson: json.loads, then unchecked_canonical (or the
    exception either raised)."""
    from replays.service import MalformedLog

    try:
        return batch.unchecked_canonical(json.loads(text))
    except (MalformedLog, ValueError, RecursionError) as exc:
        return type(exc)


def _canonical_now(text: str) -> tuple[str, bytes | None] | type:
    from replays.service import MalformedLog

    try:
        log, rid, canon = batch.read_canonical(text)
    except (MalformedLog, ValueError, RecursionError) as exc:
        return type(exc)
    assert log == json.loads(text) or log != log  # (the same value read: NaN is not equal to itself)
    return rid, canon


@settings(max_examples=400, deadline=None)
@given(value=_JSON, ensure_ascii=st.booleans())
def test_a_logs_canonical_text_and_id_are_those_json_dumps_gives(value: Any, ensure_ascii: bool) -> None:
    """batch.read_canonical writes the canonical text with orjson where it can: the same bytes and ID
    as json.dumps's canonical text for every JSON value (strings of any character, keys in any order,
    integers past 64 bits, floats, NaN), or the same exception; the file's own spacing and escapes
    (ensure_ascii) do not matter."""
    text = json.dumps({"format": "arbiter.replay/1", "meta": value}, ensure_ascii=ensure_ascii, indent=1)
    assert _canonical_now(text) == _canonical_as_before(text)


def test_canonical_texts_of_characters_and_numbers_json_and_orjson_might_write_apart() -> None:
    deep: Any = "x"
    for _ in range(300):  # past orjson's depth: json.dumps writes it
        deep = [deep]
    values = [
        "".join(map(chr, range(0, 0x80))), "\u2028\u2029\u00a0\ufeff\U0001f600\U0010ffff", '\\"/<>&\x7f',
        {"\U0001f600": 1, "\uffff": 2, "a": 3, "A": 4, "": 5, "é": 6, "\x00": 7},  # key order by code point
        [2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1, 0, -0], [1.0, 1e-05, 1e16, 0.1, -0.0, 1e308],
        deep, "\ud800",
    ]
    for value in values:
        for text in (json.dumps(value), json.dumps(value, ensure_ascii=False), json.dumps({"v": value}, indent=2)):
            assert _canonical_now(text) == _canonical_as_before(text), text[:80]
    for text in ("[NaN]", '{"a": Infinity}', "[-Infinity]", "[1E400]", '{"a": 1, "a": 2}', "[" * 100_000, "{"):
        assert _canonical_now(text) == _canonical_as_before(text), text[:80]


def _queued_lines(files: list[Path], conn: redis.Redis, run_jobs: Callable[[], bool],
                  timeout: float | None = 60) -> list[dict[str, Any]]:
    """``run_queued`` in a thread, jobs run here meanwhile (as workers would), its lines."""
    out: list = []
    runner = threading.Thread(target=lambda: out.append(batch.run_queued(files, conn, timeout=timeout)))
    runner.start()
    while runner.is_alive():
        run_jobs()
        runner.join(0.1)
    return out[0]


def _logs(tmp_path: Path, n: int, seed: str) -> list[Path]:
    paths = []
    for i in range(n):
        path = tmp_path / f"{seed}-{i}.json"
        path.write_text(json.dumps(play_game(f"{seed}-{i}", "AW-H", "AW-V", policy="heuristic").log))
        paths.append(path)
    return paths


def test_a_job_that_fails_for_good_gives_its_log_a_line_not_a_wait_without_end(
        tmp_path: Path, redis_url: str, redis_db: redis.Redis, run_jobs: Callable[[], bool],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay job that fails with no answer stored (here it raises; a worker killed once too often
    ends so too), RQ's retries spent: the batch, which waits for answers, looks at the jobs still
    waiting every CHECK_JOBS seconds and gives that log a line saying so (with no timeout it waited
    for ever); the other logs' lines are their replays'."""
    from arbiter import store
    from worker import jobs

    monkeypatch.setattr(batch, "CHECK_JOBS", 0.1)
    monkeypatch.setenv("ARBITER_JOB_RETRIES", "0")
    files = _logs(tmp_path, 3, "fails")
    failing, _ = batch.unchecked_canonical(json.loads(files[1].read_text()))
    real = jobs.replay_stored

    def replay_stored(replay_id: str) -> Any:
        if replay_id == failing:
            raise RuntimeError("failing on purpose")
        return real(replay_id)

    monkeypatch.setattr(jobs, "replay_stored", replay_stored)
    conn = redis.Redis.from_url(redis_url)
    lines = _queued_lines(files, conn, run_jobs)  # (60 s at most: before, it waited till then, for ever without one)
    assert lines[1]["valid"] is False
    assert lines[1]["error"] == "the replay job failed with no answer stored: RuntimeError: failing on purpose"
    assert [lines[0], lines[2]] == batch.run_local([files[0], files[2]], 1)
    assert store.get_result(conn, failing) is None
    conn.close()


def test_a_log_claimed_by_a_run_that_stopped_before_queueing_it_is_queued_again(
        tmp_path: Path, redis_url: str, redis_db: redis.Redis, run_jobs: Callable[[], bool],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Another run claimed a log's replay job and stopped before queueing it (Ctrl-C between the two
    round trips): this run cannot claim it, waits, and once that claim lapses claims it and queues it
    itself; the log's line is its replay's, not a wait without end."""
    from arbiter import store

    monkeypatch.setattr(batch, "CHECK_JOBS", 0.1)
    files = _logs(tmp_path, 2, "claimed")
    rid, _ = batch.unchecked_canonical(json.loads(files[0].read_text()))
    redis_db.set(store.replay_claim_key(rid), "1", px=600)  # (the stopped run's claim, lapsing soon)
    conn = redis.Redis.from_url(redis_url)
    lines = _queued_lines(files, conn, run_jobs)
    assert lines == batch.run_local(files, 1) and all(ln["valid"] for ln in lines)
    assert store.get_result(conn, rid) is not None
    conn.close()


def test_a_re_run_reads_the_new_jobs_answer_not_a_ceiling_error_left_by_an_earlier_one(
        tmp_path: Path, redis_url: str, redis_db: redis.Redis, run_jobs: Callable[[], bool]) -> None:
    """A log whose last replay passed a ceiling (its error kept a while, not its answer: a later run
    queues it again, say after the operator raised the ceiling): the run's line is the new job's,
    not the old error read back before that job ran."""
    from arbiter import store

    files = _logs(tmp_path, 1, "ceiling")
    rid, _ = batch.unchecked_canonical(json.loads(files[0].read_text()))
    store.put_replay_error(redis_db, rid, {"kind": "ceiling", "message": "the replay took too long"}, 3600)
    conn = redis.Redis.from_url(redis_url)
    lines = _queued_lines(files, conn, run_jobs)
    assert lines == batch.run_local(files, 1) and lines[0]["valid"] is True
    assert store.get_replay_error(conn, rid) is None
    conn.close()


def test_a_file_of_too_many_values_is_a_line_before_it_is_read(tmp_path: Path, redis_url: str,
                                                              redis_db: redis.Redis,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A file within MAX_BODY_BYTES holding more JSON values than a log may (empty objects: about 186
    MB once read for 2 MB of text) is refused on its counted values, locally and through the queue,
    as the API refuses such a body: json.loads never builds it."""
    from judge.limits import MAX_BODY_BYTES, MAX_NODES

    many = tmp_path / "many.json"
    many.write_text('{"steps":[' + ",".join(["{}"] * (MAX_NODES + 5)) + "]}")
    assert many.stat().st_size < MAX_BODY_BYTES
    loads = json.loads

    def guarded(text: Any, *args: Any, **kwargs: Any) -> Any:
        assert len(text) < MAX_NODES, "json.loads was given the file"
        return loads(text, *args, **kwargs)

    monkeypatch.setattr(batch.json, "loads", guarded)
    want = f"malformed: /: the log holds {MAX_NODES + 7:,} JSON values; the limit is {MAX_NODES:,} (MAX_NODES)"
    local = batch.run_local([many], 1)
    assert local == [{"file": str(many), "valid": False, "steps": 0, "outcome": None, "error": want}]
    conn = redis.Redis.from_url(redis_url)
    assert batch.run_queued([many], conn, timeout=5) == local
    conn.close()


def test_an_engine_fault_on_one_log_is_its_line_not_the_batchs_end(folder: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from replays import service

    files = batch.find_logs(str(folder))[:3]
    real = service.replay_json

    def replay_json(log: Any, cards: Any = None) -> dict:
        if json.dumps(log) == files[1].read_text():
            raise KeyError("an engine fault")
        return real(log, cards)

    monkeypatch.setattr(service, "replay_json", replay_json)
    lines = batch.run_local(files, 1)
    assert lines[1] == {"file": str(files[1]), "valid": False, "steps": None, "outcome": None,
                        "error": "engine error: KeyError: 'an engine fault'"}
    assert lines[0]["valid"] and lines[2]["valid"]


def test_a_job_that_ran_after_its_staged_log_expired_gives_its_log_a_line(
        tmp_path: Path, redis_url: str, redis_db: redis.Redis, run_jobs: Callable[[], bool],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A log staged and queued, its staged copy gone before its job ran (it expires after a week): the
    job finds no log and ends with no answer stored; a run that finds that job (its claim still held,
    so it queues nothing) gives the log a line saying to run the batch again, not a wait without end."""
    from arbiter import store

    monkeypatch.setattr(batch, "CHECK_JOBS", 0.1)
    files = _logs(tmp_path, 1, "expired")
    rid, _ = batch.unchecked_canonical(json.loads(files[0].read_text()))
    conn = redis.Redis.from_url(redis_url)
    assert batch.run_queued(files, conn, timeout=0)[0]["valid"] is False  # (queued, no worker yet)
    redis_db.delete(store.staged_key(rid))
    run_jobs()
    lines = batch.run_queued(files, conn, timeout=30)
    assert lines[0]["valid"] is False and lines[0]["error"].startswith("not-found: "), lines
    conn.close()


def test_a_queued_batch_with_no_worker_says_so_once_and_waits_on(folder: Path, redis_db: redis.Redis,
                                                                 redis_url: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "CHECK_JOBS", 0.2)  # (a look at the workers every 0.2 s, not 5)
    conn = redis.Redis.from_url(redis_url)
    told: list[str] = []
    files = batch.find_logs(str(folder / "game-0[01].json"))
    lines = batch.run_queued(files, conn, timeout=1.5, notice=told.append)
    assert [ln["error"].split(" (")[0] for ln in lines] == ["not replayed within 1.5 s"] * 2
    totals = batch.summarize(lines)  # (not counted as invalid: nobody replayed them)
    assert (totals["valid"], totals["invalid"], totals["not_replayed"]) == (0, 0, 2)
    assert len(told) == 1, told  # said once, not at every look
    assert told[0].startswith("no worker has taken a job yet after ")
    assert "2 logs wait on the queue 'arbiter'" in told[0] and "`arbiter worker`" in told[0]
    assert "Still waiting" in told[0] and "running the batch again is safe" in told[0]
    conn.close()


def test_the_command_says_on_stderr_that_no_worker_took_a_job_and_goes_on_when_one_does(
        folder: Path, tmp_path: Path, redis_db: redis.Redis, redis_url: str,
        run_jobs: Callable[[], bool]) -> None:
    import os
    import queue as queue_mod
    import subprocess
    import sys
    import time

    from tests.helpers import ROOT, stop_process

    logs = tmp_path / "logs"
    logs.mkdir()
    for name in ("game-00.json", "game-01.json"):
        (logs / name).write_text((folder / name).read_text(encoding="utf-8"), encoding="utf-8")
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("ARBITER_")}, "REDIS_URL": redis_url,
           "ARBITER_DATA_DIR": str(tmp_path / "var")}
    proc = subprocess.Popen([sys.executable, "-m", "arbiter", "replay", str(logs), "--queue"], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    errs: queue_mod.Queue[str] = queue_mod.Queue()
    reader = threading.Thread(target=lambda: [errs.put(line) for line in proc.stderr or ()], daemon=True)
    reader.start()
    try:
        began = time.monotonic()
        line = errs.get(timeout=30)  # (no --timeout: without the line, a wait with no end and no word)
        assert time.monotonic() - began >= batch.CHECK_JOBS - 1  # a few seconds first
        assert line.startswith("arbiter: no worker has taken a job yet after "), line
        assert "`arbiter worker`" in line and "Still waiting" in line
        assert proc.poll() is None  # still waiting
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            run_jobs()
            time.sleep(0.2)
        assert proc.poll() == 0
        reader.join(10)
        assert "2 logs" in (proc.stdout.read() if proc.stdout else "")
        assert "Traceback" not in "".join(errs.queue)
    finally:
        stop_process(proc)
