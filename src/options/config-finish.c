/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A parsed config finished (ab_config_finish, src/options/config.h): its defaults,
 * its phases checked, each phase family's rules (src/options/phase-family.h) and
 * its steps built (src/options/steps.h); apart from config.c, which the steps'
 * builder reads, so that the two include no circle. */
#include "config.h"
#include "phase-family.h"
#include "steps.h"
#include "../base/cluster.h"
#include "../base/error.h"
#include "../base/rng.h"
#include "../model/run.h"
#include "../../workloads/oltp.h"
#include "../../workloads/phase.h"
#include "../../workloads/sweep.h"
#include "../../workloads/curve-math.h"

#include <string.h>
#include <unistd.h>
static char *default_machine_name(void)
{
	char host[256] = "";
	if (gethostname(host, sizeof(host) - 1) != 0 || !*host)
		g_strlcpy(host, "localhost", sizeof(host));
	host[64] = '\0';
	for (char *p = host; *p; p++)
		if (*p == ',' || !g_ascii_isgraph(*p))
			*p = '_';
	return g_strdup(host);
}

/* bonnie++'s default: twice RAM but at least 300 MiB, rounded up to a whole
 * GiB only when the remainder is over half a GiB. */
static uint64_t default_file_size_mib(uint64_t ram_mib)
{
	if (ram_mib == 0)
		return 300;
	uint64_t mib = MAX(300, 2 * ram_mib);
	if (mib % 1024 > 512)
		mib += 1024 - mib % 1024;
	return mib;
}

uint64_t ab_config_effective_ram_mib(const struct ab_config *cfg, uint64_t physical_ram_bytes)
{
	if (cfg->ram_given)
		return cfg->ram_mib;
	if (cfg->cache == AB_CACHE_CGROUP)
		return AB_CGROUP_DEFAULT_RAM_MIB;
	return physical_ram_bytes / AB_MIB;
}

/* Under --cache cgroup the workers' own buffers are charged to the group
 * (those of the phases that run in it: ab_phase_in_memory_group())
 * and cannot be reclaimed: a step whose workers hold more than half the
 * limit leaves too little for the page cache they read and write through,
 * and the group's out-of-memory killer stops one (64 seekers of 1 MiB
 * chunks at -r 16 did).  Refused, naming the smallest -r that fits. */
static gboolean check_group_room(const struct ab_config *cfg, GError **error)
{
	if (cfg->cache != AB_CACHE_CGROUP)
		return TRUE;
	uint64_t limit = ab_config_effective_ram_mib(cfg, 0) * AB_MIB;
	for (guint i = 0; i < cfg->steps->len; i++) {
		const struct ab_step *step = &g_array_index(cfg->steps, struct ab_step, i);
		if (!ab_phase_in_memory_group(step->phase))
			continue; /* the others run outside the group */
		uint64_t held = ab_phase_group_bytes(step->phase, step);
		if (2 * held <= limit)
			continue;
		uint64_t need = (2 * held + AB_MIB - 1) / AB_MIB;
		/* Not given, -r is no value the user typed: say it is the default. */
		g_autofree char *what = cfg->ram_given
						? g_strdup_printf("invalid -r '%" G_GUINT64_FORMAT "'", limit / AB_MIB)
						: g_strdup_printf("the default -r (%" G_GUINT64_FORMAT ") is too small",
								  limit / AB_MIB);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "%s: phase '%s' holds %.1f MiB of buffers in the memory group, which needs twice that for the "
			    "page cache to fit beside them: give -r %" G_GUINT64_FORMAT
			    " or more, or fewer workers or smaller blocks",
			    what, step->phase->name, (double)held / AB_MIB, need);
		return FALSE;
	}
	return TRUE;
}

/* Only remedies that the checks would then accept. */
static char *cache_hint(const struct ab_config *cfg, uint64_t ram_mib)
{
	uint64_t max_r = cfg->file_size / AB_MIB / 2;
	gboolean cgroup_r_ok = max_r >= AB_CGROUP_MIN_RAM_MIB;
	if (cfg->cache == AB_CACHE_CGROUP)
		return cgroup_r_ok ? g_strdup_printf("use -s %" G_GUINT64_FORMAT "m or more, or -r %" G_GUINT64_FORMAT
						     " or less", 2 * ram_mib, max_r)
				   : g_strdup_printf("use -s %" G_GUINT64_FORMAT "m or more", 2 * ram_mib);
	g_autofree char *cgroup = cfg->cgroup_available && cgroup_r_ok
					  ? g_strdup_printf(", --cache cgroup -r %" G_GUINT64_FORMAT, max_r)
					  : g_strdup("");
	return g_strdup_printf("use -s %" G_GUINT64_FORMAT "m or more%s, or -r 0 to accept cached results",
			       2 * ram_mib, cgroup);
}

/* Can phase ph run with these sizes?  If not, why not. */
static const char *phase_blocked(const struct ab_config *cfg, const struct ab_phase *ph)
{
	if ((ph->flags & AB_PHASE_FILES) && !cfg->num_files)
		return "-n 0 skips the file phases";
	const struct ab_phase_family *family = ab_phase_family_of(ph->id);
	gboolean own_size = family && family->own_file_size && family->own_file_size(cfg);
	if ((ph->flags & AB_PHASE_IO) && !cfg->file_size && !own_size)
		return "-s 0 skips the I/O phases";
	if ((ph->flags & AB_PHASE_PER_CHAR) && !cfg->byte_io_size)
		return "-f skips the per-char phases";
	return NULL;
}

/* The phases to run, in order: those asked for (each must be able to run),
 * or every phase the sizes allow, in bonnie++'s order. */
static gboolean check_phases(struct ab_config *cfg, GError **error)
{
	if (cfg->phases_given) {
		for (guint i = 0; i < cfg->phase_ids->len; i++) {
			const struct ab_phase *ph = ab_phase_by_id(g_array_index(cfg->phase_ids, unsigned, i));
			const char *why = phase_blocked(cfg, ph);
			if (why) {
				g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "phase '%s' cannot run: %s", ph->name, why);
				return FALSE;
			}
		}
		return TRUE;
	}
	if (cfg->phase_ids)
		g_array_unref(cfg->phase_ids);
	cfg->phase_ids = g_array_new(FALSE, FALSE, sizeof(unsigned));
	for (unsigned id = 0; id < AB_PHASE_COUNT; id++)
		if (!phase_blocked(cfg, ab_phase_by_id(id)))
			g_array_append_val(cfg->phase_ids, id);
	if (!cfg->phase_ids->len) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "nothing to run: both -s 0 and -n 0");
		return FALSE;
	}
	return TRUE;
}

gboolean ab_config_asks_for(const struct ab_config *cfg, unsigned flags, unsigned id)
{
	for (guint i = 0; cfg->phase_ids && i < cfg->phase_ids->len; i++) {
		unsigned p = g_array_index(cfg->phase_ids, unsigned, i);
		if (p == id || (ab_phase_by_id(p)->flags & flags))
			return TRUE;
	}
	return FALSE;
}

gboolean ab_config_some_step_asks_for(const struct ab_config *cfg, unsigned id)
{
	return (cfg->workload_phases >> id) & 1u;
}

gboolean ab_config_another_step_asks_for(const struct ab_config *cfg, unsigned family, unsigned id)
{
	return !(cfg->step_own_phase_options & (1u << family)) && ab_config_some_step_asks_for(cfg, id);
}

G_STATIC_ASSERT(AB_PHASE_ID_COUNT <= 32); /* a bit per phase id */

uint32_t ab_config_phase_options(const struct ab_config *cfg)
{
	uint32_t bits = 0;
	for (const struct ab_phase_family *const *d = ab_phase_families; *d; d++)
		if ((*d)->option_given && (*d)->option_given(cfg))
			bits |= 1u << (*d)->phase_id;
	return bits;
}

/* Does the step ask for a phase whose steps size their own files (the
 * sweep, wal)? */
static gboolean asks_for_own_sizes(const struct ab_config *cfg)
{
	for (const struct ab_phase_family *const *d = ab_phase_families; *d; d++)
		if ((*d)->sizes_own_files && ab_config_asks_for(cfg, 0, (*d)->phase_id))
			return TRUE;
	return FALSE;
}

/* Each phase family's defaults and checks, in the table's order, each
 * adding what its steps make to `results` (one a phase so far). */
static gboolean finish_families(struct ab_config *cfg, uint64_t physical_ram_bytes, uint64_t ram_mib,
				uint64_t *results, GError **error)
{
	const struct ab_family_env env = { .physical_ram_bytes = physical_ram_bytes, .ram_mib = ram_mib };
	*results = cfg->phase_ids->len;
	for (const struct ab_phase_family *const *d = ab_phase_families; *d; d++)
		if ((*d)->finish && !(*d)->finish(cfg, &env, results, error))
			return FALSE;
	return TRUE;
}

/* The checks and defaults of one step's parameters (a profile's step, or
 * the whole run without one), then its steps built; `results` is what
 * they will add to the run. */
static gboolean finish_step(struct ab_config *cfg, uint64_t physical_ram_bytes, uint64_t *results, GError **error)
{
	uint64_t ram_mib = ab_config_effective_ram_mib(cfg, physical_ram_bytes);
	/* A sweep asked for without bonnie++'s I/O phases has its own sizes:
	 * no default -s file (nor its twice-the-RAM rule) applies. */
	gboolean sweep_only_io = cfg->phases_given && asks_for_own_sizes(cfg) &&
				 !ab_config_asks_for(cfg, AB_PHASE_IO, AB_PHASE_ID_COUNT);
	if (!cfg->file_size_given)
		cfg->file_size = sweep_only_io ? 0 : default_file_size_mib(ram_mib) * AB_MIB;
	if (cfg->file_size) {
		if (cfg->file_size < cfg->io_chunk || cfg->file_size % cfg->io_chunk) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "invalid -s size '%" G_GUINT64_FORMAT "M': not a multiple of the %u-byte chunk",
				    cfg->file_size / AB_MIB, cfg->io_chunk);
			return FALSE;
		}
		/* Only a phase that reads the test file back (per-char and block
		 * read, rewrite, seeks, the latency curve: the READS flag) could
		 * read it from the page cache; bonnie++'s default list has them
		 * whenever there is a file. */
		gboolean reads = !cfg->phases_given || ab_config_asks_for(cfg, AB_PHASE_READS, AB_PHASE_ID_COUNT);
		if (reads && ram_mib && cfg->file_size < 2 * ram_mib * AB_MIB) {
			g_autofree char *hint = cache_hint(cfg, ram_mib);
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "file size %" G_GUINT64_FORMAT "M is less than twice the RAM (%" G_GUINT64_FORMAT
				    "M) under --cache %s: reads would come from the page cache; %s",
				    cfg->file_size / AB_MIB, ram_mib, ab_cache_mode_name(cfg->cache), hint);
			return FALSE;
		}
	}
	if (cfg->per_char == AB_PER_CHAR_STDIO && cfg->byte_io_size == UINT64_MAX)
		cfg->byte_io_size = cfg->file_size;
	if (cfg->byte_io_size == UINT64_MAX)
		cfg->byte_io_size = AB_DEFAULT_BYTE_IO;
	if (cfg->byte_io_size > cfg->file_size)
		cfg->byte_io_size = cfg->file_size;
	if (cfg->direct && cfg->io_chunk < 4096) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid chunk size '%u' with --direct: O_DIRECT needs at least 4k", cfg->io_chunk);
		return FALSE;
	}
	if (cfg->seekers > cfg->seeks) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid seeker count '%u': more seekers than the %" G_GUINT64_FORMAT " seeks",
			    cfg->seekers, cfg->seeks);
		return FALSE;
	}
	if (!check_phases(cfg, error) || !finish_families(cfg, physical_ram_bytes, ram_mib, results, error))
		return FALSE;
	if (cfg->steps)
		g_array_unref(cfg->steps);
	cfg->steps = ab_steps_build(cfg);
	return TRUE;
}

/* A profile's step names itself in the errors of its checks. */
static gboolean finish_labelled(struct ab_config *cfg, uint64_t physical_ram_bytes, uint64_t *results, GError **error)
{
	if (finish_step(cfg, physical_ram_bytes, results, error))
		return TRUE;
	if (cfg->step_where)
		g_prefix_error(error, "%s: ", cfg->step_where);
	return FALSE;
}

/* A profile's phases, all steps together, for each step's config to see
 * (ab_config_another_step_asks_for): before any step is finished. */
static uint32_t phase_bits(const struct ab_config *cfg)
{
	uint32_t bits = 0;
	for (guint i = 0; cfg->phase_ids && i < cfg->phase_ids->len; i++)
		bits |= 1u << g_array_index(cfg->phase_ids, unsigned, i);
	return bits;
}

static void share_workload_phases(struct ab_config *cfg)
{
	if (!cfg->step_configs || !cfg->step_configs->len)
		return;
	uint32_t all = phase_bits(cfg);
	for (guint i = 0; i < cfg->step_configs->len; i++)
		all |= phase_bits(g_ptr_array_index(cfg->step_configs, i));
	cfg->workload_phases = all;
	for (guint i = 0; i < cfg->step_configs->len; i++)
		((struct ab_config *)g_ptr_array_index(cfg->step_configs, i))->workload_phases = all;
}

gboolean ab_config_finish(struct ab_config *cfg, uint64_t physical_ram_bytes, GError **error)
{
	if (!cfg->dir && !ab_target_spec_builds(&cfg->target)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "missing -d DIR (a directory to test in) or a target to build (--device, --array, --loop)");
		return FALSE;
	}
	if (cfg->dir && ab_target_spec_builds(&cfg->target)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "-d '%s' and a target to build exclude each other: the built target is mounted privately",
			    cfg->dir);
		return FALSE;
	}
	if (cfg->cache == AB_CACHE_REMOUNT && !ab_target_spec_builds(&cfg->target)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --cache 'remount': it needs a target arraybench mounts itself "
			    "(--device, --array or --loop), not -d");
		return FALSE;
	}
	if (cfg->reorder && !ab_cluster_is_mpi()) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--reorder works on many ranks only: run it with mpirun and arraybench-mpi");
		return FALSE;
	}
	/* One node has one page cache: the rank one node on is this rank. */
	if (cfg->reorder && ab_cluster_get()->nodes < 2) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--reorder needs ranks on two or more nodes: all %u ranks are on one, so each would read "
			    "its own page cache",
			    ab_cluster_get()->size);
		return FALSE;
	}
	if (cfg->mpi_layout != AB_MPI_LAYOUT_PRIVATE && !ab_cluster_is_mpi()) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--mpi-layout '%s' works on many ranks only: run it with mpirun and arraybench-mpi",
			    ab_mpi_layout_name(cfg->mpi_layout));
		return FALSE;
	}
	if (cfg->cold_metadata && cfg->cache == AB_CACHE_NONE) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--cold-metadata and --cache 'none' contradict each other: one evicts, the other never does");
		return FALSE;
	}
	if (!cfg->machine_name)
		cfg->machine_name = default_machine_name();
	if (cfg->cache == AB_CACHE_CGROUP && cfg->ram_given && cfg->ram_mib < AB_CGROUP_MIN_RAM_MIB) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid -r '%" G_GUINT64_FORMAT "': --cache cgroup needs at least %u MiB "
			    "or the workers themselves would not fit",
			    cfg->ram_mib, AB_CGROUP_MIN_RAM_MIB);
		return FALSE;
	}
	if (!cfg->seed_given) {
		uint64_t st = (uint64_t)g_get_real_time() ^ ((uint64_t)getpid() << 32);
		cfg->seed = ab_rng_splitmix(&st) >> 32; /* bonnie++-sized: fits 32 bits */
	}
	uint64_t results = 0, more = 0;
	share_workload_phases(cfg);
	if (!finish_labelled(cfg, physical_ram_bytes, &results, error))
		return FALSE;
	/* A profile's other steps, each finished alone, run after the first
	 * in file order: one list of steps for the suite. */
	for (guint i = 0; cfg->step_configs && i < cfg->step_configs->len; i++) {
		struct ab_config *sub = g_ptr_array_index(cfg->step_configs, i);
		if (!finish_labelled(sub, physical_ram_bytes, &more, error))
			return FALSE;
		g_array_append_vals(cfg->steps, sub->steps->data, sub->steps->len);
		results += more;
	}
	if (!check_group_room(cfg, error))
		return FALSE;
	if (cfg->steps->len > AB_MAX_STEPS) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "workload '%s': %u phases in all its steps, more than %d",
			    cfg->workload, cfg->steps->len, AB_MAX_STEPS);
		return FALSE;
	}
	if (results > AB_RUN_MAX_RESULTS) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "workload '%s' makes %" G_GUINT64_FORMAT " results in all its steps, more than the %d one "
			    "run holds", cfg->workload, results, AB_RUN_MAX_RESULTS);
		return FALSE;
	}
	return TRUE;
}
