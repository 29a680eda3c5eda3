#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The command line: help, version, list, and the man page in step with --help.
. "$(dirname "$0")/lib.sh"

"$AB" --help >"$T/help" 2>&1; ok $? "arraybench --help exits 0"
grep -q 'Usage: arraybench COMMAND' "$T/help"; ok $? "--help shows the usage line"
"$AB" --version >"$T/ver"; ok $? "--version exits 0"
grep -Eq '^arraybench [0-9]+\.[0-9]+\.[0-9]+$' "$T/ver"; ok $? "--version prints a version"
"$AB" run --help >"$T/runhelp"; ok $? "run --help exits 0"
"$AB" list >"$T/list"; ok $? "list exits 0"
is "$(grep -c -E '^(per-char|block|rewrite|seeks|seq-|rand-)' "$T/list")" 12 "list shows the 12 phases"
is "$(sed -n '/^Built-in search spaces/,$p' "$T/list" | grep -oE '^(ext4|xfs|btrfs) ' | tr -d ' ' | tr '\n' ' ')" \
	"ext4 xfs btrfs " "list shows the built-in search spaces, one per file system"
grep -q '^ *data  *mount  *ordered | data=journal | data=journal,journal_async_commit | data=writeback (unsafe) | ' "$T/list" &&
	grep -q '^ *stripe  *mount  *superblock | stripe=@stripe-width$' "$T/list" &&
	grep -q '^ *stripe-hint  *run  *geometry | --no-stripe-hint (none)$' "$T/list" &&
	grep -q '^ *inode-size  *mkfs  *256 | -I 512 | -I 1024$' "$T/list"
ok $? "... each key with its place and values: the default first, unsafe ones marked, geometry words as written"
"$AB" frobnicate 2>"$T/err"; is $? 1 "an unknown command exits 1"
grep -q "unknown command 'frobnicate'" "$T/err"; ok $? "and names it"

# Every long option of run --help is documented in the man page, and back.
opts_help=$(grep -oE -- '--[a-z][a-z-]+' "$T/runhelp" | grep -v -- '--help' | grep -v -- '--version' | sort -u)
opts_man=$(grep -oE -- '\\-\\-[a-z][a-z\\-]+' "$top/man/arraybench.1" | sed 's/\\//g' | grep -v -- '--help' | grep -v -- '--version' | sort -u)
is "$(comm -23 <(echo "$opts_help") <(echo "$opts_man") | tr '\n' ' ')" "" "every run option is in the man page"
is "$(comm -13 <(echo "$opts_help") <(echo "$opts_man") | tr '\n' ' ')" "" "the man page names no option run lacks"
grep -q "arraybench run \\\\-d" "$top/man/arraybench.1"; ok $? "the man page SYNOPSIS shows run -d"

# Each command's --help usage line is a SYNOPSIS line of arraybench.1 (and
# of its own page, where it has one), [OPTION...] put last on both sides.
synopsis() { # man-page: its SYNOPSIS as plain lines, one per .br
	python3 - "$1" <<'PY'
import re, shlex, sys
out, cur, on = [], [], False
for l in open(sys.argv[1]).read().split('\n'):
    if l.startswith('.SH'):
        on = l.split(None, 1)[1].strip() == 'SYNOPSIS'
    elif on and l == '.br':
        out.append(' '.join(cur)); cur = []
    elif on:
        m = re.match(r'^\.([A-Z]+)\s*(.*)$', l)
        if not m:
            cur.append(l); continue
        words = shlex.split(m.group(2).replace('\\', '\\\\'))
        cur.append((' ' if m.group(1) in ('B', 'I') else '').join(words))
if cur:
    out.append(' '.join(cur))
for s in out:
    s = s.replace('\\-', '-')
    if ' [OPTION...]' in s:
        s = s.replace(' [OPTION...]', '') + ' [OPTION...]'
    print(s)
PY
}
# glib writes "[OPTION…]", or "[OPTION?]" where the locale's charset lacks
# the ellipsis (a bare root has no UTF-8 locale).
usage_of() { # command: its --help usage line, normalized as synopsis does
	"$AB" "$1" --help | sed -n '1{/^Usage: ./{s/^Usage: //p;q}};2{s/^ *//p;q}' | sed 's/…/.../g; s/\[OPTION?\]/[OPTION...]/' |
		sed 's/ \[OPTION\.\.\.\]\(.*\)/\1 [OPTION...]/'
}
synopsis "$top/man/arraybench.1" >"$T/syn" && [ "$(wc -l <"$T/syn")" -ge 5 ]
ok $? "arraybench.1's SYNOPSIS reads as lines"
commands=$(sed -n '/^Commands:/,/^$/{s/^  \([a-z]*\) .*/\1/p}' "$T/help")
is "$(echo $commands)" "run list report matrix tune raw cleanup" "--help lists the commands"
missing=
for c in $commands; do
	u=$(usage_of "$c")
	grep -qxF -- "$u" "$T/syn" || missing="$missing $c('$u')"
done
is "$missing" "" "every command's --help usage line is a SYNOPSIS line of arraybench.1"
"$AB" report --help >"$T/rephelp"; ok $? "report --help exits 0"
is "$(synopsis "$top/man/arraybench-report.1")" "$(usage_of report)" "report --help's usage is arraybench-report.1's SYNOPSIS"
opts_help=$(grep -oE -- '--[a-z][a-z-]+' "$T/rephelp" | grep -v -- '--help' | sort -u)
opts_man=$(sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$top/man/arraybench-report.1" | grep -oE -- '\\-\\-[a-z][a-z\\-]+' | sed 's/\\//g' | grep -v -- '--help' | sort -u)
is "$(echo $opts_help)" "$(echo $opts_man)" "report's options in --help and in arraybench-report.1 are the same"
"$AB" raw --help >"$T/rawhelp"; ok $? "raw --help exits 0"
is "$(synopsis "$top/man/arraybench-raw.1")" "$(usage_of raw)" "raw --help's usage is arraybench-raw.1's SYNOPSIS"
opts_help=$(grep -oE -- '--[a-z][a-z-]+' "$T/rawhelp" | grep -v -- '--help' | sort -u)
opts_man=$(sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$top/man/arraybench-raw.1" | grep -oE -- '\\-\\-[a-z][a-z\\-]+' | sed 's/\\//g' | grep -v -- '--help' | sort -u)
is "$(echo $opts_help)" "$(echo $opts_man)" "raw's options in --help and in arraybench-raw.1 are the same"
"$AB" matrix --help >"$T/mxhelp"; ok $? "matrix --help exits 0"
is "$(synopsis "$top/man/arraybench-matrix.1")" "$(usage_of matrix)" "matrix --help's usage is arraybench-matrix.1's SYNOPSIS"
opts_help=$(grep -oE -- '--[a-z][a-z-]+' "$T/mxhelp" | grep -v -- '--help' | sort -u)
opts_man=$(sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$top/man/arraybench-matrix.1" | grep -oE -- '\\-\\-[a-z][a-z\\-]+' | sed 's/\\//g' | grep -v -- '--help' | sort -u)
is "$(echo $opts_help)" "$(echo $opts_man)" "matrix's options in --help and in arraybench-matrix.1 are the same"
"$AB" tune --help >"$T/tunehelp"; ok $? "tune --help exits 0"
is "$(synopsis "$top/man/arraybench-tune.1")" "$(usage_of tune)" "tune --help's usage is arraybench-tune.1's SYNOPSIS"
opts_help=$(grep -oE -- '--[a-z][a-z-]+' "$T/tunehelp" | grep -v -- '--help' | sort -u)
opts_man=$(sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$top/man/arraybench-tune.1" | grep -oE -- '\\-\\-[a-z][a-z\\-]+' | sed 's/\\//g' | grep -v -- '--help' | sort -u)
is "$(echo $opts_help)" "$(echo $opts_man)" "tune's options in --help and in arraybench-tune.1 are the same"
# Each sub-command page is named in arraybench.1's SEE ALSO.
missing=
for page in "$top"/man/arraybench-*.1; do
	name=$(basename "$page" .1)
	sed -n '/^\.SH SEE ALSO/,$p' "$top/man/arraybench.1" | grep -q "^\.BR ${name//-/\\\\-} (1)" || missing="$missing $name"
done
is "$missing" "" "arraybench.1's SEE ALSO names every sub-command page"
done_testing
