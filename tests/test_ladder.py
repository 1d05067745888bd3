"""The bid ladder, computed from each ruleset, checked against the sources' own words."""

from __future__ import annotations

import pytest

from regelmotor.bids import fold
from regelmotor.errors import NotationError

from .conftest import HOUSE_RULES, rules_of

LADDER_001 = (
    "7 < 7 vip < 7 gode < 7 sans < 7 halve < 8 < 8 vip < 8 gode < 8 sans < 8 halve < 9 < Sol < 9 vip < "
    "9 gode < 9 sans < 9 halve < 10 < Ren sol < 10 vip < 10 gode < 10 sans < 10 halve < 11 < Bordlægger < "
    "11 vip < 11 gode < 11 sans < 11 halve < 12 < Ren bordlægger < 12 vip < 12 gode < 12 sans < 12 halve < "
    "13 < 13 vip < 13 gode < 13 sans < 13 halve"
)


def test_standard_ladder_is_001s_whole_order() -> None:
    """001: "Hele rækkefølgen fra lavest til højest: 7 < 7 vip < 7 gode < ... < 13 halve." (quoted whole above)."""
    expected = [fold(bid) for bid in LADDER_001.split(" < ")]
    assert [fold(bid.text) for bid in rules_of("standard").auction.ladder] == expected


def test_standard_designations_rank_alm_vip_gode_sans_halve() -> None:
    """001: "På samme antal stik gælder: almindelige < vip < gode < sans < halve"."""
    ladder = rules_of("standard").auction.ladder
    assert [b.text for b in ladder if b.level == 8] == ["8", "8 vip", "8 gode", "8 sans", "8 halve"]


def test_standard_sol_bids_sit_between_plain_and_vip() -> None:
    """001: "Sol ligger mellem 9 og 9 vip, ren sol mellem 10 og 10 vip, bordlægger mellem 11 og 11 vip og
    ren bordlægger mellem 12 og 12 vip"."""
    texts = [b.text for b in rules_of("standard").auction.ladder]
    for sol, level in (("sol", 9), ("ren sol", 10), ("bordlægger", 11), ("ren bordlægger", 12)):
        i = texts.index(sol)
        assert texts[i - 1 : i + 2] == [str(level), sol, f"{level} vip"]


def test_thorsen_designations_follow_the_table_of_4_1_1() -> None:
    """000 4.1.1 lists Ingen (alm.), Gode, Vip i 1., Halve, Vip i 2., Sans, Vip i 3.; 3.1 is lost, so the
    table order is read as ascending (rules-matrix.md section 2)."""
    ladder = rules_of("thorsen").auction.ladder
    assert [b.text for b in ladder if b.level == 10] == [
        "10",
        "10 gode",
        "10 vip1",
        "10 halve",
        "10 vip2",
        "10 sans",
        "10 vip3",
    ]
    texts = [b.text for b in ladder]
    assert texts[texts.index("bordlæggersol") - 1] == "11"
    assert texts[texts.index("ren bordlæggersol") + 1] == "12 gode"


def test_gruppe2_gode_sans_halve_are_equal_and_cannot_overcall_each_other() -> None:
    """003 12: "For at overgå en sol skal der meldes 10, 9 gode/sans/halve/ eller ren sol." """
    ladder = rules_of("gruppe2").auction.ladder
    gode, sans, halve = (ladder.parse(t) for t in ("9 gode", "9 sans", "9 halve"))
    assert gode.rank == sans.rank == halve.rank
    assert ladder.parse("9").rank < ladder.parse("sol").rank < gode.rank
    assert sans not in ladder.higher(gode)
    assert "9 gode = 9 sans = 9 halve" in ladder.describe()


@pytest.mark.parametrize(
    ("sol", "plain_below", "overcalls"),
    [
        ("sol", "9", ["10", "9 gode", "9 sans", "9 halve", "ren sol"]),
        ("ren sol", "10", ["11", "10 gode", "10 sans", "10 halve", "oplægger"]),
        ("oplægger", "11", ["12", "11 gode", "11 sans", "11 halve"]),
    ],
)
def test_gruppe2_what_overcalls_a_sol_bid(sol: str, plain_below: str, overcalls: list[str]) -> None:
    """003 12: "For at overgå en sol skal der meldes 10, 9 gode/sans/halve/ eller ren sol."
    003 13: "For at overgå en ren sol skal der meldes 11, 10 gode/sans/halve/ eller oplægger."
    003 14: "For at overgå en oplægger skal der meldes 12, eller 11 gode/sans/halve." """
    ladder = rules_of("gruppe2").auction.ladder
    bid = ladder.parse(sol)
    assert all(ladder.parse(text).rank > bid.rank for text in overcalls)
    assert ladder.parse(plain_below).rank < bid.rank
    just_above = [b.text for b in ladder.higher(bid) if b.rank == bid.rank + 1]
    assert just_above == [t for t in overcalls if t.endswith(("gode", "sans", "halve"))]


def test_gruppe2_lowest_bid_is_seven_with_a_partner() -> None:
    """003 16: "Laveste melding er 7 stik sammen med makker." """
    assert rules_of("gruppe2").auction.ladder.bids[0].text == "7"


ADDING_BIDS = {
    "staerke": {f"{n} stærke" for n in range(7, 14)},
    "dobbelt-bordlaegger": {"dobbelt bordlægger"},
}
"""House rules that add bids (002's stærke and dobbelt bordlægger), and the bids each adds."""


@pytest.mark.parametrize("house", HOUSE_RULES)
def test_house_rules_do_not_change_the_standard_ladder(house: str) -> None:
    """A house rule keeps every bid of the ladder in its order; only stærke and dobbelt bordlægger add bids."""
    before = rules_of("standard").auction.ladder
    after = rules_of("standard", house).auction.ladder
    added = [b.text for b in after.bids if b.text not in before.by_text]
    assert set(added) == ADDING_BIDS.get(house, set())
    kept = [b for b in after.bids if b.text in before.by_text]
    assert [b.text for b in kept] == [b.text for b in before.bids]
    assert [b.rank for b in kept] == sorted(b.rank for b in kept)


@pytest.mark.parametrize(
    ("name", "text", "canonical"),
    [
        ("thorsen", "8 vip i 2.", "8 vip2"),
        ("thorsen", "ren_bordlaeggersol", "ren bordlæggersol"),
        ("standard", "Ren Bordlægger", "ren bordlægger"),
        ("standard", "bordlaegger", "bordlægger"),
        ("standard", "7 alm", "7"),
        ("gruppe2", "oplaegger", "oplægger"),
    ],
)
def test_bids_accept_display_names_and_ascii_spellings(name: str, text: str, canonical: str) -> None:
    """docs/notation.md: "input also accepts the ruleset's Danish display names (8 vip i 2.)" and
    "Input accepts ae/aa/oe spellings and _ for space"."""
    assert rules_of(name).auction.ladder.parse(text).text == canonical


def test_a_bid_not_in_the_ladder_is_a_clear_error() -> None:
    with pytest.raises(NotationError, match='"14" is not a bid in this ruleset: bids run from 7 to 13 halve'):
        rules_of("standard").auction.ladder.parse("14")
