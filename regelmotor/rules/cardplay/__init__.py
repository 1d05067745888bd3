"""The play rules, written once, as functions over card masks.

A hand is a mask of card bits (card ``c`` is bit ``c``: 0-51 the suits, 52-54 the jokers, 55 the
kernel's fordækt card). The play family's own functions are here (``follow_suit``, ``trick_winner``,
``end_of_play``), with the machinery the families share (``masks``: the bits and the constants' layout,
a block of slots per family); the jokers' and the partner card's are in their families' homes
(``rules/jokers/cardplay.py``, ``rules/called_card/cardplay.py``). ``legal`` composes them into the legal
cards, with the code of the rule that removed each other card. ``constants`` fills a ruleset's constants,
each family writing its own slots: the only place the play rules read the ruleset.

The engine (``Game``, through the shipped play hooks) and the expert's playouts (``bots.kernel``) call
the same functions. numba compiles them where it is installed; otherwise they run as plain Python
(``NUMBA_DISABLE_JIT=1`` does the same), so an install without a compiler plays the same game.
"""
