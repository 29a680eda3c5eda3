#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# arraybench raw on loop devices of images made here: read rate and JSON
# read back, the write refusals (unconfirmed, mounted) with the data
# checked untouched, hostile values, outputs that fail, SIGINT, no root.
# Root only.
. "$(dirname "$0")/lib.sh"
is_root && [ -e /dev/loop-control ] || skip_all "raw devices need root and loop devices"

attach() { # var image size: a loop device on a new image in $var, detached on exit
	truncate -s "$3" "$T/$2" || return 1
	local dev
	dev=$(losetup --find --show "$T/$2") || return 1
	cleanup_add "losetup -d $dev" # here, not in a $(...) subshell, or it is lost
	printf -v "$1" %s "$dev"
}
sum() { cksum <"$1" | cut -d' ' -f1; }
py() { python3 -c "import json,sys; o=[json.loads(l) for l in open('$1')][-1]; $2"; }

attach a a.img 64M && attach b b.img 32M
ok $? "two loop devices attached"

# Reading: a sane rate, one row per device, the JSON read back as the same table.
"$AB" raw --device "$a" --device "$b" --json "$T/r.json" >"$T/r.out" 2>"$T/r.err"
is $? 0 "raw read of two loop devices exits 0"
is "$(grep -c '^raw-read /dev/loop.* KiB/s' "$T/r.out")" 2 "the table has a raw-read row naming each device"
is "$(py "$T/r.json" "print(' '.join('%s:%s:%d:%d' % (p['name'], p['key']['test'], p['bytes'], p['ops']) for p in o['phases']))")" \
	"raw-read:$a:67108864:16 raw-read:$b:33554432:8" "JSON: each device's phase, bytes and 4 MiB transfers"
is "$(py "$T/r.json" "p=o['phases'][0]; print(p['direct'], p['cache_state'], 1000 < p['rate'] < 100e6, p['latency_ns']['samples'], o['target']['backend'])")" \
	"True bypassed (O_DIRECT) True 16 raw" "JSON: direct, bypassed, a sane rate in KiB/s, a latency sample per transfer"
is "$(py "$T/r.json" "d=o['phases'][0]['devices'][0]; print(d['name'] == '${a#/dev/}', d['read_bytes'] >= 64 << 20)")" "True True" \
	"the device's own counters show the bytes read"
"$AB" report "$T/r.json" >"$T/rep.out" 2>"$T/rep.err"
is $? 0 "report reads the raw run back"
is "$(cat "$T/rep.out")" "$(cat "$T/r.out")" "report of the JSON shows the same table"
"$AB" report --format json "$T/r.json" >"$T/r2.json"
is "$(cat "$T/r2.json")" "$(cat "$T/r.json")" "the JSON line writes back byte-identical"
[ ! -s "$T/r.err" ]; ok $? "nothing on stderr for unused devices"

# --bytes and --block-size shape the cell; --bytes beyond the device stops at its end.
"$AB" raw --device "$a" --bytes 8m --block-size 1m --json "$T/s.json" >/dev/null 2>&1
is "$(py "$T/s.json" "p=o['phases'][0]; print(p['bytes'], p['ops'], p['key']['record_size_bytes'])")" "8388608 8 1048576" \
	"--bytes 8m --block-size 1m reads 8 transfers of 1 MiB"
"$AB" raw --device "$b" --bytes 1t --json "$T/t.json" >/dev/null 2>&1
is "$(py "$T/t.json" "print(o['phases'][0]['bytes'])")" 33554432 "--bytes past the device's end reads the device"

# Writing a device with a file system, unconfirmed: refused, data untouched.
mkfs.ext4 -q -F "$a" && before=$(sum "$a")
ok $? "ext4 made on the first device"
"$AB" raw --device "$a" --write >"$T/w.out" 2>"$T/w.err"
is $? 4 "raw --write of an unconfirmed device exits 4"
is "$(wc -l <"$T/w.err")" 1 "in one line"
grep -q "'$a'" "$T/w.err"; ok $? "naming the device"
is "$(sum "$a")" "$before" "its data are untouched"
# A signature-less device is refused unconfirmed too (stricter than run).
before_b=$(sum "$b")
"$AB" raw --device "$b" --write >/dev/null 2>"$T/wb.err"
is $? 4 "raw --write of an unconfirmed device with no signature exits 4"
is "$(sum "$b")" "$before_b" "and leaves it untouched"
"$AB" raw --device "$b" --device "$a" --write --yes-destroy "$b" >/dev/null 2>"$T/wab.err"
is "$? $(sum "$b") $(sum "$a")" "4 $before_b $before" "confirming one of two writes neither"

# Confirmed: it writes.
"$AB" raw --device "$a" --write --yes-destroy "$a" --json "$T/w.json" >"$T/w.out" 2>"$T/w.err"
is $? 0 "raw --write --yes-destroy exits 0"
[ "$(sum "$a")" != "$before" ]; ok $? "the device was written"
is "$(py "$T/w.json" "print(' '.join(p['name'] for p in o['phases']), o['phases'][1]['bytes'], o['phases'][1]['sync_mode'], o['config']['data'])")" \
	"raw-read raw-write 67108864 fdatasync-timed random" "JSON: a read then a write row, the whole range, fdatasync timed, random data"
blkid -p "$a" >/dev/null 2>&1; is $? 2 "no signature is left on it (random data from byte 0)"

# Mounted: refused for writing even when confirmed; read with a warning.
mkfs.ext4 -q -F "$a" && mkdir -p "$T/mnt" && mount "$a" "$T/mnt" && cleanup_add "umount $T/mnt"
ok $? "the first device mounted"
before=$(sum "$a")
"$AB" raw --device "$a" --write --yes-destroy "$a" >/dev/null 2>"$T/m.err"
is $? 4 "raw --write of a mounted device exits 4 even with --yes-destroy"
grep -q "refusing '$a': it is mounted" "$T/m.err"; ok $? "saying it is mounted"
"$AB" raw --device "$a" --bytes 8m >/dev/null 2>"$T/mr.err"
is $? 0 "a mounted device is still read"
grep -q "warning: '$a' is in use (it is mounted at" "$T/mr.err"; ok $? "with a warning saying it is mounted"
umount "$T/mnt"

# Not a block device, or a bad value: exit 1 naming it.
: >"$T/file"; ln -s "$T/file" "$T/link"; ln -s "$a" "$T/dev-link"
for bad in "$T/file" "$T/nowhere" "$T/link" "$T"; do
	"$AB" raw --device "$bad" >/dev/null 2>"$T/bad.err"
	is "$? $(grep -c "'$bad'" "$T/bad.err")" "1 1" "--device $(basename "$bad") exits 1 naming it"
done
"$AB" raw --device "$a" --device "$T/dev-link" >/dev/null 2>"$T/twice.err"
is "$? $(grep -c "named twice" "$T/twice.err")" "1 1" "the same device under two names exits 1"
for opt in "--bytes 0" "--block-size 3" "--block-size 1g" "--seconds -1" "--yes-destroy $a"; do
	"$AB" raw --device "$b" $opt >/dev/null 2>"$T/opt.err"
	is "$? $(wc -l <"$T/opt.err")" "1 1" "raw $opt exits 1 with one line"
done
"$AB" run -d "$T" --phases raw-read >/dev/null 2>"$T/ph.err"
is "$? $(grep -c "arraybench raw" "$T/ph.err")" "1 1" "run --phases raw-read exits 1, pointing to raw"

# Outputs that fail: exit 5.
"$AB" raw --device "$b" >/dev/full 2>"$T/full.err"
is "$? $(grep -c 'cannot write' "$T/full.err")" "5 1" "standard output full exits 5"
"$AB" raw --device "$b" --json "$T/c.json" >&- 2>"$T/closed.err"
is "$? $(grep -c "whole in '$T/c.json'" "$T/closed.err")" "5 1" "standard output closed exits 5, naming the JSON that holds it"

# A time cap and SIGINT on a big sparse device read in small blocks.
attach c c.img 8G
"$AB" raw --device "$c" --bytes all --block-size 4k --seconds 1 --json "$T/cap.json" >/dev/null 2>&1
is "$(py "$T/cap.json" "p=o['phases'][0]; print(1 <= p['elapsed_s'] < 3, p['bytes'] < 8 << 30)")" "True True" \
	"--seconds 1 stops the read after about a second"
# (held after its first read, signalled there, then let go: the read of
# 8G would otherwise race the signal)
hold "$T/int.trace" exit pread64 1 "$c" "$AB" raw --device "$c" --bytes all --block-size 4k --seconds 0 >"$T/int.out" 2>"$T/int.err"
hold_reached && kill -INT $held
hold_release
wait $held
is "$? $(wc -c <"$T/int.out")" "130 0" "SIGINT stops it: exit 130, no result" || sed "s/^/#   /" "$T/int.err"

# run --raw-baseline: the members read raw before mkfs, their rows in every
# run, and the efficiency lines.
"$AB" run -d "$T" --raw-baseline -s 32m -r 16 -f -n 0 >/dev/null 2>"$T/rbd.err"
is "$? $(grep -c -- '--raw-baseline needs a target' "$T/rbd.err")" "1 1" "run -d --raw-baseline exits 1: no target to build"
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
"$AB" run --loop 2:300m --array raid1 --fs btrfs --raw-baseline -s 32m -r 16 --cache none -n 0 -f -x 2 \
	--json "$T/rb.json" >"$T/rb.out" 2>"$T/rb.err"
is $? 0 "run --loop 2 --array raid1 --raw-baseline -x 2 exits 0"
is "$(python3 -c "
import json
for l in open('$T/rb.json'):
    o = json.loads(l); p = o['phases']
    print(' '.join(x['name'] for x in p[:3]), p[0]['key']['test'] == o['target']['members'][0], p[1]['key']['test'] == o['target']['members'][1], p[0]['bytes'])")" \
	"raw-read raw-read block-write True True 314572800
raw-read raw-read block-write True True 314572800" "each repeat's JSON starts with a raw-read of each member, the whole 300m"
is "$(grep -c '^efficiency: btrfs raid1 of 2' "$T/rb.out")" 2 "each repeat's table states the efficiency"
is "$(grep -c '^WARNING     the members are sparse --loop images' "$T/rb.out")" 2 \
	"... and warns that sparse images' raw reads say nothing of the disk"
grep -Eq '^  block-read +[0-9]+ of +[0-9]+ KiB/s +[0-9.]+%' "$T/rb.out"; ok $? "with block-read's share of the members' raw reads"
unset TMPDIR

# No permission: exit 3.
if command -v setpriv >/dev/null; then
	cp "$AB" "$T/ab" && chmod 755 "$T" "$T/ab"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$T/ab" raw --device "$b" >/dev/null 2>"$T/np.err"
	is "$? $(grep -c "'$b'" "$T/np.err")" "3 1" "a user who may not open the device gets exit 3 naming it"
else
	skip "setpriv is missing"
fi
done_testing
