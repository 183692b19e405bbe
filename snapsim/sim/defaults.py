"""Defaults that a command's help quotes, kept apart from the code that uses them so that
building the `snapsim` parser imports nothing heavy."""

REBALANCE_CANDIDATES = 120  # candidates rebalance's search plays by default (a raced one 1/4)
REBALANCE_COSTS = ("values", "size")  # what a patch's cost counts: values changed, or sizes
