#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What a matrix says is what it ran (issue 20): every cell goes through
# run's checks before the first visit (a bad level, too few members, md on
# a kernel without it: refused with file:line, dry run too).  These checks
# need no root; a real start needs root.
. "$(dirname "$0")/lib.sh"
plan 14
export ARRAYBENCH_STATE_DIR=$T/state TMPDIR=$T/tmp
mkdir -p "$TMPDIR"

# --- Item 4: refused up front, naming the levels line (3), before any visit.
bad() { # name loop levels [fs]: a matrix file whose levels line is line 3
	printf '[matrix]\nloop = %s\nlevels = %s\n%srepeats = 1\noptions = -s 64m -n 1 -f -r 32 --cache fadvise\n' \
		"$2" "$3" "${4:+fs = $4
}" >"$T/$1.ini"
}
bad raid7 2:320m btrfs:raid7
bad raid1-one 1:320m btrfs:raid1
bad raid6-two 2:320m btrfs:raid6
bad md5-one 1:320m mdadm:raid5 ext4
bad md-none 2:320m mdadm:raid1 ext4
refused() { # name status message-part: --dry-run refuses it in one line naming FILE:3
	"$AB" matrix --dry-run "$T/$1.ini" >"$T/$1.out" 2>"$T/$1.err"
	local st=$?
	is "$st $(wc -l <"$T/$1.err") $(wc -c <"$T/$1.out")" "$2 1 0" "--dry-run of $1: exit $2, one line, no plan"
	grep -q "^arraybench: error: $T/$1.ini:3: cell '.*': .*$3" "$T/$1.err"
	ok $? "naming $1.ini:3 (the levels line) and why" || sed 's/^/#   /' "$T/$1.err"
}
refused raid7 1 "invalid --array 'raid7' for the btrfs backend"
refused raid1-one 1 "too few devices for btrfs profile 'raid1': got '1', need at least 2"
refused raid6-two 1 "too few devices for btrfs profile 'raid6': got '2', need at least 3"
refused md5-one 1 "too few devices for RAID level 5: got '1', need at least 3"
if [ -e /proc/mdstat ]; then
	skip "this kernel has md: an md level is no error"; skip "(the same)"
else
	refused md-none 3 "md RAID is not in this kernel"
fi
# Started for real (root: the cells build targets), nothing is made either.
if is_root; then
	for b in raid7 raid1-one raid6-two md5-one; do
		"$AB" matrix -o "$T/o-$b" "$T/$b.ini" >/dev/null 2>&1
		is "$? $(ls -d "$T/o-$b" 2>/dev/null)" "1 " "a start of $b: exit 1, no results directory made"
	done
else
	for i in 1 2 3 4; do skip "a matrix starts as root only"; done
fi
