#!/usr/bin/env bash
# test_scale_model.sh: scripts/scale_model.py, the scale-out model on paper (docs/scale-out.md,
# "The model at scale"). (a) It runs with the standard library alone (python3 -I -S: no
# site-packages) and exits 0; (b) docs/scale-out.md holds its tables exactly as it prints them
# (the document is the script's output: a change to either without the other fails here);
# (c) invariants of the model, read from its --json: the stencils' weak efficiency does not
# depend on the node count once every rank has 8 neighbours (P >= 9: nearest-neighbour exchange),
# GEMM's strong-scaling efficiency falls as the nodes grow, NDR predicts at least HDR's
# efficiency everywhere, and every exchange is at least its messages' alphas and its bytes over
# beta (the alpha-beta model's two floors).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 77; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT

if ! python3 -I -S "$root/scripts/scale_model.py" >"$dir/tables.md" 2>"$dir/err.txt"; then
    echo "FAIL: scale_model.py exited non-zero"; cat "$dir/err.txt"; exit 1
fi
if ! python3 -I -S "$root/scripts/scale_model.py" --json >"$dir/model.json" 2>"$dir/err.txt"; then
    echo "FAIL: scale_model.py --json exited non-zero"; cat "$dir/err.txt"; exit 1
fi

python3 -I -S - "$dir/tables.md" "$root/docs/scale-out.md" "$dir/model.json" <<'PY'
import json, sys

tables, doc, model = (open(f, encoding="utf-8").read() for f in sys.argv[1:4])
failed = passed = 0


def check(ok, what):
    global failed, passed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


# (b) the document holds the script's output, every line in order, as one block
check(tables.strip() and tables in doc,
      "docs/scale-out.md does not hold scale_model.py's tables as printed "
      "(run python3 scripts/scale_model.py and paste its output into 'The model at scale')")
if tables not in doc:
    missing = [l for l in tables.splitlines() if l and l not in doc.splitlines()]
    for l in missing[:5]:
        print("  not in the document:", l[:150])

m = json.loads(model)
preds = m["predictions"]
check(len(preds) == 7 * 2 * 2 * len(m["nodes"]), "predictions: %d rows" % len(preds))
by = {(p["case"], p["network"], p["scaling"], p["nodes"]): p for p in preds}
effs = ("eff_no_overlap", "eff_overlap")

# (c1) nearest neighbour: once P >= 9 the busiest rank's 8 messages do not change with P
for case in ("life-cpu", "conv2d-cpu", "life-gpu", "conv2d-gpu", "entropy-gpu"):
    for net in ("HDR", "NDR"):
        rows = [p for p in preds if (p["case"], p["network"], p["scaling"]) == (case, net, "weak") and p["ranks"] >= 9]
        check(len(rows) >= 7, f"{case} {net}: {len(rows)} weak rows at P >= 9")
        for e in effs:
            vals = [p[e] for p in rows]
            check(max(vals) - min(vals) <= 1e-12 * max(vals), f"{case} {net} weak {e} varies with P >= 9: {vals}")

# (c2) SUMMA strong: the panels' broadcasts shrink slower than the products
for net in ("HDR", "NDR"):
    for e in effs:
        vals = [by[("gemm-gpu", net, "strong", n)][e] for n in m["nodes"]]
        check(all(a > b for a, b in zip(vals, vals[1:])), f"gemm strong {net} {e} does not fall with the nodes: {vals}")

# (c3) a faster network never predicts less
for (case, net, scaling, n), p in by.items():
    if net == "HDR":
        q = by[(case, "NDR", scaling, n)]
        for e in effs:
            check(q[e] >= p[e] - 1e-12, f"{case} {scaling} {n} nodes: NDR {e} {q[e]} < HDR {p[e]}")

# (c4) the alpha-beta floors of every exchange
for p in preds:
    t = p["exchange_s"] * (1 + 1e-12)
    check(t >= p["messages"] * p["alpha"],
          f"{p['case']} {p['network']} {p['scaling']} {p['nodes']}: exchange {p['exchange_s']} under its alphas")
    check(t >= p["bytes"] / p["beta"], f"{p['case']} {p['network']} {p['scaling']} {p['nodes']}: exchange under bytes/beta")
    check(0 < p["eff_no_overlap"] <= p["eff_overlap"] * (1 + 1e-12) <= 1 + 1e-9,
          f"{p['case']} {p['network']} {p['scaling']} {p['nodes']}: efficiencies {p['eff_no_overlap']} {p['eff_overlap']}")

# the measured rows: every one present, with the bench's own model column reproduced (same counting)
checks = m["checks"]
check(len(checks) == 19, f"{len(checks)} measured rows")
for v in checks:
    check(abs(v["model_exchange_ms"] / v["bench_model_ms"] - 1) < 0.35,
          f"{v['label']} {v['ranks']} ranks: model {v['model_exchange_ms']} ms against the bench's {v['bench_model_ms']}")

print(f"test_scale_model: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
