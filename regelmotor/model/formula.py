"""Scoring formulas as clubs write them, evaluated exactly and safely.

Thorsen's law gives its scoring as a formula with fractions and powers; clubs copy such
formulas into their files. They are parsed with ``ast`` in expression mode and only numbers,
variable names, ``+ - * / **``, parentheses and ``min``/``max``/``abs`` are accepted, then
compiled to closures over exact numbers: no ``eval``, no attribute access, no floats, so a
formula cannot run code and 3/2 stays exactly 3/2. The closures compute in whole numbers while the
values are whole and turn to ``Fraction`` only where a division leaves a remainder: the same values,
and a zero-sum check over every game a ruleset allows costs a fraction of what it did.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from regelmotor.errors import RegelmotorError
from regelmotor.phrase_table import Word

MAX_LENGTH = 500
MAX_EXPONENT = 64
MAX_BITS = 512
"""Every value a formula computes stays within 512 bits (about 150 digits) in numerator and
denominator: a short formula such as ((9**64)**64)**64 cannot grow without bound, and checking the
size of each result bounds the time of every evaluation."""

Number = int | Fraction
"""A value while a formula is evaluated: whole numbers stay ``int`` (fast), the rest ``Fraction``."""
Env = Mapping[str, Number]
_Fn = Callable[[Env], Number]

_NORMALISE = {"−": "-", "–": "-", "·": "*", "×": "*", "⋅": "*", "^": "**"}
"""The signs a law or a spreadsheet writes, read as the formula's own: Thorsen's law writes its power
``(5/2)^(C – 8)``, so ``^`` is a power here (never Python's exclusive or)."""


def _source(text: str) -> tuple[str, list[int]]:
    """The text as Python reads it (``_NORMALISE``), and where each of its characters (and its end) stands in
    ``text``: ``^`` becomes two characters, and a position said to the club, or a number a search rewrites, is
    a position in what the club wrote."""
    out: list[str] = []
    origin: list[int] = []
    for i, char in enumerate(text):
        read = _NORMALISE.get(char, char)
        out.append(read)
        origin.extend([i] * len(read))
    origin.append(len(text))
    return "".join(out), origin


_FUNCTIONS: dict[str, Callable[..., Number]] = {"min": min, "max": max, "abs": abs}
SYNTAX_PROBLEMS = {
    "'(' was never closed": "formula_open",
    "unmatched ')'": "formula_unmatched",
    "too many nested parentheses": "formula_nested",
    "invalid syntax": "formula_syntax",
}
"""Python's words for a formula it cannot read, by the words of the phrase table that say them (``word_*``);
one it does not list is shown as Python says it."""


def _syntax(problem: str) -> str | Word:
    found = next((key for text, key in SYNTAX_PROBLEMS.items() if problem.startswith(text)), None)
    return problem if found is None else Word(found)


class FormulaError(RegelmotorError, ValueError):
    """A formula that cannot be parsed, names an unknown variable, or cannot be evaluated."""


MEMO_KEPT = 4096
"""How many values a formula keeps, by the values of the names it reads: a zero-sum check asks it for every
game a ruleset allows, and most differ only in what the formula does not read (the vip card in a formula
without ``K``, the tricks where it reads only over- and undertricks)."""


@dataclass(frozen=True)
class Formula:
    text: str
    names: frozenset[str]
    _fn: _Fn
    _memo: dict[tuple[Number, ...], Fraction] = field(default_factory=dict, compare=False, repr=False)
    _order: tuple[str, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_order", tuple(sorted(self.names)))

    def __call__(self, env: Env) -> Fraction:
        try:
            key = tuple(env[name] for name in self._order)
        except KeyError:
            key = None  # evaluated, to say which name has no value
        found = None if key is None else self._memo.get(key)
        if found is None:
            value = self._fn(env)
            found = value if isinstance(value, Fraction) else Fraction(value)
            if key is not None:
                if len(self._memo) >= MEMO_KEPT:
                    self._memo.clear()
                self._memo[key] = found
        return found


def parse_formula(text: str) -> Formula:
    """Parse a formula; the error says what is not allowed and where."""
    if len(text) > MAX_LENGTH:
        raise FormulaError.said("formula_long", most=MAX_LENGTH)
    source, origin = _source(text)
    lead = len(source) - len(source.lstrip())
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        detail = _syntax(exc.msg)
        if exc.offset and exc.lineno == 1:  # the character of what the club wrote, counted from 1
            at = origin[min(lead + exc.offset - 1, len(origin) - 1)] + 1
            raise FormulaError.said("formula_form_at", at=at, detail=detail) from None
        raise FormulaError.said("formula_form", detail=detail) from None
    except (RecursionError, MemoryError):
        raise FormulaError.said("formula_deep") from None
    names: set[str] = set()
    fn = _compile(tree.body, names)
    return Formula(text, frozenset(names), fn)


_PRECEDENCE = {ast.Add: 1, ast.Sub: 1, ast.Mult: 2, ast.Div: 2, ast.Pow: 4}
_SIGN = {ast.Add: " + ", ast.Sub: " − ", ast.Mult: " · ", ast.Div: "/", ast.Pow: "^"}
_ATOM = 5


def written(text: str) -> str:
    """A formula as the law writes it, for a reader rather than a parser: ``(V + O − 3/2 · U) · D ·
    (5/2)^(C − 8)``, where the file says ``(V + O - 3/2*U) * D * (5/2)**(C - 8)``; read back, it is the same
    formula (``parse_formula`` takes these signs). A text that is no formula is returned as it is."""
    try:
        tree = ast.parse(_source(text)[0].strip(), mode="eval")
    except (SyntaxError, RecursionError, MemoryError):
        return text
    return _written(tree.body)[0]


def _right_in_parentheses(op: ast.operator, own: int, binds: int) -> bool:
    """Whether the right side of ``op`` needs its parentheses: one that binds more loosely (a · (b + c)), as
    loosely where the order counts (a − (b + c), a/(b · c)), a power's exponent unless a name or a number
    (2^(C − 8)), and a sign (a − (−1))."""
    if binds < own or binds == 3:
        return True
    if own == 4:
        return binds < _ATOM
    return binds == own and (own != 1 or isinstance(op, ast.Sub))


def _written(node: ast.expr) -> tuple[str, int]:
    """``node``'s text and how tightly it binds (``_PRECEDENCE``; 3 a sign before a number, 5 a name)."""
    if isinstance(node, ast.BinOp) and type(node.op) in _PRECEDENCE:
        own = _PRECEDENCE[type(node.op)]
        left, left_binds = _written(node.left)
        right, right_binds = _written(node.right)
        if left_binds < own or (own == 4 and left_binds <= own):  # (a^b)^c and (−a)^b keep their parentheses
            left = f"({left})"
        if _right_in_parentheses(node.op, own, right_binds):
            right = f"({right})"
        return left + _SIGN[type(node.op)] + right, own
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner, binds = _written(node.operand)
        sign = "−" if isinstance(node.op, ast.USub) else "+"
        return sign + (inner if binds >= 3 else f"({inner})"), 3
    if isinstance(node, ast.Call):
        return ast.unparse(node.func) + "(" + ", ".join(_written(a)[0] for a in node.args) + ")", _ATOM
    return ast.unparse(node), _ATOM


@dataclass(frozen=True)
class Constant:
    """A number written in a formula: where it stands in the text (a minus before it counted in, where it
    is the number's own sign) and its value."""

    start: int
    end: int
    value: Fraction


def constants(text: str) -> tuple[Constant, ...]:
    """The numbers a formula is written with, in the order they stand (``-2 * S * D``: -2), for a rule
    search to change one of them (``with_constant``); the text is parsed as ``parse_formula`` parses it."""
    parse_formula(text)  # a formula that does not parse has no constants to speak of: its own error
    source, origin = _source(text)
    offset = len(source) - len(source.lstrip())
    stripped = source.strip()
    lines = stripped.split("\n")
    starts = [sum(len(line) + 1 for line in lines[:i]) for i in range(len(lines))]

    def at(line: int, byte: int) -> int:
        """The character of ``text`` a node's (line, UTF-8 byte) position is: a name may hold æ, ø or å."""
        return origin[offset + starts[line - 1] + len(lines[line - 1].encode("utf-8")[:byte].decode("utf-8"))]

    tree = ast.parse(stripped, mode="eval")
    signed: dict[int, ast.UnaryOp] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            signed[id(node.operand)] = node
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
            outer: ast.expr = signed.get(id(node), node)
            value = Fraction(repr(node.value)) if isinstance(node.value, float) else Fraction(node.value)
            start = at(outer.lineno, outer.col_offset)
            end = at(node.end_lineno or node.lineno, node.end_col_offset or node.col_offset)
            found.append(Constant(start, end, -value if outer is not node else value))
    return tuple(sorted(found, key=lambda c: c.start))


def with_constant(text: str, index: int, value: Fraction) -> str:
    """The formula with its ``index``-th number (from 0) written as ``value`` (a fraction as ``a/b`` in
    parentheses, so that the formula's operators bind it as one number)."""
    chosen = constants(text)[index]
    written = str(value.numerator) if value.denominator == 1 else f"({value.numerator}/{value.denominator})"
    return text[: chosen.start] + written + text[chosen.end :]


def _compile(node: ast.expr, names: set[str]) -> _Fn:
    """``node`` as a closure; a part that reads no name is worked out once, here (``3/2``, ``(5/2)**2``),
    unless working it out fails: then it fails where the formula is evaluated, as it would have."""
    local: set[str] = set()
    fn = _compile_node(node, local)
    names |= local
    if local or isinstance(node, ast.Constant):
        return fn
    try:
        number = fn({})
    except FormulaError:
        return fn
    return lambda env: number


def _compile_node(node: ast.expr, names: set[str]) -> _Fn:
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise FormulaError.said("formula_not_number", value=repr(value))
        if isinstance(value, int) and value.bit_length() > MAX_BITS:
            raise FormulaError.said("formula_big_number", bits=MAX_BITS)
        number = whole(Fraction(repr(value)) if isinstance(value, float) else Fraction(value))
        return lambda env: number
    if isinstance(node, ast.Name):
        name = node.id
        if name in _FUNCTIONS:
            raise FormulaError.said("formula_function_name", name=name)
        names.add(name)

        def variable(env: Env) -> Number:
            try:
                return whole(env[name])
            except KeyError:
                raise FormulaError.said("formula_no_value", name=name) from None

        return variable
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _compile(node.operand, names)
        if isinstance(node.op, ast.USub):
            return lambda env: -operand(env)
        return operand
    if isinstance(node, ast.BinOp):
        left, right = _compile(node.left, names), _compile(node.right, names)
        op = node.op
        if isinstance(op, ast.Add):
            return lambda env: _bounded(left(env) + right(env))
        if isinstance(op, ast.Sub):
            return lambda env: _bounded(left(env) - right(env))
        if isinstance(op, ast.Mult):
            return lambda env: _bounded(left(env) * right(env))
        if isinstance(op, ast.Div):
            return lambda env: _divide(left(env), right(env))
        if isinstance(op, ast.Pow):
            return lambda env: _power(left(env), right(env))
        raise FormulaError.said("formula_operator", op=_op_text(op))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        function = _FUNCTIONS.get(node.func.id)
        if function is None:
            raise FormulaError.said("formula_function", name=node.func.id)
        args = [_compile(arg, names) for arg in node.args]
        if not args or (function is abs and len(args) != 1):
            raise FormulaError.said(
                "formula_one_argument" if function is abs else "formula_arguments", name=node.func.id
            )
        return lambda env: function(*(arg(env) for arg in args))
    raise FormulaError.said("formula_not_allowed", text=repr(ast.unparse(node)))


def whole(value: Number) -> Number:
    """``value`` as an ``int`` where it is whole."""
    return value.numerator if value.denominator == 1 else value


def _bits(value: Number) -> int:
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def _bounded(value: Number) -> Number:
    if _bits(value) > MAX_BITS:
        raise FormulaError.said("formula_grows", bits=MAX_BITS)
    return value


def _divide(a: Number, b: Number) -> Number:
    if b == 0:
        raise FormulaError.said("formula_zero")
    if isinstance(a, int) and isinstance(b, int) and a % b == 0:
        return _bounded(a // b)
    return _bounded(whole(Fraction(a) / b))


def _power(base: Number, exponent: Number) -> Number:
    if exponent.denominator != 1:
        raise FormulaError.said("formula_exponent_whole", exponent=exponent)
    power = int(exponent)
    if abs(power) > MAX_EXPONENT:
        if power.bit_length() <= 64:
            raise FormulaError.said("formula_exponent_large", exponent=exponent, most=MAX_EXPONENT)
        raise FormulaError.said("formula_exponent_huge", most=MAX_EXPONENT)
    if base == 0 and power < 0:
        raise FormulaError.said("formula_zero_power")
    if _bits(base) * abs(power) > MAX_BITS + 64:  # judged before computing it
        raise FormulaError.said("formula_grows", bits=MAX_BITS)
    if isinstance(base, int) and power >= 0:
        return _bounded(base**power)
    return _bounded(whole(Fraction(base) ** power))


def _op_text(op: ast.operator) -> str:
    return {
        ast.Mod: "%",
        ast.FloorDiv: "//",
        ast.BitXor: "^",
        ast.BitAnd: "&",
        ast.BitOr: "|",
        ast.LShift: "<<",
        ast.RShift: ">>",
        ast.MatMult: "@",
    }.get(type(op), type(op).__name__)
