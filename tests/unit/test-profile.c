/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workload profiles: every error names its file and line, the built-in
 * ones give the steps they promise, a user's file runs its steps in order
 * with the command line's options over each, and the man page documents
 * exactly the keys the parser knows. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "../../src/options/config.h"
#include "../../src/base/error.h"
#include "../../src/options/profile.h"
#include "run-args.h"
#include "../../workloads/phase.h"
#include "../../workloads/sweep.h"

static const uint64_t ram = 24ull << 30;

static void expect_parse_error(const char *text, const char *want)
{
	GError *e = NULL;
	struct ab_profile *p = ab_profile_parse("t.ini", "t", text, strlen(text), &e);
	if (p)
		fail_msg("'%s' parsed; expected '%s'", text, want);
	assert_int_equal(ab_error_exit_status(e), 1);
	if (!g_str_equal(e->message, want))
		fail_msg("error '%s', expected '%s'", e->message, want);
	g_error_free(e);
}

static void test_errors(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "[workload]\nsummary = x\n[step read]\nphases = sweep\nstrems = 4\n",
		  "t.ini:5: unknown key 'strems' in [step read]" },
		{ "[step a]\nstreams = many\n", "t.ini:2: invalid --streams 'many': a stream count from 1 to 256" },
		{ "[step a]\nsweep-records = 3k\n", "t.ini:2: invalid --sweep-records '3k'" },
		{ "[step a]\nphases = sweep\n\n[step a]\nphases = read\n", "t.ini:4: duplicate group [step a] (first at line 1)" },
		{ "[step a]\nphases = sweep\n# again\nphases = read\n",
		  "t.ini:4: duplicate key 'phases' in [step a] (first at line 2)" },
		{ "# a comment\nphases = sweep\n[step a]\n",
		  "t.ini:2: key 'phases' outside a group: a profile starts with [workload] or [step NAME]" },
		{ "", "t.ini:1: no [step NAME] group: a profile needs at least one step to run" },
		{ "# nothing\n\n[workload]\nsummary = empty\n", "t.ini:3: no [step NAME] group: a profile needs at least one step to run" },
		{ "[step a]\nphases = block-write,flying\n", "t.ini:2: invalid phase 'flying': unknown (see 'arraybench list')" },
		{ "[step a]\nphases = raw-read\n", "t.ini:2: invalid phase 'raw-read': it measures a block device" },
		{ "[step a]\ndevice = /dev/sdb\n",
		  "t.ini:2: key 'device' in [step a]: a target, output or machine option has no place in a profile; "
		  "give it on the command line" },
		{ "[workload]\njson = out.json\n[step a]\n", "t.ini:2: key 'json' in [workload]: a target, output or machine" },
		{ "[step a]\ndirectory = /tmp\n", "t.ini:2: key 'directory' in [step a]: a target" },
		{ "[step a]\nuser = nobody\n", "t.ini:2: key 'user' in [step a]: a target" },
		{ "[steps a]\n", "t.ini:1: unknown group [steps a]: expected [workload] or [step NAME]" },
		{ "[step]\n", "t.ini:1: unknown group [step]: expected [workload] or [step NAME]" },
		{ "[step a b]\n", "t.ini:1: invalid step name 'a b' in [step a b]" },
		{ "[step a\n", "t.ini:1: invalid group line '[step a': expected [workload] or [step NAME]" },
		{ "[step a]\nphases sweep\n", "t.ini:2: invalid line 'phases sweep': expected [group], key = value or a # comment" },
		{ "[step a]\n = sweep\n", "t.ini:2: missing key name before '=' in [step a]" },
		{ "[step a]\ndirect = yes\n", "t.ini:2: invalid direct 'yes': expected 'true' or 'false'" },
		{ "[step a]\ncache = drop\n", "t.ini:2: key 'cache' in [step a]: it applies to the whole run; put it in [workload]" },
		{ "[workload]\nstreams = 2\n[step a]\n", "t.ini:2: key 'streams' in [workload]: it is a step's; put it in a [step NAME] group" },
		{ "[workload]\ncache = sometimes\n[step a]\n", "t.ini:2: invalid --cache 'sometimes'" },
		{ "[workload]\nsummary =\n[step a]\n", "t.ini:2: empty summary in [workload]" },
		{ "[step a]\nsize = 1x\n", "t.ini:2: " },
		{ "[step a]\nphases = sweep\0\n", "t.ini:2: a NUL byte: a profile is text" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		GError *e = NULL;
		/* The NUL case: its length is the literal's, past the NUL. */
		gsize len = strlen(cases[i][0]);
		if (g_str_has_suffix(cases[i][1], "a NUL byte: a profile is text"))
			len += 2;
		struct ab_profile *p = ab_profile_parse("t.ini", "t", cases[i][0], len, &e);
		if (p)
			fail_msg("case %zu parsed; expected '%s'", i, cases[i][1]);
		assert_int_equal(ab_error_exit_status(e), 1);
		if (!g_str_has_prefix(e->message, cases[i][1]))
			fail_msg("case %zu: error '%s' does not start '%s'", i, e->message, cases[i][1]);
		g_error_free(e);
	}
	/* The whole message of one, as main() prints it after "error: ". */
	expect_parse_error("[workload]\nsummary = x\n\n[step read]\nphases = block-read\nsize = 2g\nstrems = 4\n",
			   "t.ini:7: unknown key 'strems' in [step read]");
}

static void test_parse(void **state)
{
	(void)state;
	static const char text[] = "# comment\n"
				   "[workload]\n"
				   "summary = two steps\n"
				   "description = a longer text\n"
				   "cache = fadvise\n"
				   "cold-metadata = false\n"
				   "[step first]\n"
				   "phases = sweep\n"
				   "  direct = true\n"
				   "include-fsync = false\n"
				   "fast = skip\n"
				   "[step second.one]\n"
				   "phases=block-write\n";
	GError *e = NULL;
	g_autoptr(ab_profile_auto) p = ab_profile_parse("t.ini", "t", text, strlen(text), &e);
	assert_null(e);
	assert_string_equal(p->summary, "two steps");
	assert_string_equal(p->description, "a longer text");
	assert_int_equal(p->run_words->len, 1); /* false: the switch not given */
	assert_string_equal(g_ptr_array_index(p->run_words, 0), "--cache=fadvise");
	assert_int_equal(p->steps->len, 2);
	const struct ab_profile_step *a = g_ptr_array_index(p->steps, 0), *b = g_ptr_array_index(p->steps, 1);
	assert_string_equal(a->name, "first");
	assert_string_equal(a->where, "t.ini:7: [step first]");
	assert_int_equal(a->words->len, 3);
	assert_string_equal(g_ptr_array_index(a->words, 0), "--phases=sweep");
	assert_string_equal(g_ptr_array_index(a->words, 1), "--direct");
	assert_string_equal(g_ptr_array_index(a->words, 2), "--fast");
	assert_string_equal(b->name, "second.one");
	assert_string_equal(g_ptr_array_index(b->words, 0), "--phases=block-write");
}

/* A UTF-8 byte order mark, as some editors write, is no part of line 1. */
static void test_bom(void **state)
{
	(void)state;
	static const char text[] = "\xef\xbb\xbf[step a]\nphases = block-write\n";
	GError *e = NULL;
	g_autoptr(ab_profile_auto) p = ab_profile_parse("t.ini", "t", text, strlen(text), &e);
	assert_null(e);
	assert_int_equal(p->steps->len, 1);
	assert_string_equal(((const struct ab_profile_step *)g_ptr_array_index(p->steps, 0))->where, "t.ini:1: [step a]");
}

static const struct ab_step *step(const struct ab_config *cfg, guint i)
{
	assert_true(i < cfg->steps->len);
	return &g_array_index(cfg->steps, struct ab_step, i);
}

/* Each shipped profile parses and runs the steps it says. */
static void test_builtins(void **state)
{
	(void)state;
	const char *const *names = ab_profile_builtin_names();
	g_autofree char *list = ab_profile_builtin_list();
	assert_string_equal(list, "bonnie, database, iozone-auto, lab, mirror");
	for (const char *const *n = names; *n; n++) {
		GError *e = NULL;
		g_autoptr(ab_profile_auto) p = ab_profile_load(*n, &e);
		if (!p)
			fail_msg("built-in '%s': %s", *n, e->message);
		assert_non_null(p->summary);
		assert_string_equal(p->name, *n);
	}
	struct ab_config cfg;
	/* bonnie: every phase of bonnie++ at its default sizes; -s and -f
	 * given with it change them. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--workload", "bonnie", "-r", "0", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	assert_string_equal(cfg.workload, "bonnie");
	assert_int_equal(cfg.steps->len, AB_PHASE_COUNT);
	for (unsigned id = 0; id < AB_PHASE_COUNT; id++)
		assert_int_equal(step(&cfg, id)->phase->id, id);
	assert_int_equal(step(&cfg, 0)->file_size, 300 * AB_MIB);
	assert_int_equal(step(&cfg, 0)->seekers, 5);
	assert_int_equal(step(&cfg, 0)->num_files_k, 16);
	ab_config_clear(&cfg);
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--workload", "bonnie", "-s", "2g", "-f", "-r", "0", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	for (guint i = 0; i < cfg.steps->len; i++) {
		assert_false(step(&cfg, i)->phase->flags & AB_PHASE_PER_CHAR);
		assert_int_equal(step(&cfg, i)->file_size, 2ull << 30);
	}
	ab_config_clear(&cfg);
	/* iozone-auto: the sweep over iozone -a's grid, every test. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--workload", "iozone-auto", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	assert_int_equal(cfg.steps->len, 1);
	assert_string_equal(step(&cfg, 0)->phase->name, "sweep");
	assert_int_equal(step(&cfg, 0)->sweep_tests, AB_SWEEP_ALL_TESTS);
	const GArray *sizes = step(&cfg, 0)->sweep_grid->file_sizes, *recs = step(&cfg, 0)->sweep_grid->records;
	assert_int_equal(g_array_index(sizes, uint64_t, 0), 64 * 1024);
	assert_int_equal(g_array_index(sizes, uint64_t, sizes->len - 1), 512 * AB_MIB);
	assert_int_equal(g_array_index(recs, uint64_t, 0), 4 * 1024);
	assert_int_equal(g_array_index(recs, uint64_t, recs->len - 1), 16 * AB_MIB);
	assert_int_equal(step(&cfg, 0)->sweep_timing, AB_SWEEP_TIME_FLUSH);
	ab_config_clear(&cfg);
	/* lab: ten 10g files in 1g records, writes only. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--workload", "lab", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	assert_int_equal(cfg.steps->len, 1);
	assert_int_equal(step(&cfg, 0)->sweep_tests, 1u << AB_SWEEP_WRITE);
	assert_int_equal(step(&cfg, 0)->files_per_stream, 10);
	assert_int_equal(g_array_index(step(&cfg, 0)->sweep_grid->file_sizes, uint64_t, 0), 10ull << 30);
	assert_int_equal(g_array_index(step(&cfg, 0)->sweep_grid->records, uint64_t, 0), 1ull << 30);
	ab_config_clear(&cfg);
	/* mirror: 4 streams of 50 files of 40m, 64k records. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--workload", "mirror", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	assert_string_equal(cfg.workload, "mirror");
	assert_int_equal(step(&cfg, 0)->files_per_stream, 50);
	assert_int_equal(g_array_index(step(&cfg, 0)->stream_counts, uint64_t, 0), 4);
	assert_int_equal(g_array_index(step(&cfg, 0)->sweep_grid->records, uint64_t, 0), 64 * 1024);
	ab_config_clear(&cfg);
	/* No profile: no workload named. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-r", "0", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	assert_null(cfg.workload);
	ab_config_clear(&cfg);
}

static char *write_file(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);
	assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

/* A user's file: steps in file order, each with its own parameters, the
 * command line's options over every one. */
static void test_user_file(void **state)
{
	(void)state;
	g_autofree char *dir = g_dir_make_tmp("ab-profile-XXXXXX", NULL);
	g_autofree char *two = write_file(dir, "two.ini",
					  "[workload]\nsummary = two\ncache = fadvise\n"
					  "[step writes]\nphases = sweep\nsweep-tests = write\nsweep-file-sizes = 1m\n"
					  "sweep-records = 64k\nstreams = 2\n"
					  "[step bonnie-io]\nphases = block-write,block-read,block-write\nsize = 64m\n"
					  "direct = true\n");
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--workload", two, "-r", "0", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	assert_string_equal(cfg.workload, "two");
	assert_int_equal(cfg.cache, AB_CACHE_FADVISE);
	assert_int_equal(cfg.steps->len, 4);
	assert_string_equal(step(&cfg, 0)->phase->name, "sweep");
	assert_false(step(&cfg, 0)->direct);
	assert_int_equal(g_array_index(step(&cfg, 0)->stream_counts, uint64_t, 0), 2);
	assert_string_equal(step(&cfg, 1)->phase->name, "block-write");
	assert_string_equal(step(&cfg, 2)->phase->name, "block-read");
	assert_string_equal(step(&cfg, 3)->phase->name, "block-write"); /* a phase twice */
	assert_true(step(&cfg, 1)->direct);
	assert_int_equal(step(&cfg, 1)->file_size, 64 * AB_MIB);
	assert_null(step(&cfg, 1)->stream_counts);
	ab_config_clear(&cfg);
	/* The command line changes every step, before or after --workload. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "--data", "zeros", "-d", "/tmp", "--workload", two, "-s", "128m", "-r",
			       "0", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	for (guint i = 0; i < cfg.steps->len; i++)
		assert_int_equal(step(&cfg, i)->data, AB_DATA_ZEROS);
	assert_int_equal(step(&cfg, 1)->file_size, 128 * AB_MIB);
	ab_config_clear(&cfg);
	/* A step's own check fails naming the step and where it is. */
	GError *e = NULL;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--workload", two, "-r", "0", "-s", "64m:2k", NULL));
	assert_false(ab_config_finish(&cfg, ram, &e));
	g_autofree char *want = g_strdup_printf("%s:10: [step bonnie-io]: invalid chunk size '2048' with --direct", two);
	if (!g_str_has_prefix(e->message, want))
		fail_msg("'%s' does not start '%s'", e->message, want);
	g_clear_error(&e);
	ab_config_clear(&cfg);
	/* A bad key: the file as given, and the line. */
	g_autofree char *bad = write_file(dir, "bad.ini", "[workload]\nsummary = bad\n\n[step a]\nphases = sweep\nstrems = 4\n");
	ab_config_init(&cfg);
	assert_false(parse_args(&cfg, &e, "-d", "/tmp", "--workload", bad, NULL));
	g_autofree char *want_bad = g_strdup_printf("%s:6: unknown key 'strems' in [step a]", bad);
	assert_string_equal(e->message, want_bad);
	assert_int_equal(ab_error_exit_status(e), 1);
	g_clear_error(&e);
	ab_config_clear(&cfg);
	/* Refused files: missing, a directory, a device, too big. */
	g_autofree char *missing = g_build_filename(dir, "none.ini", NULL);
	g_autofree char *huge = g_build_filename(dir, "huge.ini", NULL);
	int fd = open(huge, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, AB_PROFILE_MAX_BYTES + 1), 0);
	close(fd);
	g_autofree char *dir_slash = g_strdup_printf("%s/", dir);
	const char *refused[][2] = {
		{ missing, "cannot open profile '" },
		{ dir_slash, "refusing profile '" },
		{ "/dev/null", "refusing profile '/dev/null': not a regular file" },
		{ huge, "refusing profile '" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(refused); i++) {
		struct ab_profile *p = ab_profile_load(refused[i][0], &e);
		assert_null(p);
		if (!g_str_has_prefix(e->message, refused[i][1]))
			fail_msg("'%s': '%s' does not start '%s'", refused[i][0], e->message, refused[i][1]);
		assert_int_equal(ab_error_exit_status(e), 1);
		g_clear_error(&e);
	}
	struct ab_profile *p = ab_profile_load(huge, &e);
	assert_null(p);
	assert_non_null(strstr(e->message, "more than a profile's 1048576"));
	g_clear_error(&e);
	g_unlink(two);
	g_unlink(bad);
	g_unlink(huge);
	g_rmdir(dir);
}

/* The keys PROFILE FILES documents (".TP" then ".B key"), up to the next
 * section. */
static GPtrArray *documented_keys(const char *page)
{
	GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);
	g_auto(GStrv) lines = g_strsplit(page, "\n", -1);
	gboolean in = FALSE, keys_part = FALSE;
	for (guint i = 0; lines[i]; i++) {
		if (g_str_has_prefix(lines[i], ".SH")) {
			in = g_str_equal(lines[i], ".SH PROFILE FILES");
			keys_part = FALSE;
			continue;
		}
		if (g_str_has_prefix(lines[i], ".SS")) {
			keys_part = strstr(lines[i], "Keys") != NULL; /* not "Built-in profiles" */
			continue;
		}
		if (!in || !keys_part || !g_str_equal(lines[i], ".TP") || !lines[i + 1])
			continue;
		const char *tag = lines[i + 1];
		if (g_str_has_prefix(tag, ".B "))
			tag += 3;
		else if (g_str_has_prefix(tag, ".BI "))
			tag += 4;
		else
			continue;
		/* The first word, without quotes and roff's "\-" escapes. */
		GString *k = g_string_new(NULL);
		for (const char *c = tag + (*tag == '"'); *c && *c != ' ' && *c != '"'; c++)
			if (*c != '\\')
				g_string_append_c(k, *c);
		g_ptr_array_add(keys, g_string_free(k, FALSE));
	}
	return keys;
}

static gboolean listed(const GPtrArray *a, const char *s)
{
	for (guint i = 0; i < a->len; i++)
		if (g_str_equal(g_ptr_array_index(a, i), s))
			return TRUE;
	return FALSE;
}

static void test_man_page(void **state)
{
	(void)state;
	g_autofree char *path = g_build_filename(AB_FIXTURES, "..", "..", "man", "arraybench-workload.5", NULL);
	g_autofree char *page = NULL;
	assert_true(g_file_get_contents(path, &page, NULL, NULL));
	g_autoptr(GPtrArray) doc = documented_keys(page);
	assert_true(doc->len > 0);
	for (const char *const *k = ab_profile_keys(); *k; k++)
		if (!listed(doc, *k))
			fail_msg("key '%s' is not documented under PROFILE FILES in %s", *k, path);
	for (guint i = 0; i < doc->len; i++) {
		gboolean known = FALSE;
		for (const char *const *k = ab_profile_keys(); *k; k++)
			known |= g_str_equal(*k, g_ptr_array_index(doc, i));
		if (!known)
			fail_msg("%s documents key '%s', which the parser does not know", path,
				 (const char *)g_ptr_array_index(doc, i));
	}
	/* The check itself can fail: a page missing a key is caught. */
	g_autoptr(GPtrArray) none = documented_keys(".SH PROFILE FILES\n.SS Keys of [workload]\n.TP\n.B summary\n"
						      ".SS Built-in profiles\n.TP\n.B bonnie\n"
						      ".SH MATRIX FILES\n.SS Keys\n.TP\n.B cells\n");
	assert_int_equal(none->len, 1);
	assert_false(listed(none, "phases"));
	assert_false(listed(none, "cells"));
	assert_false(listed(none, "bonnie"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_parse), cmocka_unit_test(test_bom),
		cmocka_unit_test(test_builtins),
		cmocka_unit_test(test_user_file),
		cmocka_unit_test(test_man_page),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
