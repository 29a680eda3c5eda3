# SPDX-License-Identifier: GPL-2.0-or-later
# bench/lib.sh: what the bench scripts share, sourced after they set prog
# (their name, which every message starts with).  compare.sh and
# compare-sweep.sh use all of it (a work directory with the image, a copy of
# arraybench, one test directory, a teardown that leaves nothing of theirs
# behind); compare-oltp.sh and compare-sweep-pairs.sh the messages, log and
# bench_fio.  Nothing here changes what a script measures or prints.

# The script's "# Options" block of its header, as -h prints it.
usage() { sed -n '/^# Options/,/^#   -h/p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "$prog: $*" >&2; exit 3; }  # set-up failed
bad() { echo "$prog: $*" >&2; exit 2; }  # bad usage or a missing tool

# getopts' other answers: -h (the usage), an option without its value, one
# the script does not know.
bench_other_option() {
	case $1 in
	h) usage; exit 0 ;;
	:) bad "option -$OPTARG needs a value (-h for help)" ;;
	*) bad "unknown option -$OPTARG (-h for help)" ;;
	esac
}
bench_no_operands() { [ $# -eq 0 ] || bad "unexpected argument '$1' (-h for help)"; }

# A line of the run's log, on stderr and in $out/log.txt.
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" | tee -a "$out/log.txt" >&2; }

# fio in a directory of the run's own: fio writes an exec_prerun's output to
# NAME.prerun.txt in its working directory, which was the caller's (two such
# files were once committed at the repository's root).  BENCH_FIO_DIR, else
# $work.
bench_fio() { (cd "${BENCH_FIO_DIR:-$work}" && exec fio "$@"); }

# ---- the work directory and its teardown ----------------------------------
# work: the image, the mount point, the copy of arraybench and the helper;
# out: the outputs (-o DIR, kept, or $work/out); dev, img, mnt: the loop
# device, its image and mount point; cg: a memory cgroup made for a tool's
# run (compare.sh); child: the tool running now.
work="" dev="" img="" mnt="" cg="" out="" child=""
bench_cleanup() {
	local st=$? p
	trap - EXIT INT TERM HUP
	set +e
	if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
		# The tool running now (arraybench removes its own file and
		# cgroup on TERM).
		kill -TERM "$child" 2>/dev/null
		for _ in $(seq 60); do kill -0 "$child" 2>/dev/null || break; sleep 0.5; done
		kill -KILL "$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		# Only tools this script started live here.
		while read -r p; do kill -TERM "$p" 2>/dev/null; done <"$cg/cgroup.procs"
		for _ in 1 2 3 4 5 6 7 8 9 10; do [ -z "$(cat "$cg/cgroup.procs" 2>/dev/null)" ] && break; sleep 0.5; done
		while read -r p; do kill -KILL "$p" 2>/dev/null; done <"$cg/cgroup.procs"
	fi
	if [ -n "$mnt" ] && mountpoint -q "$mnt"; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do umount "$mnt" 2>/dev/null && break; sleep 1; done
		mountpoint -q "$mnt" && echo "$prog: warning: could not unmount $mnt" >&3
	fi
	if [ -n "$dev" ]; then
		# Only while it is still the device of our image: never another's.
		local back
		back=$(cat "/sys/block/${dev#/dev/}/loop/backing_file" 2>/dev/null)
		if [ "$back" = "$img" ]; then
			losetup -d "$dev" 2>&1 | sed "s|^|$prog: warning: detaching $dev: |" >&3
		else
			echo "$prog: warning: $dev no longer holds $img (it holds '${back:-nothing}'): left alone" >&3
		fi
	fi
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg" 2>/dev/null && break; sleep 0.5; done
		[ -d "$cg" ] && echo "$prog: warning: could not remove cgroup $cg" >&3
	fi
	if [ -n "$mnt" ] && mountpoint -q "$mnt"; then
		echo "$prog: left $work in place (still mounted)" >&3
	elif [ -n "$work" ] && [ -d "$work" ]; then
		rm -f "$work/disk.img" "$work/helper.py" "$work/rounds.py" "$work/arraybench" "$work/arraybench-old"
		rm -rf "$work/fiocwd" "$work/variants"
		rm -f "$work"/*.prerun.txt
		rmdir "$work/mnt" 2>/dev/null
		if [ -n "$keep" ]; then
			rmdir "$work" 2>/dev/null
		else
			rm -rf "$work"
		fi
	fi
	exit "$st"
}

# Makes $work under $workdir and $out (-o DIR, else $work/out), and sets the
# traps that tear everything down on exit, error, Ctrl-C, TERM or HUP.
bench_work_dirs() {
	exec 3>&2 # the traps may run while a tool's stderr is redirected
	trap bench_cleanup EXIT
	trap 'echo "$prog: interrupted" >&3; exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	work=$(mktemp -d "$workdir/abcompare.XXXXXX") || die "cannot create a directory in $workdir"
	if [ -n "$keep" ]; then
		mkdir -p "$keep" || die "cannot create '$keep'"
		out=$(cd "$keep" && pwd)
	else
		out=$work/out
		mkdir "$out"
	fi
}

# One binary for the whole run, even if the tree is rebuilt meanwhile: $ab
# copied into $work (src_ab: where it came from; ab_rev: its commit, with
# "+changes" when the tree differs from it).
bench_copy_arraybench() {
	src_ab=$ab
	cp "$ab" "$work/arraybench" || die "cannot copy $ab"
	ab=$work/arraybench
	ab_rev=$(git -C "$(dirname "$src_ab")" rev-parse --short HEAD 2>/dev/null)
	[ -n "$ab_rev" ] && [ -n "$(git -C "$(dirname "$src_ab")" status --porcelain --untracked-files=no 2>/dev/null)" ] &&
		ab_rev="$ab_rev+changes"
}
# "arraybench VERSION (REV, PATH, sha256 ..., built ...)" for the log.
bench_arraybench_words() {
	echo "$("$ab" --version 2>/dev/null | head -1) (${ab_rev:-no git}, $src_ab, sha256 $(sha256sum "$ab" | cut -c1-12), built $(date -u -r "$src_ab" '+%F %T UTC'))"
}

# Allocate the sparse image once, untimed, so the host's first-touch cost
# lands on nobody; then the one test directory, tdir, for every tool, made
# once: ext4 places a new file near its directory, so all tools start from
# the same place on the image.
bench_prefill() {
	local avail_mib fill_mib t0
	avail_mib=$(($(stat -f -c '%a * %S' "$mnt") / 1048576))
	fill_mib=$(((avail_mib - 256) / 4 * 4))
	t0=$(date +%s.%N)
	dd if=/dev/zero of="$mnt/fill" bs=4M count=$((fill_mib / 4)) oflag=direct status=none ||
		log "warning: pre-fill stopped early"
	rm -f "$mnt/fill" && sync
	tdir=$mnt/test
	mkdir "$tdir" || die "cannot create $tdir"
	log "pre-filled ${fill_mib} MiB of the image in $(python3 -c "print(round($(date +%s.%N)-$t0,1))") s"
}
# Empties the test directory after each run (only what the tools left).
tdir_clear() { find "$tdir" -mindepth 1 -delete 2>/dev/null || rm -rf "${tdir:?}"/*; }

# Runs "$@" in the background and waits, so that a signal reaches this script
# at once (a background command ignores SIGINT; bench_cleanup sends it TERM).
run_waited() {
	"$@" &
	child=$!
	wait "$child"
	local st=$?
	child=""
	return "$st"
}

# failed ROUND WHAT WHY: a run that failed, to the log and failures.tsv.
failed() {
	log "round $1: $2 failed: $3"
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$failures"
}
