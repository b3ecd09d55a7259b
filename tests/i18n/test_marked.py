"""Every user-facing string of the modules that produce text is marked for translation, and every
marked string is in the catalogs (``make catalogs`` was run after the last change).

The scan reads the functions that write a ruling's, an event's and the CLI ruling's words (the
text that a judge reads in Polish or Russian): a string literal there with two words in it must be
an argument of ``gettext``/``ngettext``/``pgettext``/``N_``/``NP_`` (or a docstring). The web
templates are checked by tests/i18n/test_pages_marked.py."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import i18n

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "i18n" / "catalogs"
# module -> the functions (and methods, by name) that write human text
TEXT_FUNCTIONS = {
    "replays/viewer.py": {"card", "name", "key", "count", "_fill", "describe_event", "describe_decision",
                          "step_words", "key_word", "_of", "changes", "_table_change", "_record_change",
                          "_pool_change", "_cards_change", "outcome_words"},
    "replays/ruling.py": {"ruling_words", "_step_plain", "_decides", "_answer"},
    "arbiter/render.py": {"ruling_lines", "outcome_line", "_summary", "replay_lines", "worded_timeline_lines"},
    "arbiter/cmd_rules.py": None,  # every function
}
MARKERS = {"gettext", "ngettext", "pgettext", "N_", "NP_", "_"}
WORDS = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}")


def _called(node: ast.Call) -> str | None:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def unmarked(source: str, functions: set[str] | None) -> list[tuple[int, str]]:
    """String literals with words in them, in ``functions`` of ``source``, outside a marker call."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, inside: bool, marked: bool, fstring: bool = False) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside = functions is None or node.name in functions
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                body = body[1:]  # the docstring
            for child in body:
                visit(child, inside, marked)
            return
        if isinstance(node, ast.Call) and _called(node) in MARKERS:
            marked = True
            if fstring and inside:  # pybabel reads no call inside an f-string: never extracted
                found.append((node.lineno, f"{_called(node)}(...) inside an f-string"))
        fstring = fstring or isinstance(node, ast.JoinedStr)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and inside and not marked:
            if WORDS.search(node.value):
                found.append((node.lineno, node.value))
        for child in ast.iter_child_nodes(node):
            visit(child, inside, marked, fstring)

    visit(tree, False, False)
    return found


def test_the_scan_finds_an_unmarked_string() -> None:
    source = 'def f(t):\n    """A docstring is fine."""\n    return t.gettext("all fine") + "not marked"\n'
    assert unmarked(source, {"f"}) == [(3, "not marked")]
    assert unmarked(source, {"g"}) == []
    inner = 'def f(t, ok):\n    return f"{t.gettext(\'yes\') if ok else 1}"\n'
    assert unmarked(inner, {"f"}) == [(2, "gettext(...) inside an f-string")]


@pytest.mark.parametrize("module", sorted(TEXT_FUNCTIONS))
def test_text_modules_mark_their_strings(module: str) -> None:
    source = (ROOT / module).read_text(encoding="utf-8")
    assert unmarked(source, TEXT_FUNCTIONS[module]) == []


def _ids(path: Path) -> set[tuple[str | None, str]]:
    with open(path, "rb") as fp:
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(fp) if m.id}


@pytest.mark.parametrize("domain, args", [
    ("messages", ["-F", "i18n/babel.cfg", "-k", "N_", "-k", "NP_:1c,2", "-k", "NN_:1,2", "arbiter", "api",
                  "replays", "judge", "worker", "i18n"]),
    ("pages", ["-F", "i18n/babel-pages.cfg", "api", "replays/viewer_assets"]),
])
def test_the_catalog_templates_hold_every_marked_string(domain: str, args: list[str], tmp_path: Path) -> None:
    """A string marked since the last ``make catalogs`` fails here (it would show in English)."""
    out = tmp_path / f"{domain}.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-o", str(out), *args],
                   cwd=ROOT, check=True, capture_output=True)
    extracted = _ids(out)
    committed = _ids(CATALOGS / f"{domain}.pot")
    assert extracted - committed == set(), "run `make catalogs` and translate the new messages"
    for lang in i18n.LANGS[1:]:
        assert extracted - _ids(CATALOGS / lang / "LC_MESSAGES" / f"{domain}.po") == set(), lang
