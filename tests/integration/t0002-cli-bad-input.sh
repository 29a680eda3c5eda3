#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input: one line naming the bad value, exit status 1 (3 for missing
# resources, 2 for a phase that failed), nothing left behind.
. "$(dirname "$0")/lib.sh"
d=$T/dir; mkdir "$d"
read -r -a cache <<<"$(cache_args)"

bad() { # want-status want-text args...
	local want=$1 text=$2; shift 2
	"$AB" run "$@" >"$T/out" 2>"$T/err"
	local st=$?
	is "$st" "$want" "exit $want for: $*"
	if [ "$(wc -l <"$T/err")" -eq 1 ] && grep -qF -- "$text" "$T/err" && grep -q '^arraybench: error: ' "$T/err"; then
		ok 0 "one error line naming '$text'"
	else
		ok 1 "one error line naming '$text'"; sed 's/^/#   /' "$T/err"
	fi
}

bad 1 "'12q'" -d "$d" -s 12q
bad 1 "'-5'" -d "$d" -s -5
bad 1 "'3000'" -d "$d" -s 64m:3000
bad 1 "'abc'" -d "$d" -n abc
bad 1 "'0'" -d "$d" -s 64m --seekers 0
bad 1 "'bogus'" -d "$d" --phases bogus
bad 1 "invalid phase ''" -d "$d" --phases seeks,,block-read
bad 1 "invalid phase ' block-read'" -d "$d" --phases "seeks, block-read"
# 257 steps: the count is named, not the whole list (a line of kilobytes).
bad 1 "257 steps, more than 256" -d "$d" -s 32m --phases "$(yes seeks | head -257 | paste -sd,)"
[ "$(wc -c <"$T/err")" -lt 200 ]; ok $? "and that line is short"
bad 1 "264 steps ('all' is 12), more than 256" -d "$d" -s 32m --phases "$(yes all | head -22 | paste -sd,)"
bad 1 "'a,b'" -d "$d" -m a,b
bad 1 "'$T/missing'" -d "$T/missing" -s 32m "${cache[@]}"
bad 1 "'maybe'" -d "$d" --cache maybe
bad 1 "missing -d" -s 32m
bad 1 "'extra'" -d "$d" extra
# A value with a newline still makes one error line.
"$AB" run -d "$d" -m "$(printf 'a\nb')" >/dev/null 2>"$T/err"
is $? 1 "exit 1 for a machine name holding a newline"
[ "$(wc -l <"$T/err")" -eq 1 ] && grep -qF "'a\nb'" "$T/err"; ok $? "one error line, the newline spelled out"
# Target options without a target are refused, not ignored.
bad 1 "--chunk needs a target to build" -d "$d" --chunk 64k
bad 1 "--yes-destroy needs a target to build" -d "$d" --yes-destroy /dev/null
bad 1 "--images-in-ram needs --loop" -d "$d" --images-in-ram
bad 1 "invalid '--direct=no': --direct takes no value" -d "$d" --direct=no

if is_root; then
	mkdir "$T/ro"; mount -t tmpfs -o ro,size=1m tmpfs "$T/ro"; cleanup_add "umount $T/ro"
	bad 1 "'$T/ro'" -d "$T/ro" -s 32m "${cache[@]}"
	make_loop_fs "$T/small" 24 -N 2000; ok $? "a 24 MiB ext4 with 2000 inodes is mounted"
	# The I/O file does not fit: refused before anything is written.
	bad 3 "not enough space in '$T/small'" -d "$T/small" -s 64m -n 0 "${cache[@]}"
	# The file system has 2000 inodes: creating 4096 files runs out mid-phase.
	"$AB" run -d "$T/small" -s 0 -n 4 "${cache[@]}" -q >"$T/out" 2>"$T/err"
	is $? 2 "a full file system fails the phase with exit 2"
	grep -q "No space left on device" "$T/err"; ok $? "and says the disk is full"
	is "$(grep -c '^1.98' "$T/out")" 0 "no partial CSV line is shown"
	is "$(ls -A "$T/small" | grep -v lost+found)" "" "nothing is left on the full file system"
else
	chmod 555 "$d"
	bad 1 "'$d'" -d "$d" -s 32m "${cache[@]}"
	chmod 755 "$d"
	skip "full file system test needs root (loop device)"
fi
# A bad value of a megabyte is not echoed whole: the error is cut at 4 KiB.
{ printf '[matrix]\nloop = 1:64m\nfs = '; head -c 900000 /dev/zero | tr '\0' x; printf '\n'; } >"$T/long.ini"
"$AB" matrix "$T/long.ini" --dry-run >/dev/null 2>"$T/long.err"
is "$? $(wc -l <"$T/long.err") $(($(wc -c <"$T/long.err") < 4300))" "1 1 1" "a 900 KB bad value: exit 1, one line under 4300 bytes"
grep -q '\.\.\. ([0-9]* more bytes)$' "$T/long.err"; ok $? "... saying how much was cut"
# The matrix's own numbers: decimal only (strtod took 0x10 as 16 %).
printf '[matrix]\nloop = 1:64m\nfs = ext4\nrepeats = 1\noptions = -s 8m -n 0 -f --phases block-write -r 0 --cache none\n' >"$T/m.ini"
for v in 0x10 1e1 " 5" "5 " +5 "5%%" 1e-300; do
	"$AB" matrix --dry-run --repeat-until "$v" "$T/m.ini" >/dev/null 2>"$T/err"
	is "$? $(cat "$T/err")" "1 arraybench: error: invalid --repeat-until '$v': a coefficient of variation in percent, above 0 and at most 100 (5 or 5%)" \
		"matrix --repeat-until '$v': exit 1, one line naming it"
done
"$AB" matrix --dry-run --repeat-until 2.5% "$T/m.ini" >/dev/null 2>"$T/err"; ok $? "--repeat-until 2.5% is one"
for v in 0x3 " 3" +3 99999999999999999999; do
	"$AB" matrix --dry-run --repeat-until 5 --max-repeats "$v" "$T/m.ini" >/dev/null 2>"$T/err"
	is "$? $(cat "$T/err")" "1 arraybench: error: invalid --max-repeats '$v': a whole number from 1 to 1000" \
		"matrix --max-repeats '$v': exit 1, one line naming it"
done
# Standard output closed (>&-): what a command prints there is lost, so it
# exits 5 (list, --version and every --help exited 0).
for args in "list" "--version" "run --help" "report --help"; do
	# shellcheck disable=SC2086 # the words of args
	"$AB" $args >&- 2>"$T/err"
	is "$? $(cat "$T/err")" "5 arraybench: error: cannot write to standard output: it was closed" \
		"arraybench $args with standard output closed: exit 5, one line"
done
# The memory group must hold the workers' buffers twice over: 64 seekers
# of 1 MiB chunks at -r 16 is refused naming the -r they need.
if [ "${cache[0]}" = "--cache" ] && [ "${cache[1]}" = cgroup ]; then
	bad 1 "invalid -r '16': phase 'seeks' holds 68.0 MiB of buffers in the memory group" \
		-d "$d" -s 64m:1m:8192:64 -r 16 --cache cgroup --phases block-write,seeks
	grep -qF "give -r 136 or more" "$T/err"; ok $? "the refusal names the -r that fits"
else
	skip "no memory cgroup here (root, cgroup v1 memory or v2 with it): --cache cgroup's room is not checked"
	skip "no memory cgroup here: --cache cgroup's room is not checked"
	skip "no memory cgroup here: --cache cgroup's room is not checked"
fi
dir_is_empty "$d"; ok $? "nothing is left in DIR"
done_testing
