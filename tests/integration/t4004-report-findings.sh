#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# report's findings (src/model/findings.h) on a fixture: the runs of
# tests/fixtures/arraybench-run.json ran --cache none on a 64M file of a
# machine with 24G of RAM, and most phases lasted under 0.5 s.  The text,
# the JSON (read back: the same bytes), the comparison and the HTML page
# each carry the finding that names the page cache; the run that read no
# file (-s 0) has none of it.  Findings are derived: nothing here runs I/O.
. "$(dirname "$0")/lib.sh"
fx=$top/tests/fixtures/arraybench-run.json
cd "$T" || exit 1

"$AB" report "$fx" >r.txt 2>r.err
is "$? $(cat r.err)" "0 " "report of the fixture exits 0, silent on stderr"
is "$(grep -c '^findings ([0-9]*):$' r.txt)" 4 "each of its 4 runs closes with its findings"
is "$(grep -c '^  warning  cache-none-fits: .* under --cache none, which evicts nothing, and the page cache (RAM 23.5G) could hold all of it: their rates measure the page cache, not the disks$' r.txt)" 3 \
	"the 3 runs that read the file under --cache none have the finding that names the page cache"
grep -q '^  warning  cache-none-fits: rewrite, per-char-read, block-read, seeks read a file of 64M at most' r.txt
ok $? "it names the phases that read the file"
is "$(grep -c '^           to do: make the reads cold (--cache drop or cgroup) or the file over twice the RAM$' r.txt)" 3 \
	"and says what to do"
is "$(awk '/^arraybench /{ n++ } n == 4' r.txt | grep -c cache-none-fits)" 0 \
	"the run of file phases alone (-s 0) has no such finding"
grep -q '^  warning  too-short: 9 phases lasted under 0.5 s (block-write 0.058 s, rewrite 0.044 s, block-read 0.011 s' r.txt
ok $? "phases under 0.5 s are one finding a run, each with its duration"

"$AB" report --format json "$fx" >r.json 2>/dev/null
is "$(python3 -c '
import json, sys
runs = [json.loads(l) for l in open("r.json")]
print(" ".join(",".join(f["id"] for f in r.get("findings", [])) for r in runs))')" \
	"cache-none-fits,too-short cache-none-fits,too-short cache-none-fits,too-short too-short" \
	"the JSON carries each run's findings in its findings array"
is "$(python3 -c '
import json
f = json.loads(open("r.json").readline())["findings"][0]
print(f["severity"], f["group"], f["repeat"], [(x["name"], x["value"], x["unit"]) for x in f["figures"]])')" \
	"warning fixhost 1 [('file_size', 67108864.0, 'bytes'), ('ram', 25276071936.0, 'bytes'), ('phases', 4.0, None)]" \
	"with its severity, where, and the figures it rests on"
"$AB" report --format json r.json >again.json 2>/dev/null
cmp -s r.json again.json; ok $? "read back, the JSON is the same bytes: findings are found again, not read"

"$AB" report --compare "$fx" >c.txt 2>c.err
is "$? $(cat c.err)" "0 " "report --compare exits 0, silent on stderr"
is "$(grep -c '^  warning  cache-none-fits  \[fixhost, run [0-9a-f-]*, repeat [12]\]: .*the page cache' c.txt)" 3 \
	"the comparison lists the findings, with the run and repeat each is about"
"$AB" report --compare --format json "$fx" >c.json 2>/dev/null
is "$(python3 -c '
import json
print(sorted(set(f["id"] for f in json.load(open("c.json"))["findings"])))')" \
	"['cache-none-fits', 'too-short']" "the comparison's JSON has them in its findings array"

"$AB" report --html p.html "$fx" >/dev/null 2>p.err
is "$? $(cat p.err)" "0 " "report --html exits 0, silent on stderr"
grep -q '<h2 id="findings">Findings</h2>' p.html; ok $? "the page has a Findings section"
is "$(grep -c '<td>cache-none-fits</td><td>fixhost, run [^<]*</td><td>[^<]*the page cache (RAM 23.5G) could hold all of it' p.html)" 3 \
	"naming the page cache for each run that read the file"

# The man page lists every rule of the table, in its order (docs in step).
ids=$(sed -n 's/^\t{ "\([a-z-]*\)", AB_FINDING_[A-Z]*, [A-Z]*,$/\1/p' "$top/src/model/findings.c")
listed=$(sed -n '/^\.SS Findings$/,/^\.SH /p' "$top/man/arraybench.1" | sed -n '/^\.TP$/{n;s/^\.B //;s/\\-/-/g;p}')
[ "$(echo "$ids" | wc -l)" -ge 10 ]; ok $? "the rules' ids are read from src/model/findings.c"
is "$listed" "$ids" "man/arraybench.1's Findings lists each rule's id, in the table's order"
done_testing
