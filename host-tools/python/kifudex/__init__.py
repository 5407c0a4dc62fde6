"""kifudex from Python: build a Go game-record index, ask it what was played next.

``kifudex.open(path)`` opens an index built by ``kifudex build`` (or by
``kifudex.build``); its methods ``search``, ``games``, ``pattern``, ``game``,
``years``, ``ranks`` and ``shapes`` answer with exactly what the command line's
``--json`` prints for the same question, as dicts and lists. A refused question
raises ``kifudex.Error`` carrying the command line's message. Long work (a pattern
scan, a build) releases the GIL, so other Python threads run meanwhile.

See docs/PYTHON.md in the repository for the whole API.
"""

from ._kifudex import Error, Index, __version__, build, open

__all__ = ["Error", "Index", "__version__", "build", "open"]
