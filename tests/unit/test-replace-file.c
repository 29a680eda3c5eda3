/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole-file replacement: the new text or the old, never a cut file; links,
 * devices and directories refused; the old file's mode kept. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/base/error.h"
#include "../../src/base/replace-file.h"

static int setup(void **state)
{
	*state = g_dir_make_tmp("ab-replace-XXXXXX", NULL);
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", (char *)*state);
	g_free(*state);
	return system(cmd) == 0 ? 0 : -1;
}

static char *slurp(const char *path)
{
	char *text = NULL;
	return g_file_get_contents(path, &text, NULL, NULL) ? text : NULL;
}

/* Only the named file in the directory: no temporary file left behind. */
static guint entries(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	guint n = 0;
	while (d && g_dir_read_name(d))
		n++;
	return n;
}

static void test_new_and_replaced(void **state)
{
	g_autofree char *path = g_build_filename(*state, "page.html", NULL);
	g_autoptr(GError) error = NULL;
	assert_true(ab_replace_file("the page", path, "first", 5, &error));
	g_autofree char *a = slurp(path);
	assert_string_equal(a, "first");
	assert_int_equal(chmod(path, 0640), 0);
	assert_true(ab_replace_file("the page", path, "second, longer", 14, &error));
	g_autofree char *b = slurp(path);
	assert_string_equal(b, "second, longer");
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(entries(*state), 1);
}

/* A write that fails part way (the file size limit stands in for a full
 * disk) leaves the old file whole and no temporary file. */
static void test_failed_write_keeps_old(void **state)
{
	g_autofree char *path = g_build_filename(*state, "page.html", NULL);
	assert_true(g_file_set_contents(path, "old page", -1, NULL));
	gsize big = 1 << 20;
	g_autofree char *data = g_malloc(big);
	memset(data, 'x', big);
	struct rlimit saved, small = { 4096, 4096 };
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
	small.rlim_max = saved.rlim_max;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	g_autoptr(GError) error = NULL;
	gboolean ok = ab_replace_file("the page", path, data, big, &error);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
	assert_false(ok);
	assert_int_equal(error->code, AB_ERROR_OUTPUT);
	assert_non_null(strstr(error->message, "cannot write the page to '"));
	assert_non_null(strstr(error->message, "page.html': File too large"));
	g_autofree char *now = slurp(path);
	assert_string_equal(now, "old page");
	assert_int_equal(entries(*state), 1);
}

static void test_refusals(void **state)
{
	g_autofree char *target = g_build_filename(*state, "victim", NULL);
	g_autofree char *link = g_build_filename(*state, "link", NULL);
	assert_true(g_file_set_contents(target, "keep", -1, NULL));
	assert_int_equal(symlink("victim", link), 0);
	g_autoptr(GError) e1 = NULL;
	assert_false(ab_replace_file("the page", link, "x", 1, &e1));
	assert_int_equal(e1->code, AB_ERROR_UNSAFE);
	g_autofree char *want1 = g_strdup_printf("refusing to write the page to '%s': a symbolic link (name the file itself)", link);
	assert_string_equal(e1->message, want1);
	g_autofree char *kept = slurp(target);
	assert_string_equal(kept, "keep");

	g_autoptr(GError) e2 = NULL;
	assert_false(ab_replace_file("the page", "/dev/null", "x", 1, &e2));
	assert_int_equal(e2->code, AB_ERROR_USAGE);
	assert_string_equal(e2->message, "refusing to write the page to '/dev/null': not a regular file");

	g_autoptr(GError) e3 = NULL;
	assert_false(ab_replace_file("the page", *state, "x", 1, &e3));
	assert_int_equal(e3->code, AB_ERROR_USAGE);

	g_autofree char *slash = g_strconcat(target, "/", NULL);
	g_autoptr(GError) e4 = NULL;
	assert_false(ab_replace_file("the page", slash, "x", 1, &e4));
	assert_int_equal(e4->code, AB_ERROR_USAGE);

	g_autofree char *missing = g_build_filename(*state, "nodir", "p.html", NULL);
	g_autoptr(GError) e5 = NULL;
	assert_false(ab_replace_file("the page", missing, "x", 1, &e5));
	assert_int_equal(e5->code, AB_ERROR_OUTPUT);
	g_autofree char *want5 = g_strdup_printf("cannot write the page to '%s': No such file or directory", missing);
	assert_string_equal(e5->message, want5);
}

static void test_at_directory(void **state)
{
	int dir = open(*state, O_RDONLY | O_DIRECTORY);
	assert_true(dir >= 0);
	g_autoptr(GError) error = NULL;
	assert_true(ab_replace_file_at("results", dir, "DIR", "results.csv", "a\nb\n", 4, &error));
	assert_int_equal(symlinkat("results.csv", dir, "l.csv"), 0);
	assert_false(ab_replace_file_at("results", dir, "DIR", "l.csv", "c\n", 2, &error));
	assert_string_equal(error->message, "refusing to write results to 'DIR/l.csv': a symbolic link (name the file itself)");
	close(dir);
	g_autofree char *path = g_build_filename(*state, "results.csv", NULL);
	g_autofree char *text = slurp(path);
	assert_string_equal(text, "a\nb\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_and_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_write_keeps_old, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_at_directory, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
