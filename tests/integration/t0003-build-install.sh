#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make install and uninstall honour DESTDIR, PREFIX and mandir.
. "$(dirname "$0")/lib.sh"
dest=$T/dest
make -C "$top" --no-print-directory -s install DESTDIR="$dest" PREFIX=/opt/ab mandir=/opt/ab/man >"$T/log" 2>&1
ok $? "make install exits 0"
[ -x "$dest/opt/ab/bin/arraybench" ]; ok $? "the binary lands in PREFIX/bin"
[ -f "$dest/opt/ab/man/man1/arraybench.1" ]; ok $? "the man page lands in mandir/man1"
missing=
for page in "$top"/man/*.1; do
	[ "$(basename "$page")" = arraybench-mpi.1 ] && continue # with its binary, below
	cmp -s "$page" "$dest/opt/ab/man/man1/$(basename "$page")" || missing="$missing $(basename "$page")"
done
is "$missing" "" "so does every page in man/ (arraybench-report.1 too)"
# arraybench-mpi and its page are installed when it was built (make check
# builds it wherever there is an MPI compiler), and only then.
if [ -x "$top/arraybench-mpi" ]; then
	cmp -s "$top/arraybench-mpi" "$dest/opt/ab/bin/arraybench-mpi"; ok $? "arraybench-mpi, built, lands in PREFIX/bin"
	cmp -s "$top/man/arraybench-mpi.1" "$dest/opt/ab/man/man1/arraybench-mpi.1"; ok $? "and its page in mandir/man1"
else
	[ ! -e "$dest/opt/ab/bin/arraybench-mpi" ] && [ ! -e "$dest/opt/ab/man/man1/arraybench-mpi.1" ]
	ok $? "arraybench-mpi, not built, is not installed, nor its page"
	skip "arraybench-mpi is not built (make mpi, or make check where there is an MPI compiler)"
fi
cmp -s "$top/man/arraybench-workload.5" "$dest/opt/ab/man/man5/arraybench-workload.5"
ok $? "the file formats' page lands in mandir/man5"
missing=
for p in bonnie database iozone-auto lab mirror; do
	cmp -s "$top/workloads/profiles/$p.ini" "$dest/opt/ab/share/arraybench/workloads/$p.ini" || missing="$missing $p"
done
is "$missing" "" "the built-in profiles land in PREFIX/share/arraybench/workloads for users to copy"
missing=
for p in ext4 xfs btrfs; do
	cmp -s "$top/tune/spaces/$p.ini" "$dest/opt/ab/share/arraybench/spaces/$p.ini" || missing="$missing $p"
done
is "$missing" "" "the built-in search spaces land in PREFIX/share/arraybench/spaces for users to copy"
is "$("$dest/opt/ab/bin/arraybench" --version)" "$("$AB" --version)" "the installed binary runs"
make -C "$top" --no-print-directory -s uninstall DESTDIR="$dest" PREFIX=/opt/ab mandir=/opt/ab/man >"$T/log" 2>&1
ok $? "make uninstall exits 0"
is "$(find "$dest" -type f | wc -l)" 0 "uninstall removes every file it installed"
done_testing
