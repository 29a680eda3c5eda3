/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The timing rules, pinned: each phase runs in this process on a real file,
 * with fsync, close, read and write interposed (this program's definitions
 * win over libc's), so the test sees which calls a phase made on the test
 * file and when they returned, against the phase's own stop stamp.  Also the
 * merge formulas and the shared seek queue.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../src/options/config.h"
#include "../../src/model/result.h"
#include "../../src/options/steps.h"
#include "../../src/base/timing.h"
#include "../../workloads/phase.h"
#include "../../workloads/worker-coord.h"

/* What the interposed calls saw on the watched file (by inode). */
static struct {
	ino_t ino;           /* 0: watch nothing */
	unsigned fsyncs;
	uint64_t fsync_done_ns;
	unsigned closes;
	uint64_t close_done_ns;
	uint64_t writes, write_bytes;
	uint64_t reads;
} seen;

static gboolean watched(int fd)
{
	struct stat st;
	return seen.ino && syscall(SYS_fstat, fd, &st) == 0 && st.st_ino == seen.ino;
}

int fsync(int fd)
{
	gboolean w = watched(fd);
	if (w)
		g_usleep(2000); /* a slow disk: the stop stamp must come after this */
	int rc = (int)syscall(SYS_fsync, fd);
	if (w) {
		seen.fsyncs++;
		seen.fsync_done_ns = ab_now_ns();
	}
	return rc;
}

int close(int fd)
{
	gboolean w = watched(fd);
	int rc = (int)syscall(SYS_close, fd);
	if (w) {
		seen.closes++;
		seen.close_done_ns = ab_now_ns();
	}
	return rc;
}

ssize_t write(int fd, const void *buf, size_t len)
{
	ssize_t n = syscall(SYS_write, fd, buf, len);
	if (watched(fd)) {
		seen.writes++;
		seen.write_bytes += len;
	}
	return n;
}

ssize_t read(int fd, void *buf, size_t len)
{
	ssize_t n = syscall(SYS_read, fd, buf, len);
	if (watched(fd))
		seen.reads++;
	return n;
}

struct fixture {
	char *dir;
	int dir_fd;
	struct ab_config cfg;
	struct ab_sample sample;
	struct ab_coord_shared shared; /* the words the step's workers share */
	struct ab_coord_progress progress;
};

static int setup(void **state)
{
	struct fixture *f = g_new0(struct fixture, 1);
	f->dir = g_dir_make_tmp("ab-worker-XXXXXX", NULL);
	assert_non_null(f->dir);
	f->dir_fd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ab_config_init(&f->cfg);
	f->cfg.file_size = 1 * AB_MIB;
	f->cfg.io_chunk = 8192;
	f->cfg.byte_io_size = 64 * 1024;
	f->cfg.seeks = 300;
	f->cfg.seekers = 2;
	/* The test file, as the run claims it: empty, ours, one link. */
	int fd = openat(f->dir_fd, "io", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	close(fd);
	memset(&seen, 0, sizeof(seen));
	seen.ino = st.st_ino;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	seen.ino = 0;
	unlinkat(f->dir_fd, "io", 0);
	close(f->dir_fd);
	rmdir(f->dir);
	g_free(f->dir);
	ab_config_clear(&f->cfg);
	g_free(f);
	return 0;
}

/* Runs one phase as worker `worker` of `workers`, here, past an open
 * barrier (the go pipe's write end is already closed). */
static int run_here(struct fixture *f, enum ab_phase_id id, unsigned worker, unsigned workers)
{
	int ready[2], go[2];
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	close(go[1]);
	memset(&f->sample, 0, sizeof(f->sample));
	ab_histogram_init(&f->sample.latency);
	const struct ab_phase *ph = ab_phase_by_id(id);
	struct ab_step step = ab_step_from_config(&f->cfg, ph);
	struct ab_worker_coord coord = {
		.shared = &f->shared, .progress = &f->progress, .ready_fd = ready[1], .go_fd = go[0],
	};
	struct ab_phase_ctx ctx = {
		.phase = ph, .step = &step, .dir_fd = f->dir_fd, .io_name = "io", .run_fd = f->dir_fd,
		.io_path = "io", .files_dir = "files", .seed = 7, .worker = worker, .workers = workers,
		.sample = &f->sample, .coord = &coord,
	};
	int rc = ph->run(&ctx);
	close(ready[0]);
	if (rc != 0)
		fail_msg("phase %s failed: %s", ph->name, f->sample.error);
	return rc;
}

/* Every phase that claims "fsync and close timed" (the man page, the table
 * header, the JSON sync_mode) calls fsync and close on the test file, and
 * its stop stamp comes after both returned. */
static void test_fsync_close_before_stop(void **state)
{
	struct fixture *f = *state;
	const enum ab_phase_id ids[] = {
		AB_PHASE_PER_CHAR_WRITE, AB_PHASE_BLOCK_WRITE, AB_PHASE_REWRITE,
		AB_PHASE_PER_CHAR_READ, AB_PHASE_BLOCK_READ, AB_PHASE_SEEKS,
	};
	run_here(f, AB_PHASE_BLOCK_WRITE, 0, 1); /* the file the others read */
	for (size_t i = 0; i < G_N_ELEMENTS(ids); i++) {
		f->shared.tickets = 0;
		seen.fsyncs = seen.closes = 0;
		run_here(f, ids[i], 0, 1);
		const char *name = ab_phase_by_id(ids[i])->name;
		if (seen.fsyncs != 1 || seen.closes != 1)
			fail_msg("%s: %u fsyncs and %u closes of the test file, want 1 and 1", name, seen.fsyncs,
				 seen.closes);
		if (f->sample.end_ns < seen.fsync_done_ns || f->sample.end_ns < seen.close_done_ns)
			fail_msg("%s: the stop stamp comes before fsync or close returned", name);
		if (f->sample.start_ns >= f->sample.end_ns)
			fail_msg("%s: empty timed region", name);
		/* The phase's own wording of what its timed region holds. */
		assert_string_equal(ab_phase_by_id(ids[i])->sync_plain, "fsync-close-timed");
	}
}

/* A counter of /proc/self/io, or UINT64_MAX. */
static uint64_t proc_io(const char *key)
{
	g_autofree char *text = NULL;
	if (!g_file_get_contents("/proc/self/io", &text, NULL, NULL))
		return UINT64_MAX;
	g_autofree char *k = g_strdup_printf("%s: ", key);
	const char *p = strstr(text, k);
	return p ? g_ascii_strtoull(p + strlen(k), NULL, 10) : UINT64_MAX;
}

/* Per-char, bonnie++ 2.00's way: one 1-byte write() or read() per byte of
 * the per-char size; stdio's way: putc/getc through a buffer, a few calls.
 * -fN with stdio covers N, not the whole file. */
static void test_per_char_calls(void **state)
{
	struct fixture *f = *state;
	run_here(f, AB_PHASE_PER_CHAR_WRITE, 0, 1);
	assert_int_equal(seen.writes, f->cfg.byte_io_size);
	assert_int_equal(seen.write_bytes, f->cfg.byte_io_size);
	run_here(f, AB_PHASE_PER_CHAR_READ, 0, 1);
	assert_int_equal(seen.reads, f->cfg.byte_io_size);

	/* stdio's own calls bypass the interposed ones: the kernel counts. */
	f->cfg.per_char = AB_PER_CHAR_STDIO;
	uint64_t w0 = proc_io("syscw"), r0 = proc_io("syscr");
	run_here(f, AB_PHASE_PER_CHAR_WRITE, 0, 1);
	uint64_t w1 = proc_io("syscw");
	run_here(f, AB_PHASE_PER_CHAR_READ, 0, 1);
	uint64_t r1 = proc_io("syscr");
	struct stat st;
	assert_int_equal(fstatat(f->dir_fd, "io", &st, 0), 0);
	assert_int_equal(st.st_size, f->cfg.byte_io_size);
	if (w0 == UINT64_MAX)
		skip(); /* no /proc/self/io: no task I/O accounting in this kernel */
	assert_in_range(w1 - w0, 1, f->cfg.byte_io_size / 1024);
	assert_in_range(r1 - r0, 1, f->cfg.byte_io_size / 1024);
}

/* Seekers take their seeks from one queue: a seeker that runs alone first
 * takes them all, and the next finds none left (with fixed shares each
 * would do half). */
static void test_seek_queue(void **state)
{
	struct fixture *f = *state;
	run_here(f, AB_PHASE_BLOCK_WRITE, 0, 1);
	f->shared.tickets = 0;
	run_here(f, AB_PHASE_SEEKS, 0, 2);
	assert_int_equal(f->sample.ops, f->cfg.seeks);
	assert_int_equal(f->sample.pid, getpid());
	run_here(f, AB_PHASE_SEEKS, 1, 2);
	assert_int_equal(f->sample.ops, 0);
}

/* rate = work / (last stop - first start), CPU = the workers' timed CPU
 * over the same span, per worker as each measured itself. */
static void test_merge_formulas(void **state)
{
	(void)state;
	struct ab_sample s[3];
	memset(s, 0, sizeof(s));
	const uint64_t ms = 1000000;
	s[0] = (struct ab_sample){ .start_ns = 1000 * ms, .end_ns = 1600 * ms, .bytes = 100 << 20, .ops = 10,
				   .user_ns = 300 * ms, .sys_ns = 100 * ms, .pid = 11 };
	s[1] = (struct ab_sample){ .start_ns = 1100 * ms, .end_ns = 2000 * ms, .bytes = 50 << 20, .ops = 30,
				   .user_ns = 200 * ms, .sys_ns = 200 * ms, .pid = 12 };
	s[2] = (struct ab_sample){ .start_ns = 1050 * ms, .end_ns = 1500 * ms, .bytes = 50 << 20, .ops = 60,
				   .user_ns = 0, .sys_ns = 200 * ms, .pid = 13 };
	for (int i = 0; i < 3; i++)
		ab_histogram_init(&s[i].latency);
	g_autoptr(ab_result) res = ab_result_new("block-write");
	struct ab_result *rp = res, r;
	ab_result_merge(ab_phase_by_id(AB_PHASE_BLOCK_WRITE), s, 3, rp);
	r = *rp;
	assert_float_equal(r.elapsed_s, 1.0, 1e-9); /* 2000 ms - 1000 ms */
	assert_float_equal(r.rate, 200.0 * 1024, 1e-6); /* 200 MiB in 1 s, KiB/s */
	assert_float_equal(r.cpu_percent, 100.0, 1e-9); /* 1.0 s of CPU over 1 s */
	assert_float_equal(r.user_s, 0.5, 1e-9);
	assert_float_equal(r.sys_s, 0.5, 1e-9);
	assert_true(r.measurable);
	assert_int_equal(r.workers, 3);
	assert_int_equal(r.per_worker->len, 3);
	const struct ab_worker_stat *w1 = &g_array_index(r.per_worker, struct ab_worker_stat, 1);
	assert_int_equal(w1->pid, 12);
	assert_int_equal(w1->ops, 30);
	assert_float_equal(w1->elapsed_s, 0.9, 1e-9);
	assert_float_equal(w1->cpu_s, 0.4, 1e-9);

	ab_result_merge(ab_phase_by_id(AB_PHASE_SEEKS), s, 3, rp);
	r = *rp;
	assert_float_equal(r.rate, 100.0, 1e-9); /* 100 seeks over 1 s */
	s[1].end_ns = 1400 * ms; /* now the span is 1000-1600 ms */
	ab_result_merge(ab_phase_by_id(AB_PHASE_SEQ_CREATE), s, 3, rp);
	r = *rp;
	assert_float_equal(r.elapsed_s, 0.6, 1e-9);
	assert_float_equal(r.rate, 100 / 0.6, 1e-6);
	assert_true(r.measurable);
	s[0].end_ns = 1300 * ms; /* 0.3 s: under bonnie++'s 0.5 s */
	s[1].end_ns = 1300 * ms;
	s[2].end_ns = 1300 * ms;
	ab_result_merge(ab_phase_by_id(AB_PHASE_SEQ_CREATE), s, 3, rp);
	r = *rp;
	assert_false(r.measurable);
	assert_float_equal(r.rate, 100 / 0.3, 1e-6); /* still computed, for text and JSON */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fsync_close_before_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_per_char_calls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seek_queue, setup, teardown),
		cmocka_unit_test(test_merge_formulas),
	};
	return cmocka_run_group_tests_name("worker", tests, NULL, NULL);
}
