"""Type stubs of the package ``kifudex`` (the extension module ``kifudex._kifudex``)."""

from os import PathLike
from typing import Any, Literal, Optional, Sequence, Tuple, Union, overload

__version__: str

Path = Union[str, "PathLike[str]"]
#: A point: SGF letters (``"pd"``), coordinates (``"Q16"``), ``"pass"``, or 0-based ``(x, y)``.
Point = Union[str, Tuple[int, int]]
#: Moves as ``--moves`` takes them: ``"pd,dd,pp"`` or a list of points.
Moves = Union[str, Sequence[Point]]
#: A colour: ``"B"`` or ``"W"``.
Side = Literal["B", "W", "b", "w"]
#: A JSON object as the command line prints it.
Json = dict[str, Any]

class Error(Exception):
    """A question or build that kifudex refused; ``str(e)`` is the command line's message."""

class Index:
    """An opened index (``kifudex.open``). The filters every question takes, named as the
    web API's parameters: ``year_from``, ``year_to`` (int), ``player`` (str, a part of a
    name), ``winner`` ("B"/"W"), ``handicap`` (int), ``min_rank``, ``max_rank`` ("5d",
    "3k", "2p"), ``rank_of`` ("B"/"W"), ``komi`` (6.5 or "6.5"), ``rules``, ``event``
    (str), ``from_``, ``to`` ("YYYY-MM" or a year)."""

    @property
    def name(self) -> str:
        """The index's name (its path)."""
    def __len__(self) -> int:
        """How many games the index holds."""
    def search(
        self,
        moves: Optional[Moves] = None,
        *,
        ab: Optional[Moves] = None,
        aw: Optional[Moves] = None,
        to_move: Optional[Side] = None,
        size: Union[int, str, None] = None,
        sgf: Optional[Path] = None,
        move: Optional[int] = None,
        swap: bool = False,
        by_rank: bool = False,
        year_from: Optional[int] = None,
        year_to: Optional[int] = None,
        player: Optional[str] = None,
        winner: Optional[Side] = None,
        handicap: Optional[int] = None,
        min_rank: Optional[str] = None,
        max_rank: Optional[str] = None,
        rank_of: Optional[Side] = None,
        komi: Union[float, str, None] = None,
        rules: Optional[str] = None,
        event: Optional[str] = None,
        from_: Union[str, int, None] = None,
        to: Union[str, int, None] = None,
    ) -> Json:
        """The next moves of a position: ``kifudex search --json``'s object
        (``hash``, ``hashes``, ``total``, ``next``, ``opening``...)."""
    def games(
        self,
        moves: Optional[Moves] = None,
        *,
        limit: int = 100,
        offset: int = 0,
        sort: str = "newest",
        swap: bool = False,
        ab: Optional[Moves] = None,
        aw: Optional[Moves] = None,
        to_move: Optional[Side] = None,
        size: Union[int, str, None] = None,
        sgf: Optional[Path] = None,
        move: Optional[int] = None,
        pattern: Optional[str] = None,
        area: Optional[str] = None,
        fixed_color: bool = False,
        threads: Optional[int] = None,
        year_from: Optional[int] = None,
        year_to: Optional[int] = None,
        player: Optional[str] = None,
        winner: Optional[Side] = None,
        handicap: Optional[int] = None,
        min_rank: Optional[str] = None,
        max_rank: Optional[str] = None,
        rank_of: Optional[Side] = None,
        komi: Union[float, str, None] = None,
        rules: Optional[str] = None,
        event: Optional[str] = None,
        from_: Union[str, int, None] = None,
        to: Union[str, int, None] = None,
    ) -> Json:
        """The games that reached a position (or, with ``pattern``, that hold a pattern):
        ``kifudex games --json``'s object (``matching``, ``games``). ``sort``: newest,
        date, black, white, result, event or move; a leading ``-`` reverses."""
    def pattern(
        self,
        pattern: Optional[str] = None,
        *,
        sgf: Optional[Path] = None,
        move: Optional[int] = None,
        region: Optional[str] = None,
        area: Optional[str] = None,
        fixed_color: bool = False,
        by_year: bool = False,
        hits: bool = False,
        limit: int = 100,
        offset: int = 0,
        threads: Optional[int] = None,
        year_from: Optional[int] = None,
        year_to: Optional[int] = None,
        player: Optional[str] = None,
        winner: Optional[Side] = None,
        handicap: Optional[int] = None,
        min_rank: Optional[str] = None,
        max_rank: Optional[str] = None,
        rank_of: Optional[Side] = None,
        komi: Union[float, str, None] = None,
        rules: Optional[str] = None,
        event: Optional[str] = None,
        from_: Union[str, int, None] = None,
        to: Union[str, int, None] = None,
    ) -> Json:
        """Pattern search: ``kifudex pattern --json``'s object (``games``, ``hits``,
        ``continuations``...); with ``hits=True`` the hits, as ``--hits --json``.
        ``pattern``: rows top to bottom separated by ``/`` (``.`` empty, ``X`` black,
        ``O`` white, ``x``/``o`` that colour or empty, ``*`` any); or instead ``sgf``
        (a record) and ``region`` (``"L,T,R,B"``): the rectangle cut from the record's
        position after ``move`` moves (default: its end), as ``--sgf FILE --move N
        --region L,T,R,B``; ``area``: the allowed placements of its top-left cell,
        ``"L,T,R,B"``."""
    @overload
    def game(self, id: int, *, sgf: Literal[False] = False) -> Json: ...
    @overload
    def game(self, id: int, *, sgf: Literal[True]) -> str: ...
    def years(
        self,
        moves: Optional[Moves] = None,
        *,
        top: int = 5,
        swap: bool = False,
        **filters: Any,
    ) -> Json:
        """How often the ``top`` next moves were played, year by year (``/api/years``)."""
    def ranks(
        self,
        moves: Optional[Moves] = None,
        *,
        top: int = 5,
        swap: bool = False,
        **filters: Any,
    ) -> Json:
        """How often the ``top`` next moves were played by rank range (``/api/ranks``)."""
    def shapes(
        self,
        *,
        top: int = 20,
        opening_moves: int = 10,
        openings: int = 10,
        max_moves: Optional[int] = None,
    ) -> Json:
        """Local shape statistics: ``kifudex shapes --json``'s object."""

def open(path: Path) -> Index:
    """Opens an index file (memory-mapped: time independent of its size)."""

def build(
    paths: Union[Path, Sequence[Path]],
    out: Path,
    *,
    max_moves: Optional[int] = None,
    memory: Union[int, str, None] = None,
    threads: Optional[int] = None,
    keep_duplicates: bool = False,
    profile: Literal["desktop", "mcu"] = "desktop",
    min_count: int = 1,
    max_next: Optional[int] = None,
    predictor: bool = False,
    predictor_patterns: Optional[int] = None,
    predictor_sample: Optional[int] = None,
    max_record_bytes: Union[int, str, None] = None,
    max_archive_members: Optional[int] = None,
    max_decoder_memory: Union[int, str, None] = None,
    max_tree_nodes: Optional[int] = None,
    max_tree_depth: Optional[int] = None,
    max_value_bytes: Union[int, str, None] = None,
    max_game_events: Optional[int] = None,
    verbose: bool = False,
    report: Optional[Path] = None,
) -> Json:
    """Builds an index as ``kifudex build PATH... -o OUT`` does; returns what it did
    (``summary``, ``games_indexed``, ``problems``...)."""
