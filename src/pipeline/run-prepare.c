/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run's options to a checked config, before anything is made: what
 * `run` and each visit of `matrix` do alike. */
#include "run-prepare.h"
#include "../runner/cache.h"
#include "../base/cluster.h"
#include "../base/error.h"
#include "../base/fsutil.h"
#include "../options/run-options.h"
#include "../base/runid.h"
#include "../base/sysinfo.h"
#include "../options/usercheck.h"
#include "../../fs-setup/statedir.h"
#include "../../fs-setup/trust.h"
#include "../../fs-setup/target-build.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ab_run_prep_init(struct ab_run_prep *prep)
{
	*prep = (struct ab_run_prep){ .dir_fd = -1 };
}

void ab_run_prep_clear(struct ab_run_prep *prep)
{
	g_free(prep->run_id);
	g_free(prep->shared_run_id);
	g_free(prep->state_dir);
	if (prep->dir_fd >= 0)
		close(prep->dir_fd);
	ab_run_prep_init(prep);
}

/* Root makes names in DIR and counts on them between making and opening
 * them: a group or others who may write there must not be able to rename
 * root's entries, so such a DIR must be sticky (as /tmp).  Its owner may
 * rename anything: with -u the user makes the names (see rundir.c), and
 * without, root hands nothing over. */
static gboolean check_dir_owner(const struct ab_config *cfg, int dir_fd, GError **error)
{
	struct stat st;
	if (geteuid() != 0 || fstat(dir_fd, &st) != 0 || !(st.st_mode & (S_IWGRP | S_IWOTH)) ||
	    (st.st_mode & S_ISVTX))
		return TRUE;
	g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
		    "refusing directory '%s': others may rename in it (mode %04o, not sticky): chmod +t it, or use "
		    "a directory only its owner may write to", cfg->dir, (unsigned)(st.st_mode & 07777));
	return FALSE;
}

/* Everything that can be known before anything is made.  For -d, *dir_fd
 * gets DIR, opened once here: every later step, the -u check first, works
 * on that directory, whatever its name comes to mean. */
static gboolean check_all(struct ab_config *cfg, const char *run_id, const char *state_dir, int *dir_fd,
			  GError **error)
{
	gboolean dry = cfg->target.dry_run;
	if (ab_target_spec_builds(&cfg->target) && geteuid() != 0) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
			    "building a target (--device, --array, --loop) needs root; -d DIR does not");
		return FALSE;
	}
	if (dry)
		printf("arraybench: plan (--dry-run: nothing is touched), each step with its undo:\n");
	if (!ab_target_check(&cfg->target, run_id, dry ? stdout : NULL, error))
		return FALSE;
	if (!ab_target_spec_builds(&cfg->target)) {
		if (!ab_dir_check(cfg->dir, error))
			return FALSE;
		/* Journaled paths are absolute: cleanup may run from anywhere. */
		char *real = realpath(cfg->dir, NULL);
		if (real) {
			g_free(cfg->dir);
			cfg->dir = real;
		}
		if (!ab_path_has_room("directory", cfg->dir, error))
			return FALSE;
		*dir_fd = open(cfg->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (*dir_fd < 0) {
			ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot use directory '%s'", cfg->dir);
			return FALSE;
		}
		if (!check_dir_owner(cfg, *dir_fd, error))
			return FALSE;
	}
	if (!ab_path_has_room("state directory", state_dir, error) || !ab_user_check(cfg, *dir_fd, error))
		return FALSE;
	/* A run opens (and makes) it before anything else; a dry run only
	 * checks that it deserves trust, if it exists. */
	int fd = -1;
	if (dry && !ab_state_dir_open(state_dir, FALSE, &fd, error))
		return FALSE;
	if (fd >= 0)
		close(fd);
	return TRUE;
}

int ab_run_check_options(int argc, char **argv, struct ab_config *cfg, uint64_t *ram_bytes, GError **error)
{
	if (!ab_run_options_parse(argc, argv, cfg, error))
		return AB_ERROR_USAGE;
	return ab_run_check_parsed(cfg, ram_bytes, error);
}

int ab_run_check_parsed(struct ab_config *cfg, uint64_t *ram_bytes, GError **error)
{
	ab_sysinfo_init();
	*ram_bytes = ab_sysinfo_ram_bytes();
	if (!ab_cache_resolve(cfg, error) || !ab_config_finish(cfg, *ram_bytes, error) ||
	    !ab_cache_check_cold_metadata(cfg, error))
		return ab_error_exit_status(*error);
	return 0;
}

/* Rank 0's run id, for every rank (the run is one).  On many ranks each
 * rank also has one of its own for what it makes where other ranks may
 * make the same (its journal, its run directory, its memory cgroup): its
 * own fresh id, or with ARRAYBENCH_RUN_ID the forced one and its rank. */
static gboolean share_run_id(struct ab_config *cfg, struct ab_run_prep *prep, GError **error)
{
	struct ab_cluster *c = ab_cluster_get();
	g_autofree char *mine = ab_run_id_new(error);
	if (!mine)
		return FALSE;
	/* Rank 0's seed too: every rank then names its files alike, so that
	 * one rank finds another's (--reorder). */
	struct {
		uint64_t seed;
		char id[AB_RUN_ID_MAX + 1];
	} ours = { cfg->seed, { 0 } };
	g_strlcpy(ours.id, mine, sizeof(ours.id));
	g_autoptr(GByteArray) all = g_byte_array_new();
	g_autofree size_t *lens = g_new0(size_t, c->size);
	if (!c->ops->allgather(c, &ours, sizeof(ours), TRUE, NULL, all, lens, error))
		return FALSE;
	memcpy(&ours, all->data, sizeof(ours));
	prep->shared_run_id = g_strndup(ours.id, sizeof(ours.id));
	cfg->seed = ours.seed;
	if (!ab_cluster_is_mpi() || !g_getenv("ARRAYBENCH_RUN_ID")) {
		prep->run_id = g_steal_pointer(&mine);
		return TRUE;
	}
	prep->run_id = g_strdup_printf("%s-r%u", mine, c->rank);
	if (!ab_run_id_valid(prep->run_id)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "ARRAYBENCH_RUN_ID '%s' leaves no room for the rank ('-r%u'): at most %d characters in all",
			    mine, c->rank, AB_RUN_ID_MAX);
		return FALSE;
	}
	return TRUE;
}

int ab_run_prepare(int argc, char **argv, struct ab_config *cfg, struct ab_run_prep *prep, GError **error)
{
	int status = ab_run_check_options(argc, argv, cfg, &prep->ram_bytes, error);
	if (status)
		return status;
	/* Many ranks share one directory that every rank reaches; no rank
	 * builds or formats anything there. */
	if (ab_cluster_is_mpi() && ab_target_spec_builds(&cfg->target)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "arraybench-mpi runs on a directory every rank reaches (-d DIR): it builds no target "
			    "(run a matrix to build one on each host)");
		return AB_ERROR_USAGE;
	}
	prep->state_dir = ab_state_dir_path();
	if (!share_run_id(cfg, prep, error))
		return ab_error_exit_status(*error);
	gboolean ok = check_all(cfg, prep->run_id, prep->state_dir, &prep->dir_fd, error);
	/* Every rank's checks meet: one that fails stops them all. */
	if (!ab_cluster_meet(ok, ok ? NULL : (*error)->message, ok ? error : NULL) || !ok)
		return ab_error_exit_status(*error);
	return 0;
}
