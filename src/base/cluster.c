/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cluster of one rank: the plain binary's (cluster.h). */
#include "cluster.h"
#include "timing.h"

#include <string.h>
#include <unistd.h>

static gboolean one_meet(struct ab_cluster *c, gboolean ok_here, const char *why_here, GError **error)
{
	(void)c, (void)why_here, (void)error;
	return ok_here;
}

static gboolean one_allgather(struct ab_cluster *c, const void *buf, size_t len, gboolean ok_here,
			      const char *why_here, GByteArray *all, size_t *lens, GError **error)
{
	(void)c, (void)why_here, (void)error;
	g_byte_array_set_size(all, 0);
	g_byte_array_append(all, buf, (guint)len);
	lens[0] = len;
	return ok_here;
}

static gboolean one_clock_offsets(struct ab_cluster *c, int64_t *offset_ns, uint64_t *bound_ns, GError **error)
{
	(void)c, (void)error;
	offset_ns[0] = 0;
	bound_ns[0] = 0;
	return TRUE;
}

static void one_fault(struct ab_cluster *c, const char *why)
{
	(void)c, (void)why;
}

static uint64_t one_now(struct ab_cluster *c)
{
	(void)c;
	return ab_now_ns();
}

static gboolean one_meet_to_start(struct ab_cluster *c, gboolean ok_here, const char *why_here, uint64_t *start_ns,
				  GError **error)
{
	(void)c, (void)why_here, (void)error;
	*start_ns = ab_now_ns();
	return ok_here;
}

static const struct ab_cluster_ops one_rank_ops = {
	.meet_to_start = one_meet_to_start,
	.meet = one_meet,
	.allgather = one_allgather,
	.clock_offsets = one_clock_offsets,
	.fault = one_fault,
	.now_ns = one_now,
};

static struct ab_cluster one_rank = {
	.ops = &one_rank_ops,
	.size = 1,
	.nodes = 1,
	.ranks_per_node = 1,
};

static struct ab_cluster *current;
static gboolean (*stop_check)(void);

struct ab_cluster *ab_cluster_get(void)
{
	if (current)
		return current;
	if (!one_rank.hosts) {
		char host[256] = "";
		gethostname(host, sizeof(host) - 1);
		one_rank.hosts = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(one_rank.hosts, g_strdup(host));
	}
	return &one_rank;
}

void ab_cluster_set(struct ab_cluster *c)
{
	current = c;
}

struct ab_cluster *ab_cluster_set_aside(void)
{
	struct ab_cluster *was = current;
	current = NULL;
	return was;
}

void ab_cluster_put_back(struct ab_cluster *c)
{
	current = c;
}

gboolean ab_cluster_is_mpi(void)
{
	return current != NULL;
}

gboolean ab_cluster_writes(void)
{
	return ab_cluster_get()->rank == 0;
}

void ab_cluster_set_stop_check(gboolean (*stopped)(void))
{
	stop_check = stopped;
}

gboolean ab_cluster_stopped(void)
{
	return stop_check && stop_check();
}
