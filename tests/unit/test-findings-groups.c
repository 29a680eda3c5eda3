/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The findings over groups of runs (noisy-group, conditions-differ) and
 * the writers that carry findings: a run's text and JSON line (read back,
 * the same bytes), the report's closing block, the comparison's text and
 * JSON, and the HTML page's section. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "findings-run.h"
#include "../../reports/report.h"
#include "../../reports/compare.h"

static void set_of(struct ab_run_set *set, struct ab_run *const *runs, size_t n)
{
	ab_run_set_init(set);
	for (size_t i = 0; i < n; i++)
		g_ptr_array_add(set->runs, runs[i]);
}

static guint set_count(const struct ab_run_set *set, const char *id, char **text)
{
	g_autoptr(GPtrArray) found = ab_findings_find(set, AB_FINDING_SCOPE_ALL);
	const struct ab_finding *f = NULL;
	guint n = fcount(found, id, &f);
	if (text)
		*text = f ? g_strdup(f->text) : NULL;
	return n;
}

static void has(const char *text, const char *want)
{
	if (!text || !strstr(text, want)) {
		/* (cmocka cuts a long message short: the text goes first.) */
		fprintf(stderr, "%s\n", text ? text : "(none)");
		fail_msg("'%s' not in the text above", want);
	}
}

/* Three repeats of one cell at the given rates. */
static void noisy_set(struct ab_run_set *set, double a, double b, double c)
{
	const double rates[3] = { a, b, c };
	struct ab_run *runs[3];
	for (int i = 0; i < 3; i++) {
		runs[i] = frun("ext4", i + 1);
		fres(runs[i], "block-read", rates[i]);
	}
	set_of(set, runs, 3);
}

static void test_repeats_needed(void **state)
{
	(void)state;
	/* 2 (1.95996 + 0.84162)^2 = 15.6978; x 0.2^2 / 0.05^2 = 251.2. */
	assert_true(ab_finding_repeats_needed(0.2, 0.05, 0.05, 0.8) == 252);
	/* At a CV of 5 % a 5 % difference takes 16 (15.7, rounded up). */
	assert_true(ab_finding_repeats_needed(0.05, 0.05, 0.05, 0.8) == 16);
}

static void test_noisy_group(void **state)
{
	(void)state;
	struct ab_run_set set;
	noisy_set(&set, 100, 130, 80); /* mean 103.3, sd 25.2: CV 24.4 % */
	g_autofree char *text = NULL;
	assert_int_equal(set_count(&set, "noisy-group", &text), 1);
	has(text, "block-read in group 'ext4': CV 24.4 % over 3 repeats (over 10 %)");
	has(text, "n = 2 (z_a/2 + z_b)^2 CV^2 / d^2 = 2 (1.96 + 0.84)^2 x 0.244^2 / 0.05^2 = 373 repeats per group");
	ab_run_set_clear(&set);
	noisy_set(&set, 100, 101, 99);
	assert_int_equal(set_count(&set, "noisy-group", NULL), 0);
	ab_run_set_clear(&set);
	/* A run's own rules never see a group. */
	noisy_set(&set, 100, 130, 80);
	g_autoptr(GPtrArray) one = ab_findings_of_run(g_ptr_array_index(set.runs, 0));
	assert_int_equal(fcount(one, "noisy-group", NULL), 0);
	ab_run_set_clear(&set);
}

static void two_groups(struct ab_run_set *set, const char *kernel_b, uint64_t size_b)
{
	struct ab_run *a = frun("a", 1), *b = frun("b", 1);
	fres(a, "block-read", 100);
	fres(b, "block-read", 100)->key.file_size = size_b;
	g_free(b->kernel);
	b->kernel = g_strdup(kernel_b);
	struct ab_run *runs[] = { a, b };
	set_of(set, runs, 2);
}

static void test_conditions_differ(void **state)
{
	(void)state;
	struct ab_run_set set;
	two_groups(&set, "Linux 6.18.0 x86_64", 64u << 20);
	g_autofree char *text = NULL;
	assert_int_equal(set_count(&set, "conditions-differ", &text), 1);
	has(text, "the groups ran different kernels: 'a' Linux 6.1.0 x86_64; 'b' Linux 6.18.0 x86_64: their figures "
		  "are not comparable");
	ab_run_set_clear(&set);
	two_groups(&set, "Linux 6.1.0 x86_64", 1u << 30);
	g_autofree char *sizes = NULL;
	assert_int_equal(set_count(&set, "conditions-differ", &sizes), 1);
	has(sizes, "different file sizes: 'a' 64M; 'b' 1G");
	ab_run_set_clear(&set);
	two_groups(&set, "Linux 6.1.0 x86_64", 64u << 20);
	assert_int_equal(set_count(&set, "conditions-differ", NULL), 0);
	ab_run_set_clear(&set);
	/* A condition a group did not record (bonnie++'s CSV: no kernel)... */
	two_groups(&set, NULL, 64u << 20);
	assert_int_equal(set_count(&set, "conditions-differ", NULL), 0);
	/* ...leaves no other to set a group's own mix against. */
	struct ab_run *again = frun("a", 2);
	fres(again, "block-read", 100);
	g_free(again->kernel);
	again->kernel = g_strdup("Linux 6.2.0 x86_64");
	g_ptr_array_add(set.runs, again);
	assert_int_equal(set_count(&set, "conditions-differ", NULL), 0);
	ab_run_set_clear(&set);
	/* Two groups that recorded it, one of them mixed: each value named. */
	two_groups(&set, "Linux 6.1.0 x86_64", 64u << 20);
	again = frun("a", 2);
	fres(again, "block-read", 100);
	g_free(again->kernel);
	again->kernel = g_strdup("Linux 6.2.0 x86_64");
	g_ptr_array_add(set.runs, again);
	g_autofree char *mixed = NULL;
	assert_int_equal(set_count(&set, "conditions-differ", &mixed), 1);
	has(mixed, "different kernels: 'a' Linux 6.1.0 x86_64, Linux 6.2.0 x86_64; 'b' Linux 6.1.0 x86_64");
	ab_run_set_clear(&set);
}

/* A run of the case: --cache none, a 64M file on a machine of 1G. */
static struct ab_run *cache_none_run(void)
{
	struct ab_run *run = frun("a", 1);
	g_free(run->cond.cache_mode);
	run->cond.cache_mode = g_strdup("none");
	fres(run, "block-read", 6e6);
	return run;
}

static void test_run_writers(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = cache_none_run();
	g_autofree char *text = ab_text_format(run);
	has(text, "\n\nfindings (1):\n  warning  cache-none-fits: block-read read a file of 64M");
	has(text, "           rests on: file_size 67108864 bytes, ram 1073741824 bytes, phases 1\n");
	has(text, "           to do: make the reads cold (--cache drop or cgroup)");
	g_autofree char *json = ab_json_format(run);
	has(json, "\"findings\":[{\"id\":\"cache-none-fits\"");
	has(json, "\"severity\":\"warning\",\"figures\":[{\"name\":\"file_size\",\"value\":67108864");
	/* Derived, not stored: read back, the run finds them again. */
	g_autoptr(GError) error = NULL;
	g_autoptr(ab_run) back = ab_reader_json.read_line(json, &error);
	assert_non_null(back);
	g_autofree char *again = ab_json_format(back);
	assert_string_equal(json, again);
	/* A run with nothing to say writes no findings member. */
	g_autoptr(ab_run) plain = frun("a", 1);
	fres(plain, "block-read", 1e5);
	g_autofree char *plain_json = ab_json_format(plain);
	assert_null(strstr(plain_json, "findings"));
	g_autofree char *plain_text = ab_text_format(plain);
	assert_null(strstr(plain_text, "findings"));
}

static void test_set_writers(void **state)
{
	(void)state;
	struct ab_run_set set;
	two_groups(&set, "Linux 6.18.0 x86_64", 64u << 20);
	g_ptr_array_add(set.runs, cache_none_run());
	/* The report's text: each run's own, then the groups'. */
	g_autoptr(GString) text = g_string_new(NULL);
	assert_true(ab_writer_write_set(&ab_writer_text, &set, text, NULL));
	has(text->str, "\nfindings over the runs (3):\n  warning  conditions-differ  [all groups]: the groups ran "
			"different cache modes: 'a' drop, none; 'b' drop: their figures are not comparable\n");
	has(text->str, "  warning  conditions-differ  [all groups]: the groups ran different kernels");
	has(text->str, "findings (1):\n  warning  cache-none-fits: block-read");
	/* The comparison: every finding, where each is. */
	g_autoptr(GError) error = NULL;
	struct ab_compare *c = ab_compare_build(&set, NULL, &error);
	assert_non_null(c);
	g_autofree char *ctext = ab_compare_text(c);
	has(ctext, "\nfindings (4):\n  warning  cache-none-fits  [a, run run-a-1, repeat 1]: block-read read");
	has(ctext, "  warning  conditions-differ  [all groups]: the groups ran different kernels: 'a' Linux 6.1.0 "
		   "x86_64; 'b' Linux 6.18.0 x86_64");
	g_autofree char *cjson = ab_compare_json(c);
	has(cjson, "\"findings\":[{\"id\":\"cache-none-fits\",\"group\":\"a\",\"run_id\":\"run-a-1\",\"repeat\":1");
	has(cjson, "{\"id\":\"conditions-differ\",\"group\":null,\"run_id\":null,\"repeat\":null,\"subject\":\"kernel\"");
	ab_compare_free(c);
	/* The HTML page's section, the worst first. */
	g_autoptr(GString) page = g_string_new(NULL);
	assert_true(ab_html_write(&set, page, NULL));
	has(page->str, "<h2 id=\"findings\">Findings</h2>");
	has(page->str, "<td>cache-none-fits</td><td>a, run run-a-1, repeat 1</td><td>block-read read a file of 64M "
		       "at most under --cache none, which evicts nothing, and the page cache (RAM 1G) could hold all of "
		       "it: their rates measure the page cache, not the disks</td>");
	ab_run_set_clear(&set);
	/* No finding: the section says so. */
	noisy_set(&set, 100, 101, 99);
	g_string_truncate(page, 0);
	assert_true(ab_html_write(&set, page, NULL));
	has(page->str, "No finding");
	ab_run_set_clear(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repeats_needed), cmocka_unit_test(test_noisy_group),
		cmocka_unit_test(test_conditions_differ), cmocka_unit_test(test_run_writers),
		cmocka_unit_test(test_set_writers),
	};
	return cmocka_run_group_tests_name("findings-groups", tests, NULL, NULL);
}
