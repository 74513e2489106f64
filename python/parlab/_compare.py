"""parlab.compare: two runs of the bench row by row, as `parlab compare` compares them (the C
library matches the rows and tests them: src/harness/compare.c, src/harness/stats.c)."""
import json
import os
import tempfile

from . import _parlab
from ._parlab import ArgumentError


def _path_of(run, what, tmp):
    """A JSON file or directory as it is; a list of rows (parlab.bench's result) written to a
    temporary file in tmp."""
    if isinstance(run, (str, os.PathLike)):
        return os.fspath(run)
    if isinstance(run, (list, tuple)) and all(isinstance(r, dict) for r in run):
        path = os.path.join(tmp, what + ".json")
        with open(path, "w") as f:
            json.dump({"schema": "parlab-bench/2", "results": list(run)}, f)
        return path
    raise ArgumentError(f"compare: {what} must be a JSON file, a directory of them, or parlab.bench's rows")


def _lines(items, what):
    items = [items] if isinstance(items, str) else list(items)
    for i in items:
        if not isinstance(i, str) or not i or "\n" in i:
            raise ArgumentError(f"compare: {what} {i!r}: a non-empty name on one line")
    if len(items) > 64:
        raise ArgumentError(f"compare: {len(items)} {what}s, at most 64")
    return "\n".join(items)


def compare(old, new, *, kernel=None, rename=(), ignore_param=()):
    """Two bench runs row by row, as `parlab compare OLD NEW` (docs/output.md).

    old, new: a bench/sweep JSON file, a directory of them, or the rows parlab.bench returned.
    Rows are matched by kernel, variant, size, the variant's and the problem's parameters;
    kernel: only that kernel's rows; rename: "OLD=NEW" or "OLD:PARAM=VALUE=NEW" items (an old
    variant named otherwise in new); ignore_param: parameters left out of the match.

    Returns a dict: "rows", the matched rows in old's order, each a dict with kernel, variant,
    params, size, problem (text "NAME=VALUE,..."), old_median_s, new_median_s, speedup (old's
    median / new's: above 1, new is faster), low and high (its 95% bootstrap interval), p (the
    two-sided Mann-Whitney U test), verdict ("faster", "slower", "same", or "no samples" where a
    side has no timed samples: low, high and p are then None) and samples (both sides had
    them); "geomean", the geometric mean of the speedups (None: no row matched); "only_old" and
    "only_new", the rows found on one side only (the same dicts, verdict "only old"/"only new").
    A file that cannot be read or is not parlab's bench JSON raises FileError or FormatError
    naming it; a malformed rename, ArgumentError.
    """
    with tempfile.TemporaryDirectory(prefix="parlab-compare-") as tmp:
        rows, geomean = _parlab.compare(_path_of(old, "old", tmp), _path_of(new, "new", tmp), kernel or "",
                                        _lines(rename, "rename"), _lines(ignore_param, "parameter"))
    return {
        "rows": [r for r in rows if r["verdict"] not in ("only old", "only new")],
        "geomean": geomean,
        "only_old": [r for r in rows if r["verdict"] == "only old"],
        "only_new": [r for r in rows if r["verdict"] == "only new"],
    }
