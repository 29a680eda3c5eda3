/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The phase families' rules (src/options/phase-family.h), each row defined beside
 * its option rows.  A new family adds its row here. */
#include "phase-family.h"
#include "config.h"

/* wal before oltp: oltp+wal's results are counted by oltp's finish, from
 * the methods and commit sizes wal's finish defaulted. */
const struct ab_phase_family *const ab_phase_families[] = {
	&ab_sweep_family, &ab_wal_family, &ab_oltp_family, &ab_oltp_wal_family, &ab_curve_family, NULL,
};

const struct ab_phase_family *ab_phase_family_of(unsigned id)
{
	for (const struct ab_phase_family *const *f = ab_phase_families; *f; f++)
		if ((*f)->phase_id == id)
			return *f;
	return NULL;
}

guint ab_phase_family_count(const struct ab_phase_family *d, const struct ab_config *cfg)
{
	guint n = 0;
	for (guint i = 0; cfg->phase_ids && i < cfg->phase_ids->len; i++)
		n += g_array_index(cfg->phase_ids, unsigned, i) == d->phase_id;
	return n;
}

uint64_t ab_phase_family_more_results(const struct ab_phase_family *d, const struct ab_config *cfg)
{
	guint n = ab_phase_family_count(d, cfg);
	/* Unsigned: a step of no result (a sweep of no test) takes its one
	 * back, as the sum it stands for does. */
	return n ? (uint64_t)n * (d->results(cfg) - 1) : 0;
}
