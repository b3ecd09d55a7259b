"""Which rule IDs the test suite covers, found by reading tests statically (no importing).

A test declares the rules it covers with a marker::

    @pytest.mark.rules("destiny.shields.max-three", "destiny.symbols.shield")
    def test_fourth_shield_is_lost(): ...

Markers are found on test functions, on classes (and their methods), and in ``pytestmark`` at
module or class level (a single mark or a list/tuple of marks). The scan parses each file with
``ast``; a file that does not parse is reported, not raised.

Pure: the caller reads the test files and passes their text (``scan_sources``); the command line
walks the test folder (``arbiter.coverage.scan_tests``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from judge.rules import index

RULE_ID = re.compile(r"(?:destiny|swtcg|relic|tournament)\.[a-z0-9-]+(?:\.[a-z0-9-]+)+")
# A quoted string that is exactly a rule ID (used to find IDs cited in source code).
QUOTED_RULE_ID = re.compile(r"""(["'])(""" + RULE_ID.pattern + r")\1")


@dataclass(frozen=True)
class Citation:
    """One rule ID named by one test (``test`` is ``path::Class::name``, or just ``path`` for a
    module-level ``pytestmark``)."""

    rule_id: str
    test: str
    line: int


@dataclass(frozen=True)
class ScanError:
    path: str
    message: str


@dataclass
class Scan:
    citations: list[Citation] = field(default_factory=list)
    errors: list[ScanError] = field(default_factory=list)


def _is_rules_mark(node: ast.expr) -> bool:
    """``pytest.mark.rules``, ``mark.rules`` or any ``<x>.mark.rules``."""
    if not (isinstance(node, ast.Attribute) and node.attr == "rules"):
        return False
    parent = node.value
    return (isinstance(parent, ast.Attribute) and parent.attr == "mark") or (
        isinstance(parent, ast.Name) and parent.id == "mark"
    )


def _mark_ids(node: ast.expr) -> list[tuple[str, int]] | None:
    """Rule IDs of one ``rules(...)`` mark expression, or None when ``node`` is not one."""
    if isinstance(node, ast.Call) and _is_rules_mark(node.func):
        return [
            (arg.value, arg.lineno)
            for arg in node.args
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
        ]
    return None


def _marks_in(node: ast.expr) -> list[tuple[str, int]]:
    """IDs of a decorator or a ``pytestmark`` value (one mark, or a list/tuple of them)."""
    if isinstance(node, ast.List | ast.Tuple):
        return [found for elt in node.elts for found in _marks_in(elt)]
    return _mark_ids(node) or []


def _pytestmark(body: list[ast.stmt]) -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    for stmt in body:
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        if value is not None and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in targets):
            found.extend(_marks_in(value))
    return found


def _walk(body: list[ast.stmt], prefix: str, out: list[Citation]) -> None:
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}::{stmt.name}"
            for deco in stmt.decorator_list:
                out.extend(Citation(rid, name, line) for rid, line in _marks_in(deco))
            if isinstance(stmt, ast.ClassDef):
                out.extend(Citation(rid, name, line) for rid, line in _pytestmark(stmt.body))
                _walk(stmt.body, name, out)


def scan_source(text: str, path: str) -> list[Citation]:
    """Citations in one test file's source; raises SyntaxError if it does not parse."""
    tree = ast.parse(text, filename=path)
    out = [Citation(rid, path, line) for rid, line in _pytestmark(tree.body)]
    _walk(tree.body, path, out)
    return out


def scan_sources(sources: Iterable[tuple[str, str | bytes]]) -> Scan:
    """Scan test files already read, as ``(path, source)`` pairs in the order given (bytes are
    decoded as UTF-8); test names use ``path``. A file that does not decode or parse is reported."""
    scan = Scan()
    for path, source in sources:
        try:
            text = source.decode("utf-8") if isinstance(source, bytes) else source
            scan.citations.extend(scan_source(text, path))
        except (SyntaxError, UnicodeDecodeError) as exc:
            scan.errors.append(ScanError(path, f"cannot parse: {exc}"))
    return scan


def cited_ids(text: str) -> list[tuple[str, int]]:
    """Rule IDs written as whole quoted strings in Python source, with their line numbers."""
    out = []
    for m in QUOTED_RULE_ID.finditer(text):
        out.append((m.group(2), text.count("\n", 0, m.start()) + 1))
    return out


@dataclass(frozen=True)
class Row:
    rule: index.Rule
    tests: tuple[str, ...]

    @property
    def covered(self) -> bool:
        return bool(self.tests)


@dataclass(frozen=True)
class Report:
    game: str | None
    rows: tuple[Row, ...]
    unknown: tuple[Citation, ...]  # markers naming IDs the index does not know

    @property
    def applicable(self) -> int:
        return sum(1 for r in self.rows if r.rule.applicable)

    @property
    def covered(self) -> int:
        return sum(1 for r in self.rows if r.rule.applicable and r.covered)

    @property
    def percent(self) -> float:
        return 100.0 * self.covered / self.applicable if self.applicable else 100.0


def build_report(citations: Iterable[Citation], game: str | None = None) -> Report:
    by_rule: dict[str, list[str]] = {}
    unknown: list[Citation] = []
    for c in citations:
        if not index.is_known(c.rule_id):
            unknown.append(c)
            continue
        tests = by_rule.setdefault(c.rule_id, [])
        if c.test not in tests:
            tests.append(c.test)
    rows = tuple(Row(rule, tuple(sorted(by_rule.get(rule.id, ())))) for rule in index.rules(game))
    if game is not None:
        unknown = [c for c in unknown if index.game_of(c.rule_id) == game]
    return Report(game=game, rows=rows, unknown=tuple(unknown))


def format_report(report: Report, verbose: bool = True) -> str:
    """A plain-text table: ID, status, covering tests (or summary when uncovered)."""
    lines = []
    width = max((len(r.rule.id) for r in report.rows), default=10)
    for row in report.rows:
        if not row.rule.applicable:
            status = "n/a"
            detail = row.rule.reason
        elif row.covered:
            status = "covered"
            detail = ", ".join(row.tests) if verbose else f"{len(row.tests)} test(s)"
        else:
            status = "-"
            detail = row.rule.summary
        lines.append(f"{row.rule.id:<{width}}  {status:<7}  {detail}")
    for c in report.unknown:
        lines.append(f"UNKNOWN rule ID {c.rule_id!r} cited by {c.test} (line {c.line})")
    scope = report.game or "all games"
    lines.append(
        f"{scope}: {report.covered}/{report.applicable} applicable rules covered ({report.percent:.1f}%), "
        f"{len(report.rows) - report.applicable} not applicable"
    )
    return "\n".join(lines)
