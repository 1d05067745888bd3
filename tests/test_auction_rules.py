"""Melde tilbage and gå med, as the auction hook computes them (001; 003 5-11; 000 3.3-3.6)."""

from __future__ import annotations

import pytest

from regelmotor.errors import IllegalCall

from .conftest import rules_of

SEATS = [1, 2, 3, 0]  # dealer 0: forhånd is seat 1


def status(name: str, calls: list[str], *house: str):  # type: ignore[no-untyped-def]
    return rules_of(name, *house).auction.procedure(SEATS, calls)


def test_forhaand_opens() -> None:
    """003 5: "Efter kortgivningen starter spilleren til venstre for kortgiveren med at melde." """
    assert status("gruppe2", []).to_act == 1


def test_an_overcalled_player_must_call_again() -> None:
    """003 6-7: "Næste spiller kan herefter melde over eller melde pas." "Meldes der over, skal første spiller
    melde igen." """
    assert status("gruppe2", ["7"]).to_act == 2
    assert status("gruppe2", ["7", "8"]).to_act == 1


def test_the_two_bid_to_the_end_before_the_third_comes_in() -> None:
    """003 8-9: "Disse to spillere melder så færdigt, dvs. indtil den ene melder pas." "Herefter melder spiller 3
    mod den højeste melding." """
    after = status("gruppe2", ["7", "8", "9", "10", "pass"])
    assert after.to_act == 3 and after.holder == 2 and after.highest is not None
    assert after.highest.text == "10"


def test_the_dealer_bids_last() -> None:
    """003 10: "Disse to spillere melder så færdigt inden spiller 4 (giveren) melder." """
    after = status("gruppe2", ["7", "pass", "8", "9", "pass"])
    assert after.to_act == 0


def test_a_pass_is_final() -> None:
    """001: "Har man passet, er man ude af meldingsrunden."; 000 3.5."""
    calls = ["pass", "7", "8", "pass", "9", "pass"]
    seen = [status("standard", calls[:n]).to_act for n in range(len(calls) + 1)]
    assert seen == [1, 2, 3, 2, 0, 3, None]  # seat 1 passed first and is never asked again
    assert status("standard", calls).passed == {1, 2, 3}


def test_the_holder_of_the_highest_bid_is_not_asked_again() -> None:
    """000 3.3: "Den som har det højeste bud ... kan ikke byde højere. Det gælder også hvis alle de øvrige
    spillere har meldt pas." """
    after = status("thorsen", ["7", "pass", "pass", "pass"])
    assert after.to_act is None and after.holder == 1


def test_all_pass_ends_the_auction_without_a_contract() -> None:
    """001: "Melder alle pas, gives der om." """
    after = status("standard", ["pass"] * 4)
    assert after.to_act is None and after.highest is None


def test_a_bid_must_be_higher() -> None:
    with pytest.raises(IllegalCall, match="8 is lower than the highest bid 8 vip"):
        status("standard", ["8 vip", "8"])


def test_equal_rank_bids_cannot_overcall_each_other_in_gruppe2() -> None:
    """003 12: "9 gode/sans/halve" stand on one step: none of them overcalls another."""
    with pytest.raises(IllegalCall, match="9 sans is as high as the highest bid 9 gode"):
        status("gruppe2", ["9 gode", "9 sans"])
    assert "9 sans" not in status("gruppe2", ["9 gode"]).legal


def test_legal_calls_are_pass_and_every_higher_bid() -> None:
    after = status("standard", ["12 halve"])
    assert after.legal == ("pass", "13", "13 vip", "13 gode", "13 sans", "13 halve")


def test_standard_has_no_gaa_med() -> None:
    """001 "Husregler, der ikke er med": "at gå med i en vip eller en sol"."""
    assert "gå med" not in status("standard", ["sol"]).legal
    with pytest.raises(IllegalCall, match="gå med is not allowed on the highest bid sol"):
        status("standard", ["sol", "gå med"])


def test_thorsen_may_join_a_sol_bid_or_a_vip_bid() -> None:
    """000 3.4 b: "gå med i det nuværende højeste bud hvis det højeste bud er et solbud eller et vipbud"."""
    assert "gå med" in status("thorsen", ["sol"]).legal
    assert "gå med" in status("thorsen", ["8 vip2"]).legal
    assert "gå med" not in status("thorsen", ["8 halve"]).legal


def test_the_auction_ends_when_all_but_the_bidder_and_the_joiners_have_passed() -> None:
    """000 3.6 b: "alle har passet undtagen spilleren med det højeste bud og og mulige medgangere"."""
    after = status("thorsen", ["sol", "gaa med", "pass", "gå med"])
    assert after.to_act is None and after.holder == 1 and after.joiners == (2, 0)


def test_an_overcall_sends_the_bidder_and_his_joiners_back_to_answer() -> None:
    after = status("thorsen", ["sol", "gå med", "10"])
    assert after.holder == 3 and after.to_act == 1
    assert status("thorsen", ["sol", "gå med", "10", "pass"]).to_act == 2


def test_gruppe2_may_join_sol_bids_only() -> None:
    """003 11: "Melder en spiller sol (ren sol eller oplægger), kan den næste melder 'gå med'." """
    assert "gå med" in status("gruppe2", ["oplægger"]).legal
    assert "gå med" not in status("gruppe2", ["9 gode"]).legal


def test_the_gaa_med_house_rule_lets_standard_join_sol_and_vip() -> None:
    """rules-matrix.md section 9: "gaa-med | gå med on sol bids and vip bids, as thorsen"."""
    assert "gå med" in status("standard", ["8 vip"], "gaa-med").legal
    assert "gå med" in status("standard", ["ren sol"], "gaa-med").legal


def test_no_call_after_the_auction_is_over() -> None:
    with pytest.raises(IllegalCall, match="the auction is already over"):
        status("standard", ["pass"] * 5)


def test_kan_selv_forhaand_may_take_the_bid_in_the_back_hand() -> None:
    """002: "Når en spiller slår meldingen, skal spilleren efter kortgiveren have mulighed for at slå den nye
    melding, tage den i baghånden eller passe." """
    assert "selv" in status("standard", ["7", "8"], "kan-selv").legal
    after = status("standard", ["7", "8", "selv"], "kan-selv")
    assert after.holder == 1 and after.highest is not None and after.highest.text == "8"
    assert after.to_act == 2  # rules-matrix.md section 9: "the player whose bid he took must then overcall or pass"
    assert "selv" not in after.legal


def test_kan_selv_is_forhaands_alone_and_only_with_the_house_rule() -> None:
    assert "selv" not in status("standard", ["7", "8"]).legal
    assert "selv" not in status("standard", ["pass", "7", "8"], "kan-selv").legal  # seat 2 is not forhånd
    with pytest.raises(IllegalCall, match="only forhånd, overcalled, may take the bid himself"):
        status("standard", ["7", "selv"], "kan-selv")


def test_the_auction_advances_one_call_at_a_time_as_the_engine_drives_it() -> None:
    """003 6-9 once more, call by call: each status follows from the one before and the call, and a refused call
    leaves the status it was refused on as it was (statuses are values)."""
    auction = rules_of("gruppe2").auction.procedure
    calls = ["7", "8", "9", "10", "pass", "pass", "pass"]
    status_now = auction.start(SEATS)
    for number, call in enumerate(calls):
        assert status_now == auction(SEATS, calls[:number]) and status_now.calls == number
        if number:  # after the first bid, 7 is too low
            with pytest.raises(IllegalCall, match="a bid must be higher"):
                auction.advance(status_now, "7")
            assert status_now == auction(SEATS, calls[:number])
        status_now = auction.advance(status_now, call)
    assert status_now.to_act is None and status_now.holder == 2 and status_now.legal == ()
