"""Jernhånd in the rule book: the family's own sentence, printed with the dealing (however the rule was set:
the house rules' section names the rule, this says it)."""

from __future__ import annotations

from regelmotor.model.ruleset import Ruleset
from regelmotor.phrases import RANK_WORDS
from regelmotor.rules.families import Sentence, in_words


def sentences(ruleset: Ruleset, lang: str) -> list[Sentence]:
    rule = ruleset.jernhaand
    if not rule.allowed:
        return []
    words = RANK_WORDS[lang]
    ranks = [words[rank][1] if rank in words else rank for rank in rule.court_ranks]
    joined = ", ".join(ranks[:-1]) + (in_words(lang, "and") if len(ranks) > 1 else "") + ranks[-1]
    who = in_words(lang, "jernhaand_same" if rule.redeal_by == "same_dealer" else "jernhaand_next")
    return [Sentence(in_words(lang, "jernhaand_rule", ranks=joined, who=who), rule, "jernhaand")]
