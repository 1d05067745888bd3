"""The play in the rule book: the first lead, following suit, the trick's winner, the card orders, and when
play ends; the family's own sentences (the jokers' and the partner card's are their families')."""

from __future__ import annotations

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.families import Sentence, in_words, joined


def sentences(ruleset: Ruleset, lang: str) -> list[Sentence]:
    play, order = ruleset.play, ruleset.card_order
    no_trump = not ruleset.designations and all(s.trump == "none" for s in ruleset.named_bids())
    follow = in_words(lang, "follow_no_trump" if no_trump else "follow")
    found = [
        Sentence(in_words(lang, "first_lead") + " " + follow, play, "play"),
        Sentence(in_words(lang, "winner_no_trump" if no_trump else "winner"), play, "play"),
    ]
    if ruleset.designations:
        text = in_words(lang, "order_trump", order=" ".join(order.trump_games))
        text += " " + in_words(lang, "order_sol", order=" ".join(order.sol_games))
    else:  # each bid by name says which order it plays in
        texts = []
        for kind, ranks in (("trump_games", order.trump_games), ("sol_games", order.sol_games)):
            using = [s.display for s in ruleset.named_bids() if s.card_order == kind]
            if using:
                texts.append(in_words(lang, "order_bids", bids=joined(lang, using, "and"), order=" ".join(ranks)))
        text = " ".join(texts)
    found.append(Sentence(text, order, "card_order"))
    return found


def ending(ruleset: Ruleset, lang: str) -> list[Sentence]:
    """When play ends: a named bid's as soon as it is decided, where the ruleset says so."""
    play = ruleset.play
    early = play.sol_ends == "when_all_declarers_lost"
    if not ruleset.designations:
        limited = any(s.max_tricks is not None for s in ruleset.named_bids())
        return [Sentence(in_words(lang, "named_ends" if limited and early else "play_to_end"), play, "play")]
    if ruleset.sol_bids:
        return [Sentence(in_words(lang, "sol_ends" if early else "sol_plays_out"), play, "play")]
    return []
