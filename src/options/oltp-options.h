/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_OLTP_OPTIONS_H
#define AB_OLTP_OPTIONS_H

/* The oltp family's part of finishing a config and the room of its steps
 * (its family rows, src/options/phase-family.h; its drivers, src/suite/oltp-run.c and
 * src/suite/oltp-wal-run.c): oltp+wal has no options of its own, its load's are
 * oltp's (checked here, with its result count) and its committers' wal's
 * (src/options/wal-options.h). */

#include <glib.h>
#include <stdint.h>

#include "phase-family.h"

/* "--oltp-*" when any --oltp-* option was given, else NULL. */
const char *ab_oltp_option_given(const struct ab_config *cfg);
/* --oltp-size gives the data file its own size: -s 0 does not stop it. */
gboolean ab_oltp_own_file_size(const struct ab_config *cfg);
/* An oltp step's results: read, write and all per process count. */
uint64_t ab_oltp_results(const struct ab_config *cfg);
/* An oltp+wal step's: per sync method and commit size, the commits alone,
 * then per process count the commits under load and the load's three. */
uint64_t ab_oltp_wal_results(const struct ab_config *cfg);
/* The oltp options only with oltp or oltp+wal, their defaults (the data
 * file's size under a cgroup), checks, and both phases' results. */
gboolean ab_oltp_finish(struct ab_config *cfg, const struct ab_family_env *env, uint64_t *results, GError **error);

/* Its room (src/options/step-space.h): the test file at least the data file's
 * size (laid out anew when smaller, used as it is when not). */
void ab_oltp_space(const struct ab_step *step, struct ab_step_space *out);

/* Its room (src/options/step-space.h): oltp's data file and the wal's logs beside
 * it. */
void ab_oltp_wal_space(const struct ab_step *step, struct ab_step_space *out);

#endif
