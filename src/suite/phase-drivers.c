/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The phase families' drivers (src/suite/phase-driver.h), each row defined beside
 * its driver.  A new family adds its row here. */
#include "phase-driver.h"

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
