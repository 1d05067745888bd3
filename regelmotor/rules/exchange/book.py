"""The exchange in the rule book: the family's own sentences, its section of its own."""

from __future__ import annotations

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.families import Sentence, designation_name, in_words, joined


def sentences(ruleset: Ruleset, lang: str) -> list[Sentence]:
    rule = ruleset.exchange
    if not rule.allowed:
        return [Sentence(in_words(lang, "no_exchange"), rule, "exchange")]
    designations = ruleset.designations
    by_partner = [
        designation_name(d, lang) for d in designations if d.exchange is not None and d.exchange.by == "partner"
    ]
    if by_partner:
        who = in_words(lang, "exchange_who", partner_designations=joined(lang, by_partner))
    else:
        who = in_words(lang, "exchange_who_plain")
    k = ruleset.deck.kitty
    if rule.amount == "all_or_none":
        how = in_words(lang, "all_or_none" if rule.order == "discard_first" else "all_or_none_take_first", k=k)
    else:
        how = in_words(lang, "up_to", k=k)
    text = f"{who} {how}"
    if rule.leftover == "passes_clockwise":
        text += " " + in_words(lang, "pass_on")
    compulsory = [
        designation_name(d, lang)
        for d in designations
        if d.exchange is not None and d.exchange.required == "compulsory"
    ]
    if rule.required == "compulsory":
        text += " " + in_words(lang, "exchange_compulsory")
    else:
        but = in_words(lang, "except_compulsory", what=joined(lang, compulsory)) if compulsory else ""
        text += " " + in_words(lang, "exchange_optional", **{"except": but})
    if not rule.called_card_may_be_discarded:
        text += " " + in_words(lang, "no_discard_called")
    found = [Sentence(text, rule, "exchange")]
    if ruleset.sol_bids:
        sol = rule.sol
        if sol.allowed:
            kitty = in_words(lang, "discards_kitty") if sol.discards_become_kitty else ""
            sol_text = in_words(lang, "sol_exchange", order=in_words(lang, sol.order), kitty=kitty)
        else:
            sol_text = in_words(lang, "no_sol_exchange")
        found.append(Sentence(sol_text, sol, "exchange.sol"))
    return found
