"""A calculator the model can call safely: arithmetic is parsed, never executed (lesson 06).

``calculate("22 * 6.5")`` returns ``"143"``. The text is parsed with ``ast.parse(..., mode="eval")``
and the tree is checked against a whitelist: int and float literals, ``+ - * / // % **``, unary
``+ -``, parentheses, the constants ``pi e tau``, ``abs``, ``round`` and the real-number ``math``
functions in ``FUNCTIONS``. Anything else is refused before any of it is computed, and every size
that could make the work explode (input length, tree size and depth, exponents, factorials, digits
of integers) is checked before the work is done, so every failure is fast. Failures come back as
``"Error: <reason>"`` text the model can act on; nothing raises.

Deliberately not supported: variables, assignment, strings, lists, comparisons, ``and/or/not``,
bit operations, keyword arguments, complex numbers, inf and nan.

Why not ``eval(expr, {"__builtins__": {}}, math_names)``? Emptying the builtins hides names, not
objects: ``().__class__.__base__.__subclasses__()`` walks from a tuple to every class loaded in the
process (file and process classes among them), generator frames lead to real globals, and
``9**9**9`` keeps a core busy for many seconds. Only refusing the syntax closes those doors.

Results: ints print exactly; a whole-number float below 1e15 prints as an int (``143``, not
``143.0``); any other float prints with 12 significant digits, like a pocket calculator
(``0.1 + 0.2`` -> ``0.3``, ``1/3`` -> ``0.333333333333``, ``2.0**60`` -> ``1.15292150461e+18``).
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

from aria_kit.interfaces import Tool

MAX_EXPRESSION_LENGTH = 500  # characters
MAX_NODES = 250  # numbers, names, operators and calls in the parsed tree
MAX_DEPTH = 100  # nesting levels; also keeps the recursive evaluation far from Python's recursion limit
MAX_INT_DIGITS = 1000  # integers must stay below 10**1000
MAX_COMBINATORIC_ARG = 1_000_000  # factorial/comb/perm arguments, refused before estimating result sizes

# Real-number functions only: nothing that takes or returns iterables, tuples or
# booleans (fsum, prod, dist, frexp, modf, isclose, isnan…), and no inf/nan constants.
_MATH_NAMES = (
    "sqrt cbrt exp exp2 expm1 log log2 log10 log1p pow sin cos tan asin acos atan atan2 sinh cosh tanh "
    "asinh acosh atanh degrees radians hypot fabs floor ceil trunc fmod remainder copysign "
    "factorial comb perm gcd isqrt gamma lgamma erf erfc"
).split()


def _stepwise_lcm(*numbers: int) -> int:
    # math.lcm(a, b, c, …) of many big coprime numbers builds a huge intermediate before
    # any check could see it; folding two at a time keeps every step under the digit limit.
    result = 1
    for number in numbers:
        result = _checked(math.lcm(result, number))
    return result


FUNCTIONS: dict[str, Callable[..., Any]] = {"abs": abs, "round": round} | {
    name: getattr(math, name) for name in _MATH_NAMES if hasattr(math, name)  # cbrt, exp2: Python 3.11+
} | {"lcm": _stepwise_lcm}  # math.lcm, checked step by step
CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "tau": math.tau}

_BINARY = {ast.Add: ("+", operator.add), ast.Sub: ("-", operator.sub), ast.Mult: ("*", operator.mul),
           ast.Div: ("/", operator.truediv), ast.FloorDiv: ("//", operator.floordiv),
           ast.Mod: ("%", operator.mod), ast.Pow: ("**", operator.pow)}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_REFUSED_OPERATORS = {ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^",
                      ast.MatMult: "@", ast.Invert: "~", ast.Not: "not"}
_REFUSED_SYNTAX = {  # what a model might try, named in the refusal
    ast.Attribute: "attribute lookups (`x.name`)", ast.Subscript: "subscripts (`x[i]`)", ast.JoinedStr: "strings",
    ast.Lambda: "lambdas", ast.ListComp: "comprehensions", ast.SetComp: "comprehensions",
    ast.DictComp: "comprehensions", ast.GeneratorExp: "comprehensions", ast.List: "lists", ast.Tuple: "tuples",
    ast.Set: "sets", ast.Dict: "dicts", ast.Compare: "comparisons", ast.BoolOp: "`and`/`or`",
    ast.IfExp: "conditional expressions", ast.NamedExpr: "assignments (`:=`)", ast.Starred: "starred arguments",
}
_SUPPORTED = "use numbers, + - * / // % **, parentheses, pi, e, tau and the allowed functions"
_ALLOWED = ", ".join(sorted(FUNCTIONS))
_INT_LIMIT = 10**MAX_INT_DIGITS
_OVERFLOW = "number too large: the result overflows (floats reach about 1.8e308)"


class CalculationError(Exception):
    """A refusal or failure whose message goes back to the model after ``Error: ``."""


def _check_tree(tree: ast.Expression) -> None:
    """Refuse anything outside the whitelist, and trees too big or too deep, before computing anything."""
    stack: list[tuple[ast.AST, int]] = [(tree.body, 1)]
    nodes = 0
    while stack:  # a loop, not recursion: the tree is still untrusted here
        node, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES or depth > MAX_DEPTH:
            raise CalculationError(f"expression too complex (limits: {MAX_NODES} parts, {MAX_DEPTH} levels of nesting); split it into steps")
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool):  # True is an int to Python, but a model that writes it is confused
                raise CalculationError(f"`{node.value}` is not a number here; write 1 or 0")
            if isinstance(node.value, complex):
                raise CalculationError("complex numbers are not supported, only real numbers")
            if not isinstance(node.value, (int, float)):
                raise CalculationError(f"only numbers are allowed, not {type(node.value).__name__} values; {_SUPPORTED}")
            _checked(node.value)  # the literal 1e999 is already inf
        elif isinstance(node, ast.Name) and node.id not in CONSTANTS:
            if node.id in FUNCTIONS:
                raise CalculationError(f"`{node.id}` is a function: call it, e.g. {node.id}(2)")
            raise CalculationError(f"unknown name `{node.id}`; there are no variables. Constants: pi, e, tau; allowed functions: {_ALLOWED}")
        elif isinstance(node, (ast.UnaryOp, ast.BinOp)):
            if type(node.op) not in _UNARY and type(node.op) not in _BINARY:
                raise CalculationError(f"operator `{_REFUSED_OPERATORS[type(node.op)]}` is not supported; {_SUPPORTED}")
            stack += [(child, depth + 1) for child in ast.iter_child_nodes(node) if not isinstance(child, ast.operator | ast.unaryop)]
        elif isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else None
            if name not in FUNCTIONS:  # attribute calls such as x.__subclasses__() land here too
                raise CalculationError(f"cannot call {f'`{name}`' if name else 'that'}; only these functions, by name: {_ALLOWED}")
            if node.keywords:
                raise CalculationError("keyword arguments are not allowed; pass arguments by position, e.g. round(2.567, 2)")
            stack += [(arg, depth + 1) for arg in node.args]
        elif not isinstance(node, ast.Name):
            what = _REFUSED_SYNTAX.get(type(node), f"`{type(node).__name__}` expressions")
            raise CalculationError(f"{what} are not supported; {_SUPPORTED}")


def _checked(value: Any) -> int | float:
    """Let through finite real numbers only, and integers below 10**MAX_INT_DIGITS."""
    if type(value) is int and abs(value) >= _INT_LIMIT:
        raise CalculationError(f"the result has more than {MAX_INT_DIGITS} digits; use floats, log or lgamma for magnitudes that large")
    if type(value) is float and not math.isfinite(value):
        raise CalculationError(_OVERFLOW)
    if isinstance(value, complex):
        raise CalculationError("the result is a complex number (a negative number to a fractional power?); only real numbers are supported")
    if type(value) not in (int, float):
        raise CalculationError(f"unexpected result of type {type(value).__name__}")
    return value


def _check_power(base: int | float, exponent: int | float) -> None:
    # int ** int is exact and unbounded, so estimate its digits (exponent * log10|base|) before computing;
    # the +1 margin leaves the exact boundary to _checked. Float powers overflow on their own, fast.
    if type(base) is int and type(exponent) is int and exponent > 0 and abs(base) > 1:
        if exponent > 4 * MAX_INT_DIGITS or exponent * math.log10(abs(base)) > MAX_INT_DIGITS + 1:
            raise CalculationError(f"exponent too large: the result would have more than {MAX_INT_DIGITS} digits")


def _check_call(name: str, args: list[int | float]) -> None:
    """Refuse calls whose result would be astronomically large or whose hidden work is unbounded."""
    if name == "round" and len(args) == 2 and type(args[1]) is int and abs(args[1]) > MAX_INT_DIGITS:
        # round(5, -10**8) quietly computes 10**(10**8)
        raise CalculationError(f"round's second argument must be between -{MAX_INT_DIGITS} and {MAX_INT_DIGITS}")
    if name in ("factorial", "comb", "perm") and args and all(type(a) is int and a >= 0 for a in args):
        if max(args) > MAX_COMBINATORIC_ARG:
            raise CalculationError(f"{name} arguments must be at most {MAX_COMBINATORIC_ARG:,}; use lgamma(n + 1) for log(n!)")
        n = args[0]
        k = args[1] if len(args) > 1 else n  # factorial(n) == perm(n) == perm(n, n)
        if k <= n:  # otherwise the result is 0, or math refuses the arguments itself
            ln_size = math.lgamma(n + 1) - math.lgamma(n - k + 1) - (math.lgamma(k + 1) if name == "comb" else 0)
            if ln_size / math.log(10) > MAX_INT_DIGITS + 1:
                raise CalculationError(f"{name} result would have more than {MAX_INT_DIGITS} digits; use lgamma(n + 1) for log(n!)")


def _brief(value: int | float) -> str:
    text = format_number(value)
    return text if len(text) <= 20 else f"a {len(text)}-digit number"


def _evaluate(node: ast.AST) -> int | float:
    """Compute a tree that ``_check_tree`` accepted, checking every intermediate result."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return CONSTANTS[node.id]
    if isinstance(node, ast.UnaryOp):
        return _checked(_UNARY[type(node.op)](_evaluate(node.operand)))
    if isinstance(node, ast.BinOp):
        (symbol, apply), left, right = _BINARY[type(node.op)], _evaluate(node.left), _evaluate(node.right)
        if symbol == "**":
            _check_power(left, right)
        try:
            return _checked(apply(left, right))
        except ZeroDivisionError:
            raise CalculationError(f"division by zero in {_brief(left)} {symbol} {_brief(right)}") from None
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)  # _check_tree let nothing else through
    name, args = node.func.id, [_evaluate(arg) for arg in node.args]
    _check_call(name, args)
    try:
        return _checked(FUNCTIONS[name](*args))
    except ValueError as exc:  # math's domain errors: log(0), acos(2), sqrt(-1), factorial(-1)
        shown = ", ".join(_brief(a) for a in args)
        raise CalculationError(f"{name}({shown}) is not defined ({exc}); results must be real numbers") from None


def format_number(value: int | float) -> str:
    """Render a result: ints exactly, whole floats below 1e15 as ints, other floats to 12 significant digits."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value) if isinstance(value, int) else format(value, ".12g")


def calculate(expression: str) -> str:
    """Evaluate one arithmetic expression and return its result, or ``"Error: <reason>"``, as text.

    The expression is parsed, checked against the whitelist and the size limits
    of this module, and only then computed with Python's own arithmetic. It
    never runs code and never raises: a refused or failing input returns, fast,
    a reason the model can act on.
    """
    if not isinstance(expression, str):
        return f"Error: the expression must be text, got {type(expression).__name__}"
    text = expression.strip()  # eval mode refuses leading spaces as an "unexpected indent"
    if not text:
        return "Error: the expression is empty; send arithmetic such as 22 * 6.5"
    if len(text) > MAX_EXPRESSION_LENGTH:
        return f"Error: the expression is {len(text)} characters long; the limit is {MAX_EXPRESSION_LENGTH}. Split the work into steps"
    try:
        tree = ast.parse(text, mode="eval")
        _check_tree(tree)
        return format_number(_evaluate(tree.body))
    except SyntaxError as exc:  # statements such as `x = 1` or `import os` are syntax errors in eval mode
        return f"Error: not a single arithmetic expression ({exc.msg}); write one expression such as 2 * (3 + 4), with no assignments or statements"
    except CalculationError as exc:
        return f"Error: {exc}"
    except ZeroDivisionError:
        return "Error: division by zero"
    except OverflowError:  # exp(1000), 10.0**400, sqrt(10**400)
        return f"Error: {_OVERFLOW}"
    except TypeError as exc:  # sqrt(1, 2), factorial(2.5)
        return f"Error: {exc}; check the number and kind of arguments"
    except ValueError as exc:  # Python 3.10's parser: "source code string cannot contain null bytes"
        return f"Error: {exc}"
    except (RecursionError, MemoryError):
        return "Error: expression too complex; split it into smaller steps"


class CalculatorTool(Tool):
    """The calculator as a tool the agent can call."""

    name = "calculator"
    description = (
        "Evaluate one arithmetic expression exactly and safely and return the result. Use numbers, "
        "+ - * / // % ** and parentheses, the constants pi, e, tau and these functions: "
        f"{_ALLOWED}. There are no variables, strings or comparisons."
    )

    def parameters_schema(self) -> dict[str, Any]:
        # Derived from run()'s signature and docstring, plus the length limit, so an
        # over-long expression is refused with a reason before run() sees it.
        schema = super().parameters_schema()
        schema["properties"]["expression"]["maxLength"] = MAX_EXPRESSION_LENGTH
        return schema

    def run(self, expression: str) -> str:
        """Evaluate an arithmetic expression.

        expression: An arithmetic expression, e.g. "22 * 6.5" or "sqrt(2) * pi".
        """
        return calculate(expression)
