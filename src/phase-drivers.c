/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The phase families' drivers (src/phase-driver.h), each row defined beside
 * its driver.  A new family adds its row here. */
#include "phase-driver.h"
#include "config.h"

/* wal before oltp: oltp+wal's results are counted by oltp's finish, from
 * the methods and commit sizes wal's finish defaulted. */
const struct ab_phase_driver *const ab_phase_drivers[] = {
	&ab_sweep_driver, &ab_wal_driver, &ab_oltp_driver, &ab_oltp_wal_driver, &ab_curve_driver, NULL,
};

const struct ab_phase_driver *ab_phase_driver_of(unsigned id)
{
	for (const struct ab_phase_driver *const *d = ab_phase_drivers; *d; d++)
		if ((*d)->phase_id == id)
			return *d;
	return NULL;
}

guint ab_phase_driver_count(const struct ab_phase_driver *d, const struct ab_config *cfg)
{
	guint n = 0;
	for (guint i = 0; cfg->phase_ids && i < cfg->phase_ids->len; i++)
		n += g_array_index(cfg->phase_ids, unsigned, i) == d->phase_id;
	return n;
}

uint64_t ab_phase_driver_more_results(const struct ab_phase_driver *d, const struct ab_config *cfg)
{
	guint n = ab_phase_driver_count(d, cfg);
	/* Unsigned: a step of no result (a sweep of no test) takes its one
	 * back, as the sum it stands for does. */
	return n ? (uint64_t)n * (d->results(cfg) - 1) : 0;
}
