#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What each run option does, seen in the CSV line, the JSON and the syscalls.
. "$(dirname "$0")/lib.sh"
d=$T/dir; mkdir "$d"
read -r -a cache <<<"$(cache_args)"

one_error() { # stderr-file text: one "arraybench: error:" line naming text (past any warning)
	local e; e=$(grep -v '^arraybench: warning: ' "$1")
	[ "$(echo "$e" | wc -l)" -eq 1 ] && echo "$e" | grep -q '^arraybench: error: ' &&
		echo "$e" | grep -qF -- "$2" && return 0
	sed 's/^/#   /' "$1"; return 1
}
empty_fields() { printf "%${1}s" "" | tr ' ' ,; } # N commas: N+1 empty CSV fields

# strace is the observer of the syscall checks: without it they fail
# (traced_whole), as a count of nothing would pass some of them.
have_strace() { command -v strace >/dev/null; }
have_strace || diag "strace is missing: the syscall checks fail (make deps installs it)"
traced() { # out-file syscalls command...: under strace when there is one
	local out=$1 calls=$2; shift 2
	rm -f "$out"
	if have_strace; then strace -f --seccomp-bpf -e trace="$calls" -o "$out" "$@"; else "$@"; fi
}

# -x 3 -z 77: three runs, three lines and objects, three seeds, the first 77.
"$AB" run -d "$d" -s 32m -n 0 -f "${cache[@]}" --phases block-write -x 3 -z 77 -q \
	--csv "$T/x.csv" --json "$T/x.json" >"$T/x.out" 2>/dev/null
is $? 0 "-x 3 exits 0"
is "$(grep -c '^1\.98,' "$T/x.out")" 3 "-x 3 prints three CSV lines"
is "$(wc -l <"$T/x.json")" 3 "-x 3 appends three JSON objects"
seeds=$(cut -d, -f5 "$T/x.out" | tr '\n' ' ')
is "$(js "$T/x.json" '" ".join(str(x["seed"]) for x in objs) + " "')" "$seeds" "CSV field 4 and JSON seed agree"
is "$(echo "$seeds" | tr ' ' '\n' | grep . | sort -u | wc -l)" 3 "the three runs have different seeds"
is "${seeds%% *}" 77 "-z 77 is the first run's seed"
is "$(js "$T/x.json" '[x["repeat"] for x in objs]')" "[1, 2, 3]" "JSON repeat counts 1 to 3"
is "$(cat "$T/x.csv")" "$(cat "$T/x.out")" "--csv gets the same three lines"

# -m NAME in CSV field 2 and the JSON; --csv appends.  -s 0: fields 5..20 empty.
for i in 1 2; do
	"$AB" run -d "$d" -s 0 -n 1 "${cache[@]}" -m box-one -q --csv "$T/m.csv" --json "$T/m.json" \
		>"$T/m.out" 2>/dev/null
done
is "$(wc -l <"$T/m.csv")" 2 "two runs with --csv FILE leave two lines in FILE"
is "$(cut -d, -f3 "$T/m.csv" | sort -u)" box-one "-m NAME is CSV field 2"
is "$(js "$T/m.json" 'o["environment"]["machine"]')" box-one "-m NAME is JSON environment.machine"
line_s0=$(tail -1 "$T/m.out")
is "$(echo "$line_s0" | cut -d, -f6-21)" "$(empty_fields 15)" "-s 0 -n 1: fields 5 to 20 are empty"
is "$(echo "$line_s0" | awk -F, '{print NF}')" 50 "-s 0 -n 1: 50 fields"

# -n 0: fields 21..37 empty.
"$AB" run -d "$d" -s 32m -f1 -n 0 "${cache[@]}" -q >"$T/n0.out" 2>/dev/null
line_n0=$(tail -1 "$T/n0.out")
is "$(echo "$line_n0" | cut -d, -f22-38)" "$(empty_fields 16)" "-n 0: fields 21 to 37 are empty"
is "$(echo "$line_n0" | awk -F, '{print NF}')" 50 "-n 0: 50 fields"
printf '%s\n%s\n' "$line_s0" "$line_n0" | bon_csv2txt >/dev/null 2>"$T/txt.err"
is "$(cat "$T/txt.err")" "" "bon_csv2txt takes both lines without a word on stderr"

# --phases block-read alone: the file is laid out untimed, only get_block is filled.
"$AB" run -d "$d" -s 32m -n 0 -f "${cache[@]}" --phases block-read -q --json "$T/br.json" \
	>"$T/br.out" 2>"$T/br.err"
is $? 0 "--phases block-read alone exits 0"
is "$(js "$T/br.json" '[p["name"] for p in o["phases"]]')" '["block-read"]' "the JSON has only block-read"
line=$(tail -1 "$T/br.out")
[ -n "$(echo "$line" | cut -d, -f18)" ] && [ "$(echo "$line" | cut -d, -f10-17,20-21)" = "$(empty_fields 9)" ]
ok $? "only the get_block fields of the I/O group are filled"
dir_is_empty "$d"; ok $? "nothing is left after block-read alone"

# --phases seq-stat alone: the files are created untimed.
"$AB" run -d "$d" -s 0 -n 1 "${cache[@]}" --phases seq-stat -q --json "$T/ss.json" >"$T/ss.out" 2>"$T/ss.err"
is $? 0 "--phases seq-stat alone exits 0"
is "$(js "$T/ss.json" '[p["name"] for p in o["phases"]]')" '["seq-stat"]' "the JSON has only seq-stat"
line=$(tail -1 "$T/ss.out")
[ -n "$(echo "$line" | cut -d, -f29)" ] && [ "$(echo "$line" | cut -d, -f27-28,31-38)" = "$(empty_fields 9)" ]
ok $? "only the seq_stat fields of the file group are filled"
dir_is_empty "$d"; ok $? "nothing is left after seq-stat alone"

# --direct: the block phases and seeks are direct, per-char is not.
"$AB" run -d "$d" -s 32m -f1 -n 0 "${cache[@]}" --direct -q --json "$T/dio.json" >/dev/null 2>"$T/dio.err"
is $? 0 "--direct exits 0"
is "$(js "$T/dio.json" '" ".join("%s=%s" % (p["name"], p["direct"]) for p in o["phases"])')" \
	"per-char-write=False block-write=True rewrite=True per-char-read=False block-read=True seeks=True" \
	"JSON direct is true for block-write, rewrite, block-read and seeks only"
# tmpfs takes O_DIRECT since Linux 6.6; ramfs never has.
if is_root && mkdir "$T/ram" && mount -t ramfs ramfs "$T/ram"; then
	cleanup_add "umount $T/ram"
	"$AB" run -d "$T/ram" -s 32m -n 0 -f "${cache[@]}" --direct -q >/dev/null 2>"$T/ram.err"
	is $? 2 "--direct on ramfs fails the phase: exit 2"
	one_error "$T/ram.err" O_DIRECT; ok $? "one error line naming O_DIRECT"
	dir_is_empty "$T/ram"; ok $? "nothing is left on the ramfs"
else
	skip "--direct on ramfs needs root"
fi

# -b: an fsync per block write.
for b in "" -b; do
	traced "$T/fsync$b" fsync "$AB" run -d "$d" -s 32m -n 0 -f "${cache[@]}" --phases block-write $b -q \
		--json "$T/sync$b.json" >/dev/null 2>&1
done
n=$(grep -c 'fsync(' "$T/fsync-b" 2>/dev/null)
traced_whole "$T/fsync-b" && [ "$n" -ge 4096 ]; ok $? "-b: $n fsyncs for 4096 chunks"
n=$(grep -c 'fsync(' "$T/fsync" 2>/dev/null)
traced_whole "$T/fsync" && [ "$n" -le 4 ]; ok $? "without -b: $n fsyncs"
is "$(js "$T/sync-b.json" 'o["phases"][0]["sync_mode"]')" "fsync-each-write+fsync-close-timed" \
	"-b shows in the JSON sync_mode"

# --per-char: the write syscalls, counted by the kernel's I/O accounting of the
# shell that reaped arraybench (strace over a million calls takes too long).
writes() { bash -c '"$@" >/dev/null 2>&1; sed -n "s/^syscw: //p" /proc/$$/io' _ "$@"; }
for m in syscall stdio; do
	w[${#w[@]}]=$(writes "$AB" run -d "$d" -s 32m -f1 -n 0 "${cache[@]}" --phases per-char-write \
		--per-char $m -q --json "$T/pc.json")
done
if [ -n "${w[0]}" ]; then
	[ "${w[0]}" -ge 1048576 ]; ok $? "--per-char syscall: ${w[0]} writes for 1 MiB, one per byte"
	[ "${w[1]}" -lt 10000 ]; ok $? "--per-char stdio: ${w[1]} writes for 1 MiB, buffered"
else
	skip "no /proc/PID/io"; skip "no /proc/PID/io"
fi
is "$(js "$T/pc.json" '" ".join(x["config"]["per_char_mode"] for x in objs)')" "syscall stdio" \
	"JSON per_char_mode says which"

# --data: what block-write hands to write(2), the first 64k of each 1m chunk,
# compressed.
compressed_pct() { # strace-file
	python3 - "$1" <<'PY'
import re, sys, zlib
data = b""
for line in open(sys.argv[1]):
    m = re.search(r'write\(\d+, "((?:\\x[0-9a-f]{2})*)"(?:\.\.\.)?, 1048576\)', line)
    if m:
        data += bytes.fromhex(m.group(1).replace("\\x", ""))
print(100 * len(zlib.compress(data, 1)) // len(data) if len(data) >= 32 * 65536 else "none")
PY
}
for k in zeros random; do
	run=("$AB" run -d "$d" -s 32m:1m -n 0 -f "${cache[@]}" --phases block-write --data "$k" -q --json "$T/data.json")
	rm -f "$T/data-$k"
	if have_strace; then
		strace -f --seccomp-bpf -e trace=write -s 65536 -xx -o "$T/data-$k" "${run[@]}"
	else
		"${run[@]}"
	fi >/dev/null 2>&1
done
traced_whole "$T/data-zeros" && pct=$(compressed_pct "$T/data-zeros") && [ "$pct" -le 5 ] 2>/dev/null
ok $? "--data zeros: the blocks compress to ${pct:-?}%"
pct=
traced_whole "$T/data-random" && pct=$(compressed_pct "$T/data-random") && [ "$pct" -ge 95 ] 2>/dev/null
ok $? "--data random: the blocks compress to ${pct:-?}%"
is "$(js "$T/data.json" '" ".join(x["config"]["data"] for x in objs)')" "zeros random" "JSON data says which"

# -u nobody: the workers run as nobody (the up-front check runs as root).
if is_root && id nobody >/dev/null 2>&1; then
	chmod 711 "$T"
	mkdir "$T/u-own" "$T/u-root"; chown nobody "$T/u-own"; chmod 700 "$T/u-own"; chmod 755 "$T/u-root"
	traced "$T/setuid" setuid "$AB" run -d "$T/u-own" -s 32m -n 0 -f "${cache[@]}" --phases block-write \
		-u nobody -q >/dev/null 2>"$T/u.err"
	st=$?
	is $st 0 "-u nobody in a directory only nobody may write: exit 0"
	[ $st = 0 ] || sed 's/^/#   /' "$T/u.err"
	traced_whole "$T/setuid" && grep -Eq "setuid\($(id -u nobody)\) += 0" "$T/setuid"
	ok $? "the workers switched to nobody"
	dir_is_empty "$T/u-own"; ok $? "nothing is left in nobody's directory"
	"$AB" run -d "$T/u-root" -s 32m -n 0 -f "${cache[@]}" --phases block-write -u nobody -q >/dev/null 2>"$T/u.err"
	is $? 1 "-u nobody in a root-only directory is refused before anything runs: exit 1"
	one_error "$T/u.err" "cannot write in '$T/u-root': Permission denied"; ok $? "one error line naming the user's problem"
	dir_is_empty "$T/u-root"; ok $? "nothing is left in the root-only directory"
else
	skip "-u needs root"
fi

# --cache: drop, none (with the warning) and cgroup, as recorded.
if is_root; then
	"$AB" run -d "$d" -s 32m -r 16 -n 0 -f --cache drop --phases block-read -q --json "$T/drop.json" \
		>/dev/null 2>/dev/null
	is $? 0 "--cache drop exits 0"
	is "$(js "$T/drop.json" 'o["cache"]["mode"]')" drop "JSON cache.mode is drop"
	# Cold where bonnie++ reads from disk, warm where it measures right
	# after create.
	"$AB" run -d "$d" -s 32m -r 16 -n 1 -f --cache drop -q --json "$T/drop.json" \
		--phases block-write,block-read,seq-create,seq-stat,seq-delete >"$T/drop.out" 2>&1
	is "$(js "$T/drop.json" '" ".join(p["name"] + "=" + p["cache_state"] for p in o["phases"])')" \
		"block-write=warm block-read=cold seq-create=warm seq-stat=warm seq-delete=warm" \
		"--cache drop: block-read cold, stat and delete warm, per phase in the JSON"
	# The phase table's rows (a rate's unit third), not the per-device
	# rows of the same names below it.
	is "$(awk '($1 == "seq-stat" || $1 == "block-read") && $3 ~ /\/s$/ {print $1, $6}' "$T/drop.out" | tr '\n' ' ')" \
		"block-read cold seq-stat warm " "the table's cache column says the same"
	# ext4 (and tmpfs) keep fresh metadata through a drop: --cold-metadata
	# on such a -d is refused, not claimed; without stat or delete it is moot.
	case $(stat -f -c %T "$d") in
	ext2/ext3 | tmpfs | ramfs)
		"$AB" run -d "$d" -s 0 -n 1 --cache drop --cold-metadata -q >/dev/null 2>"$T/cm.err"
		is "$? $(grep -c . "$T/cm.err") $(grep -c "cold-metadata cannot be honoured on '$d'" "$T/cm.err")" "1 1 1" \
			"--cold-metadata on an ext4 or tmpfs -d is refused in one line" ;;
	*) skip "DIR is not ext4 or tmpfs here" ;;
	esac
	"$AB" run -d "$d" -s 32m -r 16 -n 1 -f --cache drop --cold-metadata --phases block-read -q >/dev/null 2>&1
	is $? 0 "--cold-metadata with no stat or delete phase asks nothing"
else
	skip "--cache drop needs root"
fi
"$AB" run -d "$d" -s 32m -r 16 -n 1 --cache none --cold-metadata -q >/dev/null 2>"$T/cmn.err"
is "$? $(cat "$T/cmn.err")" "1 arraybench: error: --cold-metadata and --cache 'none' contradict each other: one evicts, the other never does" \
	"--cold-metadata with --cache none is bad input, in one line"
"$AB" run -d "$d" -s 32m -r 16 -n 0 -f --cache none --phases block-read -q --json "$T/none.json" \
	>/dev/null 2>"$T/none.err"
grep -q '^arraybench: warning: .*--cache none' "$T/none.err"; ok $? "--cache none -s 32m -r 16 warns on stderr"
is "$(js "$T/none.json" 'o["cache"]["controlled"]')" false "JSON cache.controlled is false"
# The twice-the-RAM rule is for phases that read the test file back: the
# file phases under --cache none with a small -s read none of it.
"$AB" run -d "$d" -s 64m -n 1 --cache none --phases seq-create,seq-stat,seq-delete -q --json "$T/files.json" \
	>/dev/null 2>"$T/files.err"
is "$?:$(grep -c '^arraybench: \(warning\|error\)' "$T/files.err")" "0:0" \
	"-s 64m --cache none with only the file phases runs, with no warning"
is "$(js "$T/files.json" 'o["cache"]["controlled"]')" true "... and its JSON has no cache warning"
"$AB" run -d "$d" -s 64m -n 1 --cache none --phases seq-create,block-read -q >/dev/null 2>"$T/fr.err"
is "$?:$(grep -c 'is less than twice the RAM' "$T/fr.err")" "1:1" "with block-read beside them it is refused"
if [ "${cache[1]}" = cgroup ]; then
	"$AB" run -d "$d" -s 32m -f1 -n 1 --cache cgroup -r 16 -q --json "$T/cg.json" >/dev/null 2>&1
	is "$(js "$T/cg.json" 'o["cache"]["controlled"]')" true "--cache cgroup: JSON cache.controlled is true"
	is "$(js "$T/cg.json" 'sorted(set(p["cache_mode"][:8] for p in o["phases"][:6])) + [len(o["phases"])]')" \
		'["cgroup-v", 12]' "each of the 6 I/O phases records a cgroup-v cache mode"
	is "$(js "$T/cg.json" '[p["cache_mode"].split(", ", 1)[1] for p in o["phases"][6:8]]')" \
		'["warm: file phases run outside the group", "warm: right after create, as bonnie++ measures it"]' \
		"the file phases record that they ran outside the cgroup, stat warm after create"
	is "$(js "$T/cg.json" '[(p["name"], "one pass outside the group" in p["cache_mode"] or "goes through it once, outside the group" in p["cache_mode"]) for p in o["phases"][:6]]')" \
		'[["per-char-write", true], ["block-write", true], ["rewrite", true], ["per-char-read", true], ["block-read", true], ["seeks", false]]' \
		"the one-pass I/O phases record that they ran outside the group, the seeks that they ran in it"
	# The default -n 16 under a 16 MiB cgroup used to be OOM-killed (inodes are
	# charged to the group); the file phases now run outside it.
	"$AB" run -d "$d" -s 32m -f -n 16 --cache cgroup -r 16 -q >/dev/null 2>"$T/cg16.err"
	is $? 0 "-n 16 under --cache cgroup -r 16 is not OOM-killed"
	# tmpfs pages cannot be reclaimed: the cgroup's OOM killer is named.
	# (The seeks' file is laid out in the group; block write, one pass,
	# runs outside it and writes the whole 64 MiB to the tmpfs.)
	mkdir "$T/tmpfs"; mount -t tmpfs -o size=100m tmpfs "$T/tmpfs"; cleanup_add "umount $T/tmpfs"
	"$AB" run -d "$T/tmpfs" -s 64m -f -n 0 --cache cgroup -r 16 --phases seeks -q >/dev/null 2>"$T/oom.err"
	is $? 2 "a worker OOM-killed in the cgroup fails the phase with exit 2"
	one_error "$T/oom.err" "out-of-memory killer"; ok $? "and the one error line names the OOM killer and -r"
	dir_is_empty "$T/tmpfs"; ok $? "nothing is left on the tmpfs"
else
	skip "no memory cgroup"
fi
# Steps, not a mask: --phases runs in the order given, and a phase named
# twice runs twice, each pass its own result with its own key.
"$AB" run -d "$d" -s 32m -n 0 -f "${cache[@]}" --phases block-write,block-read,block-read \
	--json "$T/twice.json" >"$T/twice.out" 2>"$T/twice.err"
is $? 0 "--phases block-write,block-read,block-read exits 0"
is "$(js "$T/twice.json" '",".join(p["name"] + "/" + str(p["key"]["pass"]) for p in o["phases"])')" \
	"block-write/1,block-read/1,block-read/2" "the JSON has both reads, keyed pass 1 and pass 2"
grep -Eq '^block-read#2 +[0-9.]+ KiB/s' "$T/twice.out"; ok $? "the table shows the second read as block-read#2"
is "$(grep -c '^1\.98,' "$T/twice.out")" 1 "one CSV line, its get_block column from the first read"
"$AB" run -d "$d" -s 32m -n 0 -f "${cache[@]}" --phases block-read,block-write --json "$T/order.json" \
	>/dev/null 2>&1
is "$(js "$T/order.json" '",".join(p["name"] + ":" + str(p["laid_out_untimed"]) for p in o["phases"])')" \
	"block-read:True,block-write:False" "phases run in the order given: the read first, on a laid-out file"
"$AB" run -d "$d" -s 0 -n 1 "${cache[@]}" --phases seq-create,seq-create,seq-delete >/dev/null 2>"$T/cc.err"
is $? 0 "a create named twice starts again from no files"
# One file set is on disk at a time: a stat of the other order's set gets
# its own files (rand-stat failed on a name the dropped seq set shared).
"$AB" run -d "$d" -s 0 -n 1 "${cache[@]}" --phases seq-create,rand-create,seq-stat,rand-stat,seq-delete \
	>/dev/null 2>"$T/mix.err"
is $? 0 "seq-create,rand-create,seq-stat,rand-stat,seq-delete runs" || sed 's/^/#   /' "$T/mix.err"
# A directory name that is not UTF-8 (Latin-1 "caf\xe9"): taken as bytes,
# and the JSON stays valid (U+FFFD in its place).
lat=$T/caf$(printf '\xe9'); mkdir "$lat"
"$AB" run -d "$lat" -s 0 -n 1 "${cache[@]}" --phases seq-create --json "$T/lat.json" -q >/dev/null 2>"$T/lat.err"
is $? 0 "-d with a Latin-1 byte in its name runs" || sed 's/^/#   /' "$T/lat.err"
is "$(js "$T/lat.json" 'o["config"]["dir"].endswith("caf\ufffd")')" true "and its JSON is valid UTF-8, the byte shown as U+FFFD"
# What the page cache held of the test file as each read phase began
# (mincore): all of it under --cache none, none of it once made cold.
warm_run '"$AB" run -d "$d" -s 32m -n 0 -f --cache none -r 0 --phases block-write,block-read --json "$T/res-none.json" \
	-q >/dev/null 2>&1' "$T/res-none.json"
is "$(js "$T/res-none.json" '[p["resident_at_start"] is None or p["resident_at_start"] > 0.9 for p in o["phases"]]')" \
	"[true, true]" "--cache none: block-read began with the whole file cached (write: not measured)"
"$AB" run -d "$d" -s 32m -n 0 -f --cache fadvise -r 0 --phases block-write,rewrite,block-read,seeks --seeks 500 \
	--json "$T/res-cold.json" -q >/dev/null 2>&1
is "$(js "$T/res-cold.json" '[p["resident_at_start"] for p in o["phases"][1:]]')" "[0.0, 0.0, 0.0]" \
	"cold phases (rewrite, block-read, seeks) began with none of the file cached"
is "$(js "$T/res-cold.json" 'o["phases"][0]["resident_at_start"]')" null "a write phase has no resident_at_start"
dir_is_empty "$d"; ok $? "nothing is left in DIR"
done_testing
