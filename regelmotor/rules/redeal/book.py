"""Dealing again in the rule book: a misdeal, all passing and omblanding, the family's own sentences."""

from __future__ import annotations

from regelmotor.model.ruleset import Ruleset
from regelmotor.rounding import number_text, points
from regelmotor.rules.families import Sentence, in_words


def sentences(ruleset: Ruleset, lang: str) -> list[Sentence]:
    misdeal, all_pass, omblanding = ruleset.misdeal, ruleset.all_pass, ruleset.omblanding
    text = in_words(lang, "misdeal_same" if misdeal.redeal_by == "same_dealer" else "misdeal_next")
    if misdeal.penalty:
        text += " " + in_words(lang, "misdeal_penalty", p=number_text(points(misdeal.penalty, 2), lang))
    if misdeal.culprit_pays:
        text += " " + in_words(lang, "misdeal_culprit")
    found = [Sentence(text, misdeal, "misdeal")]
    if all_pass.contract is not None:
        if ruleset.auction.procedure != "none":  # else the game nobody bids is the bidding section's
            found.append(
                Sentence(in_words(lang, "all_pass_contract", name=all_pass.contract.display), all_pass, "all_pass")
            )
    else:
        phrase = "all_pass_same" if all_pass.redeal_by == "same_dealer" else "all_pass_next"
        found.append(Sentence(in_words(lang, phrase), all_pass, "all_pass"))
    if omblanding.allowed:
        who = in_words(lang, "jernhaand_same" if omblanding.redeal_by == "same_dealer" else "jernhaand_next")
        found.append(Sentence(in_words(lang, "omblanding", who=who), omblanding, "omblanding"))
    return found
