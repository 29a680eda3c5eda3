/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Result files opened for appending (src/cmd/outfile.c): no symbolic link, two
 * outputs that are one file refused whatever the names, and a refusal
 * leaves nothing made; character devices and descriptor names still work. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/base/error.h"
#include "../../src/cmd/outfile.h"

static int setup(void **state)
{
	char *dir = g_dir_make_tmp("ab-outfile-XXXXXX", NULL);
	/* Relative names below are relative to it, as a user's would be. */
	if (!dir || chdir(dir) != 0)
		return -1;
	*state = dir;
	return 0;
}

static int teardown(void **state)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", (char *)*state);
	g_free(*state);
	return chdir("/") == 0 && system(cmd) == 0 ? 0 : -1;
}

static guint entries(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	guint n = 0;
	while (d && g_dir_read_name(d))
		n++;
	return n;
}

/* Opens (--csv a, --json b, --sweep-csv c); the error's message, or NULL
 * when they opened (then closed). */
static char *try3(const char *a, const char *b, const char *c, int *code)
{
	struct ab_outfile outs[] = { { "--csv", a, NULL }, { "--json", b, NULL }, { "--sweep-csv", c, NULL } };
	g_autoptr(GError) error = NULL;
	gboolean ok = ab_outfiles_open(outs, G_N_ELEMENTS(outs), FALSE, &error);
	for (size_t i = 0; i < G_N_ELEMENTS(outs); i++)
		assert_true(ok ? (outs[i].f != NULL) == (outs[i].path != NULL) : outs[i].f == NULL);
	ab_outfiles_close(outs, G_N_ELEMENTS(outs));
	*code = ok ? 0 : error->code;
	return ok ? NULL : g_strdup(error->message);
}

static void test_one_file_twice(void **state)
{
	int code;
	/* One name, however spelled, before it exists: refused, nothing made. */
	g_autofree char *abs = g_build_filename(*state, "F", NULL);
	g_autofree char *up = g_strdup_printf("../%s/F", strrchr(*state, '/') + 1);
	const char *spellings[] = { "F", "./F", abs, up, ".//F" };
	for (size_t i = 0; i < G_N_ELEMENTS(spellings); i++) {
		g_autofree char *m = try3("F", spellings[i], NULL, &code);
		g_autofree char *want = g_strdup_printf("refusing --json '%s': it is the file of --csv", spellings[i]);
		assert_non_null(m);
		assert_string_equal(m, want);
		assert_int_equal(code, AB_ERROR_USAGE);
		assert_int_equal(entries(*state), 0);
	}
	/* The third output against the first, the first named. */
	g_autofree char *m1 = try3("F", "G", "./F", &code);
	assert_string_equal(m1, "refusing --sweep-csv './F': it is the file of --csv");
	assert_int_equal(entries(*state), 0);
	/* A hard link: one file by two names. */
	assert_true(g_file_set_contents("F", "", 0, NULL));
	assert_int_equal(link("F", "H"), 0);
	g_autofree char *m2 = try3(NULL, "H", "F", &code);
	assert_string_equal(m2, "refusing --sweep-csv 'F': it is the file of --json");
	/* One FIFO would mix two formats into one stream. */
	assert_int_equal(mkfifo("P", 0600), 0);
	g_autofree char *m3 = try3("P", "P", NULL, &code);
	assert_string_equal(m3, "refusing --json 'P': it is the file of --csv");
	/* Distinct files open, and are made. */
	assert_null(try3("F", "J", "K", &code));
	assert_true(g_file_test("J", G_FILE_TEST_IS_REGULAR) && g_file_test("K", G_FILE_TEST_IS_REGULAR));
}

static void test_symlinks_refused(void **state)
{
	(void)state;
	int code;
	assert_true(g_file_set_contents("mine", "keep\n", -1, NULL));
	assert_int_equal(symlink("mine", "link"), 0);
	assert_int_equal(symlink("nowhere", "dangling"), 0);
	const char *links[] = { "link", "dangling" };
	for (size_t i = 0; i < G_N_ELEMENTS(links); i++) {
		for (int slot = 0; slot < 3; slot++) {
			const char *names[3] = { NULL, NULL, NULL };
			const char *options[] = { "--csv", "--json", "--sweep-csv" };
			names[slot] = links[i];
			g_autofree char *m = try3(names[0], names[1], names[2], &code);
			g_autofree char *want = g_strdup_printf("refusing %s '%s': a symbolic link (name the file itself)",
								options[slot], links[i]);
			assert_non_null(m);
			assert_string_equal(m, want);
			assert_int_equal(code, AB_ERROR_UNSAFE);
		}
	}
	/* Before anything is opened: the first output is not made either. */
	g_autofree char *m = try3("new.csv", "link", NULL, &code);
	assert_non_null(m);
	assert_false(g_file_test("new.csv", G_FILE_TEST_EXISTS));
	assert_false(g_file_test("nowhere", G_FILE_TEST_EXISTS));
	g_autofree char *text = NULL;
	assert_true(g_file_get_contents("mine", &text, NULL, NULL));
	assert_string_equal(text, "keep\n");
}

static void test_devices_and_descriptors(void **state)
{
	(void)state;
	int code;
	/* /dev/null may take every output; it is no file of results. */
	assert_null(try3("/dev/null", "/dev/null", "/dev/null", &code));
	/* The names of one's own descriptors are links the system makes: they
	 * are how a user says "that pipe" (--json >(jq .)). */
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	g_autofree char *dev_fd = g_strdup_printf("/dev/fd/%d", fds[1]);
	g_autofree char *proc_fd = g_strdup_printf("/proc/self/fd/%d", fds[1]);
	assert_null(try3(NULL, dev_fd, NULL, &code));
	assert_null(try3(proc_fd, NULL, NULL, &code));
	/* ... but one pipe still takes one output. */
	g_autofree char *m = try3(dev_fd, proc_fd, NULL, &code);
	g_autofree char *want = g_strdup_printf("refusing --json '%s': it is the file of --csv", proc_fd);
	assert_non_null(m);
	assert_string_equal(m, want);
	close(fds[0]);
	close(fds[1]);
	assert_true(ab_outfile_names_descriptor("/dev/stdout"));
	assert_true(ab_outfile_names_descriptor("/dev/stderr"));
	assert_true(ab_outfile_names_descriptor("/dev/fd/63"));
	assert_true(ab_outfile_names_descriptor("/proc/self/fd/1"));
	assert_false(ab_outfile_names_descriptor("/dev/fd/"));
	assert_false(ab_outfile_names_descriptor("/dev/fd/1/x"));
	assert_false(ab_outfile_names_descriptor("/dev/fd/../stdout"));
	assert_false(ab_outfile_names_descriptor("/dev/stdin"));
	assert_false(ab_outfile_names_descriptor("dev/stdout"));
	assert_false(ab_outfile_names_descriptor("/proc/1/fd/1"));
}

/* An append the disk takes part of (a file size limit here, a full disk
 * alike) leaves the file as it was: a torn line spoiled it for report and
 * glued the next run's line to it.  Whole lines still go in. */
static void test_append_whole_or_not(void **state)
{
	(void)state;
	struct ab_outfile out = { "--json", "r.json", NULL };
	g_autoptr(GError) error = NULL;
	assert_true(ab_outfiles_open(&out, 1, FALSE, &error));
	assert_true(ab_outfile_append(out.f, "{\"run\":1}\n"));
	gsize big = 64 * 1024;
	g_autofree char *line = g_malloc(big + 2);
	memset(line, 'x', big);
	strcpy(line + big, "\n");
	struct rlimit saved, small = { 4096, 4096 };
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
	small.rlim_max = saved.rlim_max;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	errno = 0;
	gboolean ok = ab_outfile_append(out.f, line);
	int e = errno;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
	assert_false(ok);
	assert_int_equal(e, EFBIG);
	g_autofree char *text = NULL;
	assert_true(g_file_get_contents("r.json", &text, NULL, NULL));
	assert_string_equal(text, "{\"run\":1}\n");
	/* The next append follows the whole line. */
	assert_true(ab_outfile_append(out.f, "{\"run\":2}\n"));
	ab_outfiles_close(&out, 1);
	g_free(text);
	assert_true(g_file_get_contents("r.json", &text, NULL, NULL));
	assert_string_equal(text, "{\"run\":1}\n{\"run\":2}\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_file_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlinks_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_devices_and_descriptors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_append_whole_or_not, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
