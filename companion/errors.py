"""Errors meant for people: one sentence each, mapped to CLI exit codes."""

from __future__ import annotations


class UsageError(Exception):
    """Bad input from a person (CLI argument, position, config): exit code 2."""

    exit_code = 2


class RefusedError(Exception):
    """Well-formed input the rules refuse (an illegal move): exit code 1."""

    exit_code = 1
