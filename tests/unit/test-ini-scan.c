/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The INI scanner of profiles and matrix files: groups and keys in file
 * order with their lines, every fault at its FILE:LINE, the caller's hooks
 * called in the order the callers' messages depend on, a size cap, bad
 * bytes, and the file reader's refusals. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "../../src/base/error.h"
#include "../../src/base/ini-scan.h"

static void expect_fault(const struct ab_ini_ops *ops, const char *text, gsize len, const char *want)
{
	GError *e = NULL;
	struct ab_ini *ini = ab_ini_scan("f.ini", text, len, ops, NULL, &e);
	if (ini)
		fail_msg("'%s' scanned; expected '%s'", text, want);
	assert_int_equal(ab_error_exit_status(e), 1);
	if (!g_str_equal(e->message, want))
		fail_msg("error '%s', expected '%s'", e->message, want);
	g_error_free(e);
}

static void test_groups_and_keys(void **state)
{
	(void)state;
	static const char text[] = "\xef\xbb\xbf# a comment\n"
				   "\n"
				   "  [first]  \n"
				   "a = 1\n"
				   "\tb=two words  \r\n"
				   "empty =\n"
				   "[second one]\n"
				   "# a = 9\n"
				   "a = x\\ty\n"
				   "[third]\n";
	GError *e = NULL;
	g_autoptr(ab_ini_auto) ini = ab_ini_scan("f.ini", text, strlen(text), NULL, NULL, &e);
	assert_null(e);
	assert_non_null(ini);
	assert_int_equal(ini->groups->len, 3);
	const struct ab_ini_group *g = g_ptr_array_index(ini->groups, 0);
	assert_string_equal(g->name, "first");
	assert_int_equal(g->line, 3); /* the mark is no part of line 1 */
	assert_int_equal(g->keys->len, 3);
	const struct ab_ini_key *k = g_ptr_array_index(g->keys, 1);
	assert_string_equal(k->name, "b");
	assert_string_equal(k->raw, "two words");
	assert_int_equal(k->line, 5);
	k = g_ptr_array_index(g->keys, 2);
	assert_string_equal(k->raw, "");
	g = g_ptr_array_index(ini->groups, 1);
	assert_string_equal(g->name, "second one");
	assert_int_equal(g->keys->len, 1);
	k = g_ptr_array_index(g->keys, 0);
	assert_int_equal(k->line, 9);
	assert_string_equal(k->raw, "x\\ty"); /* as written */
	g_autofree char *value = ab_ini_get_string(ini, "second one", "a", &e);
	assert_string_equal(value, "x\ty"); /* GKeyFile's, escapes undone */
	g = g_ptr_array_index(ini->groups, 2);
	assert_int_equal(g->keys->len, 0);
	assert_int_equal(ab_ini_line(ini, "first", NULL), 3);
	assert_int_equal(ab_ini_line(ini, "first", "empty"), 6);
	assert_int_equal(ab_ini_line(ini, "first", "c"), 0);
	assert_int_equal(ab_ini_line(ini, "fourth", NULL), 0);
	assert_ptr_equal(ab_ini_group(ini, "third"), g);
	assert_null(ab_ini_group(ini, "fourth"));
}

static void test_faults(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "[a]\n[b]\n[a]\n", "f.ini:3: duplicate group [a] (first at line 1)" },
		{ "[a]\nk = 1\n[b]\nk = 2\n\n k=3\n", "f.ini:6: duplicate key 'k' in [b] (first at line 4)" },
		{ "# c\nk = 1\n[a]\n", "f.ini:2: key 'k' outside a group" },
		{ "[a\n", "f.ini:1: invalid group line '[a': expected [NAME]" },
		{ "[a]x\n", "f.ini:1: invalid group line '[a]x': expected [NAME]" },
		{ "[a]\nk 1\n", "f.ini:2: invalid line 'k 1': expected [group], key = value or a # comment" },
		/* What the scan takes and GKeyFile does not: its words, no line. */
		{ "[a]\nk[x = 1\n", "f.ini: " },
		/* No line continues another. */
		{ "[a]\nk = 1 \\\n  2\n", "f.ini:3: invalid line '2': expected [group], key = value or a # comment" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		GError *e = NULL;
		struct ab_ini *ini = ab_ini_scan("f.ini", cases[i][0], strlen(cases[i][0]), NULL, NULL, &e);
		if (ini)
			fail_msg("case %zu scanned; expected '%s'", i, cases[i][1]);
		if (!g_str_has_prefix(e->message, cases[i][1]))
			fail_msg("case %zu: error '%s' does not start '%s'", i, e->message, cases[i][1]);
		assert_int_equal(ab_error_exit_status(e), 1);
		g_error_free(e);
	}
}

static void test_bad_bytes_and_cap(void **state)
{
	(void)state;
	static const char nul[] = "[a]\nk = 1\n# x\0y\n";
	expect_fault(NULL, nul, sizeof(nul) - 1, "f.ini:3: a NUL byte: an INI file is text");
	/* Not UTF-8: refused only when asked, at the line of the first bad byte. */
	static const char latin1[] = "[a]\n# caf\xe9\nk = 1\n";
	GError *e = NULL;
	g_autoptr(ab_ini_auto) ini = ab_ini_scan("f.ini", latin1, strlen(latin1), NULL, NULL, &e);
	assert_non_null(ini);
	const struct ab_ini_ops utf8 = { .flags = AB_INI_REQUIRE_UTF8 };
	expect_fault(&utf8, latin1, strlen(latin1), "f.ini:2: bytes that are not UTF-8");
	/* The cap counts every byte given. */
	const struct ab_ini_ops capped = { .max_bytes = 8 };
	expect_fault(&capped, "[a]\nk = 12\n", 10, "f.ini: 10 bytes: too big");
	g_autoptr(ab_ini_auto) fits = ab_ini_scan("f.ini", "[a]\nk=1\n", 8, &capped, NULL, &e);
	assert_non_null(fits);
	/* A bad name is quoted on one line, as valid UTF-8. */
	expect_fault(NULL, "[a]\n[a\xff\x1b]\n[a\xff\x1b]\n", 16, "f.ini:3: duplicate group [a\xef\xbf\xbd\\x1b] (first at line 2)");
}

/* The hooks: which names they were shown, and a caller's words. */
struct seen {
	GString *log;
};

static gboolean on_group(void *data, const char *group, unsigned line, GError **error)
{
	struct seen *s = data;
	g_string_append_printf(s->log, "group %s %u;", group, line);
	if (g_str_equal(group, "bad"))
		return g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "x:%u: no [bad]", line), FALSE;
	return TRUE;
}

static gboolean on_key(void *data, const char *group, const char *key, unsigned line, GError **error)
{
	struct seen *s = data;
	g_string_append_printf(s->log, "key %s %s %u;", group, key, line);
	if (!*key)
		return g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "x:%u: no key name", line), FALSE;
	return TRUE;
}

static void on_fault(void *data, const struct ab_ini_fault *f, GError **error)
{
	struct seen *s = data;
	g_string_append_printf(s->log, "fault %d %u;", (int)f->kind, f->line);
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "mine %d", (int)f->kind);
}

static void test_hooks(void **state)
{
	(void)state;
	static const struct ab_ini_ops ops = { .group = on_group, .key = on_key, .fault = on_fault };
	static const char *const cases[][3] = {
		{ "[a]\nk = 1\n", "group a 1;key a k 2;", NULL },
		/* The hook sees a name before the duplicate check. */
		{ "[a]\n[bad]\n", "group a 1;group bad 2;", "x:2: no [bad]" },
		{ "[a]\n[a]\n", "group a 1;group a 2;fault 6 2;", "mine 6" },
		{ "[a]\n = 1\n", "group a 1;key a  2;", "x:2: no key name" },
		{ "[a]\nk = 1\nk = 2\n", "group a 1;key a k 2;key a k 3;fault 7 3;", "mine 7" },
		/* A key outside a group and a bad line are faults before any hook. */
		{ " = 1\n", "fault 5 1;", "mine 5" },
		{ "[a\n", "fault 3 1;", "mine 3" },
		{ "[a]\nk\n", "group a 1;fault 4 2;", "mine 4" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct seen s = { g_string_new(NULL) };
		GError *e = NULL;
		struct ab_ini *ini = ab_ini_scan("f.ini", cases[i][0], strlen(cases[i][0]), &ops, &s, &e);
		if (!g_str_equal(s.log->str, cases[i][1]))
			fail_msg("case %zu: hooks '%s', expected '%s'", i, s.log->str, cases[i][1]);
		if (cases[i][2]) {
			assert_null(ini);
			assert_string_equal(e->message, cases[i][2]);
			g_error_free(e);
		} else {
			assert_non_null(ini);
			ab_ini_free(ini);
		}
		g_string_free(s.log, TRUE);
	}
}

static char *write_file(const char *dir, const char *name, const char *text, gsize len)
{
	char *path = g_build_filename(dir, name, NULL);
	assert_true(g_file_set_contents(path, text, (gssize)len, NULL));
	return path;
}

static void test_read_file(void **state)
{
	(void)state;
	g_autofree char *dir = g_dir_make_tmp("ab-ini-XXXXXX", NULL);
	assert_non_null(dir);
	g_autofree char *ok = write_file(dir, "ok.ini", "[a]\nk = 1\n", 10);
	g_autofree char *big = write_file(dir, "big.ini", "[a]\nk = 12\n", 11);
	g_autofree char *missing = g_build_filename(dir, "none.ini", NULL);
	GError *e = NULL;
	gsize len = 0;
	g_autofree char *text = ab_ini_read_file(ok, "thing", 10, &len, &e);
	assert_non_null(text);
	assert_int_equal(len, 10);
	assert_memory_equal(text, "[a]\nk = 1\n", 10);
	g_autofree char *want_big = g_strdup_printf("refusing thing '%s': 11 bytes, more than a thing's 10", big);
	g_autofree char *want_missing = g_strdup_printf("cannot open thing '%s': No such file or directory", missing);
	g_autofree char *want_dir = g_strdup_printf("refusing thing '%s': not a regular file", dir);
	const char *refused[][2] = {
		{ big, want_big },
		{ missing, want_missing },
		{ dir, want_dir },
		{ "/dev/null", "refusing thing '/dev/null': not a regular file" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(refused); i++) {
		assert_null(ab_ini_read_file(refused[i][0], "thing", 10, &len, &e));
		assert_string_equal(e->message, refused[i][1]);
		assert_int_equal(ab_error_exit_status(e), 1);
		g_clear_error(&e);
	}
	g_unlink(ok);
	g_unlink(big);
	g_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups_and_keys),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_bad_bytes_and_cap),
		cmocka_unit_test(test_hooks),
		cmocka_unit_test(test_read_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
