"""The partner card in play, in the rule book: the family's own sentence, printed with the play."""

from __future__ import annotations

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.families import Sentence, in_words


def sentences(ruleset: Ruleset, lang: str) -> list[Sentence]:
    called = ruleset.called_card
    falls = "called_falls_every_time" if called.must_fall_every_time_led else "called_falls"
    if not called.must_fall_first_time_led:
        falls = "called_free"
    text = in_words(lang, falls) + (in_words(lang, "called_leads") if called.holder_leads_it else "") + ". "
    text += in_words(lang, "called_trumped")
    if called.applies_to_selvmakker:
        text += " " + in_words(lang, "called_selvmakker")
    if called.free_first_trick:
        text += " " + in_words(lang, "called_first_free")
    return [Sentence(text, called, "called_card")]
