/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bonnie++ CSV readers, line by line: our lines and real bonnie++ 2.00a
 * lines written back byte for byte, 1.03 lines into the right phases, each
 * bad field named.  Whole files of lines (problems, line ends, hostile
 * bytes, which reader claims what): test-csv-read-text.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../reports/report.h"
#include "../../workloads/phase.h"
#include "fixture-lines.h"

#define AB_MIB ((uint64_t)1 << 20)

static struct ab_run *read_ok(const struct ab_reader *reader, const char *line)
{
	g_autoptr(GError) error = NULL;
	assert_true(reader->claims(line));
	struct ab_run *run = reader->read_line(line, &error);
	if (!run)
		fail_msg("'%s': %s", line, error->message);
	return run;
}

static void assert_read_error(const struct ab_reader *reader, const char *line, const char *want)
{
	g_autoptr(GError) error = NULL;
	struct ab_run *run = reader->read_line(line, &error);
	assert_null(run);
	assert_non_null(error);
	assert_string_equal(error->message, want);
}

/* Read, write again, compare. */
static void assert_round_trip(const char *line)
{
	g_autoptr(ab_run) run = read_ok(&ab_reader_csv_198, line);
	g_autofree char *again = ab_csv_format_line(run);
	g_autofree char *want = g_strconcat(line, "\n", NULL);
	assert_string_equal(again, want);
}

static const struct ab_result *find(const struct ab_run *run, enum ab_phase_id id)
{
	return ab_run_find(run, ab_phase_by_id(id)->name);
}

static void test_parse_fields(void **state)
{
	(void)state;
	uint64_t v;
	const struct { const char *text; uint64_t ns; } lat[] = {
		{ "0us", 0 }, { "24us", 24000 }, { "99999us", 99999000 }, { "1560ms", 1560000000 },
		{ "120s", 120000000000ull },
		/* Truncated: "99ms" is over 99.999 ms, "99s" over 99.999999 s. */
		{ "99ms", 99999001 }, { "99s", 99999999001ull },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(lat); i++) {
		char back[32];
		assert_true(ab_csv_parse_latency(lat[i].text, &v));
		assert_int_equal(v, lat[i].ns);
		ab_csv_format_latency(v, back, sizeof(back));
		assert_string_equal(back, lat[i].text);
	}
	const char *bad_lat[] = { "", "us", "12", "12 us", "-1us", "1.5ms", "12m", "99999999999999999999s" };
	for (size_t i = 0; i < G_N_ELEMENTS(bad_lat); i++)
		if (ab_csv_parse_latency(bad_lat[i], &v))
			fail_msg("'%s' read as a latency", bad_lat[i]);
	const struct { const char *text; uint64_t bytes; } chunk[] = {
		{ "512", 512 }, { "4k", 4096 }, { "16k", 16384 }, { "1m", AB_MIB }, { "1g", 1024 * AB_MIB },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(chunk); i++) {
		char back[32];
		assert_true(ab_csv_parse_chunk(chunk[i].text, &v));
		assert_int_equal(v, chunk[i].bytes);
		ab_csv_format_chunk(v, back, sizeof(back));
		assert_string_equal(back, chunk[i].text);
	}
	const char *bad_chunk[] = { "", "k", "0", "4kb", "-4k", " 4k", "4 k", "99999999999999999999k" };
	for (size_t i = 0; i < G_N_ELEMENTS(bad_chunk); i++)
		if (ab_csv_parse_chunk(bad_chunk[i], &v))
			fail_msg("'%s' read as a chunk", bad_chunk[i]);
}

/* The live runs' lines (tests/fixtures/README), and one with every field
 * away from its default, come back as they were written. */
static void test_ours_round_trip(void **state)
{
	(void)state;
	g_auto(GStrv) lines = fixture_lines("arraybench-run.csv");
	assert_int_equal(g_strv_length(lines), 4);
	for (char **l = lines; *l; l++)
		assert_round_trip(*l);

	g_autoptr(ab_run) run = read_ok(&ab_reader_csv_198, lines[2]);
	assert_string_equal(run->tool, "arraybench");
	assert_string_equal(run->tool_version, "0.1.0");
	assert_string_equal(run->machine, "fixhost");
	assert_int_equal(run->concurrency, 1);
	assert_int_equal(run->seed, 2355483370u);
	assert_null(run->seed_text);
	const struct ab_conditions *c = &run->cond;
	assert_int_equal(c->file_size, 64 * AB_MIB);
	assert_int_equal(c->io_chunk, 4096);
	assert_int_equal(c->seeks, 4096);
	assert_int_equal(c->seekers, 3);
	assert_int_equal(c->num_files_k, 2);
	assert_string_equal(c->file_kind, "file");
	assert_int_equal(c->file_max, 8192);
	assert_int_equal(c->file_min, 1024);
	assert_int_equal(c->num_dirs, 3);
	assert_int_equal(c->file_chunk, 16384);
	assert_false(ab_known(c->per_char_bytes));
	assert_null(find(run, AB_PHASE_PER_CHAR_WRITE)); /* -f: all three fields empty */
	const struct ab_result *sc = find(run, AB_PHASE_SEQ_CREATE);
	assert_true(sc->measurable);
	assert_true(sc->rate == 3462 && sc->cpu_percent == 93);
	assert_int_equal(sc->latency.max_ns, 1317000);
	assert_int_equal(sc->key.record_size, 16384);
	assert_int_equal(sc->key.streams, 1);
	const struct ab_result *bw = find(run, AB_PHASE_BLOCK_WRITE);
	assert_false(bw->measurable);
	assert_true(isnan(bw->rate) && isnan(bw->cpu_percent));
	assert_int_equal(bw->latency.max_ns, 218000);
	assert_int_equal(bw->key.file_size, 64 * AB_MIB);
	assert_int_equal(bw->key.record_size, 4096);
	assert_int_equal(run->results->len, 10);

	/* Defaults read back as defaults: empty chunk 8192, dirs 1, sizes 0. */
	g_autoptr(ab_run) plain = read_ok(&ab_reader_csv_198, lines[0]);
	assert_int_equal(plain->cond.io_chunk, 8192);
	assert_int_equal(plain->cond.file_chunk, 8192);
	assert_int_equal(plain->cond.num_dirs, 1);
	assert_int_equal(plain->cond.file_max, 0);
	assert_int_equal(plain->cond.file_min, 0);
	assert_true(find(plain, AB_PHASE_SEEKS)->rate == 1091182);
	assert_int_equal(find(plain, AB_PHASE_SEEKS)->latency.max_ns, 52069000);

	/* -s 0: no I/O conditions known, not zero; symlinks. */
	g_autoptr(ab_run) files = read_ok(&ab_reader_csv_198, lines[3]);
	assert_false(ab_known(files->cond.file_size));
	assert_false(ab_known(files->cond.io_chunk));
	assert_false(ab_known(files->cond.seeks));
	assert_string_equal(files->cond.file_kind, "symlink");

	/* Every field set, each to a value only its column holds; decimals of
	 * a seek rate; hard links; a seed that is a file name. */
	const char *full[] = {
		"1.98,arraybench-0.1.0,bbhost,1,1796222993,1536M,4k,32768,7,1001,11,2002,12,3003,13,4004,14,5005,15,"
		"606.7,16,3,2000,100,9,16k,7007,17,8008,18,9009,19,10010,20,11011,21,12012,22,101us,102us,103us,"
		"104us,105us,106us,107us,108us,109us,110us,111us,112us",
		"1.98,arraybench-0.1.0,bbhost,1,/tmp/seedfile,2G,1m,8192,5,,,2002,12,3003,13,,,5005,15,4322,50,3,"
		"link,,9,16k,7007,17,8008,18,9009,19,10010,20,11011,21,12012,22,,1560ms,99ms,,99s,120s,107us,108us,"
		"109us,110us,111us,112us",
		"1.98,arraybench-,,,0123,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,",
	};
	for (size_t i = 0; i < G_N_ELEMENTS(full); i++)
		assert_round_trip(full[i]);
	g_autoptr(ab_run) odd = read_ok(&ab_reader_csv_198, full[1]);
	assert_string_equal(odd->seed_text, "/tmp/seedfile");
	assert_false(ab_known(odd->seed));
	assert_string_equal(odd->cond.file_kind, "hardlink");
	g_autoptr(ab_run) bare = read_ok(&ab_reader_csv_198, full[2]);
	assert_string_equal(bare->seed_text, "0123"); /* "123" would not write back */
	assert_string_equal(bare->tool_version, "");
	assert_null(bare->machine);
	assert_false(ab_known(bare->concurrency));
	assert_int_equal(bare->results->len, 0);
}

/* bonnie++ 2.00a's own lines (dirs in column 25, no chunks) come back as
 * they were. */
static void test_bonnie_round_trip(void **state)
{
	(void)state;
	g_auto(GStrv) lines = fixture_lines("bonnie-2.00a.csv");
	assert_int_equal(g_strv_length(lines), 5);
	for (char **l = lines; *l; l++)
		assert_round_trip(*l);

	g_autoptr(ab_run) run = read_ok(&ab_reader_csv_198, lines[1]);
	assert_string_equal(run->tool, "bonnie++");
	assert_string_equal(run->tool_version, "2.00a");
	assert_int_equal(run->concurrency, 2);
	const struct ab_conditions *c = &run->cond;
	assert_int_equal(c->file_size, 64 * AB_MIB);
	assert_false(ab_known(c->io_chunk)); /* 2.00a never writes it */
	assert_int_equal(c->seeks, 8192);
	assert_int_equal(c->seekers, 5);
	assert_int_equal(c->num_files_k, 2);
	assert_int_equal(c->file_max, 8192);
	assert_int_equal(c->file_min, 1024);
	assert_int_equal(c->num_dirs, 3); /* from column 25 */
	assert_false(ab_known(c->file_chunk));
	assert_null(find(run, AB_PHASE_PER_CHAR_READ));
	const struct ab_result *seeks = find(run, AB_PHASE_SEEKS);
	assert_false(seeks->measurable);
	assert_int_equal(seeks->latency.max_ns, 13736000);
	assert_true(seeks->min_measurable_s == AB_CSV_MIN_TIME_S);

	g_autoptr(ab_run) seek = read_ok(&ab_reader_csv_198, lines[4]);
	assert_int_equal(seek->cond.seeks, 524288);
	assert_int_equal(seek->cond.seekers, 3);
	assert_true(find(seek, AB_PHASE_SEEKS)->rate == 90709 && find(seek, AB_PHASE_SEEKS)->cpu_percent == 188);
	assert_int_equal(find(seek, AB_PHASE_SEEKS)->latency.max_ns, 110000000);
	assert_false(ab_known(seek->cond.num_files_k)); /* -n 0 */

	g_autoptr(ab_run) sym = read_ok(&ab_reader_csv_198, lines[2]);
	assert_false(ab_known(sym->cond.file_size));
	assert_string_equal(sym->cond.file_kind, "symlink");
	assert_int_equal(sym->cond.num_dirs, 1);

	/* The one difference that cannot be helped: bonnie++ decides %.1f or
	 * %.0f on the unprinted seek rate, so a rate in [999.95, 1000) is
	 * "1000.0"; read back it is 1000, which both bonnie++ and we write
	 * "1000". */
	const char *edge = "1.98,2.00a,fixhost,1,1796296531,64M,,8192,5,,,,,,,,,,,1000.0,3,"
			   ",,,,,,,,,,,,,,,,,,,,,,,,,,,,";
	g_autoptr(ab_run) e = read_ok(&ab_reader_csv_198, edge);
	g_autofree char *back = ab_csv_format_line(e);
	assert_string_equal(back, "1.98,2.00a,fixhost,1,1796296531,64M,,8192,5,,,,,,,,,,,1000,3,"
				  ",,,,,,,,,,,,,,,,,,,,,,,,,,,,\n");

	/* A bonnie++ version after 2.0x, if it writes the documented layout,
	 * keeps dirs in 24 and its file chunk in 25. */
	const char *fixed = "1.98,3.0,fixhost,1,1,,,,,,,,,,,,,,,,,2,8192,1024,3,4k,+++++,+++,,,,,,,,,,,,,,,,,,,,,,";
	assert_round_trip(fixed);
	g_autoptr(ab_run) f = read_ok(&ab_reader_csv_198, fixed);
	assert_int_equal(f->cond.num_dirs, 3);
	assert_int_equal(f->cond.file_chunk, 4096);
}

/* bonnie++ 1.03's lines from seed 003 (tests/fixtures/README). */
static void test_103(void **state)
{
	(void)state;
	g_auto(GStrv) lines = fixture_lines("bonnie-1.03-seed003.csv");
	assert_int_equal(g_strv_length(lines), 3);
	for (char **l = lines; *l; l++) {
		assert_false(ab_reader_csv_198.claims(*l));
		assert_false(ab_reader_json.claims(*l));
		g_autoptr(ab_run) r = read_ok(&ab_reader_csv_103, *l);
		assert_int_equal(r->results->len, AB_PHASE_COUNT);
	}
	g_autoptr(ab_run) run = read_ok(&ab_reader_csv_103, lines[0]);
	assert_string_equal(run->tool, "bonnie++");
	assert_string_equal(run->tool_version, "1.03");
	assert_string_equal(run->machine, "sage-ora2");
	assert_int_equal(run->concurrency, 1);
	assert_false(ab_known(run->seed));
	assert_null(run->seed_text);
	const struct ab_conditions *c = &run->cond;
	assert_int_equal(c->file_size, 8000 * AB_MIB);
	assert_int_equal(c->io_chunk, 8192);
	assert_false(ab_known(c->seeks));
	assert_int_equal(c->num_files_k, 16);
	assert_int_equal(c->num_dirs, 1);
	assert_string_equal(c->per_char_mode, "stdio");
	assert_int_equal(c->per_char_bytes, 8000 * AB_MIB);
	const struct { enum ab_phase_id id; double rate, cpu; } want[] = {
		{ AB_PHASE_PER_CHAR_WRITE, 77055, 90 }, { AB_PHASE_BLOCK_WRITE, 142941, 29 },
		{ AB_PHASE_REWRITE, 81398, 11 },       { AB_PHASE_PER_CHAR_READ, 73811, 85 },
		{ AB_PHASE_BLOCK_READ, 265997, 15 },   { AB_PHASE_SEEKS, 1213.3, 1 },
		{ AB_PHASE_SEQ_CREATE, 6037, 99 },     { AB_PHASE_RAND_CREATE, 6248, 99 },
		{ AB_PHASE_RAND_DELETE, 18902, 100 },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
		const struct ab_result *r = find(run, want[i].id);
		assert_true(r->measurable);
		if (r->rate != want[i].rate || r->cpu_percent != want[i].cpu)
			fail_msg("%s: %g %g", r->phase, r->rate, r->cpu_percent);
		assert_false(ab_known(r->latency.max_ns));
	}
	const enum ab_phase_id fast[] = { AB_PHASE_SEQ_STAT, AB_PHASE_SEQ_DELETE, AB_PHASE_RAND_STAT };
	for (size_t i = 0; i < G_N_ELEMENTS(fast); i++) {
		const struct ab_result *r = find(run, fast[i]);
		assert_false(r->measurable);
		assert_true(isnan(r->rate) && isnan(r->cpu_percent));
	}
	assert_int_equal(find(run, AB_PHASE_PER_CHAR_WRITE)->key.file_size, 8000 * AB_MIB);
	assert_int_equal(find(run, AB_PHASE_SEEKS)->key.record_size, 8192);

	/* Packed fields: a chunk, max:min/dirs, links; -s 0 and -n 0. */
	g_autoptr(ab_run) p = read_ok(&ab_reader_csv_103, "vm,1G:4k,,,250930,26,574306,34,,,+++++,+++,+++++,+++,"
							   "4:8192:1024/3,7327,17,+++++,+++,,,,,,,,");
	assert_int_equal(p->cond.file_size, 1024 * AB_MIB);
	assert_int_equal(p->cond.io_chunk, 4096);
	assert_null(p->cond.per_char_mode); /* -f: no per-char phase */
	assert_int_equal(p->cond.num_files_k, 4);
	assert_int_equal(p->cond.file_max, 8192);
	assert_int_equal(p->cond.file_min, 1024);
	assert_int_equal(p->cond.num_dirs, 3);
	assert_int_equal(p->results->len, 6);
	g_autoptr(ab_run) l = read_ok(&ab_reader_csv_103, "vm,,,,,,,,,,,,,,16:link/2,1,2,3,4,5,6,7,8,9,10,11,12");
	assert_false(ab_known(l->cond.file_size));
	assert_string_equal(l->cond.file_kind, "hardlink");
	assert_int_equal(l->cond.num_dirs, 2);
	assert_int_equal(l->results->len, 6);
	g_autoptr(ab_run) n0 = read_ok(&ab_reader_csv_103, "vm,1G,1,2,3,4,5,6,7,8,9,10,11.5,12,,,,,,,,,,,,,");
	assert_false(ab_known(n0->cond.num_files_k));
	assert_true(find(n0, AB_PHASE_SEEKS)->rate == 11.5);

	assert_read_error(&ab_reader_csv_103, "vm,1G,1,2,3,4,5,6,7,8,9,10,11.5,12,16:x,,,,,,,,,,,,",
			  "field 15 (num_files): '16:x' is not num_files[:max:min][/dirs]");
	assert_read_error(&ab_reader_csv_103, "vm,1G:3q,1,2,3,4,5,6,7,8,9,10,11.5,12,,,,,,,,,,,,,",
			  "field 2 (file_size): '1G:3q' is not a size[:chunk]");
	assert_read_error(&ab_reader_csv_103, "vm,1G,1,2,abc,4,5,6,7,8,9,10,11.5,12,,,,,,,,,,,,,",
			  "field 5 (put_block): 'abc' is not a number");
	g_autofree char *colons = g_strnfill(1 << 20, ':');
	g_autofree char *many = g_strconcat("vm,1G,,,,,,,,,,,,,16", colons, ",,,,,,,,,,,,", NULL);
	assert_read_error(&ab_reader_csv_103, many,
			  "field 15 (num_files): '16::::::::::::::::::::::::::::::::::::::...' is not "
			  "num_files[:max:min][/dirs]");
	/* Not 1.03: a 1.98 line, 26 fields, field 1 no size, a JSON brace. */
	assert_false(ab_reader_csv_103.claims("1.98,2.00a,x,,,,,,,,,,,,,,,,,,,,,,,,,"));
	assert_false(ab_reader_csv_103.claims("vm,1G,,,,,,,,,,,,,,,,,,,,,,,,"));
	assert_false(ab_reader_csv_103.claims("vm,big,,,,,,,,,,,,,,,,,,,,,,,,,"));
	assert_false(ab_reader_csv_103.claims("{vm,1G,,,,,,,,,,,,,,,,,,,,,,,,,"));
}

static void test_field_errors(void **state)
{
	(void)state;
	g_auto(GStrv) lines = fixture_lines("arraybench-run.csv");
	g_autofree char *cut = g_strndup(lines[0], strlen(lines[0]) - strlen(strrchr(lines[0], ',')));
	assert_read_error(&ab_reader_csv_198, cut, "49 fields, a 1.98 line has 50");
	g_autofree char *more = g_strconcat(lines[0], ",", NULL);
	assert_read_error(&ab_reader_csv_198, more, "51 fields, a 1.98 line has 50");
	const struct { int col; const char *value, *want; } bad[] = {
		{ 11, "abc", "field 12 (put_block): 'abc' is not a number" },
		{ 12, "-3", "field 13 (put_block_cpu): '-3' is not a number" },
		{ 19, "1e3", "field 20 (seeks): '1e3' is not a number" },
		{ 11, "1000000000000000000000000000000", /* would overflow the writers' casts */
		  "field 12 (put_block): '1000000000000000000000000000000' is not a number" },
		{ 3, "one", "field 4 (concurrency): 'one' is not a number" },
		{ 5, "64", "field 6 (file_size): '64' is not a size" },
		{ 6, "4q", "field 7 (io_chunk_size): '4q' is not a size" },
		{ 7, "8k", "field 8 (seeks): '8k' is not a number" },
		{ 22, "big", "field 23 (max_size): 'big' is not a number" },
		{ 25, "16x", "field 26 (file_chunk_size): '16x' is not a size" },
		{ 43, "52 ms", "field 44 (seeks_latency): '52 ms' is not a latency" },
		{ 26, "+++++", NULL }, /* any phase may be too fast */
	};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_auto(GStrv) f = g_strsplit(lines[0], ",", -1);
		g_free(f[bad[i].col]);
		f[bad[i].col] = g_strdup(bad[i].value);
		g_autofree char *line = g_strjoinv(",", f);
		if (bad[i].want) {
			assert_read_error(&ab_reader_csv_198, line, bad[i].want);
		} else {
			g_autoptr(ab_run) r = read_ok(&ab_reader_csv_198, line);
			assert_false(find(r, AB_PHASE_SEQ_CREATE)->measurable);
		}
	}
	/* A long value is cut in the message. */
	g_autofree char *longv = g_strnfill(5000, '7');
	g_auto(GStrv) f = g_strsplit(lines[0], ",", -1);
	g_free(f[11]);
	f[11] = g_strconcat(longv, "x", NULL);
	g_autofree char *line = g_strjoinv(",", f);
	g_autoptr(GError) error = NULL;
	assert_null(ab_reader_csv_198.read_line(line, &error));
	assert_true(strlen(error->message) < 120);
	assert_true(g_str_has_suffix(error->message, "...' is not a number"));

	assert_true(ab_reader_csv_198.claims("1.97,1.97,x"));
	assert_read_error(&ab_reader_csv_198,
			  "1.96,1.96,srdan-desktop,1,1308644057,8G,,505,98,83083,10,36609,4,2514,86,96195,5,155.8,3,"
			  "16,,,,,11634,22,+++++,+++,17458,25,16959,30,+++++,+++,17864,23,16674us,1003ms,1830ms,"
			  "41497us,269ms,1014ms,55341us,601us,638us,753us,43us,123us",
			  "bonnie++ CSV format '1.96' (48 fields, no seek count columns) is not supported: "
			  "only 1.98 and 1.03 lines are");
	assert_false(ab_reader_csv_198.claims("1.98 ,x"));
	assert_false(ab_reader_csv_198.claims("2,1.98,x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_fields),
		cmocka_unit_test(test_ours_round_trip),
		cmocka_unit_test(test_bonnie_round_trip),
		cmocka_unit_test(test_103),
		cmocka_unit_test(test_field_errors),
	};
	return cmocka_run_group_tests_name("csv-read", tests, NULL, NULL);
}
