"""The four starter decks as sold (destiny.setup.starter-sets): characters with their dice,
battlefield and the 20-card deck. Used by self-play and as ready-made player entries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Starter:
    code: str
    name: str
    characters: tuple[tuple[str, int], ...]
    battlefield: str
    deck: tuple[str, ...]

    def player(self, pid: str, name: str) -> dict[str, Any]:
        """A log's player entry for this starter deck."""
        return {
            "id": pid,
            "name": name,
            "characters": [{"card": c, "dice": d} for c, d in self.characters],
            "battlefield": self.battlefield,
            "plot": None,
            "deck": list(self.deck),
        }


STARTERS: dict[str, Starter] = {
    s.code: s
    for s in (
        Starter(
            "LEG-H",
            "Luke Skywalker Starter Set",
            (("05031", 2), ("05046", 1)),
            "05178",
            (
                "05035",
                "05052",
                "05056",
                "05058",
                "05072",
                "05073",
                "05102",
                "05116",
                "05119",
                "05121",
                "05122",
                "05125",
                "05128",
                "05130",
                "05133",
                "05134",
                "05147",
                "05150",
                "05153",
                "05167",
            ),
        ),
        Starter(
            "LEG-V",
            "Boba Fett Starter Set",
            (("05013", 1), ("05019", 2)),
            "05174",
            (
                "05025",
                "05026",
                "05027",
                "05064",
                "05072",
                "05073",
                "05084",
                "05086",
                "05096",
                "05097",
                "05098",
                "05136",
                "05137",
                "05139",
                "05143",
                "05151",
                "05152",
                "05155",
                "05160",
                "05163",
            ),
        ),
        Starter(
            "AW-H",
            "Rey Starter Set",
            (("01038", 2), ("01045", 1)),
            "01174",
            (
                "01008",
                "01040",
                "01043",
                "01044",
                "01057",
                "01059",
                "01117",
                "01124",
                "01124",
                "01126",
                "01128",
                "01130",
                "01149",
                "01151",
                "01153",
                "01154",
                "01155",
                "01156",
                "01157",
                "01162",
            ),
        ),
        Starter(
            "AW-V",
            "Kylo Ren Starter Set",
            (("01002", 1), ("01011", 2)),
            "01168",
            (
                "01006",
                "01008",
                "01014",
                "01017",
                "01059",
                "01060",
                "01075",
                "01081",
                "01084",
                "01089",
                "01089",
                "01091",
                "01146",
                "01149",
                "01151",
                "01153",
                "01154",
                "01155",
                "01156",
                "01157",
            ),
        ),
    )
}
