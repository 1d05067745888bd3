"""When play ends: after thirteen tricks, or as soon as a named bid is decided.

A bid with a most of tricks ends once every declarer's side has taken more, where the ruleset says
so (001; 000 6.4.3: ``play.sol_ends: when_all_declarers_lost``). A bid of the first tricks ends at the
first of them lost, or when all are taken (002: "skal tage de 7 første stik"; inferred: nothing
after them changes the result). Games without a declarer (pairs, each for himself) run to the end.
"""

from __future__ import annotations

from regelmotor.compiled import jit
from regelmotor.rules.cardplay.masks import SOL_EARLY, Rows

TRICKS = 13
TRUMP_GAME = -1
ALONE = 0
PARTNER = 1
PAIRS = 2
EACH = 3
SIDES = {"alone": ALONE, "partner": PARTNER, "pairs": PAIRS, "each": EACH}


@jit
def sol_ends_early(consts: Rows) -> bool:
    """A bid with a most of tricks ends as soon as every declarer's side has taken more
    (``play.sol_ends: when_all_declarers_lost``, 000 6.4.3)."""
    return bool(consts[SOL_EARLY] != 0)


@jit
def side_tricks(side: int, seat: int, w0: int, w1: int, w2: int, w3: int) -> int:
    """The tricks of ``seat``'s side: his own, or his and his fixed partner's (across the table)."""
    own = w0 if seat == 0 else w1 if seat == 1 else w2 if seat == 2 else w3
    if side != PARTNER:
        return own
    across = (seat + 2) % 4
    return own + (w0 if across == 0 else w1 if across == 1 else w2 if across == 2 else w3)


@jit
def play_over(
    played: int,
    w0: int,
    w1: int,
    w2: int,
    w3: int,
    declarers: int,
    side: int,
    max_tricks: int,
    first_tricks: int,
    early: int,
) -> bool:
    """Whether play is over after ``played`` tricks, the seats having won ``w0``-``w3``; ``declarers`` a
    mask of seats, ``side`` a contract's kind (``TRUMP_GAME`` or a named bid's side), ``max_tricks`` and
    ``first_tricks`` the named bid's (-1 for none), ``early`` the ruleset's ``sol_ends`` rule."""
    if played >= TRICKS:
        return True
    if side == TRUMP_GAME or declarers == 0 or side == PAIRS or side == EACH:  # noqa: SIM109 - numba compiles no tuple test
        return False
    first = -1
    for seat in range(4):
        if (declarers >> seat) & 1:
            first = seat
            break
    if first_tricks >= 0 and played <= first_tricks:
        taken = side_tricks(side, first, w0, w1, w2, w3)
        return taken < played or played == first_tricks
    if early != 0 and max_tricks >= 0:
        for seat in range(4):
            if (declarers >> seat) & 1 and side_tricks(side, seat, w0, w1, w2, w3) <= max_tricks:
                return False
        return True
    return False
