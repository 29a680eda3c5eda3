/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arraybench matrix: the file parser (cells, their order, labels and argv;
 * every error with its file and line), visit seeds, a changed file, a
 * profile's cells, results.csv's text, and --repeat-until's test of a
 * cell's spread.  The results directory and resume: test-matrix-dir.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/base/error.h"
#include "../../src/matrix/matrix-file.h"
#include "../../src/matrix/matrix-spread.h"
#include "../../src/matrix/matrix-results.h"
#include "../../src/matrix/matrix-state.h"
#include "../../reports/report.h"
#include "matrix-demo.h"

static struct ab_run *rate_run(double a, double b, gboolean failed);

static void expect_error(const char *text, const char *want)
{
	g_autoptr(GError) error = NULL;
	struct ab_matrix *m = ab_matrix_parse("m.ini", text, strlen(text), &error);
	if (m)
		fail_msg("parsed, but want '%s'", want);
	assert_non_null(error);
	assert_int_equal(error->code, AB_ERROR_USAGE);
	if (!strstr(error->message, want))
		fail_msg("got '%s', want '%s'", error->message, want);
}

static const struct ab_matrix_cell *cell(const struct ab_matrix *m, guint i)
{
	return g_ptr_array_index(m->cells, i);
}

/* The cell's argv as one line, for comparing. */
static char *argv_text(const struct ab_matrix_cell *c)
{
	g_autoptr(GPtrArray) a = g_ptr_array_new(); /* borrows the strings */
	for (guint i = 0; i < c->argv->len; i++)
		g_ptr_array_add(a, g_ptr_array_index(c->argv, i));
	g_ptr_array_add(a, NULL);
	return g_strjoinv(" ", (char **)a->pdata);
}

static void test_cells_product_and_labels(void **state)
{
	(void)state;
	g_autoptr(ab_matrix) m = parse_ok(demo);
	assert_int_equal(m->repeats, 2);
	assert_int_equal(m->cells->len, 8);
	/* Levels vary slowest, workloads fastest. */
	const char *want[] = {
		"btrfs-raid1 btrfs defaults bonnie",  "btrfs-raid1 btrfs defaults mirror",
		"btrfs-raid1 btrfs noatime,nodiratime bonnie", "btrfs-raid1 btrfs noatime,nodiratime mirror",
		"btrfs-raid10 btrfs defaults bonnie", "btrfs-raid10 btrfs defaults mirror",
		"btrfs-raid10 btrfs noatime,nodiratime bonnie", "btrfs-raid10 btrfs noatime,nodiratime mirror",
	};
	for (guint i = 0; i < 8; i++)
		assert_string_equal(cell(m, i)->label, want[i]);
	assert_string_equal(cell(m, 1)->workload, "mirror");
	/* Run's refusals of a cell's options blame the options it has last. */
	assert_int_equal(cell(m, 0)->line, 8);
	assert_int_equal(cell(m, 1)->line, 11);
	assert_int_equal(m->workloads_line, 6);
	g_autofree char *a0 = argv_text(cell(m, 0));
	assert_string_equal(a0, "run --loop 4:256m --backend btrfs --array raid1 --fs btrfs --workload bonnie "
				"-m btrfs-raid1_btrfs_defaults_bonnie -r 16 --cache cgroup");
	g_autofree char *a7 = argv_text(cell(m, 7));
	assert_string_equal(a7, "run --loop 4:256m --backend btrfs --array raid10 --fs btrfs --mount-opts "
				"noatime,nodiratime --workload mirror -m btrfs-raid10_btrfs_noatime+nodiratime_mirror "
				"-r 16 --cache cgroup --sweep-file-sizes 4m");
	/* The seed comes from the file's digest unless given; both recorded. */
	assert_int_equal(strlen(m->sha256), 64);
	assert_true(m->seed <= G_MAXUINT32);
}

static void test_cells_mixed(void **state)
{
	(void)state;
	/* mdadm and btrfs levels, two fs: btrfs levels take only btrfs; none
	 * is one member; mkfs options labelled; members with confirmation. */
	g_autoptr(ab_matrix) m = parse_ok("[matrix]\n"
					  "members = /dev/sdb, /dev/sdc\n"
					  "yes-destroy = /dev/sdc,/dev/sdb\n"
					  "backend = mdadm\n"
					  "levels = 1, btrfs:raid1, none\n"
					  "fs = ext4, btrfs\n"
					  "mkfs-opts = defaults; -O ^has_journal\n"
					  "seed = 42\n");
	assert_int_equal(m->repeats, AB_MATRIX_DEFAULT_REPEATS);
	assert_int_equal(m->seed, 42);
	/* mdadm-1: 2 fs x 2 mkfs; btrfs-raid1: btrfs x 2 mkfs; plain: 2 x 2. */
	assert_int_equal(m->cells->len, 10);
	assert_string_equal(cell(m, 0)->label, "mdadm-1 ext4 defaults");
	assert_string_equal(cell(m, 1)->label, "mdadm-1 ext4 mkfs(-O ^has_journal) defaults");
	assert_string_equal(cell(m, 4)->label, "btrfs-raid1 btrfs defaults");
	assert_string_equal(cell(m, 6)->label, "plain ext4 defaults");
	assert_null(cell(m, 0)->workload);
	g_autofree char *a1 = argv_text(cell(m, 1));
	assert_string_equal(a1, "run --members /dev/sdb,/dev/sdc --yes-destroy /dev/sdb,/dev/sdc --backend mdadm "
				"--array 1 --fs ext4 --mkfs-opts -O ^has_journal -m mdadm-1_ext4_mkfs(-O_^has_journal)_defaults");
	g_autofree char *a6 = argv_text(cell(m, 6));
	assert_string_equal(a6, "run --device /dev/sdb --yes-destroy /dev/sdb --fs ext4 -m plain_ext4_defaults");
}

/* A UTF-8 byte order mark is no part of line 1; the checksum keeps it. */
static void test_bom(void **state)
{
	(void)state;
	g_autoptr(ab_matrix) m = parse_ok("\xef\xbb\xbf[matrix]\nloop = 1:64m\nfs = ext4\n");
	assert_int_equal(m->cells->len, 1);
	g_autoptr(ab_matrix) plain = parse_ok("[matrix]\nloop = 1:64m\nfs = ext4\n");
	assert_string_not_equal(m->sha256, plain->sha256);
}

static void test_paths_relative_to_file(void **state)
{
	(void)state;
	g_autoptr(ab_matrix) m = parse_ok("[matrix]\nloop = 2:64m:images\nlevels = none\nfs = ext4\n"
					  "workloads = profiles/small.ini\noptions = -m box\n");
	assert_int_equal(m->cells->len, 1);
	/* none: one image; the relative paths from the file's directory; -m
	 * of the options kept, so none is added. */
	g_autofree char *a = argv_text(cell(m, 0));
	assert_string_equal(a, "run --loop 1:64m:/etc/ab/images --fs ext4 --workload /etc/ab/profiles/small.ini -m box");
	assert_string_equal(cell(m, 0)->label, "plain ext4 defaults small");
}

static void test_errors_with_lines(void **state)
{
	(void)state;
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\nlevel = raid1\n", "m.ini:4: unknown key 'level' in [matrix]");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\nrepeats = many\n",
		     "m.ini:4: bad value of 'repeats' 'many': a whole number from 1 to 1000");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\nrepeats = 0\n", "m.ini:4: bad value of 'repeats' '0'");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\nseed = -1\n", "m.ini:4: bad value of 'seed' '-1'");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\n\n[matrix]\nrepeats = 2\n",
		     "m.ini:5: duplicate group '[matrix]' (first at line 1)");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\nfs = xfs\n",
		     "m.ini:4: duplicate key 'fs' in [matrix] (first at line 3)");
	expect_error("[matrix]\nloop = 1:64m\nfs =   \n", "m.ini:3: empty list 'fs'");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4,,xfs\n", "m.ini:3: empty entry in 'fs' (',' separates them)");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4, ext4\n", "m.ini:3: duplicate entry 'ext4' in 'fs'");
	expect_error("[matrix]\nloop = 1:64m\nfs = zfs\n", "m.ini:3: ");
	expect_error("[matrix]\nmembers = /dev/sdb,/dev/sdc\nyes-destroy = /dev/sdb\nfs = ext4\n",
		     "m.ini:3: member '/dev/sdc' is not confirmed");
	expect_error("[matrix]\nmembers = /dev/sdb\nfs = ext4\n", "m.ini:2: member '/dev/sdb' is not confirmed");
	expect_error("[matrix]\nmembers = /dev/sdb\nyes-destroy = /dev/sdb,/dev/sda\nfs = ext4\n",
		     "m.ini:3: yes-destroy names '/dev/sda', which is not a member");
	expect_error("[matrix]\nloop = 1:64m\nyes-destroy = /dev/sdb\nfs = ext4\n",
		     "m.ini:3: 'yes-destroy' confirms 'members', which are not given");
	expect_error("[matrix]\nloop = 1:64m\nmembers = /dev/sdb\nfs = ext4\n",
		     "m.ini:3: 'members' and 'loop' exclude each other");
	expect_error("# x\n[matrix]\nfs = ext4\n", "m.ini:2: no members");
	expect_error("[matrix]\nloop = 0:64m\nfs = ext4\n", "m.ini:2: invalid --loop '0:64m'");
	expect_error("[matrix]\nloop = 1:1m\nfs = ext4\n", "m.ini:2: invalid --loop size '1m'");
	expect_error("[matrix]\nloop = 1:64m\nlevels = zfs:raidz\nfs = ext4\n", "m.ini:3: bad backend 'zfs'");
	expect_error("[matrix]\nloop = 1:64m\nlevels = btrfs:\nfs = btrfs\n", "m.ini:3: bad level 'btrfs:'");
	expect_error("[matrix]\nloop = 1:64m\nbackend = zfs\nfs = ext4\n", "m.ini:3: bad backend 'zfs'");
	expect_error("[matrix]\nloop = 1:64m\nlevels = btrfs:raid1\nfs = ext4\n",
		     "m.ini:3: level 'btrfs-raid1' makes btrfs itself, and 'fs' does not list btrfs");
	expect_error("[matrix]\nloop = 1:64m\nlevels = raid1, mdadm:raid1\nbackend = mdadm\nfs = ext4\n",
		     "m.ini:3: two cells would both be 'mdadm-raid1 ext4 defaults'");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\nworkloads = bonnie, p/bonnie.ini\n",
		     "m.ini:4: two cells would both be 'plain ext4 defaults bonnie': workloads 'bonnie' and");
	expect_error("[matrix]\nloop = 1:64m\nlevels = raid1\n", "m.ini:1: missing key 'fs'");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\noptions = -s 32m -x 3\n",
		     "m.ini:4: option '-x' in 'options' is the matrix's own");
	/* Bundled options: "-bq" is -b -q, "-sx 32m 3" is -s 32m -x 3. */
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\noptions = -s 32m -bq\n",
		     "m.ini:4: option '-q' in 'options' is the matrix's own");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\noptions = -sx 32m 3\n",
		     "m.ini:4: option '-x' in 'options' is the matrix's own");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\noptions = --json=/tmp/x\n",
		     "m.ini:4: option '--json' in 'options' is the matrix's own");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\noptions = -s 'unclosed\n", "m.ini:4: bad value of 'options'");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\nworkloads = mirror\n[workload lab]\noptions = -s 1m\n",
		     "m.ini:5: [workload lab] names no entry of 'workloads'");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\nworkloads = mirror\n[workload mirror]\nrepeats = 2\n",
		     "m.ini:6: unknown key 'repeats' in [workload mirror]");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\n[results]\n",
		     "m.ini:4: unknown group '[results]' (expected [matrix] or [workload NAME])");
	expect_error("[matrix\nloop = 1:64m\n", "m.ini:1: unterminated group header");
	expect_error("loop = 1:64m\n[matrix]\n", "m.ini:1: key 'loop' before any group");
	expect_error("[matrix]\nloop 1:64m\n", "m.ini:2: expected KEY = VALUE");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\nlevels = mdadm:raid1:x\n",
		     "m.ini:4: bad level 'mdadm:raid1:x': expected none, LEVEL or BACKEND:LEVEL");
	expect_error("[matrix]\nloop = 1:64m\nfs = ext4\nmount-opts = noatime\\nrw\n",
		     "m.ini:4: bad entry 'noatime\\nrw' in 'mount-opts': a control character");
	expect_error("# nothing\n", "m.ini: no [matrix] group");
}

static void test_too_many_cells(void **state)
{
	(void)state;
	GString *t = g_string_new("[matrix]\nloop = 1:64m\nfs = ext4\nmount-opts = ");
	for (int i = 0; i < 101; i++)
		g_string_append_printf(t, "%scommit=%d", i ? ";" : "", i + 1);
	g_string_append(t, "\nmkfs-opts = ");
	for (int i = 0; i < 100; i++)
		g_string_append_printf(t, "%s-E stride=%d", i ? ";" : "", i + 1);
	g_string_append(t, "\n");
	expect_error(t->str, "m.ini:1: the lists make 10100 cells, more than 10000");
	g_string_free(t, TRUE);
}

static void test_nul_byte_in_middle(void **state)
{
	(void)state;
	g_autoptr(GError) error = NULL;
	const char text[] = "[matrix]\nloop = 1:64m\0\nfs = ext4\n";
	assert_null(ab_matrix_parse("m.ini", text, sizeof(text) - 1, &error));
	assert_string_equal(error->message, "m.ini: not a text file (it holds a NUL byte)");
}

static void test_visit_seed_and_argv(void **state)
{
	(void)state;
	g_autoptr(ab_matrix) m = parse_ok(demo);
	const struct ab_matrix_cell *c = cell(m, 0);
	uint64_t s1 = ab_matrix_visit_seed(m->seed, c->label, 1);
	assert_int_equal(s1, ab_matrix_visit_seed(m->seed, c->label, 1)); /* a resume gives the same */
	assert_true(s1 != ab_matrix_visit_seed(m->seed, c->label, 2));
	assert_true(s1 != ab_matrix_visit_seed(m->seed, cell(m, 1)->label, 1));
	assert_true(s1 != ab_matrix_visit_seed(m->seed + 1, c->label, 1));
	assert_true(s1 <= G_MAXUINT32);
	g_auto(GStrv) argv = ab_matrix_visit_argv(m, c, 1, TRUE);
	guint n = g_strv_length(argv);
	g_autofree char *seed = g_strdup_printf("%" G_GUINT64_FORMAT, s1);
	assert_string_equal(argv[n - 5], "-x");
	assert_string_equal(argv[n - 4], "1");
	assert_string_equal(argv[n - 3], "-z");
	assert_string_equal(argv[n - 2], seed);
	assert_string_equal(argv[n - 1], "-q");
	g_auto(GStrv) loud = ab_matrix_visit_argv(m, c, 1, FALSE);
	assert_int_equal(g_strv_length(loud), n - 1);
}

static void test_command_line(void **state)
{
	(void)state;
	char *argv[] = { "run", "--mkfs-opts", "-O ^has_journal", "--mount-opts", "noatime,commit=60", "-m", "it's", NULL };
	g_autofree char *line = ab_matrix_command_line(argv);
	assert_string_equal(line, "arraybench run --mkfs-opts '-O ^has_journal' --mount-opts noatime,commit=60 -m 'it'\\''s'");
}

/* results.csv is the CSV writer's lines of the runs with results, in
 * order: a failed visit has none. */
static void test_csv_text(void **state)
{
	(void)state;
	struct ab_run_set set;
	ab_run_set_init(&set);
	struct ab_run *a = rate_run(100, 50, FALSE), *f = rate_run(NAN, NAN, TRUE), *b = rate_run(70, 20, FALSE);
	a->machine = g_strdup("a");
	b->machine = g_strdup("b");
	g_ptr_array_add(set.runs, a);
	g_ptr_array_add(set.runs, f);
	g_ptr_array_add(set.runs, b);
	g_autofree char *want_a = ab_csv_format_line(a), *want_b = ab_csv_format_line(b);
	g_autofree char *want = g_strconcat(want_a, want_b, NULL);
	g_autofree char *got = ab_matrix_csv_text(&set);
	assert_string_equal(got, want);
	g_autoptr(GString) one = g_string_new(NULL);
	ab_matrix_csv_append(one, f);
	assert_int_equal(one->len, 0);
	ab_run_set_clear(&set);
	struct ab_run_set empty;
	ab_run_set_init(&empty);
	g_autofree char *none = ab_matrix_csv_text(&empty);
	assert_string_equal(none, "");
	ab_run_set_clear(&empty);
}

/* A visit's CSV line is made from the run in memory, and a start makes
 * results.csv anew from the runs results.jsonl gives back: the two must be
 * the same bytes, or each resume would rewrite results.csv.  A recorded run
 * (the fixture) with figures no JSON number holds in fewer than 17 digits,
 * a seek rate either side of where bonnie++'s decimal goes, latencies at
 * the unit boundaries and the matrix's stamps. */
static void test_csv_line_survives_its_json(void **state)
{
	(void)state;
	g_autofree char *path = g_build_filename(AB_FIXTURES, "arraybench-run.json", NULL);
	g_autofree char *text = NULL;
	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	text[strcspn(text, "\n")] = '\0';
	const double seeks[] = { 999.9499999999999, 999.95, 12.345678901234567, 123456.78901234 };
	for (unsigned k = 0; k < G_N_ELEMENTS(seeks); k++) {
		g_autoptr(ab_run) run = ab_reader_json.read_line(text, NULL);
		assert_non_null(run);
		assert_true(ab_csv_has_line(run));
		run->cell = g_strdup("btrfs-raid1 btrfs noatime bonnie");
		run->workload = g_strdup("bonnie");
		run->repeat = 3;
		for (guint i = 0; i < run->results->len; i++) {
			struct ab_result *r = g_ptr_array_index(run->results, i);
			r->rate = g_str_equal(r->phase, "seeks") ? seeks[k] : (i + 1) * 1234.5678901234567 / 7;
			r->cpu_percent = (i + 1) * 9.999999999999 + k;
			r->latency.max_ns = i % 3 == 0 ? 99999000ull + i : i % 3 == 1 ? 99999999999ull : 123456789ull * (i + 1);
		}
		g_autofree char *json = ab_writer_format_run(&ab_writer_json, run, NULL);
		json[strcspn(json, "\n")] = '\0';
		g_autoptr(ab_run) back = ab_reader_json.read_line(json, NULL);
		assert_non_null(back);
		g_autoptr(GString) live = g_string_new(NULL), read = g_string_new(NULL);
		ab_matrix_csv_append(live, run);
		ab_matrix_csv_append(read, back);
		assert_true(live->len > 0);
		assert_string_equal(live->str, read->str);
	}
}

/* Two parses of the same bytes agree; one byte more and they do not. */
static void test_changed_file_detected(void **state)
{
	(void)state;
	g_autoptr(ab_matrix) a = parse_ok(demo);
	g_autoptr(ab_matrix) b = parse_ok(demo);
	g_autofree char *more = g_strdup_printf("%s# a comment\n", demo);
	g_autoptr(ab_matrix) c = parse_ok(more);
	assert_int_equal(ab_matrix_dir_state(a->sha256, TRUE, b->sha256), AB_MATRIX_DIR_SAME);
	assert_int_equal(ab_matrix_dir_state(a->sha256, TRUE, c->sha256), AB_MATRIX_DIR_CHANGED);
}

/* A profile file's cells run its copy; their labels do not change. */
static void test_workload_path(void **state)
{
	(void)state;
	g_autoptr(ab_matrix) m = parse_ok("[matrix]\nloop = 2:1g\nlevels = btrfs:raid1\nworkloads = ./w.ini, bonnie\n");
	g_autofree char *entry = g_strdup(cell(m, 0)->workload);
	ab_matrix_set_workload_path(m, entry, "/out/matrix.workloads/w.ini");
	g_autofree char *a0 = argv_text(cell(m, 0)), *a1 = argv_text(cell(m, 1));
	assert_non_null(strstr(a0, " --workload /out/matrix.workloads/w.ini "));
	assert_non_null(strstr(a1, " --workload bonnie "));
	assert_string_equal(cell(m, 0)->label, "btrfs-raid1 btrfs defaults w");
	assert_string_equal(cell(m, 0)->workload, entry);
}

static struct ab_run *rate_run(double a, double b, gboolean failed)
{
	struct ab_run *run = ab_run_new();
	run->failure = failed ? g_strdup("x") : NULL;
	const double v[] = { a, b };
	const char *phase[] = { "block-write", "block-read" };
	for (int i = 0; i < 2; i++) {
		struct ab_result *r = ab_result_new(phase[i]);
		r->measurable = !isnan(v[i]);
		r->rate = v[i];
		ab_run_add_result(run, r);
	}
	return run;
}

static void test_settled(void **state)
{
	(void)state;
	g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func((GDestroyNotify)ab_run_free);
	g_ptr_array_add(runs, rate_run(100, 50, FALSE));
	g_ptr_array_add(runs, rate_run(101, 50, FALSE));
	assert_false(ab_matrix_settled(runs, 0.05, 3)); /* two runs only */
	g_ptr_array_add(runs, rate_run(500, 500, TRUE));  /* a failed visit does not count */
	assert_false(ab_matrix_settled(runs, 0.05, 3));
	g_ptr_array_add(runs, rate_run(99, 51, FALSE));
	assert_true(ab_matrix_settled(runs, 0.05, 3));   /* cv about 1 % and 1.1 % */
	assert_false(ab_matrix_settled(runs, 0.005, 3)); /* not below 0.5 % */
	g_ptr_array_add(runs, rate_run(100, 80, FALSE)); /* block-read now spreads */
	assert_false(ab_matrix_settled(runs, 0.05, 3));
	/* No measurable rate at all: never settled. */
	g_autoptr(GPtrArray) none = g_ptr_array_new_with_free_func((GDestroyNotify)ab_run_free);
	for (int i = 0; i < 3; i++)
		g_ptr_array_add(none, rate_run(NAN, NAN, FALSE));
	assert_false(ab_matrix_settled(none, 0.5, 3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells_product_and_labels),
		cmocka_unit_test(test_cells_mixed),
		cmocka_unit_test(test_bom),
		cmocka_unit_test(test_paths_relative_to_file),
		cmocka_unit_test(test_errors_with_lines),
		cmocka_unit_test(test_too_many_cells),
		cmocka_unit_test(test_nul_byte_in_middle),
		cmocka_unit_test(test_visit_seed_and_argv),
		cmocka_unit_test(test_command_line),
		cmocka_unit_test(test_csv_text),
		cmocka_unit_test(test_csv_line_survives_its_json),
		cmocka_unit_test(test_workload_path),
		cmocka_unit_test(test_changed_file_detected),
		cmocka_unit_test(test_settled),
	};
	return cmocka_run_group_tests_name("matrix", tests, NULL, NULL);
}
