#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# report --html: a page made from two real runs (one of bonnie++'s phases,
# one a tiny sweep), given different cells, one named like markup: it holds
# no URL and no script, shows the name as text and has its charts; FILE
# other than a regular file is refused.  A tiny latency curve (two repeats)
# gets its "Latency vs load" chart: a dot per step per repeat, the target
# line and the sizing diamond; a page without one says so in a line.
# Then headless Chromium renders both pages:
# the SVG survives parsing, and the screenshot is no blank page but holds
# the cells' bar colours and the heat maps' colours.  Without chromium those
# checks skip; with it, a page that does not render fails.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
export ARRAYBENCH_STATE_DIR=$T/state
mkdir d1 d2 d3

# -r 0: the runs are tiny and their reads cached, which is fine for a page.
"$AB" run -d d1 -s 8m -r 0 -n 1 --cache none -x 3 --json a.json >a.out 2>a.err
is $? 0 "three repeats of bonnie++'s phases on a directory"
"$AB" run -d d2 -s 8m -r 0 -n 1 --cache none -x 3 --phases sweep --sweep-file-sizes 64k-256k \
	--sweep-records 4k-64k --json b.json >b.out 2>b.err
is $? 0 "three repeats of a tiny sweep"
# Each run's devices go: a directory on a disk records the disk's I/O
# (t2009 checks that, and its member chart), one on tmpfs none, and this
# page's member section is to be the one line saying there is nothing.
sed 's/"cell":null/"cell":"ext4 defaults"/; s/"devices":\[[^]]*\]/"devices":[]/g' a.json >a2.json
sed 's#"cell":null#"cell":"xfs <script>alert(1)</script> \& noatime"#; s/"devices":\[[^]]*\]/"devices":[]/g' b.json >b2.json
is "$(grep -c '"cell":"ext4 defaults"' a2.json) $(grep -c '"cell":"xfs <script>' b2.json)" "3 3" \
	"each run given its cell"

"$AB" report --html p.html a2.json b2.json >r.out 2>r.err
is "$? $(cat r.err)" "0 " "report --html exits 0, silent on stderr"
[ -s p.html ] && grep -q '^phase ' r.out
ok $? "it wrote the page, and the text report still on standard output"
is "$(grep -Eic 'https?:' p.html)" 0 "the page names no http(s) URL: nothing is fetched"
is "$(grep -ic '<script' p.html)" 0 "and holds no script, though a cell is named '<script>'"
grep -qF 'xfs &lt;script&gt;alert(1)&lt;/script&gt; &amp; noatime' p.html
ok $? "that name is shown as text"
grep -qF 'ext4 defaults' p.html
ok $? "the other cell is named"
# Bar charts: bonnie++'s 12 phases; heat maps: 13 tests of the one cell
# with a sweep (the other gets none); the colour legend.
is "$(grep -c '<svg class="bars"' p.html) $(grep -c '<svg class="heatmap"' p.html) $(grep -c '<svg class="legend"' p.html)" \
	"12 13 1" "a bar chart per phase, a heat map per sweep test, one colour legend"
is "$(grep -c '<rect class="bar"' p.html)" 12 "one bar per phase: the cell without bonnie++'s phases has none"
is "$(grep -c '<svg class="latency"' p.html)" 12 "a latency chart per phase"
grep -q 'No member charts: ' p.html
ok $? "the member chart, with no per-device counters in any run, is one line saying why"
grep -q ' c</text>' p.html || grep -q '>c</text>' p.html
ok $? "heat-map squares read from the page cache are marked 'c'"

# The latency curve: 2 repeats of 3 steps, a target no step can miss (2 s),
# so every step runs and the answer is "at least".
"$AB" run -d d3 -s 8m -r 0 --cache none -x 2 --phases latency-curve --curve-procs 2 --curve-seconds 0.3 \
	--rate-start 200 --curve-steps 3 --p99-target 2s --json c.json >c.out 2>c.err
is $? 0 "two repeats of a tiny latency curve"
sed 's/"cell":null/"cell":"curve <cell>"/' c.json >c2.json
"$AB" report --html q.html a2.json c2.json >/dev/null 2>q.err
curve=$(sed -n '/<h2 id="curve">/,/<\/main>/p' q.html)
is "$(grep -c '<svg class="curve"' <<<"$curve") $(grep -c '<circle class="cpt"' <<<"$curve") $(grep -o '"test":"step [0-9]*"' c.json | wc -l)" \
	"1 6 6" "one curve chart, a dot per step of each repeat (as many as the JSON's steps)"
is "$(grep -c '<line class="target"' <<<"$curve") $(grep -c '<path class="sizing"' <<<"$curve") $(grep -c '<path class="cline"' <<<"$curve")" \
	"1 1 3" "one target line, one sizing diamond and the p50, p99, p99.9 lines: the cell without a curve draws none"
grep -qF '>2: 800 at least</text>' <<<"$curve" && grep -qF '>p99 target 2.00s</text>' <<<"$curve"
ok $? "the sizing diamond is labelled 'at least' (every step passed), the target line named"
grep -qE '<td class="n">2 of 2</td><td class="n">2.00s</td><td>at least</td>' <<<"$curve" && grep -qF 'curve &lt;cell&gt;' <<<"$curve"
ok $? "the table under it: the answer from 2 of 2 repeats, how it was found, the cell's name escaped"
is "$(grep -c 'latency-curve (step' q.html) $(grep -q 'latency-curve (sizing)' q.html && echo kept)" "0 kept" \
	"the bar charts leave the curve's steps to its own chart and keep its sizing answer"
grep -q '<p class="none">No latency curve: ' p.html && ! grep -q '<svg class="curve"' p.html
ok $? "a page without the phase says so in one line, with no curve chart"

# FILE: a regular file is replaced; anything else is refused, one line.
printf '%*s' 400000 x >old.html
"$AB" report --html old.html a2.json >/dev/null 2>&1
is "$(tail -c 8 old.html)" "</html>" "an existing regular file is replaced, not appended to"
"$AB" report --html /dev/null a2.json >/dev/null 2>e1
is "$? $(cat e1)" "1 arraybench: error: refusing to write the HTML report to '/dev/null': not a regular file" \
	"a device is refused, in one line naming it"
mkdir adir
"$AB" report --html adir a2.json >/dev/null 2>e2
is "$? $(cat e2)" "1 arraybench: error: refusing to write the HTML report to 'adir': not a regular file" \
	"so is a directory"
mkfifo fifo
timeout $HANG_AFTER "$AB" report --html fifo a2.json >/dev/null 2>e3
is "$? $(cat e3)" "1 arraybench: error: refusing to write the HTML report to 'fifo': not a regular file" \
	"and a FIFO, without hanging"
"$AB" report --html nodir/p.html a2.json >/dev/null 2>e4
is "$? $(cat e4)" "5 arraybench: error: cannot write the HTML report to 'nodir/p.html': No such file or directory" \
	"a FILE that cannot be made: exit 5"
cp a2.json keep.json
"$AB" report --html a2.json a2.json >/dev/null 2>e5
is "$? $(cat e5)" "1 arraybench: error: refusing to write the HTML report to 'a2.json': it is one of the FILEs read" \
	"a FILE being read is refused (the results would be lost)"
cmp -s a2.json keep.json; ok $? "and left as it was"
"$AB" report --html - a2.json >/dev/null 2>e6
is "$?" 1 "'-' is refused: standard output has the report ($(cat e6))"
if is_root; then
	echo precious >precious; ln -s "$T/precious" planted; chown -h nobody planted
	"$AB" report --html planted a2.json >/dev/null 2>e7
	is "$? $(cat precious)" "4 precious" "root refuses another user's symlink (exit 4), the file it points to untouched"
else
	skip "another user's symlink needs root to make"
fi
echo mine >mine; ln -s "$T/mine" mylink
"$AB" report --html mylink a2.json >/dev/null 2>e8
is "$? $(cat mine) $(cat e8)" "4 mine arraybench: error: refusing to write the HTML report to 'mylink': a symbolic link (name the file itself)" \
	"one's own symlink is refused too (as root, one to /etc/passwd was written over)"
"$AB" report --html new.html missing.json >/dev/null 2>/dev/null
is "$? $([ -e new.html ] && echo made)" "1 " "no run read: exit 1 and no page made"
# A page that cannot be written whole (a file size limit stands in for a
# full disk; SIGXFSZ ignored, so the write fails with EFBIG) leaves the old
# page as it was, and no temporary file beside it.
mkdir whole && cp old.html whole/p.html
(trap '' XFSZ; ulimit -f 8; exec "$AB" report --html whole/p.html a2.json b2.json) >/dev/null 2>e9
is "$? $(ls -A whole)" "5 p.html" "a page cut by a full disk: exit 5, nothing but the old page in its directory ($(cat e9))"
cmp -s old.html whole/p.html; ok $? "and the old page whole, not cut"

# Rendered by Chromium (Debian's chromium; as root it needs --no-sandbox).
command -v chromium >/dev/null || skip_rest "chromium is not installed (make deps installs it)"
chrome() { # args...: headless, its own profile and home in $T, a deadline (it can be slow to start)
	local sandbox=; is_root && sandbox=--no-sandbox
	HOME=$T XDG_CONFIG_HOME=$T/config XDG_CACHE_HOME=$T/cache timeout $HANG_AFTER chromium --headless $sandbox --disable-gpu --no-first-run --user-data-dir="$T/profile" \
		--hide-scrollbars "$@" 2>>chrome.err
}
chrome --dump-dom "file://$T/p.html" >dom.html
is "$?" 0 "chromium --dump-dom renders the page"
is "$(grep -o '<svg class="bars"' dom.html | wc -l) $(grep -o '<rect class="bar"' dom.html | wc -l) $(grep -o '<svg class="heatmap"' dom.html | wc -l)" \
	"12 12 13" "the charts survive HTML parsing: SVG elements, bars and heat maps in the DOM"
grep -q 'xfs &lt;script&gt;alert(1)&lt;/script&gt; &amp; noatime' dom.html && ! grep -qi '<script' dom.html
ok $? "the DOM holds the cell name as text and no script element"
chrome --dump-dom "file://$T/q.html" >domq.html
is "$(grep -o '<svg class="curve"' domq.html | wc -l) $(grep -o '<circle class="cpt"' domq.html | wc -l) $(grep -o '<path class="sizing"' domq.html | wc -l)" \
	"1 6 1" "the curve chart survives HTML parsing: its SVG, dots and sizing diamond in the DOM"
# At half scale (640 x 3500 pixels): the colours are the same, the decoding
# below four times quicker.
chrome --screenshot="$T/p.png" --window-size=1280,7000 --force-device-scale-factor=0.5 "file://$T/p.html" >/dev/null
[ -s p.png ]
ok $? "chromium takes a screenshot" || sed 's/^/#   /' chrome.err | tail -5
# The heat maps' square colours, from the page.
grep -o 'class="hm" [^>]*fill="#[0-9a-f]*"' p.html | grep -o '#[0-9a-f]*' | sort -u >heat.colours
python3 - p.png heat.colours >png.out <<'PY'
# Decodes the PNG with zlib alone (8-bit RGB or RGBA, no interlace).
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    pos += 12 + n
    if kind == b'IHDR':
        w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
        assert depth == 8 and ctype in (2, 6) and not interlace, (depth, ctype, interlace)
    elif kind == b'IDAT':
        idat += body
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, i, colours, ink = bytearray(stride), 0, {}, 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    if f == 1:
        for x in range(bpp, stride): line[x] = (line[x] + line[x - bpp]) & 255
    elif f == 2:
        for x in range(stride): line[x] = (line[x] + prev[x]) & 255
    elif f == 3:
        for x in range(stride): line[x] = (line[x] + ((line[x - bpp] if x >= bpp else 0) + prev[x]) // 2) & 255
    elif f == 4:
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
    px = bytes(line) if bpp == 3 else bytes(b for k, b in enumerate(line) if k % 4 != 3)
    for x in range(0, len(px), 3):
        c = px[x:x + 3]
        colours[c] = colours.get(c, 0) + 1
        if c != b'\xff\xff\xff':
            ink += 1
def has(hexcolour):
    return colours.get(bytes.fromhex(hexcolour.lstrip('#')), 0) >= 20
heat = [c.strip() for c in open(sys.argv[2]) if c.strip()]
print('ink %.3f' % (ink / (w * h)))
print('colours %d' % len(colours))
print('bars %s %s' % (has('#4e79a7'), has('#f28e2b')))
print('heat %d of %d' % (sum(has(c) for c in heat), len(heat)))
PY
is "$?" 0 "the screenshot decodes" || cat png.out
ink=$(awk '/^ink/ { print ($2 > 0.03) }' png.out)
colours=$(awk '/^colours/ { print ($2 >= 40) }' png.out)
is "$ink $colours" "1 1" "it is no blank page: ink on over 3 % of it, 40 colours or more ($(tr '\n' ' ' <png.out))"
is "$(awk '/^bars/ { print $2 }' png.out)" True "the first cell's bars are drawn in its colour"
heat=$(awk '/^heat/ { print ($2 > 0 && $2 * 2 >= $4) }' png.out)
is "$heat" 1 "and the heat maps: at least half their square colours are on screen"
done_testing
