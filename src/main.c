/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arraybench: one process, one rank (the command table is src/cmd/dispatch.c). */
#include "cmd/dispatch.h"

#include <stddef.h>

int main(int argc, char **argv)
{
	return ab_main(argc, argv, NULL);
}
