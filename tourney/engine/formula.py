"""The points formula language of the leagues (issue 27): a small, safe expression language.

Pure Python: no Django. A director writes a formula (``sqrt(entrants) / sqrt(place)``);
``check_formula`` reads it once into a tree of this module's own dataclasses (a tokenizer and
a recursive-descent parser: Python's ``eval``, ``exec``, ``compile`` and ``ast`` are never
used, so a formula can only compute a number) and ``evaluate`` computes it for one player's
values. Every refusal is a ``DomainError``: ``bad_formula`` when the text cannot be read,
``formula_failed`` when a computation is impossible (the message names the column and the
values of the variables).

The language:

* Numbers: ``12``, ``0.25``, ``.5`` (ASCII digits, at most 15 before the point).
* Variables (``VARIABLES``): ``entrants``, ``place``, ``buyin``, ``prize``, ``bounties``,
  ``rebuys``, ``addons``, ``hits``. Names and functions are read without regard to case.
* Operators, loosest first: one comparison ``<  <=  >  >=  ==  !=`` (``=`` and ``<>`` as in a
  spreadsheet too; a comparison gives 1 or 0 and does not chain); ``+ -``; ``* /``; unary
  ``- +``; power ``**`` or ``^`` (right to left: ``2^3^2`` is ``2^9``; ``-2^2`` is ``-4``;
  ``2^-1`` is ``0.5``). Parentheses group.
* Functions (``FUNCTIONS``): ``sqrt(x)``, ``ln(x)``, ``log10(x)``, ``log(x, base)`` (the base
  is required: a one-argument ``log`` is natural in some programs and base 10 in spreadsheets,
  so it is refused rather than guessed), ``exp(x)``, ``abs(x)``, ``floor(x)``, ``ceil(x)``,
  ``round(x)`` and ``round(x, decimals)`` (half up, decimals 0 to 10), ``min(a, b, ...)``,
  ``max(a, b, ...)`` and ``if(condition, then, else)`` (a condition other than 0 is true; only
  the branch taken is computed, so ``if(place > 0, 100 / place, 0)`` never divides by zero).

Arithmetic is ``decimal.Decimal`` with 28 significant digits, not float: 0.1 + 0.2 is 0.3, and
rounding half up (how points are shown, to 2 decimals) is exact. sqrt, ln, log10, exp and
powers are Decimal's, correctly rounded to 28 digits. Limits: ``MAX_LENGTH`` characters,
``MAX_DEPTH`` levels of nesting (parentheses, calls, signs, powers), and no value may reach
10^100 (``formula_failed``: the result is too large; tiny values become 0).
"""

from __future__ import annotations

import decimal
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from tourney.engine.errors import DomainError

MAX_LENGTH = 500
MAX_DEPTH = 50
MAX_NUMBER_DIGITS = 15
MAX_EXPONENT = 99  # no value reaches 10^100
MAX_ROUND_DECIMALS = 10

VARIABLES: dict[str, str] = {
    "entrants": "the entries in the event",
    "place": "the player's finishing place (1 is the winner)",
    "buyin": "the event's buy-in, in currency units",
    "prize": "the player's prize money, in currency units",
    "bounties": "the player's bounty money, in currency units",
    "rebuys": "how many rebuys the player made",
    "addons": "how many add-ons the player took",
    "hits": "how many players the player knocked out",
}

# name: (fewest arguments, most arguments (None: any number), what it does)
FUNCTIONS: dict[str, tuple[int, int | None, str]] = {
    "sqrt": (1, 1, "square root"),
    "ln": (1, 1, "natural logarithm"),
    "log10": (1, 1, "logarithm base 10"),
    "log": (2, 2, "logarithm to a base: log(x, base)"),
    "exp": (1, 1, "e to the power x"),
    "abs": (1, 1, "absolute value"),
    "floor": (1, 1, "round down to a whole number"),
    "ceil": (1, 1, "round up to a whole number"),
    "round": (1, 2, "round half up: round(x) or round(x, decimals)"),
    "min": (2, None, "the smallest of its arguments"),
    "max": (2, None, "the largest of its arguments"),
    "if": (3, 3, "if(condition, then, else)"),
}

# bad_formula: the text cannot be read
MSG_EMPTY = "The formula is empty."
MSG_TOO_LONG = "The formula is {length} characters long; at most {limit} are allowed."
MSG_BAD_CHARACTER = "Column {column}: {char} is not allowed in a formula."
MSG_BAD_NUMBER = "Column {column}: {text} is not a number."
MSG_NUMBER_TOO_LONG = (
    "Column {column}: {text} has more than {limit} digits before the decimal point."
)
MSG_EXPECTED = "Column {column}: expected {expected}, found {found}."
MSG_UNKNOWN_NAME = "Column {column}: unknown name '{name}'; the names are {names}."
MSG_UNKNOWN_FUNCTION = "Column {column}: unknown function '{name}'; the functions are {names}."
MSG_NOT_A_FUNCTION = "Column {column}: '{name}' is a value, not a function."
MSG_FUNCTION_WITHOUT_CALL = "Column {column}: '{name}' is a function: write {name}(...)."
MSG_WRONG_ARGUMENTS = "Column {column}: {name}() takes {expected}, got {got}."
MSG_LOG_NEEDS_BASE = (
    "Column {column}: log() needs a base: write log(x, base), ln(x) for the natural "
    "logarithm or log10(x) for base 10."
)
MSG_TOO_DEEP = "Column {column}: the formula nests more than {limit} levels deep."
MSG_CHAINED_COMPARISON = (
    "Column {column}: comparisons do not chain; compare two values at a time inside if()."
)
# formula_failed: the text was read but cannot be computed for these values
MSG_DIVISION_BY_ZERO = "Column {column}: division by zero ({values})."
MSG_LOG_DOMAIN = (
    "Column {column}: {name}() of {value}: a logarithm needs a number above 0 ({values})."
)
MSG_LOG_BASE = (
    "Column {column}: log() to the base {value}: the base must be above 0 and not 1 ({values})."
)
MSG_SQRT_NEGATIVE = (
    "Column {column}: sqrt() of {value}: a square root needs a number of 0 or more ({values})."
)
MSG_BAD_POWER = "Column {column}: {base} to the power {exponent} is not a real number ({values})."
MSG_TOO_LARGE = "Column {column}: the result is too large (10^{limit} or more) ({values})."
MSG_BAD_ROUND_DECIMALS = (
    "Column {column}: round() takes a whole number of decimals from 0 to {limit}, "
    "got {value} ({values})."
)
MSG_CANNOT_COMPUTE = "Column {column}: this cannot be computed ({values})."
MSG_MISSING_VALUE = "The formula uses '{name}' but no value was given for it."
MSG_BAD_VALUE = "The value of '{name}' must be a finite number below 10^{limit}, not {value}."

_CONTEXT = decimal.Context(
    prec=28,
    rounding=decimal.ROUND_HALF_EVEN,
    Emax=MAX_EXPONENT,
    Emin=-MAX_EXPONENT,
    traps=[decimal.Overflow, decimal.DivisionByZero, decimal.InvalidOperation],
)
# as written: as compared (the spreadsheet's "=" and "<>" too)
_COMPARISONS = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!="}
_COMPARISONS.update({"=": "==", "<>": "!="})
_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_COMPARE.update({"==": operator.eq, "!=": operator.ne})
_OPERATORS = "** <= >= == != <> + - * / ^ ( ) , < > =".split()  # the longer first
_SPACES = " \t\r\n"
_DIGITS = "0123456789"
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"


# ------------------------------------------------------------------------------- the tree


@dataclass(frozen=True, slots=True)
class Number:
    value: Decimal
    column: int


@dataclass(frozen=True, slots=True)
class Name:
    name: str
    column: int


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-" or "+"
    operand: Node
    column: int


@dataclass(frozen=True, slots=True)
class Chain:
    """``first (op operand)*`` of one precedence level (``+ -`` or ``* /``), left to right:
    a long sum is one flat node, so evaluating it never recurses deeply."""

    first: Node
    rest: tuple[tuple[str, Node, int], ...]  # (op, operand, column of the op)


@dataclass(frozen=True, slots=True)
class Power:
    base: Node
    exponent: Node
    column: int


@dataclass(frozen=True, slots=True)
class Compare:
    op: str  # normalised: < <= > >= == !=
    left: Node
    right: Node
    column: int


@dataclass(frozen=True, slots=True)
class Call:
    name: str
    args: tuple[Node, ...]
    column: int


Node = Number | Name | Unary | Chain | Power | Compare | Call


@dataclass(frozen=True, slots=True)
class Formula:
    """A formula read by ``check_formula``: its text, its tree and the variables it uses."""

    text: str
    root: Node
    names: frozenset[str]


# ------------------------------------------------------------------------ reading the text


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "number", "name", "op", "end"
    text: str
    column: int


def _bad(message: str, column: int, **values: object) -> DomainError:
    return DomainError(
        "bad_formula", message.format(column=column, **values), fields={"column": column}
    )


def _number_token(text: str, start: int) -> _Token:
    end = start
    while end < len(text) and (text[end] in _DIGITS or text[end] == "."):
        end += 1
    raw = text[start:end]
    whole, _, fraction = raw.partition(".")
    if "." in fraction or not (whole or fraction) or (raw.endswith(".")):
        raise _bad(MSG_BAD_NUMBER, start + 1, text=f"'{raw}'")
    if len(whole.lstrip("0")) > MAX_NUMBER_DIGITS:
        raise _bad(MSG_NUMBER_TOO_LONG, start + 1, text=raw, limit=MAX_NUMBER_DIGITS)
    return _Token("number", raw, start + 1)


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char in _SPACES:
            i += 1
        elif char in _DIGITS or char == ".":
            token = _number_token(text, i)
            out.append(token)
            i += len(token.text)
        elif char in _LETTERS:
            end = i + 1
            while end < len(text) and (text[end] in _LETTERS or text[end] in _DIGITS):
                end += 1
            out.append(_Token("name", text[i:end], i + 1))
            i = end
        else:
            op = next((op for op in _OPERATORS if text.startswith(op, i)), None)
            if op is None:
                shown = repr(char) if char.isprintable() else f"the character U+{ord(char):04X}"
                raise _bad(MSG_BAD_CHARACTER, i + 1, char=shown)
            out.append(_Token("op", op, i + 1))
            i += len(op)
    out.append(_Token("end", "", len(text) + 1))
    return out


def _found(token: _Token) -> str:
    if token.kind == "end":
        return "the end of the formula"
    if token.kind == "number":
        return f"the number {token.text}"
    if token.kind == "name":
        return f"the name '{token.text}'"
    return f"'{token.text}'"


def _count(n: int | None) -> str:
    return f"{n} argument" if n == 1 else f"{n} arguments"


class _Parser:
    """Recursive descent over the tokens; ``depth`` counts the nesting being read."""

    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.at = 0
        self.depth = 0
        self.names: set[str] = set()

    @property
    def token(self) -> _Token:
        return self.tokens[self.at]

    def take(self) -> _Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def expect(self, text: str, expected: str) -> _Token:
        if self.token.kind != "op" or self.token.text != text:
            raise _bad(MSG_EXPECTED, self.token.column, expected=expected, found=_found(self.token))
        return self.take()

    def nested(self, column: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _bad(MSG_TOO_DEEP, column, limit=MAX_DEPTH)

    def is_op(self, *texts: str) -> bool:
        return self.token.kind == "op" and self.token.text in texts

    def formula(self) -> Node:
        node = self.comparison()
        if self.token.kind != "end":
            raise _bad(
                MSG_EXPECTED,
                self.token.column,
                expected="an operator or the end of the formula",
                found=_found(self.token),
            )
        return node

    def comparison(self) -> Node:
        left = self.chain(self.term, ("+", "-"))
        if not self.is_op(*_COMPARISONS):
            return left
        op = self.take()
        right = self.chain(self.term, ("+", "-"))
        if self.is_op(*_COMPARISONS):
            raise _bad(MSG_CHAINED_COMPARISON, self.token.column)
        return Compare(_COMPARISONS[op.text], left, right, op.column)

    def term(self) -> Node:
        return self.chain(self.unary, ("*", "/"))

    def chain(self, operand, ops: tuple[str, ...]) -> Node:
        first = operand()
        rest = []
        while self.is_op(*ops):
            op = self.take()
            rest.append((op.text, operand(), op.column))
        return Chain(first, tuple(rest)) if rest else first

    def unary(self) -> Node:
        if not self.is_op("-", "+"):
            return self.power()
        op = self.take()
        self.nested(op.column)
        operand = self.unary()
        self.depth -= 1
        return Unary(op.text, operand, op.column)

    def power(self) -> Node:
        base = self.primary()
        if not self.is_op("**", "^"):
            return base
        op = self.take()
        self.nested(op.column)
        exponent = self.unary()
        self.depth -= 1
        return Power(base, exponent, op.column)

    def primary(self) -> Node:
        token = self.token
        if token.kind == "number":
            self.take()
            return Number(_CONTEXT.create_decimal(token.text), token.column)
        if token.kind == "name":
            return self.name()
        if self.is_op("("):
            self.take()
            self.nested(token.column)
            inner = self.comparison()
            self.expect(")", "')'")
            self.depth -= 1
            return inner
        raise _bad(
            MSG_EXPECTED, token.column, expected="a number, a name or '('", found=_found(token)
        )

    def name(self) -> Node:
        token = self.take()
        name = token.text.lower()
        if self.is_op("("):
            if name in FUNCTIONS:
                return self.call(name, token.column)
            if name in VARIABLES:
                raise _bad(MSG_NOT_A_FUNCTION, token.column, name=token.text)
            raise _bad(
                MSG_UNKNOWN_FUNCTION, token.column, name=token.text, names=", ".join(FUNCTIONS)
            )
        if name in VARIABLES:
            self.names.add(name)
            return Name(name, token.column)
        if name in FUNCTIONS:
            raise _bad(MSG_FUNCTION_WITHOUT_CALL, token.column, name=name)
        raise _bad(MSG_UNKNOWN_NAME, token.column, name=token.text, names=", ".join(VARIABLES))

    def call(self, name: str, column: int) -> Node:
        self.take()  # "("
        self.nested(column)
        args: list[Node] = []
        if not self.is_op(")"):
            args.append(self.comparison())
            while self.is_op(","):
                self.take()
                args.append(self.comparison())
        self.expect(")", "',' or ')'")
        self.depth -= 1
        fewest, most, _ = FUNCTIONS[name]
        if name == "log" and len(args) == 1:
            raise _bad(MSG_LOG_NEEDS_BASE, column)
        if len(args) < fewest or (most is not None and len(args) > most):
            if most is None:
                expected = f"at least {_count(fewest)}"
            elif fewest == most:
                expected = _count(fewest)
            else:
                expected = f"{fewest} or {_count(most)}"
            raise _bad(MSG_WRONG_ARGUMENTS, column, name=name, expected=expected, got=len(args))
        return Call(name, tuple(args), column)


def check_formula(text: str) -> Formula:
    """Read ``text`` into a ``Formula``, or refuse it (``bad_formula``, with the column)."""
    if not isinstance(text, str) or not text.strip():
        raise DomainError("bad_formula", MSG_EMPTY, fields={"column": 1})
    if len(text) > MAX_LENGTH:
        raise DomainError(
            "bad_formula",
            MSG_TOO_LONG.format(length=len(text), limit=MAX_LENGTH),
            fields={"column": MAX_LENGTH + 1},
        )
    parser = _Parser(_tokens(text))
    root = parser.formula()
    return Formula(text, root, frozenset(parser.names))


# ------------------------------------------------------------------------------ computing


def show_number(value: Decimal) -> str:
    """``value`` as a person reads it: 12, 0.25, -3.5 (no exponent below 10^15)."""
    if value.is_zero():
        return "0"
    if abs(value) < Decimal(10) ** 15:
        return format(value.normalize(_CONTEXT.copy()), "f")
    return format(value, ".6E")


class _Evaluation:
    def __init__(self, env: dict[str, Decimal]) -> None:
        self.env = env
        self.ctx = _CONTEXT.copy()

    def fail(self, message: str, column: int, **values: object) -> DomainError:
        shown = ", ".join(f"{name}={show_number(value)}" for name, value in self.env.items())
        return DomainError(
            "formula_failed",
            message.format(column=column, values=shown or "no variables", **values),
            fields={"column": column, "values": {k: str(v) for k, v in self.env.items()}},
        )

    def run(self, node: Node) -> Decimal:
        try:
            return self.value(node)
        except _Overflow as too_large:
            raise self.fail(MSG_TOO_LARGE, too_large.column, limit=MAX_EXPONENT + 1) from None

    def value(self, node: Node) -> Decimal:
        ctx = self.ctx
        match node:
            case Number(value=value):
                return value
            case Name(name=name):
                return self.env[name]
            case Unary(op=op, operand=operand, column=column):
                inner = self.value(operand)
                return self.guard(ctx.minus if op == "-" else ctx.plus, column, inner)
            case Chain(first=first, rest=rest):
                total = self.value(first)
                for op, operand, column in rest:
                    total = self.arithmetic(op, total, self.value(operand), column)
                return total
            case Power(base=base, exponent=exponent, column=column):
                return self.power(self.value(base), self.value(exponent), column)
            case Compare(op=op, left=left, right=right):
                return Decimal(int(_COMPARE[op](self.value(left), self.value(right))))
            case Call(name="if", args=(condition, then, other)):
                return self.value(then if not self.value(condition).is_zero() else other)
            case Call(name=name, args=args, column=column):
                return self.call(name, [self.value(arg) for arg in args], column)
        raise AssertionError(node)  # pragma: no cover - the parser builds only the cases above

    def guard(self, operation, column: int, *args: Decimal) -> Decimal:
        try:
            return operation(*args)
        except decimal.Overflow:
            raise _Overflow(column) from None
        except decimal.DecimalException:
            raise self.fail(MSG_CANNOT_COMPUTE, column) from None

    def arithmetic(self, op: str, left: Decimal, right: Decimal, column: int) -> Decimal:
        ctx = self.ctx
        if op == "/":
            if right.is_zero():
                raise self.fail(MSG_DIVISION_BY_ZERO, column)
            return self.guard(ctx.divide, column, left, right)
        operation = {"+": ctx.add, "-": ctx.subtract, "*": ctx.multiply}[op]
        return self.guard(operation, column, left, right)

    def power(self, base: Decimal, exponent: Decimal, column: int) -> Decimal:
        if base == 0 and exponent < 0:
            raise self.fail(MSG_DIVISION_BY_ZERO, column)
        integral = exponent == exponent.to_integral_value()
        if (base == 0 and exponent == 0) or (base < 0 and not integral):
            raise self.fail(
                MSG_BAD_POWER, column, base=show_number(base), exponent=show_number(exponent)
            )
        return self.guard(self.ctx.power, column, base, exponent)

    def call(self, name: str, args: list[Decimal], column: int) -> Decimal:
        ctx = self.ctx
        x = args[0]
        if name in ("ln", "log10", "log") and x <= 0:
            raise self.fail(MSG_LOG_DOMAIN, column, name=name, value=show_number(x))
        if name == "sqrt":
            if x < 0:
                raise self.fail(MSG_SQRT_NEGATIVE, column, value=show_number(x))
            return ctx.sqrt(x)
        if name == "log":
            base = args[1]
            if base <= 0 or base == 1:
                raise self.fail(MSG_LOG_BASE, column, value=show_number(base))
            return self.guard(ctx.divide, column, ctx.ln(x), ctx.ln(base))
        if name == "round":
            return self.round(x, args[1] if len(args) > 1 else Decimal(0), column)
        simple = {
            "ln": ctx.ln,
            "log10": ctx.log10,
            "exp": ctx.exp,
            "abs": ctx.abs,
            "floor": lambda v: v.to_integral_value(rounding=decimal.ROUND_FLOOR, context=ctx),
            "ceil": lambda v: v.to_integral_value(rounding=decimal.ROUND_CEILING, context=ctx),
        }
        if name in simple:
            return self.guard(simple[name], column, x)
        return min(args) if name == "min" else max(args)

    def round(self, x: Decimal, decimals: Decimal, column: int) -> Decimal:
        if decimals != decimals.to_integral_value() or not 0 <= decimals <= MAX_ROUND_DECIMALS:
            raise self.fail(
                MSG_BAD_ROUND_DECIMALS,
                column,
                limit=MAX_ROUND_DECIMALS,
                value=show_number(decimals),
            )
        places = int(decimals)
        if x.is_zero() or x.adjusted() + 1 + places >= self.ctx.prec:
            return x  # it has no digits past ``places`` decimals at 28 significant digits
        unit = Decimal(1).scaleb(-places)
        return self.guard(lambda v: v.quantize(unit, rounding=decimal.ROUND_HALF_UP), column, x)


class _Overflow(Exception):
    def __init__(self, column: int) -> None:
        super().__init__(column)
        self.column = column


def _variable(name: str, value: object) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise TypeError(f"{name} must be an int or a Decimal, not {value!r}")
    try:
        checked = _CONTEXT.copy().create_decimal(value)
    except decimal.DecimalException:
        checked = Decimal("NaN")
    if not checked.is_finite():
        raise DomainError(
            "formula_failed",
            MSG_BAD_VALUE.format(name=name, limit=MAX_EXPONENT + 1, value=value),
        )
    return checked


def evaluate(formula: Formula, variables: Mapping[str, int | Decimal]) -> Decimal:
    """``formula``'s value for ``variables`` (name: int or Decimal), or ``formula_failed``.

    Only the variables the formula uses are needed; they are named in the failure's message
    in ``VARIABLES`` order."""
    env: dict[str, Decimal] = {}
    for name in VARIABLES:
        if name in variables:
            env[name] = _variable(name, variables[name])
        elif name in formula.names:
            raise DomainError("formula_failed", MSG_MISSING_VALUE.format(name=name))
    return _Evaluation(env).run(formula.root)
