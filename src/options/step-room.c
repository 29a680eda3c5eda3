/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The words of a step's room (src/options/step-room.h). */
#include "step-room.h"
#include "../base/units.h"

#include <stdio.h>

void ab_space_size_text(uint64_t bytes, char *out, size_t len)
{
	if (bytes && bytes % (AB_MIB << 20) == 0)
		snprintf(out, len, "%" G_GUINT64_FORMAT "T", bytes / (AB_MIB << 20));
	else if (bytes && bytes % (AB_MIB << 10) == 0)
		snprintf(out, len, "%" G_GUINT64_FORMAT "G", bytes / (AB_MIB << 10));
	else if (bytes && bytes % AB_MIB == 0)
		snprintf(out, len, "%" G_GUINT64_FORMAT "M", bytes / AB_MIB);
	else if (bytes && bytes % 1024 == 0)
		snprintf(out, len, "%" G_GUINT64_FORMAT "k", bytes / 1024);
	else
		snprintf(out, len, "%" G_GUINT64_FORMAT, bytes);
}

uint64_t ab_space_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}
