/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Lifecycle of the results model (run.h). */
#include "run.h"
#include "../../workloads/phase.h"

#include <string.h>

static void queue_desc_clear(void *p)
{
	struct ab_queue_desc *q = p;
	g_free(q->name);
	g_free(q->scheduler);
}

static void device_io_clear(void *p)
{
	g_free(((struct ab_device_io *)p)->name);
}

static void rank_stat_clear(void *p)
{
	g_free(((struct ab_rank_stat *)p)->host);
}

static void latency_unknown(struct ab_latency *l)
{
	l->samples = l->min_ns = l->p50_ns = l->p90_ns = l->p99_ns = l->p99_9_ns = l->max_ns = AB_UNSET;
	l->mean_ns = NAN;
}

struct ab_result *ab_result_new(const char *phase)
{
	struct ab_result *r = g_new0(struct ab_result, 1);
	r->phase = g_strdup(phase);
	r->key = (struct ab_cell_key){ AB_UNSET, AB_UNSET, AB_UNSET, NULL, 1 };
	r->min_measurable_s = NAN;
	r->rate = r->cpu_percent = r->elapsed_s = NAN;
	r->bytes = r->ops = r->workers = AB_UNSET;
	r->user_s = r->sys_s = r->life_user_s = r->life_sys_s = NAN;
	r->sys_busy_percent = r->iowait_percent = NAN;
	r->max_rss_kib = -1;
	r->direct = r->laid_out_untimed = AB_FLAG_UNKNOWN;
	r->resident_at_start = NAN;
	r->offered_rate = NAN;
	r->interpolated = AB_FLAG_UNKNOWN;
	r->late_ops = AB_UNSET;
	r->max_late_s = NAN;
	r->stonewall_rate = r->end_to_end_rate = r->min_worker_rate = r->max_worker_rate = NAN;
	r->min_bytes_at_stonewall = AB_UNSET;
	r->stonewall_time_s = r->deadline_rate = r->deadline_counted_s = NAN;
	r->wearout = AB_FLAG_UNKNOWN;
	r->min_bytes_at_deadline = r->max_bytes_at_deadline = AB_UNSET;
	latency_unknown(&r->latency);
	r->clock_bound_s = r->start_spread_s = NAN;
	r->per_rank = g_array_new(FALSE, TRUE, sizeof(struct ab_rank_stat));
	g_array_set_clear_func(r->per_rank, rank_stat_clear);
	r->per_worker = g_array_new(FALSE, TRUE, sizeof(struct ab_worker_stat));
	r->devices = g_array_new(FALSE, TRUE, sizeof(struct ab_device_io));
	g_array_set_clear_func(r->devices, device_io_clear);
	return r;
}

void ab_result_free(struct ab_result *r)
{
	if (!r)
		return;
	g_free(r->phase);
	g_free(r->key.test);
	g_free(r->sync_mode);
	g_free(r->cache_mode);
	g_free(r->cache_state);
	g_strfreev(r->timed);
	g_array_unref(r->per_rank);
	g_array_unref(r->per_worker);
	g_array_unref(r->devices);
	g_free(r);
}

struct ab_run *ab_run_new(void)
{
	struct ab_run *run = g_new0(struct ab_run, 1);
	run->repeat = run->seed = run->concurrency = run->cpus = run->ram_bytes = AB_UNSET;
	run->start_unix = INT64_MIN;
	run->cache_controlled = AB_FLAG_UNKNOWN;
	run->cache_limit_bytes = AB_UNSET;
	struct ab_conditions *c = &run->cond;
	c->file_size = c->io_chunk = c->seeks = c->seekers = c->per_char_bytes = AB_UNSET;
	c->num_files_k = c->file_max = c->file_min = c->num_dirs = c->file_chunk = AB_UNSET;
	c->ram_mib = c->repeats = c->stride = c->files_per_stream = AB_UNSET;
	c->shared_file = AB_FLAG_UNKNOWN;
	c->stonewall_time_s = NAN;
	c->wearout = AB_FLAG_UNKNOWN;
	c->seeks_given = c->ram_given = c->direct = c->sync_each_write = c->cold_metadata = AB_FLAG_UNKNOWN;
	struct ab_target_desc *t = &run->target;
	t->chunk_bytes = t->image_count = t->image_size = AB_UNSET;
	t->members = g_ptr_array_new_with_free_func(g_free);
	t->queues = g_array_new(FALSE, TRUE, sizeof(struct ab_queue_desc));
	g_array_set_clear_func(t->queues, queue_desc_clear);
	struct ab_mpi_desc *m = &run->mpi;
	m->ranks = m->nodes = AB_UNSET;
	m->hosts = g_ptr_array_new_with_free_func(g_free);
	m->reorder = AB_FLAG_UNKNOWN;
	m->clock_bound_s = m->start_spread_s = NAN;
	run->tune.round = run->tune.index = run->tune.min_rounds = AB_UNSET;
	run->tune.alpha = NAN;
	run->results = g_ptr_array_new_with_free_func((GDestroyNotify)ab_result_free);
	return run;
}

void ab_run_free(struct ab_run *run)
{
	if (!run)
		return;
	g_free(run->tool);
	g_free(run->tool_version);
	g_free(run->run_id);
	g_free(run->seed_text);
	g_free(run->cell);
	g_free(run->workload);
	g_free(run->failure);
	g_free(run->machine);
	g_free(run->host);
	g_free(run->kernel);
	g_free(run->fs_type);
	g_free(run->cache_desc);
	g_free(run->cache_warning);
	struct ab_conditions *c = &run->cond;
	g_free(c->dir);
	g_free(c->per_char_mode);
	g_free(c->file_kind);
	g_free(c->data);
	g_free(c->cache_mode);
	g_free(c->cache_limits);
	struct ab_target_desc *t = &run->target;
	g_free(t->backend);
	g_free(t->mount_dir);
	g_free(t->level);
	g_free(t->layout);
	g_free(t->fs);
	g_free(t->source);
	g_ptr_array_unref(t->members);
	g_free(t->mkfs_command);
	g_free(t->mount_options);
	g_free(t->mount_effective);
	g_free(t->label);
	g_free(t->image_dir);
	g_free(t->image_dir_fs);
	g_array_unref(t->queues);
	g_ptr_array_unref(run->mpi.hosts);
	g_free(run->mpi.library);
	g_free(run->mpi.layout);
	g_free(run->tune.objective);
	g_free(run->tune.direction);
	g_free(run->tune.stage);
	g_free(run->tune.candidate);
	g_strfreev(run->tune.words);
	g_ptr_array_unref(run->results);
	g_free(run);
}

struct ab_result *ab_result_dup(const struct ab_result *r)
{
	struct ab_result *d = ab_result_new(r->phase);
	GArray *per_worker = d->per_worker, *devices = d->devices, *per_rank = d->per_rank;
	char *phase = d->phase;
	*d = *r;
	d->phase = phase;
	d->key.test = g_strdup(r->key.test);
	d->sync_mode = g_strdup(r->sync_mode);
	d->cache_mode = g_strdup(r->cache_mode);
	d->cache_state = g_strdup(r->cache_state);
	d->timed = g_strdupv(r->timed); /* was shared: both frees freed it */
	d->per_worker = per_worker;
	g_array_append_vals(per_worker, r->per_worker->data, r->per_worker->len);
	d->per_rank = per_rank;
	for (guint i = 0; i < r->per_rank->len; i++) {
		struct ab_rank_stat rs = g_array_index(r->per_rank, struct ab_rank_stat, i);
		rs.host = g_strdup(rs.host);
		g_array_append_val(per_rank, rs);
	}
	d->devices = devices;
	for (guint i = 0; i < r->devices->len; i++) {
		struct ab_device_io io = g_array_index(r->devices, struct ab_device_io, i);
		io.name = g_strdup(io.name);
		g_array_append_val(devices, io);
	}
	return d;
}

static gboolean same_cell(const struct ab_cell_key *a, const struct ab_cell_key *b)
{
	return a->file_size == b->file_size && a->record_size == b->record_size && a->streams == b->streams &&
	       g_strcmp0(a->test, b->test) == 0;
}

void ab_run_add_result(struct ab_run *run, struct ab_result *res)
{
	uint64_t pass = 1;
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (g_strcmp0(r->phase, res->phase) == 0 && same_cell(&r->key, &res->key))
			pass++;
	}
	res->key.pass = pass;
	g_ptr_array_add(run->results, res);
}

const struct ab_result *ab_run_find(const struct ab_run *run, const char *phase)
{
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (r->key.pass == 1 && g_strcmp0(r->phase, phase) == 0)
			return r;
	}
	return NULL;
}

gboolean ab_run_ran_any(const struct ab_run *run, unsigned phase_flags)
{
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		const struct ab_phase *ph = ab_phase_by_name(r->phase);
		if (ph && (ph->flags & phase_flags))
			return TRUE;
	}
	return FALSE;
}

void ab_run_set_init(struct ab_run_set *set)
{
	*set = (struct ab_run_set){ .runs = g_ptr_array_new_with_free_func((GDestroyNotify)ab_run_free) };
}

void ab_run_set_init_once(struct ab_run_set *set)
{
	ab_run_set_init(set);
	set->keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

/* Each field with its length first, so that no run id or cell, however
 * made up, reads as another's fields. */
static char *run_key(const struct ab_run *run, const char *text)
{
	if (!run->run_id)
		return g_strdup_printf("line %s", text ? text : "");
	g_autofree char *repeat = ab_known(run->repeat) ? g_strdup_printf("%" G_GUINT64_FORMAT, run->repeat)
						       : g_strdup("-");
	const char *cell = run->cell ? run->cell : "";
	return g_strdup_printf("run %zu:%s %s %c%zu:%s", strlen(run->run_id), run->run_id, repeat,
			       run->cell ? 'c' : '-', strlen(cell), cell);
}

/* The value of a "line" key a run with a run id holds for its own line
 * (the others point at the run read from that line). */
static char own_line_mark;

gboolean ab_run_set_add_once(struct ab_run_set *set, struct ab_run *run, const char *text, const char *own_line)
{
	if (!set->keys) {
		g_ptr_array_add(set->runs, run);
		return TRUE;
	}
	char *key = run_key(run, text);
	if (g_hash_table_contains(set->keys, key)) {
		g_free(key);
		ab_run_free(run);
		set->dropped++;
		return FALSE;
	}
	/* A line without a run id read before may be this run's own (its
	 * CSV line); the run with the id tells more (its cell, its
	 * conditions), so it is the one kept, where the line was. */
	g_hash_table_insert(set->keys, key, run->run_id ? NULL : run);
	if (run->run_id && own_line) {
		char *line_key = g_strdup_printf("line %s", own_line);
		struct ab_run *line_run = g_hash_table_lookup(set->keys, line_key);
		guint at;
		if (line_run && line_run != (void *)&own_line_mark && g_ptr_array_find(set->runs, line_run, &at)) {
			ab_run_free(set->runs->pdata[at]);
			set->runs->pdata[at] = run;
			set->dropped++;
			g_hash_table_insert(set->keys, line_key, &own_line_mark);
			return TRUE;
		}
		if (!line_run)
			g_hash_table_insert(set->keys, line_key, &own_line_mark);
		else
			g_free(line_key);
	}
	g_ptr_array_add(set->runs, run);
	return TRUE;
}

void ab_run_set_clear(struct ab_run_set *set)
{
	if (set->runs)
		g_ptr_array_unref(set->runs);
	if (set->keys)
		g_hash_table_unref(set->keys);
	g_free(set->first_dropped);
	*set = (struct ab_run_set){ 0 };
}
