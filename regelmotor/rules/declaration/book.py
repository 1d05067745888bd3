"""The declaration in the rule book: each designation's trump, partner card, reveal and exchange in one
sentence (the vip and exchange keys of a designation said with it), then the partner card and selvmakker."""

from __future__ import annotations

from regelmotor.model.ruleset import Ruleset
from regelmotor.phrases import RANK_WORDS, SUIT_WORDS
from regelmotor.rules.contracts.designation_kinds import kind_of
from regelmotor.rules.contracts.keys import Designation
from regelmotor.rules.families import Sentence, designation_name, in_words, joined


def sentences(ruleset: Ruleset, lang: str) -> list[Sentence]:
    found = [_designation(d, i, lang) for i, d in enumerate(ruleset.designations)]
    found.append(Sentence(_partner_card(ruleset, lang), ruleset.partner_card, "partner_card"))
    selvmakker = in_words(lang, "selvmakker" if ruleset.partner_card.own_card_allowed else "own_not_allowed")
    found.append(Sentence(selvmakker + " " + in_words(lang, "secret_partner"), ruleset.partner_card, "partner_card"))
    if ruleset.auction.gaa_med.vip_bids:
        found.append(Sentence(in_words(lang, "vip_gaa_med"), ruleset.auction.gaa_med, "auction.gaa_med"))
    if ruleset.sol_bids:
        found.append(Sentence(in_words(lang, "no_decl_sol"), None, ""))
    return found


def _turns(d: Designation, lang: str) -> str:
    return "; ".join(
        in_words(lang, "turn", n=n, rule=in_words(lang, rule)) for n, rule in enumerate(d.trump.turns or (), 1)
    )


def _designation(d: Designation, index: int, lang: str) -> Sentence:
    trump = d.trump
    choices = joined(lang, [SUIT_WORDS[lang][c] for c in trump.choices or ()])
    only = (trump.choices or ("none",))[0]
    phrase = kind_of(d).phrase  # the designation kind's sentence: who decides trump
    if phrase == "d_fixed" and only == "none":
        phrase = "d_fixed_none"
    suit = SUIT_WORDS[lang].get(only, only)
    not_called = in_words(lang, "not_called") if trump.not_called_suit else ""
    trump_text = in_words(lang, phrase, choices=choices, suit=suit, turns=_turns(d, lang), not_called=not_called)
    if trump.partner_may_vip:
        trump_text += "; " + in_words(lang, "partner_may_vip", turns=_turns(d, lang))
    if trump.joker_takes_previous:
        trump_text += "; " + in_words(lang, "joker_previous")
    parts = [trump_text, in_words(lang, "call_not_trump" if d.call.suits == "not_trump" else "call_any")]
    if d.reveal_partner and not kind_of(d).partner_names_trump:  # where the partner names trump, his sentence says it
        parts.append(in_words(lang, "reveal_part"))
    if d.exchange is not None:
        if d.exchange.by == "partner":
            parts.append(in_words(lang, "ex_partner"))
        if d.exchange.by == "partner_chooses":
            parts.append(in_words(lang, "ex_partner_chooses"))
        if d.exchange.required:
            parts.append(in_words(lang, f"ex_{d.exchange.required}"))
    text = f"{designation_name(d, lang).capitalize()}: " + "; ".join(parts) + "."
    inferred_from = next((rule for rule in (trump, d.call, d.exchange, d) if rule is not None and rule.inferred), d)
    return Sentence(text, inferred_from, f"designations[{index}]")


def _partner_card(ruleset: Ruleset, lang: str) -> str:
    rule = ruleset.partner_card
    ranks = rule.ranks
    words = RANK_WORDS[lang]
    first = words.get(ranks[0], (ranks[0],) * 3)
    following = words.get(ranks[1], (ranks[1],) * 3)[0] if len(ranks) > 1 else ""
    article = "en " if lang == "da" else "a "
    may = in_words(lang, f"descend_{rule.descend}")
    if rule.descend_when == "holding_all_four":
        return in_words(
            lang, "partner_card_all_four", first=first[0], plural=first[1], next=article + following, may=may
        )
    more = in_words(lang, "more_ranks") if len(ranks) > 2 else ""
    return in_words(lang, "partner_card", first=first[0], all=first[2], next=article + following, more=more, may=may)
