"""The points formula language (issue 27): reading, computing, refusing, and never running code."""

from __future__ import annotations

import ast
import decimal
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tourney.engine import formula as formula_module
from tourney.engine.errors import DomainError
from tourney.engine.formula import (
    FUNCTIONS,
    MAX_DEPTH,
    MAX_LENGTH,
    MSG_BAD_CHARACTER,
    MSG_BAD_NUMBER,
    MSG_BAD_POWER,
    MSG_BAD_ROUND_DECIMALS,
    MSG_BAD_VALUE,
    MSG_CHAINED_COMPARISON,
    MSG_DIVISION_BY_ZERO,
    MSG_EMPTY,
    MSG_EXPECTED,
    MSG_FUNCTION_WITHOUT_CALL,
    MSG_LOG_BASE,
    MSG_LOG_DOMAIN,
    MSG_LOG_NEEDS_BASE,
    MSG_MISSING_VALUE,
    MSG_NOT_A_FUNCTION,
    MSG_NUMBER_TOO_LONG,
    MSG_SQRT_NEGATIVE,
    MSG_TOO_DEEP,
    MSG_TOO_LARGE,
    MSG_TOO_LONG,
    MSG_UNKNOWN_FUNCTION,
    MSG_UNKNOWN_NAME,
    MSG_WRONG_ARGUMENTS,
    VARIABLES,
    check_formula,
    evaluate,
)

ROOT = Path(__file__).resolve().parents[2]
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
VALUES = {
    "entrants": 10,
    "place": 3,
    "buyin": 50,
    "prize": Decimal("120.50"),
    "bounties": 0,
    "rebuys": 1,
    "addons": 0,
    "hits": 2,
}
SHOWN = "entrants=10, place=3, buyin=50, prize=120.5, bounties=0, rebuys=1, addons=0, hits=2"
NAMES = ", ".join(VARIABLES)


def value(text: str, **values: int | Decimal) -> Decimal:
    return evaluate(check_formula(text), values or VALUES)


def refused(text: str) -> DomainError:
    with pytest.raises(DomainError) as info:
        check_formula(text)
    assert info.value.code == "bad_formula"
    return info.value


def failed(text: str, **values: int | Decimal) -> DomainError:
    parsed = check_formula(text)
    with pytest.raises(DomainError) as info:
        evaluate(parsed, values or VALUES)
    assert info.value.code == "formula_failed"
    return info.value


def test_engine_imports_no_django() -> None:
    code = (
        "import sys; import tourney.engine.formula; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'celery')]; "
        "sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


def test_the_module_never_calls_eval_exec_compile_or_imports_ast() -> None:
    tree = ast.parse(Path(formula_module.__file__).read_text(encoding="utf-8"))
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert not names & {"eval", "exec", "compile", "__import__", "getattr", "globals"}
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    modules = {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not (imported | modules) & {"ast", "builtins", "importlib", "os", "subprocess"}


# ------------------------------------------------------------------------ values by hand


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("entrants - place + 1", "8"),
        ("1 + 2 * 3", "7"),
        ("(1 + 2) * 3", "9"),
        ("10 - 4 - 3", "3"),
        ("48 / 4 / 2", "6"),
        ("2 ^ 3 ^ 2", "512"),
        ("2 ** 3 ** 2", "512"),
        ("-2 ^ 2", "-4"),
        ("(-2) ^ 2", "4"),
        ("2 ^ -1", "0.5"),
        ("- -3", "3"),
        ("+3", "3"),
        ("0.1 + 0.2", "0.3"),
        (".5 * 4", "2"),
        ("1 < 2", "1"),
        ("2 <= 1", "0"),
        ("place == 3", "1"),
        ("place = 3", "1"),
        ("place != 3", "0"),
        ("place <> 3", "0"),
        ("1 + 1 > 1", "1"),
        ("sqrt(16)", "4"),
        ("log10(1000)", "3"),
        ("ln(1)", "0"),
        ("exp(0)", "1"),
        ("abs(-2.5)", "2.5"),
        ("floor(-2.5)", "-3"),
        ("ceil(2.1)", "3"),
        ("round(2.5)", "3"),
        ("round(3.5)", "4"),
        ("round(-2.5)", "-3"),
        ("round(1.005, 2)", "1.01"),
        ("round(prize, 0)", "121"),
        ("min(4, place, 7)", "3"),
        ("max(4, place, 7)", "7"),
        ("if(place <= 3, 10, 0)", "10"),
        ("if(place > 3, 10, 0)", "0"),
        ("if(place - 3, 1 / (place - 3), 0)", "0"),
        ("SQRT(16) * Place + Hits", "14"),
        ("prize / 2", "60.25"),
        ("hits * 5 + rebuys", "11"),
        ("addons + bounties", "0"),
        ("buyin", "50"),
    ],
)
def test_a_formula_computes_what_its_text_says(text: str, expected: str) -> None:
    assert value(text) == Decimal(expected)


def test_log_to_a_base_is_the_ratio_of_logarithms() -> None:
    assert round(value("log(8, 2)"), 20) == 3
    assert value("log(100, 10)") == value("log10(100)")


def test_the_sqrt_formula_with_buy_in_weighting_by_hand() -> None:
    # sqrt(10) / sqrt(3) * (1 + log10(50.25)) = 1.8257418584 * 2.7011360660 = 4.93157718
    got = value("sqrt(entrants) / sqrt(place) * (1 + log10(buyin + 0.25))")
    assert abs(got - Decimal("4.931577181")) < Decimal("1e-9")


def test_the_text_is_kept_and_the_variables_used_are_listed() -> None:
    parsed = check_formula("Entrants - place + 1")
    assert parsed.text == "Entrants - place + 1"
    assert parsed.names == {"entrants", "place"}


def test_only_the_variables_used_are_needed() -> None:
    assert evaluate(check_formula("place * 2"), {"place": 4}) == 8


def test_only_the_branch_taken_is_computed() -> None:
    assert value("if(0, ln(0), 5)") == 5
    assert value("if(1, 5, 1 / 0)") == 5


def test_every_function_is_described() -> None:
    assert set(FUNCTIONS) == set("sqrt ln log10 log exp abs floor ceil round min max if".split())


# ---------------------------------------------------------------------- bad_formula texts


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", MSG_EMPTY),
        ("   ", MSG_EMPTY),
        ("1 $ 2", MSG_BAD_CHARACTER.format(column=3, char="'$'")),
        ("1\x002", MSG_BAD_CHARACTER.format(column=2, char="the character U+0000")),
        ("1..2", MSG_BAD_NUMBER.format(column=1, text="'1..2'")),
        ("2 + 1.", MSG_BAD_NUMBER.format(column=5, text="'1.'")),
        ("1.2.3", MSG_BAD_NUMBER.format(column=1, text="'1.2.3'")),
        (
            "1234567890123456",
            MSG_NUMBER_TOO_LONG.format(column=1, text="1234567890123456", limit=15),
        ),
        (
            "1 +",
            MSG_EXPECTED.format(
                column=4, expected="a number, a name or '('", found="the end of the formula"
            ),
        ),
        (
            "2x",
            MSG_EXPECTED.format(
                column=2, expected="an operator or the end of the formula", found="the name 'x'"
            ),
        ),
        ("(1 + 2", MSG_EXPECTED.format(column=7, expected="')'", found="the end of the formula")),
        (
            "1 + 2)",
            MSG_EXPECTED.format(
                column=6, expected="an operator or the end of the formula", found="')'"
            ),
        ),
        ("max(1 2)", MSG_EXPECTED.format(column=7, expected="',' or ')'", found="the number 2")),
        ("2 ^^ 3", MSG_EXPECTED.format(column=4, expected="a number, a name or '('", found="'^'")),
        ("n + 1", MSG_UNKNOWN_NAME.format(column=1, name="n", names=NAMES)),
        (
            "1 + foo(2)",
            MSG_UNKNOWN_FUNCTION.format(column=5, name="foo", names=", ".join(FUNCTIONS)),
        ),
        ("place(2)", MSG_NOT_A_FUNCTION.format(column=1, name="place")),
        ("sqrt + 1", MSG_FUNCTION_WITHOUT_CALL.format(column=1, name="sqrt")),
        (
            "sqrt(1, 2)",
            MSG_WRONG_ARGUMENTS.format(column=1, name="sqrt", expected="1 argument", got=2),
        ),
        (
            "if(1, 2)",
            MSG_WRONG_ARGUMENTS.format(column=1, name="if", expected="3 arguments", got=2),
        ),
        (
            "min(1)",
            MSG_WRONG_ARGUMENTS.format(
                column=1, name="min", expected="at least 2 arguments", got=1
            ),
        ),
        (
            "max()",
            MSG_WRONG_ARGUMENTS.format(
                column=1, name="max", expected="at least 2 arguments", got=0
            ),
        ),
        (
            "round(1, 2, 3)",
            MSG_WRONG_ARGUMENTS.format(column=1, name="round", expected="1 or 2 arguments", got=3),
        ),
        ("1 + log(place)", MSG_LOG_NEEDS_BASE.format(column=5)),
        ("1 < 2 < 3", MSG_CHAINED_COMPARISON.format(column=7)),
    ],
)
def test_a_text_that_cannot_be_read_is_refused_with_its_column(text: str, message: str) -> None:
    error = refused(text)
    assert error.message == message


def test_a_refusal_carries_its_column() -> None:
    assert refused("1 + 2 $").fields == {"column": 7}


def test_a_formula_past_the_length_limit_is_refused() -> None:
    text = "1+" * (MAX_LENGTH // 2) + "1"
    assert refused(text).message == MSG_TOO_LONG.format(length=len(text), limit=MAX_LENGTH)
    assert check_formula("1+" * (MAX_LENGTH // 2 - 1) + "1")  # 499 characters: read


def test_nesting_past_the_depth_limit_is_refused() -> None:
    deep = "(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1)
    assert refused(deep).message == MSG_TOO_DEEP.format(column=MAX_DEPTH + 1, limit=MAX_DEPTH)
    signs = "-" * (MAX_DEPTH + 1) + "1"
    assert refused(signs).message == MSG_TOO_DEEP.format(column=MAX_DEPTH + 1, limit=MAX_DEPTH)
    powers = "^".join(["1"] * (MAX_DEPTH + 2))
    assert refused(powers).code == "bad_formula"
    ok = "(" * MAX_DEPTH + "1" + ")" * MAX_DEPTH
    assert evaluate(check_formula(ok), {}) == 1


def test_a_long_flat_sum_is_not_nesting() -> None:
    assert value("+".join(["1"] * 200)) == 200


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('touch /tmp/pwned')",
        "().__class__.__bases__[0].__subclasses__()",
        "lambda: 1",
        "os.system('ls')",
        "place.__class__",
        "eval('1')",
        "exec('import os')",
        "open('/etc/passwd').read()",
        "[x for x in (1,)]",
        "{1: 2}",
        "place if 1 else 2",
        "place; import os",
        "__builtins__",
        "'a' * 10",
        "1 and 2",
        "not 1",
        "f'{1}'",
        "1e5",
        "0x10",
        "1_000",
        "١٢",
        "²",
    ],
)
def test_python_is_not_the_language(text: str) -> None:
    refused(text)


# ------------------------------------------------------------------ formula_failed values


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 / (place - 3)", MSG_DIVISION_BY_ZERO.format(column=3, values=SHOWN)),
        ("0 ^ -1", MSG_DIVISION_BY_ZERO.format(column=3, values=SHOWN)),
        ("ln(place - 3)", MSG_LOG_DOMAIN.format(column=1, name="ln", value="0", values=SHOWN)),
        ("log10(-1)", MSG_LOG_DOMAIN.format(column=1, name="log10", value="-1", values=SHOWN)),
        ("log(0, 2)", MSG_LOG_DOMAIN.format(column=1, name="log", value="0", values=SHOWN)),
        ("log(8, 1)", MSG_LOG_BASE.format(column=1, value="1", values=SHOWN)),
        ("log(8, -2)", MSG_LOG_BASE.format(column=1, value="-2", values=SHOWN)),
        ("sqrt(1 - place)", MSG_SQRT_NEGATIVE.format(column=1, value="-2", values=SHOWN)),
        ("(-8) ^ 0.5", MSG_BAD_POWER.format(column=6, base="-8", exponent="0.5", values=SHOWN)),
        ("0 ^ 0", MSG_BAD_POWER.format(column=3, base="0", exponent="0", values=SHOWN)),
        ("10 ^ 100", MSG_TOO_LARGE.format(column=4, limit=100, values=SHOWN)),
        ("exp(1000)", MSG_TOO_LARGE.format(column=1, limit=100, values=SHOWN)),
        ("1.1 ^ 999999999999999", MSG_TOO_LARGE.format(column=5, limit=100, values=SHOWN)),
        ("10^50 * 10^50", MSG_TOO_LARGE.format(column=7, limit=100, values=SHOWN)),
        (
            "round(1, 11)",
            MSG_BAD_ROUND_DECIMALS.format(column=1, limit=10, value="11", values=SHOWN),
        ),
        (
            "round(1, 0.5)",
            MSG_BAD_ROUND_DECIMALS.format(column=1, limit=10, value="0.5", values=SHOWN),
        ),
        (
            "round(1, -1)",
            MSG_BAD_ROUND_DECIMALS.format(column=1, limit=10, value="-1", values=SHOWN),
        ),
    ],
)
def test_a_computation_that_cannot_be_done_names_the_column_and_the_values(
    text: str, message: str
) -> None:
    error = failed(text)
    assert error.message == message
    assert error.fields["values"]["place"] == "3"


def test_a_tiny_value_becomes_zero_rather_than_failing() -> None:
    assert value("0.5 ^ 999999999999999") == 0


def test_a_missing_or_impossible_variable_is_refused() -> None:
    with pytest.raises(DomainError) as info:
        evaluate(check_formula("place + hits"), {"place": 1})
    assert info.value.message == MSG_MISSING_VALUE.format(name="hits")
    with pytest.raises(DomainError) as info:
        evaluate(check_formula("place"), {"place": Decimal("Infinity")})
    assert info.value.message == MSG_BAD_VALUE.format(name="place", limit=100, value="Infinity")
    with pytest.raises(TypeError):
        evaluate(check_formula("place"), {"place": 1.5})


# ------------------------------------------------------ Hypothesis: nothing but DomainError

OPERATORS = "( ) , + - * / ** ^ < <= == = != <> > >= 0 1 2.5 .5 999999999999999 . ; : [ ] { }"
PYTHON = "__import__ __class__ ().__class__ lambda os .system eval exec ' \" \\ # @"
FRAGMENTS = [*VARIABLES, *FUNCTIONS, *OPERATORS.split(), *PYTHON.split(), " ", "\n"]


def _outcome(text: str) -> None:
    try:
        parsed = check_formula(text)
    except DomainError as error:
        assert error.code == "bad_formula"
        assert error.message
        return
    try:
        got = evaluate(parsed, VALUES)
    except DomainError as error:
        assert error.code == "formula_failed"
        return
    assert isinstance(got, Decimal) and got.is_finite()


@FAST
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join))
def test_token_soup_gives_a_value_or_a_domain_error(text: str) -> None:
    _outcome(text)


@FAST
@given(st.text(max_size=120))
def test_any_text_gives_a_value_or_a_domain_error(text: str) -> None:
    _outcome(text)


@FAST
@given(st.text(alphabet=st.characters(codec="ascii"), min_size=MAX_LENGTH - 5, max_size=600))
def test_long_ascii_text_gives_a_value_or_a_domain_error(text: str) -> None:
    _outcome(text)


def test_no_code_runs_when_a_formula_names_python(tmp_path: Path) -> None:
    canary = tmp_path / "canary"
    for text in (
        f"__import__('pathlib').Path('{canary}').touch()",
        f"open('{canary}', 'w')",
        f"exec(\"open('{canary}', 'w')\")",
    ):
        refused(text)
    assert not canary.exists()


# --------------------------------------- Hypothesis: the grammar against a reference value

REFERENCE = decimal.Context(
    prec=28,
    Emax=99,
    Emin=-99,
    traps=[decimal.Overflow, decimal.DivisionByZero, decimal.InvalidOperation],
)


class Fails(Exception):
    """The reference finds no value (so the formula must fail with formula_failed)."""


def _check(ok: bool) -> None:
    if not ok:
        raise Fails


def _reference_call(name: str, args: list[Decimal]) -> Decimal:
    x = args[0]
    if name in ("ln", "log10", "log"):
        _check(x > 0)
    if name == "log":
        _check(args[1] > 0 and args[1] != 1)
        return REFERENCE.divide(REFERENCE.ln(x), REFERENCE.ln(args[1]))
    if name == "sqrt":
        _check(x >= 0)
    if name == "round":
        places = args[1] if len(args) > 1 else Decimal(0)
        _check(places == int(places) and 0 <= places <= 10)
        unit = Decimal(1).scaleb(-int(places))
        if x.is_zero() or x.adjusted() + 1 + int(places) >= 28:
            return x
        return x.quantize(unit, rounding=decimal.ROUND_HALF_UP, context=REFERENCE)
    table = {
        "sqrt": REFERENCE.sqrt,
        "ln": REFERENCE.ln,
        "log10": REFERENCE.log10,
        "exp": REFERENCE.exp,
        "abs": REFERENCE.abs,
        "floor": lambda v: v.to_integral_value(decimal.ROUND_FLOOR, REFERENCE),
        "ceil": lambda v: v.to_integral_value(decimal.ROUND_CEILING, REFERENCE),
        "min": lambda *_: min(args),
        "max": lambda *_: max(args),
    }
    return table[name](*args[:1])


def _reference_power(base: Decimal, exponent: Decimal) -> Decimal:
    _check(not (base == 0 and exponent <= 0))
    _check(base >= 0 or exponent == int(exponent))
    return REFERENCE.power(base, exponent)


# Each generated node is (text, precedence level, reference function of the variables).
# Levels: 0 comparison, 1 sum, 2 product, 3 sign, 4 power, 5 atom.
def _wrap(node, level: int) -> str:
    text, own, _ = node
    return text if own >= level else f"({text})"


def _leaf():
    number = st.sampled_from(["0", "1", "2", "3", "10", "0.5", ".25", "2.75", "100"])
    numbers = number.map(lambda t: (t, 5, lambda env, t=t: REFERENCE.create_decimal(t)))
    name = st.sampled_from(sorted(VARIABLES))
    names = st.tuples(name, st.booleans()).map(
        lambda p: (p[0].upper() if p[1] else p[0], 5, lambda env, n=p[0]: env[n])
    )
    return numbers | names


def _binary(pair_and_op):
    (left, right), op = pair_and_op
    levels = {"+": 1, "-": 1, "*": 2, "/": 2}
    if op in levels:
        level = levels[op]
        text = f"{_wrap(left, level)} {op} {_wrap(right, level + 1)}"

        def run(env):
            a, b = left[2](env), right[2](env)
            if op == "/":
                _check(not b.is_zero())
            ops = {"+": REFERENCE.add, "-": REFERENCE.subtract, "*": REFERENCE.multiply}
            return ops.get(op, REFERENCE.divide)(a, b)

        return (text, level, run)
    if op in ("^", "**"):
        text = f"{_wrap(left, 5)}{op}{_wrap(right, 3)}"
        return (text, 4, lambda env: _reference_power(left[2](env), right[2](env)))
    compare = {"<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__", "==": "__eq__"}
    text = f"{_wrap(left, 1)} {op} {_wrap(right, 1)}"
    method = compare[op]
    return (text, 0, lambda env: Decimal(int(getattr(left[2](env), method)(right[2](env)))))


def _extend(children):
    binary = st.tuples(st.tuples(children, children), st.sampled_from(list("+-*/^") + ["**"]))
    compare = st.tuples(
        st.tuples(children, children), st.sampled_from(["<", "<=", ">", "==", ">="])
    )
    sign = children.map(lambda c: (f"-{_wrap(c, 3)}", 3, lambda env: REFERENCE.minus(c[2](env))))
    paren = children.map(lambda c: (f"( {c[0]} )", 5, c[2]))
    one = st.tuples(
        st.sampled_from(["sqrt", "ln", "log10", "abs", "floor", "ceil", "round", "exp"]), children
    )
    calls = one.map(
        lambda p: (f"{p[0]}({p[1][0]})", 5, lambda env: _reference_call(p[0], [p[1][2](env)]))
    )
    two = st.tuples(st.sampled_from(["min", "max", "log", "round"]), children, children)
    calls2 = two.map(
        lambda p: (
            f"{p[0]}({p[1][0]}, {p[2][0]})",
            5,
            lambda env: _reference_call(p[0], [p[1][2](env), p[2][2](env)]),
        )
    )
    branch = st.tuples(children, children, children).map(
        lambda p: (
            f"if({p[0][0]}, {p[1][0]}, {p[2][0]})",
            5,
            lambda env: p[1][2](env) if not p[0][2](env).is_zero() else p[2][2](env),
        )
    )
    return binary.map(_binary) | compare.map(_binary) | sign | paren | calls | calls2 | branch


EXPRESSIONS = st.recursive(_leaf(), _extend, max_leaves=12)
ENVIRONMENTS = st.fixed_dictionaries(
    {
        "entrants": st.integers(1, 500),
        "place": st.integers(1, 500),
        "buyin": st.integers(0, 1000),
        "prize": st.decimals(0, 100000, places=2),
        "bounties": st.decimals(0, 1000, places=2),
        "rebuys": st.integers(0, 5),
        "addons": st.integers(0, 3),
        "hits": st.integers(0, 10),
    }
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSIONS, ENVIRONMENTS)
def test_a_generated_expression_computes_the_reference_value(node, env) -> None:
    text, _, reference = node
    parsed = check_formula(text)
    values = {name: REFERENCE.create_decimal(v) for name, v in env.items()}
    try:
        expected = reference(values)
    except (Fails, decimal.DecimalException):
        with pytest.raises(DomainError) as info:
            evaluate(parsed, env)
        assert info.value.code == "formula_failed"
        return
    assert evaluate(parsed, env) == expected
