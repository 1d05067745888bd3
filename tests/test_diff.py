"""regelmotor diff: every rule on which two rulesets differ, point by point in Danish, with sources."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from regelmotor.cli import main
from regelmotor.diff import diff_rulesets
from regelmotor.ruleset.load import load_ruleset

from .conftest import REPO, RULESETS


def paths(a: str, b: str, *house: str) -> dict[str, object]:
    return {d.path: d for d in diff_rulesets(load_ruleset(a).ruleset, load_ruleset(b, list(house)).ruleset)}


@pytest.mark.parametrize("name", RULESETS)
def test_a_ruleset_does_not_differ_from_itself(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert paths(name, name) == {}
    assert main(["diff", name, name]) == 0
    label = load_ruleset(name).label
    assert capsys.readouterr().out == f"{label} og {label} har de samme regler.\n"


def test_standard_against_thorsen_names_the_differences_the_matrix_lists() -> None:
    """rules-matrix.md: the joker lead (section 7), the designations and their order (2), the vip degrees (4),
    gå med (3), the exchange (5), the fordækt card (6) and the scoring (8)."""
    found = paths("standard", "thorsen")
    assert found["jokers.led_joker"].a == "wins" and found["jokers.led_joker"].b == "loses_to_trump"  # type: ignore[attr-defined]
    order = found["designations.order"]
    assert (order.a, order.b) == ("alm < vip < gode < sans < halve", "alm < gode < vip1 < halve < vip2 < sans < vip3")  # type: ignore[attr-defined]
    assert found["designations[vip2]"].b["choices"] == ["cannot_accept", "may_accept", "must_accept"]  # type: ignore[attr-defined,index]
    assert found["auction.gaa_med.sol_bids"].b is True and found["auction.gaa_med.vip_bids"].b is True  # type: ignore[attr-defined]
    assert found["exchange.kitty"].a == "compulsory (declarer)" and found["exchange.kitty"].b == "optional (declarer)"  # type: ignore[attr-defined]
    assert found["fordaekt.allowed"].b is True  # type: ignore[attr-defined]
    assert "scoring.trump.formula" in found and "scoring.tables.base" in found


def test_each_difference_has_a_danish_label_and_both_sources() -> None:
    found = paths("standard", "thorsen")
    joker = found["jokers.led_joker"]
    assert joker.label == "En udspillet joker" and joker.section == "Spillet"  # type: ignore[attr-defined]
    assert "001_b88eb8000c0a2767.txt" in joker.a_source and "000_5ff45d385a286ea5.txt 6.4.1" in joker.b_source  # type: ignore[attr-defined]


def test_house_rules_are_added_to_the_second_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "standard", "standard", "-H", "joker-trumpable", "--json"]) == 0
    differences = json.loads(capsys.readouterr().out)
    assert [d["path"] for d in differences] == ["jokers.led_joker"]
    assert differences[0]["section"] == "Spillet" and differences[0]["b"] == "loses_to_trump"


def test_the_human_diff_is_grouped_by_section(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "standard", "gruppe2"]) == 0
    out = capsys.readouterr().out
    sections = [line[3:] for line in out.splitlines() if line.startswith("## ")]
    assert sections[:3] == ["Kort og spillere", "Kortgivning", "Meldinger"]
    assert len(sections) == len(set(sections))
    assert "    standard: 3\n    gruppe2 + dobling: 0\n" in out  # the jokers (and the kitty) are gone


def test_a_table_is_one_row_and_the_points_it_gives_are_shown() -> None:
    """Richsol pays three times the sol table: one row for the table, with its keys, and the declarer's points
    for the contracts both rulesets have, where they differ (not eleven cells and formula factors)."""
    found = {d.path: d for d in diff_rulesets(load_ruleset("standard").ruleset, _richsol())}
    table = found["scoring.tables.S"]
    assert table.a == "sol: 50, ren sol: 100, bordlægger: 150, ren bordlægger: 200"
    assert table.b == "sol: 150, ren sol: 300, bordlægger: 450, ren bordlægger: 600"
    assert not any(path.startswith("scoring.tables.S.values") for path in found)
    won = found["points.sol.0"]
    assert (won.a, won.b) == (150, 450) and won.label == "Point til melderen, når han vinder sol"
    assert "points.7.7" not in found  # trump contracts pay the same


def _richsol() -> object:
    from .conftest import REPO

    return load_ruleset(str(REPO / "docs" / "examples" / "richsol.yaml")).ruleset


def test_a_label_followed_by_its_values_has_no_full_stop_before_them(capsys: pytest.CaptureFixture[str]) -> None:
    """`compare` writes a difference as "label: A / B"; the schema's description is a sentence, and its
    full stop before the colon read "når kontrakten ikke holder.: -2 * base * B * D / ..."."""
    halvpris = str(REPO / "docs" / "examples" / "halvpris.yaml")
    found = paths("standard", halvpris)
    label = found["scoring.trump.failed"].label  # type: ignore[attr-defined]
    assert label == "Afregning af trumfspil: formlen for en spillers score, når kontrakten ikke holder"
    assert all(not d.label.endswith(".") for d in paths("standard", "thorsen").values())  # type: ignore[attr-defined]
    assert main(["compare", "--bots", "heuristic", "standard", halvpris, "--deals", "2"]) == 0
    assert ".:" not in capsys.readouterr().out


def test_two_keys_sharing_a_description_are_told_apart_by_their_family() -> None:
    """Trump and sol scoring share one schema definition, so both formulas read "Formlen for en spillers
    score, når kontrakten ikke holder": a club reading `compare` saw the same line twice with different
    formulas. Each is now led by its family's label, and a list item is named after its label."""
    found = paths("standard", str(REPO / "docs" / "examples" / "halvpris.yaml"))
    trump, sol = (found[f"scoring.{family}.failed"].label for family in ("trump", "sol"))  # type: ignore[attr-defined]
    assert trump == "Afregning af trumfspil: formlen for en spillers score, når kontrakten ikke holder"
    assert sol == "Afregning af solspil: formlen for en spillers score, når kontrakten ikke holder"
    sol_bid = paths("standard", "thorsen")["sol_bids[bordlægger]"].label  # type: ignore[attr-defined]
    assert sol_bid == "Solbuddene og deres plads i stigerækken – bordlægger"


@pytest.mark.parametrize("a", RULESETS)
def test_no_two_differences_of_shipped_rulesets_read_alike(a: str) -> None:
    """Every row of a diff between two shipped rulesets has a label of its own (a designation's, a sol
    bid's, a constant's rows named after it)."""
    for b in RULESETS:
        labels = [d.label for d in paths(a, b).values()]  # type: ignore[attr-defined]
        assert len(labels) == len(set(labels)), (a, b)


MEETING = "Klubbens generalforsamling 2026"
CLUB = f"""
    kind: ruleset
    extends: thorsen
    name: klub
    source: {MEETING}
    auction:
      gaa_med:
        sol_bids: false
        source: {MEETING}
    """


def test_a_section_the_club_sources_keeps_the_parents_source_for_the_rules_it_did_not_write(
    club: Callable[..., str],
) -> None:
    """Issue 72: `diff klub.yaml standard`, with a club file that changes one key of thorsen's gå med and
    gives that section its own `source:`, credited thorsen's other gå med rule (vip bids) to the club's
    meeting, and what thorsen leaves out (bordlægger) to the club's meeting too."""
    club("klub.yaml", CLUB)
    thorsen = load_ruleset("thorsen").ruleset
    found = {d.path: d for d in diff_rulesets(load_ruleset("klub.yaml"), load_ruleset("standard"))}
    vip = found["auction.gaa_med.vip_bids"]
    assert vip.a is True and vip.a_source == thorsen.auction.gaa_med.source
    assert found["sol_bids[bordlægger]"].a_source == thorsen.source
    assert "auction.gaa_med.sol_bids" not in found  # the club's own rule is the same as standard's
    own = {d.path: d for d in diff_rulesets(load_ruleset("klub.yaml"), load_ruleset("thorsen"))}
    assert list(own) == ["auction.gaa_med.sol_bids"] and own["auction.gaa_med.sol_bids"].a_source == MEETING


def test_the_command_credits_the_parents_rules_to_the_parent(
    club: Callable[..., str], capsys: pytest.CaptureFixture[str]
) -> None:
    club("klub.yaml", CLUB)
    out = _diff_text("klub.yaml", "standard")
    vip = out.split("(auction.gaa_med.vip_bids)", 1)[1].split("\n- ", 1)[0]
    assert "kilde, klub: Thorsens love 3.4 b" in vip and MEETING not in vip


def _diff_text(a: str, b: str, *house: str) -> str:
    from io import StringIO

    from regelmotor.diff import write_diff
    from regelmotor.rulebook.build import cited

    out = StringIO()
    write_diff(load_ruleset(a), load_ruleset(b, list(house)), out, lambda source: cited(source, "da"))
    return out.getvalue()


def test_lists_whose_order_means_nothing_compare_as_sets(club: Callable[..., str]) -> None:
    """Issue 72: `diff` called thorsen's trump suits for alm (ruder, spar, hjerter) different from standard's
    (spar, hjerter, ruder). Suits to choose from, the allowed numbers of players, packet sizes, who sits
    out and the cards that break a jernhånd are sets; a ladder (the partner card's ranks, the card order,
    the dealing pattern, vip's turns) keeps its order."""
    found = paths("standard", "thorsen")
    assert "designations[alm].trump.choices" not in found
    assert "designations[halve].trump.choices" in found  # thorsen adds no trump: a real difference
    club(
        "omvendt.yaml",
        """
        kind: ruleset
        extends: standard
        name: omvendt
        table:
          players: [4]
        jernhaand:
          allowed: true
          court_ranks: [J, Q, K, A]
        card_order:
          trump_games: ["2", "3", "4", "5", "6", "7", "8", "9", T, J, Q, K, A]
        """,
    )
    reordered = paths("standard", "omvendt.yaml")
    assert "jernhaand.court_ranks" not in reordered and "jernhaand.allowed" in reordered
    assert "card_order.trump_games" in reordered


def test_two_files_with_the_same_name_get_two_column_labels(
    club: Callable[..., str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 73, item 9: `diff` of two files with the same `name` printed two equal column labels."""
    from regelmotor.diff import column_labels

    club("a/klub.yaml", "kind: ruleset\nextends: standard\nname: klub\n")
    club(
        "b/klub.yaml",
        "kind: ruleset\nextends: standard\nname: klub\njokers:\n  led_joker: loses_to_trump\n  source: Bs møde\n",
    )
    a, b = load_ruleset("a/klub.yaml"), load_ruleset("b/klub.yaml")
    assert column_labels(a, b) == ("klub (a/klub.yaml)", "klub (b/klub.yaml)")
    assert column_labels(load_ruleset("standard"), load_ruleset("thorsen")) == ("standard", "thorsen")
    out = _diff_text("a/klub.yaml", "b/klub.yaml")
    assert "    klub (a/klub.yaml): vinder\n    klub (b/klub.yaml): taber til trumf\n" in out
    assert "    kilde, klub (b/klub.yaml): Bs møde\n" in out and "kilde, klub (a/klub.yaml): Online-reglerne" in out
