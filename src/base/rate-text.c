/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rate rule every view shares (rate-text.h). */
#include "rate-text.h"

#include <math.h>
#include <stdio.h>

void ab_rate_text(double rate, char *out, size_t len)
{
	if (isnan(rate))
		snprintf(out, len, "-");
	else if (rate < 1000)
		snprintf(out, len, "%.1f", rate);
	else
		snprintf(out, len, "%.0f", trunc(rate));
}
