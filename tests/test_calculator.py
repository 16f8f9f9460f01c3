"""The calculator computes what Python computes, prints it by one stated rule, and is a well-formed tool.

Reference: Python's own arithmetic and ``math`` module, evaluated here in the
test (never by ``eval`` of the same string), including a hypothesis property
test over random expression trees. Hostile input lives in
``test_calculator_security.py``.
"""

from __future__ import annotations

import math
import operator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aria_kit.calculator import (
    CONSTANTS,
    FUNCTIONS,
    MAX_EXPRESSION_LENGTH,
    MAX_INT_DIGITS,
    CalculatorTool,
    calculate,
    format_number,
)


def assert_same_number(text: str, expected: int | float) -> None:
    """Ints must match digit for digit; floats to the 12 significant digits the calculator prints."""
    assert not text.startswith("Error:"), text
    if isinstance(expected, int):
        assert text == str(expected)
    else:
        assert math.isclose(float(text), expected, rel_tol=1e-11, abs_tol=0.0), (text, expected)


# ---------------------------------------------------------------- arithmetic against Python


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("22 * 6.5", 22 * 6.5),
        ("2 + 3 * 4", 2 + 3 * 4),
        ("(2 + 3) * 4", (2 + 3) * 4),
        ("7 / 2", 7 / 2),
        ("7 // 2", 7 // 2),
        ("-7 // 2", -7 // 2),
        ("-7 % 3", -7 % 3),
        ("7.5 % 2", 7.5 % 2),
        ("-7.5 // 2", -7.5 // 2),
        ("2 ** 10", 2**10),
        ("2 ** -1", 2**-1),
        ("-2 ** 2", -(2**2)),
        ("2 ** 3 ** 2", 2 ** (3**2)),
        ("+-+3", +-+3),
        ("1_000 * 3", 1_000 * 3),
        ("0x10 + 0b11 + 0o7", 0x10 + 0b11 + 0o7),
        ("1e3 / 8", 1e3 / 8),
        ("4 ** 0.5", 4**0.5),
        ("10 ** 999 // 10 ** 997", 10**999 // 10**997),
        ("sqrt(2) * pi", math.sqrt(2) * math.pi),
        ("log(100, 10)", math.log(100, 10)),
        ("log(8, 2) + log2(1024) + log10(1e-3)", math.log(8, 2) + math.log2(1024) + math.log10(1e-3)),
        ("atan(1) * 4 - pi", math.atan(1) * 4 - math.pi),
        ("sin(pi / 6) ** 2 + cos(pi / 6) ** 2", math.sin(math.pi / 6) ** 2 + math.cos(math.pi / 6) ** 2),
        ("tau / 2 - pi", math.tau / 2 - math.pi),
        ("e ** 2", math.e**2),
        ("hypot(3, 4) * factorial(5)", math.hypot(3, 4) * math.factorial(5)),
        ("round(2.5) + round(3.5)", round(2.5) + round(3.5)),
        ("abs(-7) - abs(-2.5)", abs(-7) - abs(-2.5)),
        ("factorial(449)", math.factorial(449)),
        ("comb(52, 5) / perm(10, 3)", math.comb(52, 5) / math.perm(10, 3)),
        ("22 * 6.5 / (1 + 1 / 3)", 22 * 6.5 / (1 + 1 / 3)),
    ],
)
def test_expression_matches_python_arithmetic(expression: str, expected: int | float) -> None:
    assert_same_number(calculate(expression), expected)


# One call per allowed function, checked against the function Python itself provides.
SAMPLE_ARGUMENTS: dict[str, tuple[int | float, ...]] = {
    "abs": (-3.25,), "round": (2.675, 2), "sqrt": (2,), "cbrt": (-27,), "exp": (1.5,), "exp2": (10,),
    "expm1": (1e-5,), "log": (10,), "log2": (3,), "log10": (2,), "log1p": (1e-5,), "pow": (2, 0.5),
    "sin": (1,), "cos": (1,), "tan": (1,), "asin": (0.5,), "acos": (0.5,), "atan": (2,), "atan2": (1, -1),
    "sinh": (1,), "cosh": (1,), "tanh": (1,), "asinh": (1,), "acosh": (2,), "atanh": (0.5,),
    "degrees": (1,), "radians": (90,), "hypot": (3, 4, 12), "fabs": (-2,), "floor": (-2.5,), "ceil": (2.1,),
    "trunc": (-2.7,), "fmod": (7.5, 2), "remainder": (7, 3), "copysign": (3, -0.0), "factorial": (20,),
    "comb": (52, 5), "perm": (10, 3), "gcd": (12, 18, 27), "lcm": (4, 6, 10), "isqrt": (99,),
    "gamma": (4.5,), "lgamma": (100,), "erf": (0.5,), "erfc": (0.5,),
}
REFERENCE = {"abs": abs, "round": round}


def test_every_allowed_function_has_a_sample_call() -> None:
    assert set(SAMPLE_ARGUMENTS) == set(FUNCTIONS)


@pytest.mark.parametrize("name", sorted(SAMPLE_ARGUMENTS))
def test_each_allowed_function_matches_python(name: str) -> None:
    args = SAMPLE_ARGUMENTS[name]
    reference = REFERENCE.get(name) or getattr(math, name)
    expression = f"{name}({', '.join(repr(a) for a in args)})"
    assert_same_number(calculate(expression), reference(*args))


def test_whitelist_holds_only_real_number_functions_and_finite_constants() -> None:
    for name, function in FUNCTIONS.items():
        assert name in REFERENCE or hasattr(math, name), name
    # Functions on iterables, tuples or booleans, and the non-finite constants, stay out.
    for excluded in ("fsum", "prod", "dist", "frexp", "modf", "isclose", "isnan", "isinf", "isfinite", "inf", "nan"):
        assert excluded not in FUNCTIONS and excluded not in CONSTANTS
    assert CONSTANTS == {"pi": math.pi, "e": math.e, "tau": math.tau}


def test_the_lesson_example_gives_143_hours() -> None:
    assert calculate("22 * 6.5") == "143"


# ---------------------------------------------------------------- output format


@pytest.mark.parametrize(
    ("expression", "text"),
    [
        ("22 * 6.5", "143"),  # a whole-number float below 1e15 prints as an int
        ("10 / 5", "2"),
        ("-3.5 * 2", "-7"),
        ("-0.0", "0"),
        ("1e14", "100000000000000"),
        ("999999999999999.0", "999999999999999"),
        ("1e15", "1e+15"),  # from 1e15 on, floats use 12 significant digits like any other
        ("2.0 ** 60", "1.15292150461e+18"),
        ("1e300", "1e+300"),
        ("0.1 + 0.2", "0.3"),  # 12 significant digits hide the binary rounding error
        ("1 / 3", "0.333333333333"),
        ("2 / 3", "0.666666666667"),
        ("10 / 4", "2.5"),
        ("sqrt(2)", "1.41421356237"),
        ("1e-20", "1e-20"),  # small numbers keep their digits instead of rounding to 0
        ("round(2.567, 2)", "2.57"),
        ("2 ** 100", "1267650600228229401496703205376"),  # ints print every digit
    ],
)
def test_results_are_formatted_by_the_documented_rule(expression: str, text: str) -> None:
    assert calculate(expression) == text


def test_format_number_is_stable_for_the_same_value() -> None:
    value = 0.1 + 0.2
    assert format_number(value) == format_number(float(format_number(value))) == "0.3"


def test_large_integer_results_print_exactly() -> None:
    assert calculate("factorial(100)") == str(math.factorial(100))
    assert calculate(f"10 ** {MAX_INT_DIGITS - 1}") == "1" + "0" * (MAX_INT_DIGITS - 1)


# ---------------------------------------------------------------- the tool


def test_tool_schema_asks_for_one_required_string_expression() -> None:
    schema = CalculatorTool().schema()
    function = schema["function"]
    assert schema["type"] == "function"
    assert function["name"] == "calculator"
    parameters = function["parameters"]
    assert parameters["required"] == ["expression"]
    assert parameters["additionalProperties"] is False
    expression = parameters["properties"]["expression"]
    assert expression["type"] == "string"
    assert expression["description"] == 'An arithmetic expression, e.g. "22 * 6.5" or "sqrt(2) * pi".'
    assert expression["maxLength"] == MAX_EXPRESSION_LENGTH


def test_tool_description_names_every_allowed_function() -> None:
    description = CalculatorTool().schema()["function"]["description"]
    for name in list(FUNCTIONS) + list(CONSTANTS):
        assert name in description


def test_invoke_runs_the_expression_from_json_arguments() -> None:
    tool = CalculatorTool()
    assert tool.invoke('{"expression": "2+2"}') == "4"
    assert tool.invoke({"expression": "22 * 6.5"}) == "143"


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        ("{}", "argument `expression` is required"),
        ('{"expression": "1", "precision": 3}', "unknown argument `precision`"),
        ('{"expression": 4}', "must be of type string"),
        ('{"expression": null}', "must be of type string"),
        ("2+2", "not valid JSON"),
        ('["2+2"]', "must be a JSON object"),
        ('{"expression": "' + "1+" * 300 + '1"}', "the limit is 500"),
    ],
)
def test_invoke_with_bad_arguments_returns_an_error_text(arguments: str, reason: str) -> None:
    result = CalculatorTool().invoke(arguments)
    assert result.startswith("Error:")
    assert reason in result


def test_run_passes_the_calculator_errors_through() -> None:
    assert CalculatorTool().run(expression="1 / 0") == "Error: division by zero in 1 / 0"


# ---------------------------------------------------------------- property: random arithmetic


class Refused(Exception):
    """The reference's way of saying "Python fails here, so the calculator must answer Error:"."""


OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
             "//": operator.floordiv, "%": operator.mod, "**": operator.pow}

leaves = st.one_of(
    st.integers(-(10**6), 10**6),
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
    st.floats(allow_nan=False, allow_infinity=False),  # the whole range, to reach overflow
)
trees = st.recursive(
    leaves,
    lambda children: st.one_of(
        st.tuples(st.sampled_from(["+", "-", "*", "/", "//", "%"]), children, children),
        st.tuples(st.just("**"), children, st.integers(-3, 4)),  # small exponents keep ints short
        st.tuples(st.just("neg"), children),
    ),
    max_leaves=10,
)


def render(tree: object) -> str:
    """Fully parenthesised source text; repr() round-trips every float exactly."""
    if not isinstance(tree, tuple):
        return f"({tree!r})"
    if tree[0] == "neg":
        return f"(-{render(tree[1])})"  # parenthesised: -x ** 2 means -(x ** 2)
    symbol, left, right = tree
    return f"({render(left)} {symbol} {render(right)})"


def reference(tree: object) -> int | float:
    """Evaluate the tree with Python's operators; overflow, inf and division by zero are refusals."""
    if not isinstance(tree, tuple):
        return tree  # type: ignore[return-value]
    try:
        if tree[0] == "neg":
            value = -reference(tree[1])
        else:
            symbol, left, right = tree
            value = OPERATORS[symbol](reference(left), reference(right))
    except (ZeroDivisionError, OverflowError):
        raise Refused from None
    if isinstance(value, float) and not math.isfinite(value):
        raise Refused
    if isinstance(value, int) and abs(value) >= 10**MAX_INT_DIGITS:  # the calculator's one extra rule
        raise Refused
    return value


@settings(deadline=None, max_examples=300, derandomize=True)
@given(trees)
def test_random_arithmetic_matches_python_or_both_fail(tree: object) -> None:
    text = render(tree)
    assert len(text) <= MAX_EXPRESSION_LENGTH, "the strategy should stay inside the input limit"
    result = calculate(text)
    try:
        expected = reference(tree)
    except Refused:
        assert result.startswith("Error:"), (text, result)
        return
    assert_same_number(result, expected)
