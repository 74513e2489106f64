#!/usr/bin/env python3
"""bench_compare.py: two runs of `parlab bench` (their JSON) side by side, as a Markdown table.

usage: scripts/bench_compare.py BEFORE AFTER [--kernel K] [--rename OLD=NEW ...] [--ignore-param P ...]

BEFORE and AFTER are JSON files or directories of them (`parlab bench --suite S --json-dir D`).
Rows are matched by kernel, variant, parameters, problem parameters and size; each matched
row shows both medians and after/before (above 1: the after run is slower). --rename maps a
variant name of BEFORE onto one of AFTER ("cuda-tf32=cuda-wgmma-tma-tf32"; a parameter
may be named too: "cuda-tf32:config=11=cuda-wgmma-tma-tf32", which drops that parameter
from the BEFORE row). --ignore-param leaves a parameter out of the match on both sides. Rows
found in one run only are listed after the table. Standard library only.
"""
import argparse
import json
import os
import sys


def load_rows(path):
    """Every result row of a JSON file, or of every *.json in a directory."""
    files = [path]
    if os.path.isdir(path):
        files = sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".json"))
    rows = []
    for f in files:
        try:
            with open(f) as fh:
                rows.extend(json.load(fh).get("results", []))
        except (OSError, ValueError) as e:
            sys.exit(f"bench_compare: {f}: {e}")
    return rows


def params_text(params):
    return ",".join(f"{k}={v}" for k, v in sorted((params or {}).items()))


def key_of(row, renames, ignored):
    """The identity of a row; a BEFORE row's variant may be renamed (renames: list of pairs)."""
    variant, params = row["variant"], dict(row.get("params") or {})
    for old, new in renames:
        name, _, param = old.partition(":")
        if name != variant:
            continue
        if param:
            pname, _, pval = param.partition("=")
            if str(params.get(pname)) != pval:
                continue
            params.pop(pname, None)
        variant = new
        break
    for name in ignored:
        params.pop(name, None)
    problem = json.dumps(row.get("problem") or {}, sort_keys=True)
    return (row["kernel"], variant, params_text(params), problem, row["size"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--kernel", help="only this kernel's rows")
    ap.add_argument("--rename", action="append", default=[], metavar="OLD=NEW",
                    help="a BEFORE variant (optionally VARIANT:PARAM=VALUE) named otherwise AFTER")
    ap.add_argument("--ignore-param", action="append", default=[], metavar="P",
                    help="leave parameter P out of the match")
    args = ap.parse_args()
    renames = []
    for r in args.rename:
        old, sep, new = r.rpartition("=")
        if not sep or not old or not new:
            ap.error(f"--rename '{r}': expected OLD=NEW")
        renames.append((old, new))

    before, after = {}, {}
    for rows, into, ren in ((load_rows(args.before), before, renames), (load_rows(args.after), after, [])):
        for row in rows:
            if args.kernel and row["kernel"] != args.kernel:
                continue
            into.setdefault(key_of(row, ren, args.ignore_param), row)

    print("| kernel | variant | params | size | problem | before ms | after ms | after/before |")
    print("| --- | --- | --- | --- | --- | ---: | ---: | ---: |")
    only = []
    for key in before:
        if key not in after:
            only.append(("before", key))
            continue
        b, a = before[key], after[key]
        kernel, variant, params, problem, size = key
        prob = ",".join(f"{k}={v}" for k, v in json.loads(problem).items())
        ratio = a["median_s"] / b["median_s"] if b["median_s"] > 0 else float("nan")
        print(f"| {kernel} | {variant} | {params} | {size} | {prob} | {1e3 * b['median_s']:.4g} | "
              f"{1e3 * a['median_s']:.4g} | {ratio:.3f} |")
    only += [("after", key) for key in after if key not in before]
    for which, key in only:
        print(f"only {which}: {key[0]} {key[1]} {key[2]} {key[4]} {key[3]}")


if __name__ == "__main__":
    main()
