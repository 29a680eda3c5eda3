#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A root as bare as a fresh chroot's or container's, which has no /etc/mtab:
# every line arraybench writes on stderr is still its own, none a library's
# (libgtop's mount list printed a warning there, breaking "one error line").
# /etc/mtab goes missing in a private mount namespace, over a copy of /etc,
# so the host's stays.  Root only.
. "$(dirname "$0")/lib.sh"
is_root || skip_all "a private mount namespace needs root"
# A private namespace makes / private first, so / must be a mount point (in
# a plain chroot it is not, and a mount could then reach the host's table).
if need mountpoint && ! mountpoint -q /; then
	skip_all "/ is not a mount point here (a plain chroot): no private mount namespace"
fi
d=$T/dir; mkdir "$d"
read -r -a cache <<<"$(cache_args)"

cp -a /etc "$T/etc" && rm -f "$T/etc/mtab"
ok $? "a copy of /etc without mtab"
bare() { # command...: run where /etc has no mtab; 125/126 if that could not be made so
	unshare -m --propagation private sh -c \
		'mount --bind "$0" /etc || exit 125; [ -e /etc/mtab ] && exit 126; exec "$@"' "$T/etc" "$@"
}
bare test ! -e /etc/mtab
ok $? "in the namespace /etc/mtab is missing (unshare and mount work)"

own_lines() { # stderr-file: every line is arraybench's own
	! grep -v '^arraybench: ' "$1" >"$T/stray" || { sed 's/^/#   stray: /' "$T/stray"; return 1; }
}

bare "$AB" run -d "$d" -s 32m -n 1 -f "${cache[@]}" --json "$T/r.json" >"$T/out" 2>"$T/err"
is $? 0 "a run without /etc/mtab exits 0"
own_lines "$T/err"; ok $? "and every line on its stderr is arraybench's"
is "$(python3 -c "import json;print(json.load(open('$T/r.json'))['environment']['fs_type'] != 'unknown')")" True \
	"the JSON still names the file system type (from /proc/self/mountinfo)"
# An error after the run has looked at the mount table: results that
# cannot be written (exit 5).
bare "$AB" run -d "$d" -s 32m -n 0 -f "${cache[@]}" --phases block-write --csv /dev/full >/dev/null 2>"$T/err"
is $? 5 "a run whose results cannot be written exits 5"
own_lines "$T/err" && [ "$(grep -c '^arraybench: error: ' "$T/err")" = 1 ]
ok $? "with one error line and nothing but arraybench's own lines"
done_testing
