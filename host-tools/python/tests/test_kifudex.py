"""The Python package against the command line: every answer equals what `kifudex ...
--json` prints for the same question, every refusal carries the command line's message,
and a long pattern scan leaves other Python threads running.

The index is the whole fox_pro corpus (10,348 records, 20 MB of index, built in about
2 s), built once per session by the release binary; `kifudex.build` builds it again and
must give the same bytes. `KIFUDEX_BIN` names the binary (default: the workspace's
target/release/kifudex), `KIFUDEX_CORPUS` the corpus folder (default ../shared/corpus).
"""

import json
import os
import pathlib
import subprocess
import threading
import time

import pytest

import kifudex

ROOT = pathlib.Path(__file__).resolve().parents[3]
BIN = pathlib.Path(os.environ.get("KIFUDEX_BIN", ROOT / "target" / "release" / "kifudex"))
CORPUS = pathlib.Path(os.environ.get("KIFUDEX_CORPUS", ROOT.parent / "shared" / "corpus"))
FOX = CORPUS / "fox_pro"


def cli(*args, ok=True):
    """Runs the kifudex binary; its completed process."""
    p = subprocess.run([str(BIN), *map(str, args)], capture_output=True, text=True)
    if ok:
        assert p.returncode == 0, p.stderr
    return p


def flags(kwargs):
    """Python keywords as the command line's flags (`from_` is `--from`, True a bare flag)."""
    out = []
    for name, value in kwargs.items():
        flag = "--" + name.rstrip("_").replace("_", "-")
        if value is True:
            out.append(flag)
        elif value is not False and value is not None:
            out += [flag, str(value)]
    return out


def cli_json(command, index, **kwargs):
    """`kifudex COMMAND --index INDEX ... --json`, read."""
    return json.loads(cli(command, "--index", index, *flags(kwargs), "--json").stdout)


def cli_message(*args):
    """The message a refused command prints after `kifudex: ` (or clap's `error: `)."""
    p = cli(*args, ok=False)
    assert p.returncode != 0
    first = p.stderr.splitlines()[0]
    for prefix in ("kifudex: ", "error: "):
        if first.startswith(prefix):
            return first[len(prefix):]
    raise AssertionError(f"no message in {p.stderr!r}")


@pytest.fixture(scope="session")
def index_path(tmp_path_factory):
    assert FOX.is_dir(), f"no corpus at {FOX} (KIFUDEX_CORPUS names another)"
    assert BIN.is_file(), f"build the binary first: {BIN}"
    path = tmp_path_factory.mktemp("index") / "fox_pro.kdx"
    cli("build", FOX, "-o", path, "--quiet")
    return path


@pytest.fixture(scope="session")
def ix(index_path):
    return kifudex.open(index_path)


# Searches: the contract's plain query, every filter, other notations of the position.
SEARCHES = [
    ("", {}),
    ("pd", {}),
    ("pd,dd", {}),
    ("pd,dd,pq,dp", {}),
    ("Q16,D4", {}),
    ("pd,dd", {"year_from": 2017, "year_to": 2018}),
    ("pd", {"player": "ke"}),
    ("pd,dd", {"winner": "W"}),
    ("", {"handicap": 2}),
    ("pd,dd", {"min_rank": "9d", "max_rank": "9p"}),
    ("pd", {"min_rank": "5p", "rank_of": "B"}),
    ("pd,dp", {"komi": 6.5}),
    ("pd,dp", {"komi": "7.5"}),
    ("pd", {"rules": "chinese"}),
    ("pd", {"event": "a"}),
    ("pd,dd", {"from_": "2016-03", "to": "2017-11"}),
    ("pd,dd", {"to": 2015}),
    ("pd,dd,pp", {"swap": True}),
    ("pd,dd", {"by_rank": True}),
    ("", {"ab": "pd,dp", "to_move": "W"}),
    ("cc", {"size": 13}),
]


@pytest.mark.parametrize("moves,kwargs", SEARCHES)
def test_search_equals_the_cli(ix, index_path, moves, kwargs):
    want = cli_json("search", index_path, moves=moves, **kwargs)
    assert ix.search(moves, **kwargs) == want
    # Real answers (fox_pro has no event names and no 13x13 games).
    assert want["total"] > 0 or "event" in kwargs or "size" in kwargs
    if kwargs == {} and moves:
        # Asked as a list of points, the same answer.
        assert ix.search(moves.split(",")) == want


def test_a_search_finds_games(ix):
    # The answers compared above are not empty ones.
    a = ix.search("pd,dd", year_from=2017)
    assert a["total"] > 100 and a["next"][0]["count"] > 10
    assert ix.search(["pd", (3, 3)]) == ix.search("pd,dd")


GAMES = [
    ("pd", {}),
    ("pd", {"limit": 5, "offset": 7}),
    ("pd,dd", {"sort": "date", "limit": 20}),
    ("pd,dd", {"sort": "-date", "limit": 20, "offset": 3}),
    ("pd,dd", {"sort": "black", "limit": 10}),
    ("pd,dd", {"sort": "-white", "limit": 10}),
    ("pd,dd", {"sort": "result", "limit": 10}),
    ("pd,dd,pq", {"sort": "move", "limit": 10}),
    ("pd,dd,pq", {"sort": "event", "limit": 10}),
    ("pd", {"winner": "B", "year_from": 2018, "limit": 30}),
    ("pd", {"min_rank": "1p", "komi": 6.5, "limit": 15, "offset": 100}),
    ("pd,dd,pp", {"swap": True, "limit": 10}),
]


@pytest.mark.parametrize("moves,kwargs", GAMES)
def test_games_equal_the_cli(ix, index_path, moves, kwargs):
    want = cli_json("games", index_path, moves=moves, **kwargs)
    got = ix.games(moves, **kwargs)
    assert got == want
    assert got["matching"] > 0 and got["games"]


PATTERNS = [
    # The 3-3 invasion under a 4-4 stone, in the top-left corner.
    (".../.../..O", {"area": "0,0,0,0"}),
    ("...../...../..X../...O./.....", {"area": "0,0,0,0"}),
    ("X.O/O.X", {}),
    ("....../....../...X../......", {"area": "0,0,0,0", "fixed_color": True}),
    (".../.X./...", {"area": "0,0,2,2", "by_year": True}),
    ("X.O/O.X", {"winner": "W", "year_from": 2017, "min_rank": "9d"}),
]


@pytest.mark.parametrize("rows,kwargs", PATTERNS)
def test_pattern_equals_the_cli(ix, index_path, rows, kwargs):
    want = cli_json("pattern", index_path, pattern=rows, **kwargs)
    got = ix.pattern(rows, **kwargs)
    assert got == want
    assert got["hits"] > 0 and got["continuations"]


def test_pattern_hits_and_games_equal_the_cli(ix, index_path):
    rows, area = "...../...../..X../...O./.....", "0,0,0,0"
    want = cli_json("pattern", index_path, pattern=rows, area=area, hits=True, limit=7, offset=3)
    assert ix.pattern(rows, area=area, hits=True, limit=7, offset=3) == want
    want = cli_json("games", index_path, pattern=rows, area=area, limit=9, offset=2)
    assert ix.games(pattern=rows, area=area, limit=9, offset=2) == want


def test_pattern_cut_from_a_record_equals_the_cli(ix, index_path):
    # The top-right corner of a real game after 40 moves (stones of both colours and empty
    # points), as `kifudex pattern --sgf FILE --move 40 --region 13,0,18,5` cuts it.
    record = sorted(FOX.rglob("*.sgf"))[0]
    want = cli_json("pattern", index_path, sgf=record, move=40, region="13,0,18,5")
    got = ix.pattern(sgf=record, move=40, region="13,0,18,5")
    assert got == want
    assert got["hits"] > 0
    # Refusals: the command line's messages; neither or both ways of giving a pattern.
    with pytest.raises(kifudex.Error) as e:
        ix.pattern(sgf=record, move=9999, region="13,0,18,5")
    assert str(e.value) == cli_message(
        "pattern", "--index", index_path, "--sgf", record, "--move", "9999",
        "--region", "13,0,18,5", "--json"
    )
    with pytest.raises(TypeError):
        ix.pattern()
    with pytest.raises(TypeError):
        ix.pattern("X", sgf=record, region="0,0,0,0")


def test_game_equals_the_cli(ix, index_path):
    for id in (0, 1234, len(ix) - 1):
        want = json.loads(cli("game", "--index", index_path, id).stdout)
        assert ix.game(id) == want
        assert ix.game(id, sgf=True) == cli("game", "--index", index_path, id, "--sgf").stdout.rstrip()


def test_shapes_equal_the_cli(ix, index_path):
    kwargs = {"top": 5, "opening_moves": 4, "openings": 3, "max_moves": 30}
    assert ix.shapes(**kwargs) == cli_json("shapes", index_path, **kwargs)


def test_ranks_are_what_search_by_rank_holds(ix, index_path):
    want = cli_json("search", index_path, moves="pd,dd", by_rank=True, year_from=2016)
    assert ix.ranks("pd,dd", year_from=2016) == want["by_rank"]


def test_years_count_the_searched_moves(ix):
    # No command prints the year profile (the web API does): checked against searches
    # year by year, an independent computation of the same counts.
    y = ix.years("pd,dd", top=3)
    assert [m["move"] for m in y["top"]] == [m["move"] for m in ix.search("pd,dd")["next"][:3]]
    for b in y["bins"]:
        if b["total"] == 0:
            continue
        a = ix.search("pd,dd", year_from=b["from"], year_to=b["to"])
        assert b["total"] == a["total"]
        counts = {m["move"]: m["count"] for m in a["next"]}
        assert b["counts"] == [counts.get(m["move"], 0) for m in y["top"]]


def test_build_gives_the_cli_index(index_path, tmp_path):
    out = tmp_path / "py.kdx"
    report = kifudex.build([FOX], out, threads=2, memory="1G")
    assert out.read_bytes() == index_path.read_bytes()
    assert report["games_indexed"] == len(kifudex.open(out))
    assert report["summary"].startswith("files read:")
    # Options as the flags: --max-moves.
    cli("build", FOX / "7p", "-o", tmp_path / "cli20.kdx", "--max-moves", "20", "--quiet")
    kifudex.build(str(FOX / "7p"), tmp_path / "py20.kdx", max_moves=20)
    assert (tmp_path / "py20.kdx").read_bytes() == (tmp_path / "cli20.kdx").read_bytes()


def test_errors_carry_the_cli_message(ix, index_path, tmp_path):
    def refused(call):
        with pytest.raises(kifudex.Error) as e:
            call()
        return str(e.value)

    missing = tmp_path / "missing.kdx"
    assert refused(lambda: kifudex.open(missing)) == cli_message(
        "search", "--index", missing, "--moves", "pd", "--json"
    )
    assert refused(lambda: ix.pattern("X./O")) == cli_message(
        "pattern", "--index", index_path, "--pattern", "X./O", "--json"
    )
    assert refused(lambda: ix.pattern("X.", area="0,0,40")) == cli_message(
        "pattern", "--index", index_path, "--pattern", "X.", "--area", "0,0,40", "--json"
    )
    assert refused(lambda: ix.search("pd,dd,pd")) == cli_message(
        "search", "--index", index_path, "--moves", "pd,dd,pd", "--json"
    )
    assert refused(lambda: ix.games("pd,zz")) == cli_message(
        "games", "--index", index_path, "--moves", "pd,zz", "--json"
    )
    assert refused(lambda: ix.game(999999)) == cli_message("game", "--index", index_path, "999999")
    assert refused(lambda: kifudex.build([tmp_path / "nope"], tmp_path / "x.kdx")) == cli_message(
        "build", tmp_path / "nope", "-o", tmp_path / "x.kdx"
    )
    # A filter's or option's value: the CLI's parser's words (clap puts them after the
    # flag's name), named by the keyword.
    for kwargs in ({"min_rank": "5x"}, {"winner": "X"}, {"komi": "six"}, {"from_": "2019-13"}):
        ((name, value),) = kwargs.items()
        clap = cli_message("search", "--index", index_path, "--moves", "pd", *flags(kwargs))
        assert refused(lambda: ix.search("pd", **kwargs)) == f"{name}: {clap.split(': ', 1)[1]}"
    clap = cli_message("games", "--index", index_path, "--sort", "bogus")
    assert refused(lambda: ix.games("pd", sort="bogus")) == f"sort: {clap.split(': ', 1)[1]}"


def test_unknown_keywords_are_type_errors(ix):
    with pytest.raises(TypeError, match="unexpected keyword argument 'year'"):
        ix.search("pd", year=2019)
    with pytest.raises(TypeError, match="unexpected keyword argument 'areas'"):
        ix.pattern("X", areas="0,0,0,0")
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_move'"):
        kifudex.build([FOX], "/nonexistent/x.kdx", max_move=3)
    with pytest.raises(TypeError):
        ix.search("pd", year_from="2019")


def test_a_long_pattern_scan_does_not_block_other_threads(index_path):
    # A fresh explorer (no scan kept) and a pattern that no first stone rules out: every
    # position of every game is scanned, on one worker (over a second on this corpus).
    ix = kifudex.open(index_path)
    ticks = [0]
    stop = threading.Event()

    def counter():
        # Sleeps release the GIL; each wake-up needs it back. With the GIL held by the
        # scan, no tick can happen until it ends.
        while not stop.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    t = threading.Thread(target=counter)
    t.start()
    try:
        time.sleep(0.05)
        before = ticks[0]
        answer = ix.pattern("X", threads=1)
        during = ticks[0] - before
    finally:
        stop.set()
        t.join()
    assert answer["hits"] > 1_000_000
    # Without the GIL released: at most the tick already under way.
    assert during >= 20, f"the other thread ran {during} times during the scan"
