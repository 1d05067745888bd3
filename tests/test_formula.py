"""The safe formula evaluator: exact fractions, no eval, clear errors."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regelmotor.model.formula import FormulaError, parse_formula, written


def test_thorsens_formula_is_evaluated_exactly_as_the_law_writes_it() -> None:
    """000 7.2.2: "P = (V + O – 3/2 U) D M G B (5/2)^(C – 8)"."""
    formula = parse_formula("(V + O - 3/2*U) * D * M * G * B * (5/2)**(C - 8)")
    assert formula.names == {"V", "O", "U", "D", "M", "G", "B", "C"}
    env = {k: Fraction(v) for k, v in dict(V=-1, O=0, U=2, D=1, M=1, G=1, B=1, C=7).items()}
    # (-1 + 0 - 3) * (5/2)^-1 = -4 * 2/5
    assert formula(env) == Fraction(-8, 5)


def test_unicode_minus_and_dot_are_accepted() -> None:
    assert parse_formula("3 − 1 · 2")({}) == 1


def test_a_power_is_written_as_the_law_writes_it() -> None:
    """000 7.2.2 writes "(5/2)^(C – 8)": ``^`` is a power, as ``**`` is (never Python's exclusive or)."""
    assert parse_formula("2 ^ 3")({}) == 8
    assert parse_formula("(5/2)^(C – 8)")({"C": 9}) == Fraction(5, 2)
    with pytest.raises(FormulaError, match="at character 6"):  # the 6th character the club wrote: the *
        parse_formula("2^C +* 3")


@pytest.mark.parametrize(
    ("text", "dansk"),
    [
        ("(C + 1", "ved tegn 1: en ( bliver aldrig lukket"),
        ("C + 1)", "ved tegn 6: en ) uden en ( før sig"),
        ("2 +* C", "ved tegn 4: her står noget, en formel ikke kan have"),
    ],
)
def test_a_formula_that_cannot_be_read_says_why_in_danish(text: str, dansk: str) -> None:
    """Python's own words ("'(' was never closed") are not what a club secretary reads."""
    with pytest.raises(FormulaError) as caught:
        parse_formula(text)
    assert caught.value.text("da").startswith("formlen er ikke skrevet rigtigt " + dansk)


def test_the_rule_book_writes_thorsens_formula_as_the_law_does() -> None:
    """000 7.2.2: "P = (V + O – 3/2 U) D M G B (5/2)^(C – 8)", with the products' dots a reader expects."""
    assert written("(V + O - 3/2*U) * D * M * G * B * (5/2)**(C - 8)") == (
        "(V + O − 3/2 · U) · D · M · G · B · (5/2)^(C − 8)"
    )
    assert written("3 - -1") == "3 − (−1)" and written("a - (b + c)") == "a − (b + c)"


def _formulas() -> st.SearchStrategy[str]:
    leaves = st.sampled_from(["a", "b", "c", "2", "3", "1.5"])

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "**"]), inner).map(
            lambda t: f"({t[0]}) {t[1]} ({t[2]})"
        )
        return binary | inner.map(lambda x: f"-({x})") | st.tuples(inner, inner).map(lambda t: f"max({t[0]}, {t[1]})")

    return st.recursive(leaves, grow, max_leaves=8)


@given(_formulas(), st.fractions(-5, 5, max_denominator=4), st.fractions(-5, 5, max_denominator=4))
def test_a_written_formula_reads_back_as_the_same_formula(text: str, a: Fraction, b: Fraction) -> None:
    """The rule book's form of a formula is the same formula: a member who copies it into a file gets the
    same points (or the same refusal: a power that is no whole number, a division by zero)."""
    env = {"a": a, "b": b, "c": Fraction(2)}

    def value(formula: str) -> Fraction | str:
        try:
            return parse_formula(formula)(env)
        except FormulaError as exc:
            return exc.phrase or str(exc)

    assert value(written(text)) == value(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("__import__('os').system('x')", "is not allowed in a formula"),
        ("a.b", "is not allowed in a formula"),
        ("7 % 2", "the operator % is not allowed"),
        ("max", "max is a function"),
        ("foo(1)", "foo() is not a known function"),
        ("(1 + ", "the formula is not well formed"),
        ("'x'", "'x' is not a number"),
        ("x" * 501, "longer than 500"),
    ],
)
def test_anything_but_arithmetic_is_refused(text: str, message: str) -> None:
    with pytest.raises(FormulaError, match=message.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        parse_formula(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [("1 / 0", "division by zero"), ("2 ** (1/2)", "not a whole number"), ("2 ** 100", "larger than 64")],
)
def test_evaluation_errors_are_clear(text: str, message: str) -> None:
    with pytest.raises(FormulaError, match=message):
        parse_formula(text)({})


@given(st.fractions(max_denominator=50), st.fractions(max_denominator=50))
def test_arithmetic_is_exact(a: Fraction, b: Fraction) -> None:
    env = {"a": a, "b": b}
    assert parse_formula("a * b - b + max(a, b) + abs(a)")(env) == a * b - b + max(a, b) + abs(a)


@given(
    st.integers(-20, 20),
    st.integers(-20, 20).filter(lambda n: n != 0),
    st.integers(-3, 3),
    st.fractions(max_denominator=8),
)
def test_whole_numbers_and_fractions_give_the_same_exact_value(a: int, b: int, c: int, f: Fraction) -> None:
    """The evaluator works in whole numbers while it can: a division with a remainder, a negative power, a
    fraction from the file give exactly what ``Fraction`` arithmetic gives, every time it is asked."""
    formula = parse_formula("(a / b + 3/2 * c) * f ** 2 - (5/2) ** c + min(a, b) / 4")
    expected = (Fraction(a) / b + Fraction(3, 2) * c) * f**2 - Fraction(5, 2) ** c + Fraction(min(a, b)) / 4
    for env in ({"a": a, "b": b, "c": c, "f": f}, {k: Fraction(v) for k, v in dict(a=a, b=b, c=c, f=f).items()}):
        assert formula(env) == expected
        assert formula(env) == expected  # kept by the values it reads, and given again
        assert isinstance(formula(env), Fraction)


def test_a_name_without_a_value_is_named_after_the_formula_has_kept_values() -> None:
    formula = parse_formula("D * 3/2")
    assert formula({"D": 2}) == 3
    with pytest.raises(FormulaError, match="D"):
        formula({})
