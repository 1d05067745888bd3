"""The auction in the rule book: kan selv, the family's own sentence (the procedure itself is the ladder's and the
bidding section's)."""

from __future__ import annotations

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.families import Sentence, in_words


def sentences(ruleset: Ruleset, lang: str) -> list[Sentence]:
    auction = ruleset.auction
    if not auction.kan_selv:
        return []
    phrase = "kan_selv" if auction.kan_selv_for == "forhaand" else "kan_selv_overcalled"
    return [Sentence(in_words(lang, phrase), auction, "auction")]
