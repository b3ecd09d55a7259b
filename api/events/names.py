"""How the event pages compare player names: one folding for the by-name order (the pairings page, its
CSV, the event's front page) and for the pairings' "find your name" box.

A name is folded by dropping its accents (Unicode NFKD, then no combining marks: "Żółć" is "Zolc",
"Ёлкина" is "Елкина"), spelling out the letters NFKD leaves whole (``LETTERS``: "ł" is "l", "æ" is "ae",
"ß" is "ss"), case folding and one space between words. Cyrillic "й" keeps its breve: it is a letter of
its own, not "и" with an accent. The by-name order is the folded name, then the name as written (so
"Lukasz" and "Łukasz" stay in a fixed order), so "Łukasz" is among the L's, not after Z.

The page's script folds what is typed in the find box the same way, from ``LETTERS`` and ``KEEP`` put
in the page as JSON: the table is written here only.
"""

from __future__ import annotations

import unicodedata

#: letters NFKD does not decompose, as a reader without them would type them
LETTERS: dict[str, str] = {
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE",
    "œ": "oe", "Œ": "OE", "ß": "ss", "ẞ": "SS", "þ": "th", "Þ": "TH", "ħ": "h", "Ħ": "H", "ı": "i",
    "ŧ": "t", "Ŧ": "T", "ŋ": "n", "Ŋ": "N", "ĸ": "k",
}
#: letters whose mark is part of the letter: not folded
KEEP = "йЙ"

_LETTERS = str.maketrans(LETTERS)


def fold(name: str) -> str:
    """``name`` without accents, case or extra spaces ("  Łukasz  ŻÓŁKIEWSKI" -> "lukasz zolkiewski")."""
    out = []
    for ch in name:
        if ch in KEEP:
            out.append(ch)
            continue
        out.extend(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    return " ".join("".join(out).translate(_LETTERS).casefold().split())


def collation_key(name: str) -> tuple[str, str]:
    """The by-name order: the folded name, then the name as written."""
    return fold(name), name
