"""Two bots head to head on the same cards: ``regelmotor match A B RULESET``.

Each deal is played twice: A at seats 0 and 2 against B at 1 and 3, then the other way round, on
the same cards (deal ``i`` of a run always shuffles from the same stream). The luck of the cards
cancels out, so what is left is how much better A plays, measured in the ruleset's own points.

The measure is A's points less B's, halved: where a deal's points sum to zero that is A's own points,
and where only the winners score (engelsk, 002) A's own points would count the points the deal hands
out, so that a bot matched against itself would seem to win.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from regelmotor.phrases import phrases
from regelmotor.simulate import MIN_SIGNIFICANT, Estimate, format_estimate, mean, run_deals, significant


@dataclass(frozen=True)
class MatchResult:
    a: str
    b: str
    ruleset: str
    deals: int
    a_points: Estimate
    """A's mean points per seat per deal less B's, halved (over both sittings), with its 95% interval: A's
    own points where the scores sum to zero, nothing in expectation for two equal bots whatever the scoring."""

    @property
    def significant(self) -> bool:
        return significant(self.a_points)

    def as_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "ruleset": self.ruleset,
            "deals": self.deals,
            "a_points_per_deal": self.a_points.as_json(),
            "significant": self.significant,
        }

    def lines(self, lang: str = "en") -> list[str]:
        """The match as ``match`` prints it, in ``lang`` (the phrase table's words, Danish numbers)."""
        words, p = phrases(lang), self.a_points
        if self.significant:
            verdict = words["match_significant"].format(better=self.a if p.value > 0 else self.b)
        elif p.n < MIN_SIGNIFICANT:
            verdict = words["match_too_few"].format(least=MIN_SIGNIFICANT)
        else:
            verdict = words["match_not_significant"]
        return [
            words["match_head"].format(a=self.a, b=self.b, ruleset=self.ruleset, deals=self.deals),
            words["match_points"].format(a=self.a, b=self.b, estimate=format_estimate(p, lang=lang), n=p.n),
            verdict,
        ]


def _a_over_b(first: Sequence[Fraction], second: Sequence[Fraction]) -> Fraction:
    """A deal's A points less B's over both sittings (A at seats 0 and 2, then at 1 and 3), halved, a seat."""
    a = first[0] + first[2] + second[1] + second[3]
    b = first[1] + first[3] + second[0] + second[2]
    return (a - b) / 8


def run_match(
    a: str,
    b: str,
    ruleset: str,
    house_rules: Sequence[str],
    deals: int,
    seed: int,
    *,
    label: str | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    dask: str | None = None,
) -> MatchResult:
    first = run_deals(ruleset, house_rules, deals, seed, [a, b, a, b], jobs, progress, dask)
    later = None if progress is None else (lambda n: progress(deals + n))
    second = run_deals(ruleset, house_rules, deals, seed, [b, a, b, a], jobs, later, dask)
    per_deal = [_a_over_b(x.scores, y.scores) for x, y in zip(first, second, strict=True)]
    return MatchResult(a, b, label or ruleset, deals, mean(per_deal))
