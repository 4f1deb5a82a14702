"""Function-context fixture: Python. Each token that starts with needle marks one case of
tests/integration/function_context.rs, which names lines by number."""

import functools


def add_one(n):
    """Adds one; needle_doc sits in this docstring, inside the function."""
    return n + 1


def needle_signature(n):
    return n * 2


# needle_between: a comment between two definitions.


class Counter:
    count = 0  # needle_class_body

    def bump(self):
        self.count += 1  # needle_method

    @staticmethod
    def make():  # needle_staticmethod
        return Counter()


def outer():
    def inner():
        return 7  # needle_nested

    return inner() + 1  # needle_outer


def with_lambda(items):
    return sorted(items, key=lambda x: -x)  # needle_closure


@functools.cache
def cached(n):
    return n  # needle_decorated_function


# A definition over 50 lines: its signature, then 3 lines around each match.
def long_function():
    total = 0
    total += 1
    total += 2
    total += 3
    total += 4
    total += 5
    total += 6
    total += 7
    total += 8
    total += 9
    total += 10
    total += 11
    total += 12
    total += 13
    total += 14
    total += 15
    total += 16
    total += 17
    total += 18
    total += 19
    total += 20
    total += 21
    total += 22
    total += 23
    total += 24
    total += 25
    total += 26
    total += 27
    total += 28
    total += 29
    total += 30  # needle_long
    total += 31
    total += 32
    total += 33
    total += 34
    total += 35
    total += 36
    total += 37
    total += 38
    total += 39
    total += 40
    total += 41
    total += 42
    total += 43
    total += 44
    total += 45
    total += 46
    total += 47
    total += 48
    total += 49
    total += 50  # needle_later
    total += 51
    total += 52
    total += 53
    total += 54
    total += 55
    total += 56
    total += 57
    total += 58
    total += 59
    total += 60
    return total


# A syntax error: tree-sitter parses on, the next function is whole.
def broken():
    return 1 +


def intact():
    return 2  # needle_intact
