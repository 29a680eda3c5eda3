/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The closing sizing statement of a run with the database phases: the
 * answers a DBA asks for, in a few lines under the tables, each read off
 * results the tables above already show (nothing here is measured):
 *   commits: how many a second the log takes, and at what p99;
 *   under load: the same commits beside the oltp processes;
 *   oltp: the buffer pool's random IOPS, closed loop, and its p99s, and
 *     how much of its data file the page cache could hold;
 *   random I/O: the most IOPS whose p99 meets the latency curve's target.
 * Each rate is printed as the tables print it (ab_format_rate). */
#include "report.h"
#include "text-block.h"
#include "format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOADED_MARK " under oltp"
#define OLTP_LOADED_ALL "all under wal"

static gboolean is_phase(const struct ab_result *r, const char *phase)
{
	return g_strcmp0(r->phase, phase) == 0 && r->key.test;
}

/* "fdatasync" of "fdatasync 2x8k under oltp x32": the method. */
static char *method_of(const char *test)
{
	return g_strndup(test, strcspn(test, " "));
}

static gboolean same_commit(const struct ab_result *a, const struct ab_result *b)
{
	return a->key.record_size == b->key.record_size && a->key.streams == b->key.streams;
}

/* On many ranks the processes counted are one rank's: say so. */
static void ranks_text(GString *s, const struct ab_run *run)
{
	if (ab_known(run->mpi.ranks) && run->mpi.ranks > 1)
		g_string_append_printf(s, " on each of %" G_GUINT64_FORMAT " ranks", run->mpi.ranks);
}

static void size_text(uint64_t bytes, char *out, size_t len)
{
	if (!ab_known(bytes))
		snprintf(out, len, "?");
	else if (bytes && bytes % 1024 == 0)
		snprintf(out, len, "%" G_GUINT64_FORMAT " KiB", bytes / 1024);
	else
		snprintf(out, len, "%" G_GUINT64_FORMAT " B", bytes);
}

static gboolean unloaded_first(const struct ab_result *r)
{
	return ab_text_is_wal_result(r) && r->key.test && !strstr(r->key.test, LOADED_MARK) && !isnan(r->rate) &&
	       r->key.pass == 1;
}

/* The commit shape the statement speaks of: the fewest writers, then the
 * smallest commit, of the rows measured without load; of those the best
 * rate.  Only first rows of a key count: the wal phase's own when it ran
 * (oltp+wal's commits alone come second, "fdatasync#2", and are quoted
 * beside their loaded ones).  NULL when the run has no such row. */
static const struct ab_result *best_commit(const struct ab_run *run, guint *methods)
{
	const struct ab_result *shape = NULL;
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (!unloaded_first(r))
			continue;
		if (!shape || r->key.streams < shape->key.streams ||
		    (r->key.streams == shape->key.streams && r->key.record_size < shape->key.record_size))
			shape = r;
	}
	const struct ab_result *best = NULL;
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; shape && i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (!unloaded_first(r) || !same_commit(r, shape))
			continue;
		g_hash_table_add(seen, method_of(r->key.test));
		if (!best || r->rate > best->rate)
			best = r;
	}
	*methods = g_hash_table_size(seen);
	return best;
}

/* The oltp processes beside a loaded commit row: "under oltp x32" names
 * them; a lone "under oltp" had the one count, which the load's own rows
 * carry as their streams.  A file's "x-5" or "xabc" names no count. */
static uint64_t load_of(const struct ab_run *run, const struct ab_result *loaded)
{
	const char *x = strstr(loaded->key.test, LOADED_MARK " x");
	if (x) {
		guint64 n;
		const char *digits = x + strlen(LOADED_MARK " x");
		if (g_ascii_isdigit(*digits) && g_ascii_string_to_unsigned(digits, 10, 1, AB_UNSET - 1, &n, NULL))
			return n;
		return AB_UNSET;
	}
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (is_phase(r, "oltp") && strcmp(r->key.test, OLTP_LOADED_ALL) == 0)
			return r->key.streams;
	}
	return AB_UNSET;
}

/* Does loaded row r match `like` (its method and commit shape)? */
static gboolean matches(const struct ab_result *r, const struct ab_result *like)
{
	if (!like || !same_commit(r, like))
		return FALSE;
	g_autofree char *a = method_of(r->key.test);
	g_autofree char *b = method_of(like->key.test);
	return strcmp(a, b) == 0;
}

/* The commits under the heaviest load: of `like`'s method and shape when
 * those ran under load, else of any. */
static const struct ab_result *loaded_commit(const struct ab_run *run, const struct ab_result *like,
					     uint64_t *procs)
{
	const struct ab_result *pick = NULL;
	gboolean pick_matches = FALSE;
	*procs = AB_UNSET;
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (!ab_text_is_wal_result(r) || !r->key.test || !strstr(r->key.test, LOADED_MARK) || isnan(r->rate))
			continue;
		gboolean m = matches(r, like);
		uint64_t n = load_of(run, r);
		gboolean heavier = ab_known(n) && (!ab_known(*procs) || n > *procs);
		if (!pick || (m && !pick_matches) || (m == pick_matches && heavier)) {
			pick = r;
			pick_matches = m;
			*procs = n;
		}
	}
	return pick;
}

/* The same commits without the load, measured in the same step: the last
 * unloaded row of that test and shape before the loaded one. */
static const struct ab_result *alone_commit(const struct ab_run *run, const struct ab_result *loaded)
{
	size_t base = strstr(loaded->key.test, LOADED_MARK) - loaded->key.test;
	const struct ab_result *alone = NULL;
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (r == loaded)
			break;
		if (ab_text_is_wal_result(r) && r->key.test && strlen(r->key.test) == base &&
		    strncmp(r->key.test, loaded->key.test, base) == 0 && same_commit(r, loaded) && !isnan(r->rate))
			alone = r;
	}
	return alone;
}

static void commits_line(GString *s, const struct ab_result *best, guint methods)
{
	char rate[32], p99[16], size[32];
	ab_format_rate(best->rate, rate, sizeof(rate));
	ab_format_latency(best->latency.p99_ns, p99, sizeof(p99));
	size_text(best->key.record_size, size, sizeof(size));
	g_autofree char *method = method_of(best->key.test);
	g_string_append_printf(s, "  commits: %s/s at p99 %s (%s", rate, p99, method);
	if (methods > 1)
		g_string_append_printf(s, ", the best of %u methods", methods);
	g_string_append_printf(s, "; %s commits", size);
	if (ab_known(best->key.streams))
		g_string_append_printf(s, ", %" G_GUINT64_FORMAT " writer%s", best->key.streams,
				       best->key.streams == 1 ? "" : "s");
	g_string_append(s, ")\n");
}

static void loaded_line(GString *s, const struct ab_run *run, const struct ab_result *loaded, uint64_t procs)
{
	char rate[32], p99[16];
	ab_format_rate(loaded->rate, rate, sizeof(rate));
	ab_format_latency(loaded->latency.p99_ns, p99, sizeof(p99));
	g_autofree char *method = method_of(loaded->key.test);
	g_string_append(s, "  commits under load: ");
	g_string_append_printf(s, "%s/s at p99 %s", rate, p99);
	if (ab_known(procs))
		g_string_append_printf(s, " beside %" G_GUINT64_FORMAT " oltp process%s", procs, procs == 1 ? "" : "es");
	g_string_append_printf(s, " (%s", method);
	const struct ab_result *alone = alone_commit(run, loaded);
	if (alone) {
		char arate[32], ap99[16];
		ab_format_rate(alone->rate, arate, sizeof(arate));
		ab_format_latency(alone->latency.p99_ns, ap99, sizeof(ap99));
		g_string_append_printf(s, "; alone, same step: %s/s at p99 %s", arate, ap99);
	}
	g_string_append(s, ")\n");
}

/* "512 MiB", "2.0 GiB": a size in the statement's words. */
static void mib_text(uint64_t bytes, char *out, size_t len)
{
	if (bytes >= (1ull << 30))
		snprintf(out, len, "%.1f GiB", bytes / (double)(1ull << 30));
	else
		snprintf(out, len, "%" G_GUINT64_FORMAT " MiB", (uint64_t)((bytes + (1ull << 19)) >> 20));
}

/* How much of the oltp's data file the page cache could hold: once it
 * warms, about that share of the processes' random reads come from memory,
 * and the IOPS above count them as the disks'.  The bound is the memory
 * cgroup's limit, else the machine's RAM; nothing is said when neither is
 * known or the processes bypassed the cache (O_DIRECT). */
static void oltp_cache_line(GString *s, const struct ab_run *run, const struct ab_result *all)
{
	if (all->direct == TRUE || !ab_known(all->key.file_size) || !all->key.file_size)
		return;
	uint64_t cap;
	const char *whose;
	if (ab_known(run->cache_limit_bytes) && run->cache_limit_bytes) {
		cap = run->cache_limit_bytes;
		whose = "the memory cgroup's limit";
	} else if (run->cond.cache_mode && strcmp(run->cond.cache_mode, "cgroup") != 0 && ab_known(run->ram_bytes) &&
		   run->ram_bytes) {
		cap = run->ram_bytes;
		whose = "the machine's RAM";
	} else {
		return;
	}
	char file[32], bound[32];
	mib_text(all->key.file_size, file, sizeof(file));
	mib_text(cap, bound, sizeof(bound));
	if (cap >= all->key.file_size)
		g_string_append_printf(s, "    the page cache could hold all of its %s data file (%s, %s): once warm, "
					  "its reads may come from memory, not the disks\n", file, whose, bound);
	else
		g_string_append_printf(s, "    the page cache could hold %.0f%% of its %s data file (%s, %s): once warm, "
					  "about that share of its reads may come from memory\n",
				       100.0 * (double)cap / (double)all->key.file_size, file, whose, bound);
}

/* The oltp processes' figures, of the largest count measured alone. */
static void oltp_line(GString *s, const struct ab_run *run)
{
	const struct ab_result *all = NULL;
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (is_phase(r, "oltp") && strcmp(r->key.test, "all") == 0 && !isnan(r->rate) &&
		    (!all || (ab_known(r->key.streams) && r->key.streams >= all->key.streams)))
			all = r;
	}
	if (!all)
		return;
	const struct ab_result *kind[2] = { NULL, NULL };
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (!is_phase(r, "oltp") || !same_commit(r, all) || r->key.file_size != all->key.file_size ||
		    r->key.pass != all->key.pass)
			continue;
		if (strcmp(r->key.test, "read") == 0)
			kind[0] = r;
		else if (strcmp(r->key.test, "write") == 0)
			kind[1] = r;
	}
	char rate[32], size[32];
	ab_format_rate(all->rate, rate, sizeof(rate));
	size_text(all->key.record_size, size, sizeof(size));
	g_string_append_printf(s, "  random %s, closed loop: %s IOPS", size, rate);
	if (ab_known(all->key.streams))
		g_string_append_printf(s, " with %" G_GUINT64_FORMAT " process%s", all->key.streams,
				       all->key.streams == 1 ? "" : "es");
	if (ab_known(all->key.streams))
		ranks_text(s, run);
	if (kind[0] && kind[1] && all->rate > 0 && !isnan(kind[0]->rate))
		g_string_append_printf(s, ", %.0f%% reads", 100 * kind[0]->rate / all->rate);
	static const char *const names[2] = { "read", "write" };
	const char *sep = "; ";
	for (int k = 0; k < 2; k++) {
		if (!kind[k] || !ab_known(kind[k]->latency.p99_ns) || !(kind[k]->rate > 0))
			continue;
		char p99[16];
		ab_format_latency(kind[k]->latency.p99_ns, p99, sizeof(p99));
		g_string_append_printf(s, "%s%s p99 %s", sep, names[k], p99);
		sep = ", ";
	}
	g_string_append_c(s, '\n');
	oltp_cache_line(s, run, all);
}

/* Each latency curve's answer (its "sizing" row). */
static void curve_lines(GString *s, const struct ab_run *run)
{
	const struct ab_result *last_step = NULL; /* of the curve a sizing row closes */
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (!ab_text_is_curve_result(r) || !r->key.test)
			continue;
		if (strcmp(r->key.test, "sizing") != 0) {
			last_step = r;
			continue;
		}
		/* The next curve's steps are its own: none borrows these.  With
		 * no target the table judges no step: nothing passed. */
		const struct ab_result *its_last = g_steal_pointer(&last_step);
		if (!ab_known(r->latency.p99_ns))
			its_last = NULL;
		char rate[32], target[16], size[32];
		ab_format_rate(r->rate, rate, sizeof(rate));
		ab_format_latency(r->latency.p99_ns, target, sizeof(target));
		size_text(r->key.record_size, size, sizeof(size));
		gboolean writes = r->timed && g_strv_contains((const char *const *)r->timed, "pwrite");
		g_string_append_printf(s, "  random %s %s: ", size, writes ? "I/O" : "reads");
		if (isnan(r->rate))
			g_string_append_printf(s, "no rate tried met p99 <= %s", target);
		else
			g_string_append_printf(s, "%s IOPS at p99 <= %s", rate, target);
		if (ab_known(r->key.streams))
			g_string_append_printf(s, " with %" G_GUINT64_FORMAT " process%s", r->key.streams,
					       r->key.streams == 1 ? "" : "es");
		if (ab_known(r->key.streams))
			ranks_text(s, run);
		/* How it was read off: interpolated as the row says, the
		 * rest only from steps the table shows. */
		if (r->interpolated == TRUE)
			g_string_append(s, " (interpolated between two steps)");
		else if (!isnan(r->rate) && its_last && its_last->offered_rate == r->rate)
			g_string_append(s, " (at least: every step passed)");
		else if (!isnan(r->rate) && its_last)
			g_string_append(s, " (the last step that passed)");
		g_string_append_c(s, '\n');
	}
}

static gboolean has_curve_sizing(const struct ab_run *run)
{
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (ab_text_is_curve_result(r) && g_strcmp0(r->key.test, "sizing") == 0)
			return TRUE;
	}
	return FALSE;
}

static gboolean has_oltp(const struct ab_run *run)
{
	for (guint i = 0; i < run->results->len; i++)
		if (g_strcmp0(((const struct ab_result *)g_ptr_array_index(run->results, i))->phase, "oltp") == 0)
			return TRUE;
	return FALSE;
}

void ab_text_sizing(GString *s, const struct ab_run *run)
{
	guint methods = 0;
	const struct ab_result *best = best_commit(run, &methods);
	uint64_t procs = AB_UNSET;
	const struct ab_result *loaded = loaded_commit(run, best, &procs);
	gboolean oltp = has_oltp(run), curve = has_curve_sizing(run);
	if (!best && !loaded && !oltp && !curve)
		return;
	g_string_append(s, "\nsizing, read off the tables above:\n");
	if (best)
		commits_line(s, best, methods);
	if (loaded)
		loaded_line(s, run, loaded, procs);
	if (oltp)
		oltp_line(s, run);
	curve_lines(s, run);
}

/* A result of the database phases, of which the statement speaks. */
static gboolean is_database_result(const struct ab_result *r)
{
	return ab_text_is_wal_result(r) || ab_text_is_curve_result(r) || g_strcmp0(r->phase, "oltp") == 0;
}

static gboolean has_database_result(const struct ab_run *run)
{
	return ab_text_run_has(run, is_database_result);
}

const struct ab_text_block ab_text_block_sizing = {
	.name = "sizing statement",
	.applies = has_database_result,
	.append = ab_text_sizing,
};
