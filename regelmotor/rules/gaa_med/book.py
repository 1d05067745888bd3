"""Gå med in the rule book: the family's own sentence, printed with the auction."""

from __future__ import annotations

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.families import Sentence, in_words, joined


def sentences(ruleset: Ruleset, lang: str) -> list[Sentence]:
    gaa = ruleset.auction.gaa_med
    what = [in_words(lang, k) for k, on in (("gaa_med_sol", gaa.sol_bids), ("gaa_med_vip", gaa.vip_bids)) if on]
    text = in_words(lang, "gaa_med", what=joined(lang, what, "and")) if what else in_words(lang, "no_gaa_med")
    return [Sentence(text, gaa, "auction.gaa_med")]
