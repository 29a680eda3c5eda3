#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The command line: help, version, list, and the man page in step with --help.
. "$(dirname "$0")/lib.sh"
plan 12

"$AB" --help >"$T/help" 2>&1; ok $? "arraybench --help exits 0"
grep -q 'Usage: arraybench COMMAND' "$T/help"; ok $? "--help shows the usage line"
"$AB" --version >"$T/ver"; ok $? "--version exits 0"
grep -Eq '^arraybench [0-9]+\.[0-9]+\.[0-9]+$' "$T/ver"; ok $? "--version prints a version"
"$AB" run --help >"$T/runhelp"; ok $? "run --help exits 0"
"$AB" list >"$T/list"; ok $? "list exits 0"
is "$(grep -c -E '^(per-char|block|rewrite|seeks|seq-|rand-)' "$T/list")" 12 "list shows the 12 phases"
"$AB" frobnicate 2>"$T/err"; is $? 1 "an unknown command exits 1"
grep -q "unknown command 'frobnicate'" "$T/err"; ok $? "and names it"

# Every long option of run --help is documented in the man page, and back.
opts_help=$(grep -oE -- '--[a-z][a-z-]+' "$T/runhelp" | grep -v -- '--help' | grep -v -- '--version' | sort -u)
opts_man=$(grep -oE -- '\\-\\-[a-z][a-z\\-]+' "$top/man/arraybench.1" | sed 's/\\//g' | grep -v -- '--help' | grep -v -- '--version' | sort -u)
is "$(comm -23 <(echo "$opts_help") <(echo "$opts_man") | tr '\n' ' ')" "" "every run option is in the man page"
is "$(comm -13 <(echo "$opts_help") <(echo "$opts_man") | tr '\n' ' ')" "" "the man page names no option run lacks"
grep -q "arraybench run \\\\-d" "$top/man/arraybench.1"; ok $? "the man page SYNOPSIS shows run -d"
