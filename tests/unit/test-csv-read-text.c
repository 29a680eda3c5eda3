/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bonnie++ CSV readers over whole texts (ab_report_read_text()): damaged
 * lines one problem each, with file and line; bytes no writer makes; other
 * systems' line ends; a file of junk; and each real line claimed by the one
 * reader of its format.  Single lines: test-csv-read.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../reports/report.h"
#include "../../workloads/phase.h"
#include "fixture-lines.h"

static GPtrArray *problems_new(void)
{
	return g_ptr_array_new_with_free_func(g_free);
}

static void assert_problems(GPtrArray *problems, const char *const *want, guint n)
{
	for (guint i = 0; i < MIN(n, problems->len); i++)
		assert_string_equal(g_ptr_array_index(problems, i), want[i]);
	assert_int_equal(problems->len, n);
}

/* Each damaged line gives one problem with file and line; the good lines
 * around it still read, whatever the line ends, headers and blank lines. */
static void test_read_text(void **state)
{
	(void)state;
	g_auto(GStrv) ours = fixture_lines("arraybench-run.csv");
	g_auto(GStrv) theirs = fixture_lines("bonnie-2.00a.csv");
	g_auto(GStrv) old = fixture_lines("bonnie-1.03-seed003.csv");
	g_autofree char *half = g_strndup(ours[1], strlen(ours[1]) / 2);
	g_auto(GStrv) f = g_strsplit(ours[2], ",", -1);
	g_free(f[11]);
	f[11] = g_strdup("abc");
	g_autofree char *text_in_number = g_strjoinv(",", f);
	g_autofree char *cut = g_strndup(theirs[0], strrchr(theirs[0], ',') - theirs[0]);
	g_autofree char *text = g_strconcat(
		"format_version,bonnie_version,name,concurrency,seed,file_size\n", /* 1: header */
		ours[0], "\n",                    /* 2 */
		half, "\n",                       /* 3: truncated */
		"\n",                             /* 4 */
		theirs[0], "\r\n",                /* 5 */
		cut, "\n",                        /* 6: 49 fields */
		"name,file_size,putc\n",          /* 7: 1.0x header */
		text_in_number, "\n",             /* 8 */
		"hello, world\n",                 /* 9 */
		"  \t\r\n",                       /* 10 */
		"1.97,1.97,x,1\n",                /* 11 */
		old[0], "\n",                     /* 12 */
		theirs[3], NULL);                 /* 13: no newline */
	g_autoptr(GPtrArray) problems = problems_new();
	struct ab_run_set set;
	ab_run_set_init(&set);
	unsigned n = ab_report_read_text("r.csv", text, strlen(text), &set, problems);
	const char *want[] = {
		"r.csv:3: " "37 fields, a 1.98 line has 50",
		"r.csv:6: 49 fields, a 1.98 line has 50",
		"r.csv:8: field 12 (put_block): 'abc' is not a number",
		"r.csv:9: not a line of arraybench JSON or bonnie++ CSV",
		"r.csv:11: bonnie++ CSV format '1.97' (48 fields, no seek count columns) is not supported: "
		"only 1.98 and 1.03 lines are",
	};
	/* How many fields the first half of line 2 has depends on the run. */
	g_auto(GStrv) hf = g_strsplit(half, ",", -1);
	g_autofree char *want0 = g_strdup_printf("r.csv:3: %u fields, a 1.98 line has 50", g_strv_length(hf));
	want[0] = want0;
	assert_problems(problems, want, G_N_ELEMENTS(want));
	assert_int_equal(n, 4);
	assert_int_equal(set.runs->len, 4);
	const char *machines[] = { "fixhost", "fixhost", "sage-ora2", "fixhost" };
	const char *tools[] = { "arraybench", "bonnie++", "bonnie++", "bonnie++" };
	for (guint i = 0; i < 4; i++) {
		const struct ab_run *r = g_ptr_array_index(set.runs, i);
		assert_string_equal(r->machine, machines[i]);
		assert_string_equal(r->tool, tools[i]);
	}
	/* The \r\n line and the last line without one read whole. */
	g_autofree char *l5 = ab_csv_format_line(g_ptr_array_index(set.runs, 1));
	g_autofree char *want5 = g_strconcat(theirs[0], "\n", NULL);
	assert_string_equal(l5, want5);
	g_autofree char *l13 = ab_csv_format_line(g_ptr_array_index(set.runs, 3));
	g_autofree char *want13 = g_strconcat(theirs[3], "\n", NULL);
	assert_string_equal(l13, want13);
	ab_run_set_clear(&set);
}

/* Bytes no writer makes: nothing crashes, each bad line is one problem. */
static void test_hostile(void **state)
{
	(void)state;
	g_auto(GStrv) ours = fixture_lines("arraybench-run.csv");
	GString *t = g_string_new(NULL);
	g_string_append_printf(t, "%s\n", ours[0]);
	g_string_append_len(t, "1.98,\0abc,x\n", 12);                 /* 2: NUL */
	g_string_append(t, "1.98,arraybench-0.1.0,\xff\xfe,1,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n"); /* 3 */
	g_string_append(t, "1.98,2.00a,x,\xc3(,\n");                   /* 4: invalid UTF-8 in a number */
	g_string_append(t, "1.98,arraybench-0.1.0,x,");                /* 5: 10 MB */
	for (int i = 0; i < 10 * 1024 * 1024 / 8; i++)
		g_string_append(t, "12345678");
	g_string_append(t, ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n");
	g_string_append(t, "1.98,");                                   /* 6: 10 MB of commas */
	for (int i = 0; i < 10 * 1024 * 1024; i++)
		g_string_append_c(t, ',');
	g_string_append_c(t, '\n');
	g_string_append(t, ",\n,,,\n\r\n\n");                          /* 7-10 */
	g_string_append_printf(t, "%s", ours[1]);                      /* 11 */
	g_autoptr(GPtrArray) problems = problems_new();
	struct ab_run_set set = { 0 };
	unsigned n = ab_report_read_text("h.csv", t->str, t->len, &set, problems);
	g_string_free(t, TRUE);
	const char *want[] = {
		"h.csv:2: holds a NUL byte",
		"h.csv:4: 5 fields, a 1.98 line has 50",
		"h.csv:5: field 4 (concurrency): '1234567812345678123456781234567812345678...' is not a number",
		"h.csv:6: 10485762 fields, a 1.98 line has 50",
		"h.csv:7: not a line of arraybench JSON or bonnie++ CSV",
		"h.csv:8: not a line of arraybench JSON or bonnie++ CSV",
	};
	assert_problems(problems, want, G_N_ELEMENTS(want));
	assert_int_equal(n, 3);
	const struct ab_run *r3 = g_ptr_array_index(set.runs, 1);
	assert_string_equal(r3->machine, "\xff\xfe"); /* kept as read: the writer gives it back */
	g_autoptr(GError) error = NULL;
	assert_null(ab_reader_csv_198.read_line("1.98,2.00a,x,\xc3(", &error));
	ab_run_set_clear(&set);
	/* Nothing at all. */
	struct ab_run_set empty = { 0 };
	assert_int_equal(ab_report_read_text("e", NULL, 0, &empty, NULL), 0);
	assert_int_equal(ab_report_read_text("e", "\n\n", 2, &empty, NULL), 0);
	assert_int_equal(empty.runs->len, 0);
	ab_run_set_clear(&empty);
}

/* Line ends of other systems: CR alone (classic Mac OS, some spreadsheet
 * exports) and CRLF end lines as LF does; a UTF-8 byte order mark is
 * skipped; UTF-16 is one problem for the file, not one per line. */
static void test_line_ends(void **state)
{
	(void)state;
	g_auto(GStrv) ours = fixture_lines("arraybench-run.csv");
	g_autoptr(GPtrArray) problems = problems_new();
	struct ab_run_set set = { 0 };
	g_autofree char *cr = g_strdup_printf("\xef\xbb\xbf%s\r%s\r\n\r%s", ours[0], ours[1], ours[2]);
	assert_int_equal(ab_report_read_text("cr.csv", cr, strlen(cr), &set, problems), 3);
	assert_int_equal(problems->len, 0);
	g_autofree char *bad = g_strdup_printf("%s\rjunk\r\n%s", ours[0], ours[1]);
	assert_int_equal(ab_report_read_text("b.csv", bad, strlen(bad), &set, problems), 2);
	const char *want[] = { "b.csv:2: not a line of arraybench JSON or bonnie++ CSV" };
	assert_problems(problems, want, G_N_ELEMENTS(want));
	g_ptr_array_set_size(problems, 0);
	static const char u16[] = "\xff\xfe" "1\0.\0" "9\0" "8\0,\0\n\0" "1\0\n\0";
	assert_int_equal(ab_report_read_text("u.csv", u16, sizeof(u16) - 1, &set, problems), 0);
	const char *want16[] = { "u.csv:1: UTF-16 text, not UTF-8 (iconv -f UTF-16 -t UTF-8 converts it)" };
	assert_problems(problems, want16, G_N_ELEMENTS(want16));
	ab_run_set_clear(&set);
}

/* A file of junk names its first bad lines and counts the rest: one
 * message per line of a 256 MiB file of "x" would be 134 million strings
 * held at once (some 15 GB) and as many lines on standard error. */
static void test_many_problems(void **state)
{
	(void)state;
	g_auto(GStrv) ours = fixture_lines("arraybench-run.csv");
	GString *t = g_string_new(NULL);
	for (int i = 0; i < 100; i++)
		g_string_append(t, "x\n");
	g_string_append_printf(t, "%s\n", ours[0]);
	g_autoptr(GPtrArray) problems = problems_new();
	struct ab_run_set set = { 0 };
	assert_int_equal(ab_report_read_text("m.csv", t->str, t->len, &set, problems), 1);
	g_string_free(t, TRUE);
	assert_int_equal(problems->len, AB_REPORT_MAX_PROBLEMS + 1);
	assert_string_equal(g_ptr_array_index(problems, AB_REPORT_MAX_PROBLEMS - 1),
			    "m.csv:20: not a line of arraybench JSON or bonnie++ CSV");
	assert_string_equal(g_ptr_array_index(problems, AB_REPORT_MAX_PROBLEMS),
			    "m.csv: 80 more lines could not be read (only the first 20 are named)");
	ab_run_set_clear(&set);
}

/* A 1.03 line's first field is the machine: one named "name" is a run,
 * not the header bonnie++ -x writes ("name,file_size,..."). */
static void test_machine_named_name(void **state)
{
	(void)state;
	g_auto(GStrv) b103 = fixture_lines("bonnie-1.03-seed003.csv");
	g_autofree char *line = g_strconcat("name", strchr(b103[0], ','), "\n", NULL);
	g_autoptr(GPtrArray) problems = problems_new();
	struct ab_run_set set = { 0 };
	assert_int_equal(ab_report_read_text("n.csv", line, strlen(line), &set, problems), 1);
	assert_int_equal(problems->len, 0);
	assert_string_equal(((struct ab_run *)g_ptr_array_index(set.runs, 0))->machine, "name");
	ab_run_set_clear(&set);
}

/* Every real line is claimed by exactly one reader, the one of its format. */
static void test_claims_disjoint(void **state)
{
	(void)state;
	const struct { const char *file; const struct ab_reader *reader; } files[] = {
		{ "arraybench-run.csv", &ab_reader_csv_198 }, { "arraybench-run.json", &ab_reader_json },
		{ "bonnie-2.00a.csv", &ab_reader_csv_198 }, { "bonnie-1.03-seed003.csv", &ab_reader_csv_103 },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		g_auto(GStrv) lines = fixture_lines(files[i].file);
		for (char **l = lines; *l; l++) {
			unsigned claimed = 0;
			for (const struct ab_reader *const *r = ab_readers; *r; r++)
				if ((*r)->claims(*l)) {
					claimed++;
					assert_ptr_equal(*r, files[i].reader);
				}
			assert_int_equal(claimed, 1);
		}
	}
	assert_string_equal(ab_readers[0]->name, "json");
	assert_string_equal(ab_readers[1]->name, "csv-1.98");
	assert_string_equal(ab_readers[2]->name, "csv-1.03");
	assert_null(ab_readers[3]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_text),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_line_ends),
		cmocka_unit_test(test_many_problems),
		cmocka_unit_test(test_machine_named_name),
		cmocka_unit_test(test_claims_disjoint),
	};
	return cmocka_run_group_tests_name("csv-read-text", tests, NULL, NULL);
}
