/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RUN_PREPARE_H
#define AB_RUN_PREPARE_H

#include <glib.h>
#include <stdint.h>

#include "../options/config.h"

/* What a run needs besides its config once every check has passed: the
 * pipeline's arguments (src/pipeline/pipeline.h). */
struct ab_run_prep {
	/* The run's id (rank 0's on many ranks), and this rank's own (the
	 * same on one rank): its journal, run directory and cgroup are named
	 * by its own. */
	char *shared_run_id;
	char *run_id;
	char *state_dir;
	int dir_fd;          /* -d: DIR opened by the checks (the pipeline takes it), else -1 */
	uint64_t ram_bytes;
};

void ab_run_prep_init(struct ab_run_prep *prep);
/* Frees the strings and closes dir_fd if it is still held. */
void ab_run_prep_clear(struct ab_run_prep *prep);

/*
 * The options of `arraybench run ARGV` parsed into cfg (initialised by the
 * caller) and finished: the cache rule resolved, the steps built, what
 * excludes what refused; *ram_bytes gets the RAM the checks went by.
 * Touches nothing and needs no root.  The first part of ab_run_prepare();
 * a matrix checks each cell with it and with ab_target_check() (the
 * target's plan: levels, member counts, md in the kernel, the devices'
 * safety), as ab_run_prepare() goes on to, before its first visit.
 * Returns 0, or the exit status with *error set.
 */
int ab_run_check_options(int argc, char **argv, struct ab_config *cfg, uint64_t *ram_bytes, GError **error);
/* Its second part alone, on a cfg ab_run_options_parse() filled: for a
 * caller (tune) that checks what was given before the run's own rules
 * answer for it. */
int ab_run_check_parsed(struct ab_config *cfg, uint64_t *ram_bytes, GError **error);

/*
 * `arraybench run ARGV` up to the pipeline, shared by run and matrix: the
 * options parsed into cfg (initialised by the caller), finished, the cache
 * rule resolved, a run id made, and everything that can be known before
 * anything is made checked (root for a built target, the target and its
 * devices' safety, -d DIR and its owner, room, -u USER, the state
 * directory).  Under --dry-run the plan is printed on stdout.  Returns 0,
 * or the exit status with *error set.
 */
int ab_run_prepare(int argc, char **argv, struct ab_config *cfg, struct ab_run_prep *prep, GError **error);

#endif
