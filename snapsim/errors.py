"""Errors that reach a user: one line saying what is wrong and how to fix it."""


class SnapsimError(Exception):
    """Base class; the CLI prints the message on one line and exits with code 2."""


class InputError(SnapsimError, ValueError):
    """A bad argument, option or situation given by the user."""


class ComponentError(InputError):
    """A component data file that fails validation (names the file, entry and problem)."""
