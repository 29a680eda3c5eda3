/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cluster over MPI ranks (src/base/cluster.h), built into
 * arraybench-mpi only.  Every meeting goes through rank 0 by point-to-point
 * messages that each rank polls for, never a blocking collective: a wait
 * must notice a stop signal and a rank that gave up, so that no rank hangs
 * in a call another rank will never make.  A rank that gives up outside a
 * meeting sends its reason to rank 0, which passes it on to every rank;
 * from then on every call fails at once with that reason.
 *
 * Only the parent process calls these, between steps: never a worker, a
 * timed loop or a signal handler.
 */
#include "cluster-mpi.h"
#include "../base/error.h"
#include "../base/timing.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
	TAG_STATUS = 101, /* a rank's status to rank 0 */
	TAG_VERDICT,      /* rank 0's verdict to every rank */
	TAG_FAULT,        /* a rank gave up: to rank 0 */
	TAG_ABORT,        /* rank 0 passes a fault on to every rank */
	TAG_PING,
	TAG_PONG,
	TAG_CLOCKS,       /* rank 0's offsets and bounds to every rank */
	TAG_DATA,         /* a rank's bytes to rank 0 */
	TAG_ALL,          /* every rank's bytes to every rank */
};

#define WHY_BYTES 1024
#ifndef AB_SPIN_NS
#define AB_SPIN_NS 2000000
#endif

/* What a meeting carries: the status, the meeting's number (every rank's
 * n-th call must be the same n-th call) and why a rank is not ok. */
struct wire_status {
	int32_t ok;
	int32_t has_why;
	uint32_t rank;     /* in a verdict: the rank it is about */
	uint32_t pad;
	uint64_t seq;
	uint64_t len;      /* allgather: the bytes that follow */
	char why[WHY_BYTES];
};

struct mpi_cluster {
	struct ab_cluster base;
	uint64_t seq;         /* meetings so far */
	int64_t test_offset_ns;
	/* This rank's clock offset to rank 0's, as last measured (at start and
	 * after every step): a start time is carried over with it. */
	int64_t my_offset_ns;
	/* Set once any rank gave up (or this one): every call fails with it. */
	char *dead;
};

static struct mpi_cluster *of(struct ab_cluster *c)
{
	return (struct mpi_cluster *)c;
}

static uint64_t mpi_now(struct ab_cluster *c)
{
	return (uint64_t)((int64_t)ab_now_ns() + of(c)->test_offset_ns);
}

/* From now on every call fails at once with `why`: after a failed
 * meeting the ranks no longer run the same calls, and one waiting for a
 * meeting another will never hold would hang. */
static void set_dead(struct mpi_cluster *m, const char *why, gboolean peer)
{
	if (!m->dead)
		m->dead = g_strdup(why);
	m->base.peer_fault |= peer;
}

/* Sends a small message without waiting for it to be received: it is
 * eager on every transport we use, and a rank that never receives it (it
 * left) must not hold this one. */
static void send_and_forget(const void *buf, int len, int to, int tag)
{
	MPI_Request req;
	if (MPI_Isend(buf, len, MPI_BYTE, to, tag, MPI_COMM_WORLD, &req) == MPI_SUCCESS)
		MPI_Request_free(&req);
}

/* A fault or an abort waiting for this rank?  Rank 0 passes a fault on. */
static gboolean fault_arrived(struct mpi_cluster *m)
{
	int flag = 0;
	MPI_Status st;
	int tag = m->base.rank == 0 ? TAG_FAULT : TAG_ABORT;
	MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &st);
	if (!flag)
		return FALSE;
	char why[WHY_BYTES + 64] = "";
	MPI_Recv(why, sizeof(why) - 1, MPI_CHAR, st.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	why[sizeof(why) - 1] = '\0';
	if (m->base.rank == 0)
		for (unsigned r = 1; r < m->base.size; r++)
			if ((int)r != st.MPI_SOURCE)
				send_and_forget(why, (int)strlen(why) + 1, (int)r, TAG_ABORT);
	set_dead(m, why, TRUE);
	return TRUE;
}

/* Sleeps between polls once the wait has lasted: a waiting rank must not
 * take a CPU from another rank's timed work on a shared machine. */
static void pause_poll(uint64_t since)
{
	if (ab_now_ns() - since < AB_SPIN_NS)
		return; /* spin for the first 2 ms: a barrier's exit is sharper */
	struct timespec ts = { 0, 100 * 1000 };
	nanosleep(&ts, NULL);
}

/* Waits for every request, polling for faults and stop requests; on
 * giving up, the requests still open are cancelled. */
static void mpi_fault(struct ab_cluster *c, const char *why);

static gboolean wait_all(struct mpi_cluster *m, MPI_Request *reqs, int n, GError **error)
{
	uint64_t since = ab_now_ns();
	/* Statuses of our own, though unread: MPICH's header with
	 * MPI_STATUSES_IGNORE trips a compiler's bounds warning. */
	g_autofree MPI_Status *statuses = g_new(MPI_Status, n);
	for (;;) {
		int done = 0;
		MPI_Testall(n, reqs, &done, statuses);
		if (done)
			return TRUE;
		gboolean fault = m->dead || fault_arrived(m);
		if (fault || ab_cluster_stopped()) {
			for (int i = 0; i < n; i++)
				if (reqs[i] != MPI_REQUEST_NULL) {
					MPI_Cancel(&reqs[i]);
					MPI_Request_free(&reqs[i]);
				}
			if (fault) {
				g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "%s", m->dead);
			} else {
				g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted");
				/* Stopped: say so now, not as it leaves (after its
				 * teardown), so the others stop their steps too. */
				mpi_fault(&m->base, "interrupted");
			}
			return FALSE;
		}
		pause_poll(since);
	}
}

/* Waits for a message from `from` with `tag`, of any length, into a new
 * buffer. */
static gboolean receive_any(struct mpi_cluster *m, int from, int tag, GByteArray *into, GError **error)
{
	uint64_t since = ab_now_ns();
	for (;;) {
		int flag = 0;
		MPI_Status st;
		MPI_Iprobe(from, tag, MPI_COMM_WORLD, &flag, &st);
		if (flag) {
			int count = 0;
			MPI_Get_count(&st, MPI_BYTE, &count);
			g_byte_array_set_size(into, (guint)count);
			MPI_Recv(into->data, count, MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			return TRUE;
		}
		if (m->dead || fault_arrived(m)) {
			g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "%s", m->dead);
			return FALSE;
		}
		if (ab_cluster_stopped()) {
			g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted");
			return FALSE;
		}
		pause_poll(since);
	}
}

static void status_init(struct wire_status *st, const struct mpi_cluster *m, gboolean ok, const char *why)
{
	memset(st, 0, sizeof(*st));
	st->ok = ok;
	st->rank = m->base.rank;
	st->seq = m->seq;
	if (!ok && why) {
		st->has_why = 1;
		g_strlcpy(st->why, why, sizeof(st->why));
	}
}

/* Rank 0's verdict over every rank's status: the first rank not ok, with
 * a reason when one gave it. */
static void verdict_of(const struct wire_status *all, unsigned size, struct wire_status *v)
{
	int first = -1;
	for (unsigned r = 0; r < size; r++)
		if (!all[r].ok && (first < 0 || (all[r].has_why && !all[first].has_why)))
			first = (int)r;
	v->ok = first < 0;
	if (first >= 0) {
		v->rank = (uint32_t)first;
		v->has_why = all[first].has_why;
		memcpy(v->why, all[first].why, sizeof(v->why));
	}
}

/* Checks that every rank made the same call, then says the verdict. */
static gboolean verdict_result(struct mpi_cluster *m, const struct wire_status *v, GError **error)
{
	if (v->ok)
		return TRUE;
	g_autofree char *text = g_strdup_printf("rank %u: %s", v->rank, v->has_why ? v->why : "not ready");
	gboolean own = v->rank == m->base.rank && v->has_why;
	set_dead(m, text, !own);
	/* The rank at fault says its own error; the others name it. */
	if (!own)
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "%s", text);
	return FALSE;
}

static gboolean check_seq(struct mpi_cluster *m, const struct wire_status *all, unsigned size, struct wire_status *v)
{
	for (unsigned r = 0; r < size; r++)
		if (all[r].seq != m->seq) {
			v->ok = 0;
			v->rank = r;
			v->has_why = 1;
			snprintf(v->why, sizeof(v->why),
				 "is at meeting %" G_GUINT64_FORMAT " where rank 0 is at %" G_GUINT64_FORMAT
				 ": the ranks do not run the same steps",
				 all[r].seq, m->seq);
			return FALSE;
		}
	return TRUE;
}

/* How long after its verdict rank 0 sets the start: enough for the
 * verdict to reach every rank and wake it, on a machine with more ranks
 * than cores. */
#define START_MARGIN_NS (20 * 1000 * 1000)

static gboolean meet_at(struct ab_cluster *c, gboolean ok_here, const char *why_here, uint64_t *start_ns,
			GError **error);

static gboolean mpi_meet(struct ab_cluster *c, gboolean ok_here, const char *why_here, GError **error)
{
	return meet_at(c, ok_here, why_here, NULL, error);
}

static gboolean mpi_meet_to_start(struct ab_cluster *c, gboolean ok_here, const char *why_here, uint64_t *start_ns,
				  GError **error)
{
	return meet_at(c, ok_here, why_here, start_ns, error);
}

static gboolean meet_at(struct ab_cluster *c, gboolean ok_here, const char *why_here, uint64_t *start_ns,
			GError **error)
{
	struct mpi_cluster *m = of(c);
	if (m->dead) {
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "%s", m->dead);
		return FALSE;
	}
	m->seq++;
	unsigned size = c->size;
	struct wire_status mine;
	status_init(&mine, m, ok_here, why_here);
	/* Said only once the meeting is held: a rank stopped while waiting
	 * for it leaves its fault to be sent on its way out (mpi-main.c), or
	 * the others, at another meeting by then, would wait for it for ever. */
	gboolean saying = !ok_here && why_here;
	if (c->rank != 0) {
		struct wire_status v;
		MPI_Request reqs[2];
		MPI_Isend(&mine, sizeof(mine), MPI_BYTE, 0, TAG_STATUS, MPI_COMM_WORLD, &reqs[0]);
		MPI_Irecv(&v, sizeof(v), MPI_BYTE, 0, TAG_VERDICT, MPI_COMM_WORLD, &reqs[1]);
		if (!wait_all(m, reqs, 2, error))
			return FALSE;
		c->fault_said |= saying;
		if (start_ns) /* rank 0's moment on this rank's clock */
			*start_ns = (uint64_t)((int64_t)v.len - m->my_offset_ns);
		return verdict_result(m, &v, error);
	}
	g_autofree struct wire_status *all = g_new0(struct wire_status, size);
	g_autofree MPI_Request *reqs = g_new(MPI_Request, size);
	all[0] = mine;
	reqs[0] = MPI_REQUEST_NULL;
	for (unsigned r = 1; r < size; r++)
		MPI_Irecv(&all[r], sizeof(all[r]), MPI_BYTE, (int)r, TAG_STATUS, MPI_COMM_WORLD, &reqs[r]);
	if (!wait_all(m, reqs, (int)size, error))
		return FALSE;
	struct wire_status v;
	status_init(&v, m, TRUE, NULL);
	if (check_seq(m, all, size, &v))
		verdict_of(all, size, &v);
	/* The start, on rank 0's clock, rides in the verdict's length. */
	v.len = mpi_now(c) + (size > 1 ? START_MARGIN_NS : 0);
	if (start_ns)
		*start_ns = v.len;
	for (unsigned r = 1; r < size; r++)
		MPI_Isend(&v, sizeof(v), MPI_BYTE, (int)r, TAG_VERDICT, MPI_COMM_WORLD, &reqs[r]);
	if (!wait_all(m, reqs, (int)size, error))
		return FALSE;
	c->fault_said |= saying;
	return verdict_result(m, &v, error);
}

static gboolean mpi_allgather(struct ab_cluster *c, const void *buf, size_t len, gboolean ok_here,
			      const char *why_here, GByteArray *all, size_t *lens, GError **error)
{
	struct mpi_cluster *m = of(c);
	if (m->dead) {
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "%s", m->dead);
		return FALSE;
	}
	m->seq++;
	unsigned size = c->size;
	/* One message each way: a status head, then the bytes. */
	g_autoptr(GByteArray) msg = g_byte_array_new();
	struct wire_status mine;
	status_init(&mine, m, ok_here, why_here);
	gboolean saying = !ok_here && why_here; /* said once held, as in meet_at() */
	mine.len = ok_here ? len : 0;
	g_byte_array_append(msg, (const guint8 *)&mine, sizeof(mine));
	if (ok_here)
		g_byte_array_append(msg, buf, (guint)len);
	if (c->rank != 0) {
		MPI_Request req;
		MPI_Isend(msg->data, (int)msg->len, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, &req);
		g_autoptr(GByteArray) back = g_byte_array_new();
		if (!receive_any(m, 0, TAG_ALL, back, error)) {
			MPI_Cancel(&req);
			MPI_Request_free(&req);
			return FALSE;
		}
		if (!wait_all(m, &req, 1, error))
			return FALSE;
		c->fault_said |= saying;
		struct wire_status v;
		memcpy(&v, back->data, sizeof(v));
		if (!verdict_result(m, &v, error))
			return FALSE;
		const guint8 *at = back->data + sizeof(v);
		memcpy(lens, at, sizeof(size_t) * size);
		at += sizeof(size_t) * size;
		g_byte_array_set_size(all, 0);
		g_byte_array_append(all, at, (guint)v.len);
		return TRUE;
	}
	g_autofree struct wire_status *heads = g_new0(struct wire_status, size);
	g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func((GDestroyNotify)g_byte_array_unref);
	g_ptr_array_add(parts, g_byte_array_ref(msg));
	heads[0] = mine;
	for (unsigned r = 1; r < size; r++) {
		GByteArray *part = g_byte_array_new();
		g_ptr_array_add(parts, part);
		if (!receive_any(m, (int)r, TAG_DATA, part, error))
			return FALSE;
		if (part->len < sizeof(struct wire_status)) {
			set_dead(m, "a rank sent a short message", TRUE);
			g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "rank %u sent a short message", r);
			return FALSE;
		}
		memcpy(&heads[r], part->data, sizeof(heads[r]));
	}
	struct wire_status v;
	status_init(&v, m, TRUE, NULL);
	if (check_seq(m, heads, size, &v))
		verdict_of(heads, size, &v);
	g_autoptr(GByteArray) out = g_byte_array_new();
	g_byte_array_set_size(all, 0);
	if (v.ok) {
		for (unsigned r = 0; r < size; r++) {
			GByteArray *part = parts->pdata[r];
			lens[r] = heads[r].len;
			g_byte_array_append(all, part->data + sizeof(struct wire_status), (guint)heads[r].len);
		}
		v.len = all->len;
	}
	g_byte_array_append(out, (const guint8 *)&v, sizeof(v));
	if (v.ok) {
		g_byte_array_append(out, (const guint8 *)lens, (guint)(sizeof(size_t) * size));
		g_byte_array_append(out, all->data, all->len);
	}
	g_autofree MPI_Request *reqs = g_new(MPI_Request, size);
	reqs[0] = MPI_REQUEST_NULL;
	for (unsigned r = 1; r < size; r++)
		MPI_Isend(out->data, (int)out->len, MPI_BYTE, (int)r, TAG_ALL, MPI_COMM_WORLD, &reqs[r]);
	if (!wait_all(m, reqs, (int)size, error))
		return FALSE;
	c->fault_said |= saying;
	return verdict_result(m, &v, error);
}

/* Round trips per rank: the smallest gives the offset and its bound. */
#define CLOCK_ROUNDS 24

/* Waits for one message of a known size, spinning: a round trip's wait
 * is short, and a sleep would widen the bound. */
static gboolean receive_spin(struct mpi_cluster *m, void *buf, int len, int from, int tag, GError **error)
{
	MPI_Request req;
	MPI_Irecv(buf, len, MPI_BYTE, from, tag, MPI_COMM_WORLD, &req);
	return wait_all(m, &req, 1, error);
}

static gboolean mpi_clock_offsets(struct ab_cluster *c, int64_t *offset_ns, uint64_t *bound_ns, GError **error)
{
	struct mpi_cluster *m = of(c);
	if (m->dead) {
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "%s", m->dead);
		return FALSE;
	}
	unsigned size = c->size;
	size_t table = sizeof(int64_t) * size;
	g_autofree guint8 *both = g_malloc0(table * 2);
	if (c->rank != 0) {
		for (int k = 0; k < CLOCK_ROUNDS; k++) {
			uint64_t ping;
			if (!receive_spin(m, &ping, sizeof(ping), 0, TAG_PING, error))
				return FALSE;
			uint64_t now = mpi_now(c);
			MPI_Send(&now, sizeof(now), MPI_BYTE, 0, TAG_PONG, MPI_COMM_WORLD);
		}
		if (!receive_spin(m, both, (int)(table * 2), 0, TAG_CLOCKS, error))
			return FALSE;
	} else {
		int64_t *off = (int64_t *)both;
		uint64_t *bnd = (uint64_t *)(both + table);
		for (unsigned r = 1; r < size; r++) {
			uint64_t best = UINT64_MAX;
			for (int k = 0; k < CLOCK_ROUNDS; k++) {
				uint64_t t1 = mpi_now(c), theirs = 0;
				MPI_Send(&t1, sizeof(t1), MPI_BYTE, (int)r, TAG_PING, MPI_COMM_WORLD);
				if (!receive_spin(m, &theirs, sizeof(theirs), (int)r, TAG_PONG, error))
					return FALSE;
				uint64_t t2 = mpi_now(c);
				if (t2 - t1 < best) {
					best = t2 - t1;
					/* Their reading fell, at best, midway. */
					off[r] = (int64_t)(t1 + (t2 - t1) / 2) - (int64_t)theirs;
					bnd[r] = (best + 1) / 2;
				}
			}
		}
		g_autofree MPI_Request *reqs = g_new(MPI_Request, size);
		reqs[0] = MPI_REQUEST_NULL;
		for (unsigned r = 1; r < size; r++)
			MPI_Isend(both, (int)(table * 2), MPI_BYTE, (int)r, TAG_CLOCKS, MPI_COMM_WORLD, &reqs[r]);
		if (!wait_all(m, reqs, (int)size, error))
			return FALSE;
	}
	memcpy(offset_ns, both, table);
	memcpy(bound_ns, both + table, table);
	m->my_offset_ns = offset_ns[c->rank];
	return TRUE;
}

static void mpi_fault(struct ab_cluster *c, const char *why)
{
	struct mpi_cluster *m = of(c);
	if (m->dead)
		return; /* someone said it already */
	g_autofree char *text = g_strdup_printf("rank %u: %s", c->rank, why);
	if (strlen(text) >= WHY_BYTES)
		text[WHY_BYTES - 1] = '\0';
	if (c->rank == 0)
		for (unsigned r = 1; r < c->size; r++)
			send_and_forget(text, (int)strlen(text) + 1, (int)r, TAG_ABORT);
	else
		send_and_forget(text, (int)strlen(text) + 1, 0, TAG_FAULT);
	m->dead = g_strdup(text);
}

static gboolean mpi_gave_up(struct ab_cluster *c)
{
	struct mpi_cluster *m = of(c);
	return m->dead || fault_arrived(m);
}

static const struct ab_cluster_ops mpi_ops = {
	.gave_up = mpi_gave_up,
	.meet = mpi_meet,
	.meet_to_start = mpi_meet_to_start,
	.allgather = mpi_allgather,
	.clock_offsets = mpi_clock_offsets,
	.fault = mpi_fault,
	.now_ns = mpi_now,
};

/* The test switches' bounds. */
#define TEST_OFFSET_MAX_NS (86400LL * 1000000000LL)
#define TEST_DELAY_MAX_S 3600.0

/* "R:VALUE" for this rank in a test switch's "R:VALUE,R:VALUE" list. */
static const char *test_value(const char *name, unsigned rank)
{
	const char *list = g_getenv(name);
	if (!list)
		return NULL;
	static char value[64];
	g_auto(GStrv) items = g_strsplit(list, ",", -1);
	for (char **it = items; *it; it++) {
		char *colon = strchr(*it, ':');
		if (!colon)
			continue;
		*colon = '\0';
		if (strcmp(*it, "*") == 0 || (unsigned)atoi(*it) == rank) {
			g_strlcpy(value, colon + 1, sizeof(value));
			return value;
		}
	}
	return NULL;
}

static char *library_version(void)
{
	char v[MPI_MAX_LIBRARY_VERSION_STRING] = "";
	int len = 0;
	MPI_Get_library_version(v, &len);
	/* The first line says what it is and its version. */
	char *nl = strchr(v, '\n');
	if (nl)
		*nl = '\0';
	return g_strstrip(g_strdup(v));
}

/* How many processes the launcher started, by its own word (Open MPI's
 * mpirun, MPICH's Hydra, PMIx launchers), or 0 when it says nothing. */
static long launcher_size(void)
{
	static const char *const names[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS" };
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		const char *v = g_getenv(names[i]);
		if (v && atol(v) > 0)
			return atol(v);
	}
	return 0;
}

gboolean ab_cluster_mpi_init(struct ab_cluster **out, GError **error)
{
	struct mpi_cluster *m = g_new0(struct mpi_cluster, 1);
	struct ab_cluster *c = &m->base;
	c->ops = &mpi_ops;
	int rank = 0, size = 1;
	/* A message to a rank that has already left must fail as a return
	 * code, not abort this rank (and the job's exit status with it). */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	c->rank = (unsigned)rank;
	c->size = (unsigned)size;
	c->library = library_version();
	/* A launcher of another MPI starts each process as a world of its
	 * own: they would run alone, side by side, each saying all is well. */
	long started = launcher_size();
	if (size == 1 && started > 1) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "the launcher started %ld processes but MPI sees one: this arraybench-mpi was built with "
			    "another MPI than the launcher's (%s); run it with that MPI's mpirun, or rebuild it with "
			    "make mpi MPICC=...",
			    started, c->library);
		return FALSE;
	}
	/* Test-only switches (every rank has the same environment; a value
	 * names its rank): a clock offset, a delay before each barrier, no
	 * barrier at all, and a fake node count.
	 * A value that is not a number, or lies outside a day's offset or an
	 * hour's delay, is ignored: a delay of 1e30 s or "inf" would sleep
	 * with a time no nanosleep() takes (and the wait retried it for ever),
	 * an offset near 2^63 would overflow the clock. */
	const char *v;
	char *end = NULL;
	if ((v = test_value("ARRAYBENCH_TEST_CLOCK_OFFSET_NS", c->rank))) {
		gint64 ns = g_ascii_strtoll(v, &end, 10);
		if (end != v && !*end && ns >= -TEST_OFFSET_MAX_NS && ns <= TEST_OFFSET_MAX_NS)
			m->test_offset_ns = ns;
	}
	if ((v = test_value("ARRAYBENCH_TEST_DELAY_S", c->rank))) {
		double s = g_ascii_strtod(v, &end);
		if (end != v && !*end && s >= 0 && s <= TEST_DELAY_MAX_S) /* NaN fails both */
			c->delay_before_meet_s = s;
	}
	c->no_barrier = g_strcmp0(g_getenv("ARRAYBENCH_TEST_NO_BARRIER"), "1") == 0;
	/* The node: the ranks that share memory with this one. */
	MPI_Comm local;
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local);
	int local_rank = 0, local_size = 1;
	MPI_Comm_rank(local, &local_rank);
	MPI_Comm_size(local, &local_size);
	MPI_Comm_free(&local);
	int leader = local_rank == 0, nodes = 1;
	MPI_Allreduce(&leader, &nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	c->nodes = (unsigned)nodes;
	c->ranks_per_node = (unsigned)local_size;
	const char *fake = g_getenv("ARRAYBENCH_TEST_FAKE_NODES");
	if (fake && atoi(fake) > 0 && size % atoi(fake) == 0) {
		c->nodes = (unsigned)atoi(fake);
		c->ranks_per_node = c->size / c->nodes;
	}
	/* Ranks are handed to nodes in blocks, as mpirun does by default. */
	c->node = c->rank / MAX(c->ranks_per_node, 1);
	/* Every rank's host name, in rank order. */
	char host[64] = "";
	gethostname(host, sizeof(host) - 1);
	g_autofree char *hosts = g_malloc0((size_t)size * sizeof(host));
	MPI_Allgather(host, sizeof(host), MPI_CHAR, hosts, sizeof(host), MPI_CHAR, MPI_COMM_WORLD);
	c->hosts = g_ptr_array_new_with_free_func(g_free);
	for (int r = 0; r < size; r++)
		g_ptr_array_add(c->hosts, g_strndup(hosts + (size_t)r * sizeof(host), sizeof(host)));
	/* The clocks' offsets, so that the first step's start is carried
	 * over too. */
	g_autofree int64_t *offset = g_new0(int64_t, size);
	g_autofree uint64_t *bound = g_new0(uint64_t, size);
	if (!mpi_clock_offsets(c, offset, bound, error))
		return FALSE;
	*out = c;
	return TRUE;
}

const char *ab_cluster_mpi_dead(struct ab_cluster *c)
{
	return of(c)->dead;
}
