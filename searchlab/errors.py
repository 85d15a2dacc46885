"""Exceptions raised for bad input, before any search starts."""

from __future__ import annotations


class SearchlabError(Exception):
    """Base class of searchlab's own errors."""


class InvalidParameterError(SearchlabError, ValueError):
    """A parameter is out of range or of the wrong kind; the message names it and what is allowed."""


class TreeTooLargeError(SearchlabError, ValueError):
    """An exact-value oracle (perfect/worst ordering) was asked for a tree above its size limit."""


class UnsupportedError(SearchlabError, ValueError):
    """The combination asked for does not exist (e.g. static ordering on a tree without static
    values, or a game whose capabilities the algorithm cannot handle)."""


class SearchAborted(SearchlabError):
    """Raised inside a search when its node budget is exhausted; `search` turns it into a
    result with status "aborted"."""
