# test_cli_report.sh: `parlab report` end to end. Bench and sweep JSON files are made with this
# build (small transpose, reduce and life runs, a transpose sweep), drawn, and read back with
# python3's standard library: the page and every SVG are well-formed XML, every plot has its
# title, subtitle (machine and date), axis labels and tick labels, and the numbers drawn equal
# the JSON's (each ladder bar's data-value is the rate of its variant at the largest size; the
# sweep names its best setting). Bad input: not JSON, another schema version, a missing or
# mistyped field: exit 1 naming the file (and line:col and field); nothing written.
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_report python3

run 0 "bench transpose" bench transpose --size 64,128 --variant all --peer --repeats 3 --json t.json
run 0 "bench life" bench life --size 64,100x70 --set gens=5 --variant cpu-naive,cpu-bitpacked --repeats 3 --json l.json
run 0 "sweep transpose" sweep transpose --variant cpu-blocked --param tile=16,32 --size 128 --repeats 3 --json s.json
run 0 "sweep life" sweep life --variant cpu-bitpacked --param tblock=1,2 --size 64 --set gens=5 --repeats 3 --json s2.json
run 0 "report" report t.json l.json s.json s2.json -o r.html --svg figs && grep -q "^r.html: [0-9]* plots from 4 files" out.txt &&
    ok || bad "report summary: $(cat out.txt)"

# Each bar's geometry against its axis, not only its data attribute: the y axis is read back
# from its tick labels (their text and height: linear, or log by decades), and each bar's rect
# must start at the axis' base (0, or the bottom of a log axis) and reach its value's height
# (clamped to the plot area) within a pixel; a stacked phase segment's height must be its value.
cat >geometry.py <<'PY'
import math, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
SUFFIX = {"k": 1e3, "M": 1e6, "G": 1e9}
def tick_value(t):
    sup = t.find(NS + "tspan")
    if sup is not None: return 10.0 ** int(sup.text), True        # "10" with a superscript k
    s = "".join(t.itertext()).strip()
    return (float(s[:-1]) * SUFFIX[s[-1]] if s[-1] in SUFFIX else float(s)), False
def check(path):
    fails, root = [], ET.parse(path).getroot()
    ticks = [t for t in root.iter(NS + "text") if t.get("class") == "tick" and t.get("text-anchor") == "end"]
    bars = [g for g in root.iter(NS + "g") if (g.get("class") or "").split(" ")[0] == "bar"]
    if not bars: return fails, 0
    if len(ticks) < 2: return ["%s: bars but %d y ticks" % (path, len(ticks))], 0
    pts = [(tick_value(t), float(t.get("y")) - 4) for t in ticks]   # a label sits 4 px under its tick
    log = pts[0][0][1]
    f = (lambda v: math.log10(v)) if log else (lambda v: v)
    (a, qa), (b, qb) = min(pts, key=lambda p: p[1]), max(pts, key=lambda p: p[1])
    a, b = f(a[0]), f(b[0])
    frame = next(r for r in root.iter(NS + "rect") if r.get("class") == "frame")
    top, bottom = float(frame.get("y")), float(frame.get("y")) + float(frame.get("height"))
    def px(v):
        q = qb + ((f(v) if v > 0 or not log else -1e300) - b) * (qa - qb) / (a - b)
        return min(max(q, top), bottom)
    for g in bars:
        v, r = float(g.get("data-value")), g.find(NS + "rect")
        y, h = float(r.get("y")), float(r.get("height"))
        tip = "".join(g.find(NS + "title").itertext())[:60] if g.find(NS + "title") is not None else "?"
        if "phase" in g.get("class"):    # stacked: its height is its value
            want_h = px(0) - px(v)
            if abs(h - want_h) > 1: fails.append("%s: %s: segment %.1f px tall, its value %g is %.1f px" % (path, tip, h, v, want_h))
            continue
        base = bottom if log else px(0)
        if abs(y + h - base) > 1 or abs(y - px(v)) > 1:
            fails.append("%s: %s: bar from %.1f to %.1f px, value %g on the axis: from %.1f to %.1f" % (path, tip, y + h, y, v, base, px(v)))
    return fails, len(bars)
fails, n = [], 0
for path in sys.argv[1:]:
    f, k = check(path)
    fails += f
    n += k
if n == 0: fails.append("no bars in %s" % " ".join(sys.argv[1:]))
print("\n".join(fails) if fails else "ok: %d bars" % n)
sys.exit(1 if fails else 0)
PY
if python3 geometry.py figs/*.svg >geom.txt 2>&1; then ok; else bad "bar geometry: $(cat geom.txt)"; fi

cat >check.py <<'PY'
import glob, json, math, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
fails = []
def fail(m): fails.append(m)
page = ET.parse("r.html").getroot()            # the page is well-formed XML as well
svgs = sorted(glob.glob("figs/*.svg"))
inline = page.findall(".//" + NS + "svg")
if len(inline) != len(svgs) or not svgs: fail("%d inline plots, %d SVG files" % (len(inline), len(svgs)))
runs = {f: json.load(open(f)) for f in ("t.json", "l.json", "s.json")}
for path in svgs:
    root = ET.parse(path).getroot()
    texts = {t.get("class"): "".join(t.itertext()) for t in root.iter(NS + "text") if t.get("class")}
    for cls in ("title", "subtitle", "axis-label", "tick"):
        if not texts.get(cls): fail("%s: no %s text" % (path, cls))
    if "AMD" not in texts.get("subtitle", "") and "cores" not in texts.get("subtitle", "") and "+" not in texts.get("subtitle", ""):
        fail("%s: the subtitle names no machine: %r" % (path, texts.get("subtitle")))
    if not any(c.isdigit() for c in texts.get("subtitle", "")): fail("%s: the subtitle has no date" % path)
    marks = [g for g in root.iter(NS + "g") if g.get("class") in ("bar", "point", "bar phase")]
    if not marks and not root.findall(".//" + NS + "polyline"): fail("%s: no marks" % path)
def values(path):
    root = ET.parse(path).getroot()
    out = {}
    for g in root.iter(NS + "g"):
        if g.get("class") == "bar":
            tip = "".join(g.find(NS + "title").itertext())
            out[tip.split(" ")[0]] = float(g.get("data-value"))
    return out
for f, stem in (("t.json", "transpose-ladder"), ("l.json", "life-ladder")):
    files = [p for p in svgs if p.endswith(stem + ".svg") and ("life" in stem) == (f == "l.json")]
    if len(files) != 1: fail("%s: %d ladder plots" % (stem, len(files))); continue
    drawn = values(files[0])
    res = runs[f]["results"]
    big = max(res, key=lambda r: r["work"])["size"]
    for r in res:
        if r["size"] != big: continue
        got = drawn.get(r["variant"])
        if got is None or not math.isclose(got, r["rate"], rel_tol=1e-5):
            fail("%s %s: drawn %s, JSON %s" % (stem, r["variant"], got, r["rate"]))
roofs = [p for p in svgs if p.endswith("roofline.svg")]
if len(roofs) != 1: fail("%d roofline plots: one for the bench run, none for the sweeps" % len(roofs))
if len([p for p in svgs if p.endswith("sweep.svg")]) != 2: fail("not one plot for each sweep file")
sweep = [p for p in svgs if p.endswith("transpose-cpu-blocked-sweep.svg")]
best = max(runs["s.json"]["results"], key=lambda r: r["rate"])
if len(sweep) != 1: fail("%d sweep plots" % len(sweep))
else:
    best_tile = "tile=%d" % best["params"]["tile"]
    cap = "".join(page.find(".//*[@id='%s']" % sweep[0][5:-4]).find("figcaption").itertext())
    if best_tile not in cap: fail("the sweep caption does not name the best %s: %s" % (best_tile, cap))
print("\n".join(fails) if fails else "ok")
sys.exit(1 if fails else 0)
PY
if python3 check.py >check.txt 2>&1; then ok; else bad "the page and plots: $(cat check.txt)"; fi

# a GPU machine's file (made from the CPU one: the machine named a GPU, the results CUDA runs
# with their phases) in another directory: its phases plot, and the transpose ladders of the
# two machines side by side
mkdir -p gpu
cat >fake_gpu.py <<'PY'
import json
d = json.load(open("t.json"))
d["machine"]["gpu"] = "NVIDIA H100 80GB HBM3"
for i, r in enumerate(d["results"]):
    r["backend"] = "cuda"
    r["rate"] = r["rate"] * 10
    r["phases_s"] = {"alloc": 1e-3 * (i + 1), "h2d": 2e-3, "kernel": 0.5e-3 * (i + 1), "d2h": 1.5e-3}
big = [dict(r) for r in d["results"] if r["size"] == "128"]  # a size the CPU run lacks
for r in big: r["size"], r["work"] = "4096", r["work"] * 1024
d["results"] += big
json.dump(d, open("gpu/g.json", "w"))
PY
python3 fake_gpu.py && run 0 "report, two machines" report t.json gpu/g.json -o two.html --svg twofigs
cat >check2.py <<'PY'
import glob, json, math, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
fails = []
g = json.load(open("gpu/g.json"))
ph = glob.glob("twofigs/*gpu-phases.svg")
if len(ph) != 1: fails.append("%d phases plots" % len(ph))
else:
    segs = [float(x.get("data-value")) for x in ET.parse(ph[0]).getroot().iter(NS + "g") if x.get("class") == "bar phase"]
    want = [v * 1e3 for r in g["results"] for v in (r["phases_s"]["alloc"], r["phases_s"]["h2d"], r["phases_s"]["kernel"], r["phases_s"]["d2h"])]
    if len(segs) != len(want) or any(not math.isclose(a, b, rel_tol=1e-5) for a, b in zip(segs, want)):
        fails.append("phases drawn %s, want %s" % (segs[:8], want[:8]))
sbs = glob.glob("twofigs/*transpose-side-by-side.svg")
if len(sbs) != 1: fails.append("%d side-by-side plots" % len(sbs))
else:
    bars = [x for x in ET.parse(sbs[0]).getroot().iter(NS + "g") if x.get("class") == "bar"]
    n_big = len([r for r in g["results"] if r["size"] == "128"])
    if len(bars) != 2 * n_big: fails.append("side by side: %d bars, want %d" % (len(bars), 2 * n_big))
    tips = ["".join(x.find(NS + "title").itertext()) for x in bars]
    if not all(" at 128:" in t for t in tips):  # the largest size both runs have, not the GPU's 4096
        fails.append("side by side not at the common size: %s" % tips[:3])
    legend = "".join(ET.parse(sbs[0]).getroot().find(".//*[@class='legend']").itertext())
    if "H100" not in legend or "cores" not in legend: fails.append("side by side legend: %s" % legend)
print("\n".join(fails) if fails else "ok")
sys.exit(1 if fails else 0)
PY
if python3 check2.py >check2.txt 2>&1; then ok; else bad "two machines: $(cat check2.txt)"; fi
if python3 geometry.py twofigs/*.svg >geom2.txt 2>&1; then ok; else bad "bar geometry, two machines: $(cat geom2.txt)"; fi

# a suite with --json-dir: a JSON file a line (an include line writes none itself), drawn as one run
printf 'transpose --size 64 --variant cpu-naive --repeats 3\n# a comment\nreduce --size 64 --variant cpu-naive --repeats 3\n' >mini.suite
mkdir -p sj
run 0 "suite with --json-dir" bench --suite mini.suite --json-dir sj &&
    [ -f sj/001-transpose.json ] && [ -f sj/002-reduce.json ] && [ "$(ls sj | wc -l)" = 2 ] && ok ||
    bad "suite JSON files: $(ls sj)"
run 0 "report of a suite" report sj/001-transpose.json sj/002-reduce.json -o suite.html &&
    [ "$(grep -o 'the ladder at size' suite.html | wc -l)" = 2 ] && [ "$(grep -o '<tr><td>sj/' suite.html | wc -l)" = 2 ] &&
    ok || bad "the suite's report: $(grep -o '<h2>[^<]*' suite.html)"
run 2 "suite, no such --json-dir" bench --suite mini.suite --json-dir nodir && expect_err "json-dir" "nodir"

# problems kept apart (issue 19): reduce on axis 1 and axis 0 (two bench files of one directory,
# one run), gemv with trans n and t: each bar and each line is one problem, named by the
# parameter that differs ("cpu-simd axis=0"), its value the JSON's; a line joins the sizes of
# one problem only. Every row records its problem.
mkdir -p ax
run 0 "bench reduce axis 1" bench reduce --size 64,128 --variant cpu-naive,cpu-simd --repeats 3 --no-peaks --json ax/r1.json
run 0 "bench reduce axis 0" bench reduce --size 64,128 --set axis=0 --variant cpu-naive,cpu-simd --repeats 3 --no-peaks \
    --json ax/r0.json
run 0 "bench gemv trans n" bench gemv --size 64,96 --variant cpu-naive --repeats 3 --no-peaks --json ax/gn.json
run 0 "bench gemv trans t" bench gemv --size 64,96 --set trans=t --variant cpu-naive --repeats 3 --no-peaks --json ax/gt.json
run 0 "report of two problems" report ax/r1.json ax/r0.json ax/gn.json ax/gt.json -o ax.html --svg axfigs
cat >check3.py <<'PY'
import glob, json, math, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
fails = []
def fail(m): fails.append(m)
rows = [r for f in ("ax/r1.json", "ax/r0.json", "ax/gn.json", "ax/gt.json") for r in json.load(open(f))["results"]]
for r in rows:
    if "problem" not in r: fail("a row without its problem: %s %s" % (r["kernel"], r["variant"]))
def key(r): return r["variant"] + (" axis=%s" % r["problem"]["axis"] if r["kernel"] == "reduce" else " trans=%s" % r["problem"]["trans"])
for kernel, big in (("reduce", {"1": "128x128", "0": "128x128"}), ("gemv", {"n": "96", "t": "96 T"})):
    lad = glob.glob("axfigs/*%s-ladder.svg" % kernel)
    if len(lad) != 1: fail("%s: %d ladder plots" % (kernel, len(lad))); continue
    root = ET.parse(lad[0]).getroot()
    labels = ["".join(t.itertext()) for t in root.iter(NS + "text") if t.get("class") == "category"]
    bars = [g for g in root.iter(NS + "g") if g.get("class") == "bar"]
    want = [r for r in rows if r["kernel"] == kernel and r["size"] == big[str(r["problem"]["axis" if kernel == "reduce" else "trans"])]]
    if len(bars) != len(want) or len(labels) != len(want):
        fail("%s ladder: %d bars, %d labels, want %d (one a variant and problem)" % (kernel, len(bars), len(labels), len(want)))
    for r in want:
        name = key(r)
        at = [i for i, l in enumerate(labels) if l.startswith(name)]
        if len(at) != 1: fail("%s ladder: %d labels start with %r: %s" % (kernel, len(at), name, labels)); continue
        got = float(bars[at[0]].get("data-value"))
        if not math.isclose(got, r["rate"], rel_tol=1e-5): fail("%s ladder %s: drawn %g, JSON %g" % (kernel, name, got, r["rate"]))
    sc = glob.glob("axfigs/*%s-scaling.svg" % kernel)
    if len(sc) != 1: fail("%s: %d scaling plots" % (kernel, len(sc))); continue
    root = ET.parse(sc[0]).getroot()
    lines = {g.get("data-series"): g for g in root.iter(NS + "g") if g.get("class") == "line"}
    names = set(key(r) for r in rows if r["kernel"] == kernel)
    if set(lines) != names: fail("%s scaling: lines %s, want %s" % (kernel, sorted(lines), sorted(names)))
    for name, g in lines.items():
        pts = sorted((float(m.get("data-x")), float(m.get("data-y"))) for m in g.iter(NS + "g") if m.get("class") == "point")
        mine = sorted((r["bytes"], r["rate"]) for r in rows if r["kernel"] == kernel and key(r) == name)
        if len(pts) != len(mine) or any(not math.isclose(a[1], b[1], rel_tol=1e-3) for a, b in zip(pts, mine)):
            fail("%s scaling %s: points %s, want the problem's own %s" % (kernel, name, pts, mine))
    legend = "".join(root.find(".//*[@class='legend']").itertext())
    for name in names:
        if name not in legend: fail("%s scaling: the legend lacks %r: %s" % (kernel, name, legend))
print("\n".join(fails) if fails else "ok")
sys.exit(1 if fails else 0)
PY
if python3 check3.py >check3.txt 2>&1; then ok; else bad "problems kept apart: $(cat check3.txt)"; fi

# a bar over 100% of its ceiling carries the flag (! and its %, as the tables), is cut off at the
# axis top where it is past it (its true value written on it); bars under 100% carry none
cat >over.py <<'PY'
import json
d = json.load(open("t.json"))
big = max(r["work"] for r in d["results"])
rows = [r for r in d["results"] if r["work"] == big]
top = max(r["rate"] for r in rows)
# every other bar at one rate, so that the axis is linear whatever the machine measured (a
# sanitizer build's rungs ran 30x below OpenBLAS: a log axis, rounded up to a decade, held
# the 10x bar under its top)
for r in rows:
    r["rate"] = top
    r["ceiling"] = {"name": "CPU triad bandwidth", "pct": 50.0, "over": False}
rows[0]["rate"] = top * 10
rows[0]["ceiling"] = {"name": "CPU triad bandwidth", "pct": 250.0, "over": True}
json.dump(d, open("over/o.json", "w"))
PY
mkdir -p over && python3 over.py && run 0 "report, a bar over 100%" report over/o.json -o over.html --svg overfigs
cat >check4.py <<'PY'
import glob, json, math, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
fails = []
d = json.load(open("over/o.json"))
big = max(r["work"] for r in d["results"])
rows = [r for r in d["results"] if r["work"] == big]
lad = glob.glob("overfigs/*transpose-ladder.svg")
root = ET.parse(lad[0]).getroot()
frame = [r for r in root.iter(NS + "rect") if r.get("class") == "frame"][0]
top = float(frame.get("y"))
flags = [g for g in root.iter(NS + "g") if g.get("class") == "over-flag"]
if len(flags) != 1: fails.append("%d over-100%% flags, want 1" % len(flags))
else:
    text = "".join(t for x in flags[0].iter(NS + "text") for t in x.itertext())
    if "!250%" not in text: fails.append("the flag does not say !250%%: %r" % text)
    if not math.isclose(float(flags[0].get("data-value")), rows[0]["rate"], rel_tol=1e-5): fails.append("the flag's value is not the true rate")
bars = [g for g in root.iter(NS + "g") if g.get("class") == "bar"]
over = [g for g in bars if "".join(g.find(NS + "title").itertext()).split(" ")[0] == rows[0]["variant"]]
if len(over) != 1: fails.append("%d bars of %s" % (len(over), rows[0]["variant"]))
else:
    g = over[0]
    y = float(g.find(NS + "rect").get("y"))
    if g.get("data-clipped") != "1" or abs(y - top) > 0.11: fails.append("the bar over 100%% is not cut off at the axis top: y %g, top %g, %s" % (y, top, g.attrib))
    if not math.isclose(float(g.get("data-value")), rows[0]["rate"], rel_tol=1e-5): fails.append("the cut bar's data-value is not its rate")
    if flags and not any("cut off" in "".join(t.itertext()) for t in flags[0].iter(NS + "text")):
        fails.append("the cut bar's label does not say it is cut off")
for g in bars:
    if g is not (over[0] if over else None) and g.get("data-clipped"): fails.append("a bar under 100% is cut off")
cap = "".join(ET.parse("over.html").getroot().find(".//*[@id='%s']" % lad[0][9:-4]).find("figcaption").itertext())
if "flagged !" not in cap: fails.append("the caption does not explain the flag: %s" % cap)
print("\n".join(fails) if fails else "ok")
sys.exit(1 if fails else 0)
PY
if python3 check4.py >check4.txt 2>&1; then ok; else bad "a bar over 100%: $(cat check4.txt)"; fi

# bad input: exit 1, the file (and field) named, nothing written
echo '{"schema": "parlab-bench/2", "machine": ' >trunc.json
run 1 "truncated JSON" report trunc.json -o x.html --svg xfigs && expect_err "truncated" "trunc.json:2:1: expected a value"
sed 's/"parlab-bench\/2"/"parlab-bench\/1"/' t.json >old.json
run 1 "old schema" report old.json -o x.html && expect_err "old schema" "old.json" && expect_err "old schema field" "schema"
echo '{"hello": 1}' >other.json
run 1 "not parlab's" report other.json -o x.html && expect_err "not parlab's" "other.json: no field 'schema'"
sed '0,/"rate": [0-9.e+-]*/s//"rate": "fast"/' t.json >typed.json
run 1 "mistyped field" report typed.json -o x.html && expect_err "mistyped field" "results[0].rate: expected a number, found string"
run 1 "one bad among good" report t.json typed.json -o x.html --svg xfigs
no_file "bad input" x.html
[ ! -e xfigs ] && ok || bad "the SVG directory was left behind: $(ls xfigs)"
run 2 "no output" report t.json && expect_err "no output" "-o"
run 2 "no input" report -o x.html && expect_err "no input" "JSON"
run 1 "missing file" report nope.json -o x.html && expect_err "missing" "nope.json"
no_tmp_files

summary test_cli_report
