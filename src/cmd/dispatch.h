/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_DISPATCH_H
#define AB_DISPATCH_H

/* The command table and what every command shares: the standard
 * descriptors held, the locale, the error printed.  main() of arraybench
 * (src/main.c) and of arraybench-mpi (src/mpi/mpi-main.c) call it. */

/* The exit status; *error_text (if not NULL) gets the failure's one line,
 * newly allocated, or stays as it was. */
int ab_main(int argc, char **argv, char **error_text);

#endif
