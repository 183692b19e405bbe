"""The snapsim version, at the bottom of the layers so that every output can say what made it."""

__version__ = "0.1.0"
