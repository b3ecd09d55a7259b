"""A setting that cannot be used ends a command with one line (``Error: ...``, exit 1) that names
the setting, the value and what is allowed -- never a traceback, and before anything starts."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbiter import settings
from arbiter.cli import main
from arbiter.redis_conn import redact
from tests.helpers import ROOT

REFUSED = "redis://127.0.0.1:1/0"  # (nothing listens on port 1)


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment with no arbiter setting but a data dir under ``tmp_path``, and ``extra``."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL" and not k.startswith("ARBITER_")}
    return {**env, "ARBITER_DATA_DIR": str(tmp_path / "var"), **extra}


def arbiter(env: dict[str, str], *args: str, preexec_fn: Callable[[], None] | None = None,
            ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arbiter", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60, preexec_fn=preexec_fn)


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The command's only line on stderr, an ``Error: ...`` with exit code 1."""
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    return lines[0]


@pytest.mark.parametrize("value", ["abc", "-5", "0", "99999999999999999999", "1.5"])
@pytest.mark.parametrize("command", [["worker", "--burst"], ["run", "--port", "0", "--no-examples"]])
def test_a_job_timeout_that_is_no_whole_number_of_seconds_in_range_is_refused(
        tmp_path: Path, command: list[str], value: str) -> None:
    line = one_error_line(arbiter(clean_env(tmp_path, ARBITER_JOB_TIMEOUT=value), *command))
    assert f"ARBITER_JOB_TIMEOUT={value} is " in line
    assert "whole number of seconds from 1 to 86400" in line
    assert not (tmp_path / "var").exists()  # nothing started: no embedded Redis


@pytest.mark.parametrize("command", [["worker", "--burst"], ["run", "--port", "0", "--no-examples"],
                                     ["serve", "--port", "0"]])
def test_an_unknown_fsync_policy_is_refused(tmp_path: Path, command: list[str]) -> None:
    line = one_error_line(arbiter(clean_env(tmp_path, ARBITER_REDIS_FSYNC="bogus"), *command))
    assert "ARBITER_REDIS_FSYNC=bogus is not an fsync policy: it must be one of always, everysec, no" in line
    assert not (tmp_path / "var").exists()


@pytest.mark.parametrize(("name", "value", "allowed"), [
    ("ARBITER_JOB_RETRIES", "-1", "from 0 to 100"),
    ("ARBITER_JOB_RETRY_INTERVAL", "soon", "from 0 to 86400"),
    ("ARBITER_RESULT_TTL", "0", "from 1 to 315360000"),
    ("ARBITER_FAILURE_TTL", "1e9", "from 1 to 315360000"),
    ("ARBITER_RULING_TTL", "99999999999999999999", "from 1 to 315360000"),
    ("ARBITER_JOB_MEMORY_MB", "-512", "MB (0: no ceiling) from 0 to 1048576"),
    ("ARBITER_MAX_QUEUED", "0", "from 1 to 100000000"),
    ("ARBITER_JOB_TIMEOUT", "two words", "from 1 to 86400"),
])
def test_every_number_setting_is_checked_the_same_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      name: str, value: str, allowed: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(settings.SettingError) as caught:
        settings.load()
    assert str(caught.value).startswith(f"{name}={settings.shown(value)} is ")
    assert allowed in str(caught.value)
    # and through a command: click's one line, exit code 1
    result = CliRunner().invoke(main, ["worker", "--burst"], env=clean_env(tmp_path, **{name: value}))
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.stderr.strip() == f"Error: {caught.value}"


def test_the_defaults_and_the_bounds_are_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ARBITER_JOB_TIMEOUT", "ARBITER_REDIS_FSYNC", "ARBITER_JOB_MEMORY_MB", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    cfg = settings.load()
    assert (cfg.job_timeout, cfg.redis_fsync, cfg.job_memory_mb) == (30, "always", 512)
    monkeypatch.setenv("ARBITER_JOB_TIMEOUT", "86400")
    monkeypatch.setenv("ARBITER_JOB_MEMORY_MB", "0")  # no memory ceiling, as documented
    monkeypatch.setenv("ARBITER_REDIS_FSYNC", "everysec")
    cfg = settings.load()
    assert (cfg.job_timeout, cfg.redis_fsync, cfg.job_memory_mb) == (86400, "everysec", 0)


@pytest.mark.parametrize("command", [["worker", "--burst"], ["run", "--port", "0", "--no-examples"],
                                     ["serve", "--port", "0"], ["replay", "LOGS", "--queue"]])
def test_a_data_dir_that_is_a_file_is_refused(tmp_path: Path, command: list[str]) -> None:
    data = tmp_path / "var"
    data.write_text("not a directory")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.json").write_text("{}")
    command = [str(logs) if arg == "LOGS" else arg for arg in command]
    line = one_error_line(arbiter(clean_env(tmp_path), *command))
    assert f"ARBITER_DATA_DIR={data} is a file, not a directory: it must be a directory this user can write" in line
    assert data.read_text() == "not a directory"
    below = one_error_line(arbiter(clean_env(tmp_path, ARBITER_DATA_DIR=str(data / "sub")), "worker"))
    assert f"ARBITER_DATA_DIR={data / 'sub'} is under {data}, which is a file" in below


def _without_dac_override() -> None:
    """(a ``preexec_fn``) Drop root's power to write where the mode says no, for the command it runs."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "PR_CAPBSET_DROP")


def test_a_data_dir_this_user_cannot_write_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "var"
    data.mkdir()
    data.chmod(0o555)
    preexec = None
    try:
        if os.geteuid() == 0:  # root writes anywhere: run the command without that power
            if not sys.platform.startswith("linux"):
                pytest.skip("root, and no way to drop CAP_DAC_OVERRIDE here")
            preexec = _without_dac_override
        elif os.access(data, os.W_OK):
            pytest.skip("this file system lets a read-only mode be written")
        try:
            done = arbiter(clean_env(tmp_path), "worker", "--burst", preexec_fn=preexec)
        except subprocess.SubprocessError as exc:  # (the capability could not be dropped)
            pytest.skip(f"cannot run a command without CAP_DAC_OVERRIDE: {exc}")
        line = one_error_line(done)
        assert f"ARBITER_DATA_DIR={data} is not writable by this user" in line
        assert list(data.iterdir()) == []
    finally:
        data.chmod(0o755)


@pytest.mark.parametrize("command", [["worker", "--burst"], ["run", "--port", "0", "--no-examples"],
                                     ["replay", "LOGS", "--queue"]])
def test_a_redis_url_that_does_not_answer_is_named_with_its_password_hidden(tmp_path: Path,
                                                                            command: list[str]) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.json").write_text("{}")
    command = [str(logs) if arg == "LOGS" else arg for arg in command]
    url = "redis://:s3cret@127.0.0.1:1/0"
    line = one_error_line(arbiter(clean_env(tmp_path, REDIS_URL=url), *command))
    assert line.startswith("Error: cannot reach Redis at redis://:***@127.0.0.1:1/0 (REDIS_URL): ")
    assert "Connection refused" in line and "s3cret" not in line
    assert not (tmp_path / "var").exists()  # no embedded Redis instead


@pytest.mark.parametrize("command", [["worker", "--burst"], ["run", "--port", "0", "--no-examples"],
                                     ["serve", "--port", "0"], ["replay", "LOGS", "--queue"]])
def test_a_redis_url_redis_cannot_read_is_refused(tmp_path: Path, command: list[str]) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.json").write_text("{}")
    command = [str(logs) if arg == "LOGS" else arg for arg in command]
    line = one_error_line(arbiter(clean_env(tmp_path, REDIS_URL="nonsense"), *command))
    assert line.startswith("Error: REDIS_URL=nonsense is not a Redis URL (")
    assert "it must be like redis://[:password@]host[:port][/db]" in line


def test_a_refused_redis_url_given_as_an_option_is_named_so(tmp_path: Path) -> None:
    # (REDIS_URL named: the runner puts back what the command sets it to)
    result = CliRunner().invoke(main, ["worker", "--burst", "--redis-url", REFUSED],
                                env={"REDIS_URL": None, "ARBITER_DATA_DIR": str(tmp_path / "var")})
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.stderr.startswith(f"Error: cannot reach Redis at {REFUSED} (--redis-url): ")


def test_a_url_too_broken_to_split_is_shown_without_its_password() -> None:
    assert redact("redis://:pw@[bad") == "redis://***@[bad"
    assert redact("redis://:pw@host:6379/0") == "redis://:***@host:6379/0"
    assert redact("nonsense") == "nonsense"
