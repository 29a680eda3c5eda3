#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# arraybench report: a live run's JSON and CSV read back and written again
# (the table's rows, the CSV and the JSON byte for byte), bonnie++'s own CSV
# lines beside ours, damaged lines and files skipped with a warning naming
# them, and the exit status of each failure.
. "$(dirname "$0")/lib.sh"
fx=$top/tests/fixtures
d=$T/dir; mkdir "$d"
cd "$T" || exit 1
export ARRAYBENCH_STATE_DIR=$T/state

"$AB" run -d "$d" -s 64m -r 32 -n 1 --cache none --json a.json --csv a.csv >live.out 2>live.err
is $? 0 "a small live run exits 0"
is "$(wc -l <a.json) $(wc -l <a.csv)" "1 1" "it wrote one JSON line and one CSV line"
rows() { sed -n '/^phase /,$p' "$1" | grep -v '^1\.98,'; } # the table from its 'phase' line on
rows live.out >live.rows
[ "$(wc -l <live.rows)" -ge 13 ]; ok $? "the live table has its 'phase' line and a row per phase"

# Our own files come back as they were written.
"$AB" report a.json >r.txt 2>r.err
is "$? $(cat r.err)" "0 " "report a.json exits 0, silent on stderr"
rows r.txt >r.rows
is "$(diff live.rows r.rows)" "" "report a.json prints the live run's table rows"
is "$(diff <(sed '/^phase /,$d' live.out) <(sed '/^phase /,$d' r.txt))" "" "and its header"
"$AB" report --format csv a.csv >r.csv 2>r.err
is "$? $(cat r.err)" "0 " "report --format csv a.csv exits 0, silent on stderr"
cmp -s a.csv r.csv; ok $? "report --format csv a.csv is a.csv, byte for byte"
"$AB" report --format json a.json >r.json 2>r.err
is "$? $(cat r.err)" "0 " "report --format json a.json exits 0, silent on stderr"
cmp -s a.json r.json; ok $? "report --format json a.json is a.json, byte for byte"
"$AB" report --format csv a.json >j.csv 2>/dev/null
cmp -s a.csv j.csv; ok $? "report --format csv a.json is the run's CSV line"
"$AB" report --format=csv - <a.csv >s.csv 2>/dev/null
cmp -s a.csv s.csv; ok $? "'-' reads standard input"

# bonnie++'s own lines (1.03, 2.00a) and ours in one table.
data_lines() { grep -cv -e '^format_version,' -e '^name,' -e '^[[:space:]]*$' "$@" | awk -F: '{ n += $NF } END { print n }'; }
want=$(data_lines "$fx/bonnie-1.03-seed003.csv" "$fx/bonnie-2.00a.csv" a.csv)
"$AB" report "$fx/bonnie-1.03-seed003.csv" "$fx/bonnie-2.00a.csv" a.csv >mix.txt 2>mix.err
is "$? $(cat mix.err)" "0 " "report of bonnie++ 1.03, 2.00a and our CSV exits 0, silent on stderr"
is "$(grep -c '^phase ' mix.txt)" "$want" "one table per run ($want)"
is "$(grep -c '^bonnie++ 1\.03 ' mix.txt) $(grep -c '^bonnie++ 2\.00a ' mix.txt) $(grep -c '^arraybench 0\.' mix.txt)" \
	"$(data_lines "$fx/bonnie-1.03-seed003.csv") $(data_lines "$fx/bonnie-2.00a.csv") 1" \
	"each table names its tool and version"
# Every table has rows; bonnie++ has no percentiles: they show as '-', never 0.
is "$(awk '/^phase /{ h++; getline; if ($0 ~ /^[a-z-]+(#[0-9]+)? +[0-9+]/) r++ } END { print h, r }' mix.txt)" \
	"$want $want" "every table has its rows"
is "$(awk '/^bonnie\+\+ /{ b = 1 } /^arraybench /{ b = 0 } /^phase /{ rows = 1; next } /^$/{ rows = 0 }
	rows && b { n++; if ($7 $8 $9 $10 == "----") dash++ } END { print (n >= 20 && n == dash) ? "ok" : n " rows, " dash " dashed" }' mix.txt)" \
	ok "bonnie++'s rows show the percentiles they lack as '-'"
"$AB" report --format csv "$fx/bonnie-1.03-seed003.csv" "$fx/bonnie-2.00a.csv" a.csv >mix.csv 2>/dev/null
is "$(awk -F, '{ print NF }' mix.csv | sort -u)" 50 "as CSV, every run is a 50-field 1.98 line"
tail -1 mix.csv | cmp -s - a.csv; ok $? "and ours is still byte-identical"
bon_csv2txt <mix.csv >/dev/null 2>b.err
is "$? $(cat b.err)" "0 " "bon_csv2txt reads them all without complaint"
"$AB" report --format json "$fx/bonnie-1.03-seed003.csv" >mix.json 2>/dev/null
python3 - mix.json <<'PY'
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
assert runs and all(r["tool"] == "bonnie++" for r in runs)
for r in runs:
    for p in r["phases"]:
        assert p["latency_ns"]["p50"] is None, p
        assert p.get("iowait_percent") is None, p
PY
ok $? "as JSON, what bonnie++ 1.03 did not measure is null"

# Damaged lines: each is named by file and line; the good ones still print.
line=$(cat a.csv) json=$(cat a.json)
{
	# not a.csv's line itself: that is a.json's run, read once
	echo "$line" | awk -F, -v OFS=, '{ $3 = "csvhost"; print }'
	echo "${line:0:60}"
	echo "$line" | cut -d, -f1-49
	echo "$line" | awk -F, -v OFS=, '{ $10 = "fast"; print }'
	# another run's line (the same line again would be the same run, read once)
	echo "$line" | awk -F, -v OFS=, '{ $3 = "other"; print }'
} >bad.csv
{
	echo "$json"
	echo "${json:0:$((${#json} / 2))}"
} >bad.json
"$AB" report bad.csv bad.json >bad.out 2>bad.err
is $? 0 "damaged lines among good ones: exit 0"
is "$(grep -c '^phase ' bad.out)" 3 "the three good runs print"
for where in "bad.csv:2 a truncated line" "bad.csv:3 a 49-field line" "bad.csv:4 text in a number field" \
	"bad.json:2 a JSON object cut in half"; do
	grep -q "^arraybench: warning: ${where%% *}: ." bad.err; ok $? "${where#* } gives a warning naming ${where%% *}"
done
is "$(grep -vc '^arraybench: warning: bad\.\(csv\|json\):[0-9]*: ' bad.err)" 0 "and nothing else is on stderr"
grep -q "^arraybench: warning: bad.csv:4: .*'fast'" bad.err; ok $? "the text in a number field is quoted"

# Nothing readable: exit 1, one error line after the warnings.
tail -n +2 bad.csv | head -3 >only-bad.csv
"$AB" report only-bad.csv >o.out 2>o.err
is "$? $(grep -c '^arraybench: warning: only-bad.csv:[1-3]: ' o.err) $(grep -c '^arraybench: error: ' o.err)" "1 3 1" \
	"only bad lines: exit 1, a warning each, one error"
is "$(cat o.out)" "" "and nothing on standard output"
: >empty.csv
"$AB" report empty.csv >/dev/null 2>e.err
is "$? $(grep -c '^arraybench: error: ' e.err)" "1 1" "an empty file: exit 1 with one error"

# Files that cannot be read.
"$AB" report missing.csv a.csv >m.out 2>m.err
is "$? $(grep -c '^phase ' m.out)" "0 1" "a missing file beside a good one: exit 0, the good run prints"
grep -q "^arraybench: warning: cannot read 'missing.csv': No such file or directory" m.err; ok $? "the warning names the missing file"
"$AB" report missing.csv >/dev/null 2>m.err
is "$? $(grep -c "^arraybench: warning: cannot read 'missing.csv'" m.err) $(grep -c '^arraybench: error: ' m.err)" \
	"1 1 1" "only a missing file: exit 1, its warning, one error"
"$AB" report "$d" a.csv >/dev/null 2>dir.err
is "$? $(grep -c "^arraybench: warning: cannot read '$d': it is a directory" dir.err)" "0 1" \
	"a directory is refused by name, the rest still read"
cp a.csv secret.csv
if is_root && id nobody >/dev/null 2>&1; then
	chmod 711 "$T"; chmod 600 secret.csv; chmod 644 a.csv
	abn=$(ab_for_others nobody)
	su nobody -s /bin/sh -c "cd '$T' && '$abn' report secret.csv a.csv" >u.out 2>u.err
	how="as nobody, root's mode-600 file"
else
	chmod 000 secret.csv
	"$AB" report secret.csv a.csv >u.out 2>u.err
	how="a mode-000 file"
fi
is "$? $(grep -c '^phase ' u.out)" "0 1" "$how beside a good one: exit 0, the good run prints"
grep -q "^arraybench: warning: cannot read 'secret.csv': Permission denied" u.err; ok $? "$how is named as unreadable"

# Usage errors.
"$AB" report --format bogus a.csv >/dev/null 2>f.err
is "$? $(grep -c '^arraybench: error: ' f.err)" "1 1" "--format bogus: exit 1, one error"
grep -q "^arraybench: error: invalid --format 'bogus': expected 'text', 'csv', 'json' or 'sweep-csv'" f.err; ok $? "naming 'bogus' and the formats"
"$AB" report >/dev/null 2>n.err
is "$? $(grep -c '^arraybench: error: .*no FILE' n.err)" "1 1" "no FILE: exit 1 saying so"

# Standard output that fails: the exit status run uses (5).
"$AB" report a.csv >/dev/full 2>full.err
is "$? $(grep -c '^arraybench: error: cannot write .*standard output: No space left on device' full.err)" "5 1" \
	"a full standard output: exit 5, saying so"
"$AB" report a.csv >&- 2>closed.err
is "$? $(grep -c '^arraybench: error: cannot write .*standard output' closed.err)" "5 1" \
	"a closed standard output: exit 5, saying so"

# Input that is no file of results must neither hang nor fill memory: a
# device is refused by name, a FIFO with no writer reads as empty, and a
# file or stream past the size limit is refused at it.
timeout $HANG_AFTER "$AB" report /dev/zero a.csv >z.out 2>z.err
is "$? $(grep -c '^phase ' z.out)" "0 1" "/dev/zero beside a good file: exit 0, the good run prints"
is "$(cat z.err)" "arraybench: warning: cannot read '/dev/zero': not a regular file" "/dev/zero is refused as not a regular file"
mkfifo nowriter
timeout $HANG_AFTER "$AB" report nowriter a.csv >/dev/null 2>fifo.err
is "$? $(cat fifo.err)" "0 " "a FIFO with no writer does not hang: it reads as empty"
"$AB" report <(cat a.csv) >/dev/null 2>ps.err
is "$? $(cat ps.err)" "0 " "a pipe with a writer (<(cat a.csv)) still reads"
truncate -s 2G huge.csv
timeout $HANG_AFTER "$AB" report huge.csv a.csv >/dev/null 2>huge.err
is "$? $(cat huge.err)" "0 arraybench: warning: cannot read 'huge.csv': 2147483648 bytes, more than the 64 MiB a file of results may hold" \
	"a 2 GB sparse file is refused by its size, unread"
# 64 MiB: a run holds some 25 times its CSV line in memory (250000 lines
# take 1.6 GB); JSON runs about twice their line.
truncate -s 65M big.csv
"$AB" report big.csv a.csv >/dev/null 2>big.err
is "$? $(cat big.err)" "0 arraybench: warning: cannot read 'big.csv': 68157440 bytes, more than the 64 MiB a file of results may hold" \
	"a file of 65 MiB is refused by its size"
timeout $HANG_AFTER "$AB" report - </dev/zero >/dev/null 2>zin.err
is "$? $(cat zin.err)" "1 arraybench: warning: cannot read '-': more than the 64 MiB a file of results may hold
arraybench: error: no run could be read from '-'" "/dev/zero on standard input is refused at 64 MiB"
"$AB" report - a.csv <&- >/dev/null 2>cin.err
is "$? $(cat cin.err)" "0 arraybench: warning: cannot read '-': standard input is closed" \
	"a closed standard input is named as closed, not read as empty"

# A machine name from JSON may hold anything; its CSV line stays one line
# of 50 fields that bon_csv2txt reads (a comma or newline becomes '_').
python3 -c 'import json, sys; o = json.loads(open(sys.argv[1]).readline()); o["environment"]["machine"] = "a,b\nc"; print(json.dumps(o))' a.json >comma.json
"$AB" report --format csv comma.json >comma.csv 2>/dev/null
is "$(awk -F, '{ print NF }' comma.csv | tr '\n' ' ')$(cut -d, -f3 comma.csv)" "50 a_b_c" \
	"a machine 'a,b<newline>c' from JSON: one 50-field CSV line, named a_b_c"
bon_csv2txt <comma.csv >/dev/null 2>b.err
is "$? $(cat b.err)" "0 " "which bon_csv2txt reads without complaint"

# '--' ends the options: a FILE may then start with '-'.
cp a.csv ./-dash.csv
"$AB" report -- -dash.csv >/dev/null 2>dash.err
is "$? $(cat dash.err)" "0 " "report -- -dash.csv reads -dash.csv, and '--' is no FILE"
done_testing
