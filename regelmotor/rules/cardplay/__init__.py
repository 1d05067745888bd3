"""The play rules, written once, as functions over card masks.

A hand is a mask of card bits (card ``c`` is bit ``c``: 0-51 the suits, 52-54 the jokers, 55 the
kernel's fordækt card). One module per rule family: ``follow_suit``, ``jokers``, ``called_card``,
``trick_winner``, ``end_of_play``; ``legal`` composes the first three into the legal cards, with the
rule that removed each other card. The constants of a ruleset (``constants``) are the only place the
play rules read the ruleset.

The engine (``Game``, through the shipped play hooks) and the expert's playouts (``bots.kernel``) call
the same functions. numba compiles them where it is installed; otherwise they run as plain Python
(``NUMBA_DISABLE_JIT=1`` does the same), so an install without a compiler plays the same game.
"""
