# test_report_render.sh: a report rendered by a real browser. A sample report (bench and sweep
# JSON of this build) is drawn with --svg; headless Chromium (Debian's `chromium`) renders the
# whole page and every plot's SVG file to PNG; python3 with PIL checks that the page render is
# not blank and that inside each plot's frame there are drawn marks (pixels in the palette's
# colours: text, grid and ceiling lines are grey), so a plot whose bars, points or lines failed
# to draw is caught.
# Skipped (exit 77, saying why) where chromium or PIL is missing (PIL: Pillow in make test's venv).
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_report_render
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || skip_test "the report render: no chromium" "chromium"
py=$(test_python PIL) || skip_test "the report render: no interpreter with PIL" "the venv make test sets up (python3-venv)"

run 0 "bench" bench transpose --size 64,128 --variant all --peer --repeats 3 --json t.json
run 0 "sweep" sweep transpose --variant cpu-blocked --param tile=16,32 --size 128 --repeats 3 --json s.json
run 0 "report" report t.json s.json -o r.html --svg figs

shoot() { # shoot OUT.png W H URL
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$2,$3" \
        --screenshot="$1" "$4" >/dev/null 2>&1
}
shoot page.png 900 2400 "file://$PWD/r.html" && [ -s page.png ] && ok || bad "chromium rendered no page"
for f in figs/*.svg; do
    size=$(sed -n 's/.*<svg [^>]*width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1 \2/p' "$f" | head -1)
    set -- $size
    shoot "${f%.svg}.png" "${1%.*}" "${2%.*}" "file://$PWD/$f" && [ -s "${f%.svg}.png" ] && ok ||
        bad "chromium rendered no $f"
done

cat >marks.py <<'PY'
import glob, re, sys
from PIL import Image, ImageStat
fails = []
page = Image.open("page.png").convert("L")
if ImageStat.Stat(page).stddev[0] < 5: fails.append("the page render is blank (stddev %.2f)" % ImageStat.Stat(page).stddev[0])
for png in sorted(glob.glob("figs/*.png")):
    svg = open(png[:-4] + ".svg").read()
    m = re.search(r'class="frame" x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)" height="([0-9.]+)"', svg)
    if not m: fails.append("%s: no frame" % png); continue
    x, y, w, h = (float(v) for v in m.groups())
    im = Image.open(png).convert("RGB")
    box = im.crop((int(x) + 3, int(y) + 3, int(x + w) - 3, int(y + h) - 3))
    # the marks (bars, points, lines) are drawn in the palette's colours; text, grid lines and
    # the ceiling lines are grey: count the coloured pixels
    marks = sum(1 for r, g, b in box.getdata() if max(r, g, b) - min(r, g, b) > 40)
    if marks < 60: fails.append("%s: %d coloured pixels inside the frame" % (png, marks))
print("\n".join(fails) if fails else "ok: %d plots" % len(glob.glob("figs/*.png")))
sys.exit(1 if fails else 0)
PY
if "$py" marks.py >marks.txt 2>&1; then ok; else bad "$(cat marks.txt)"; fi
summary test_report_render
