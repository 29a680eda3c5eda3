/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_REPORT_H
#define AB_REPORT_H

/* Writers and readers of runs (src/model/run.h).  Nothing here runs I/O or reads
 * a live config: a run read back is written exactly as a live one. */

#include <glib.h>
#include <stdint.h>

#include "../src/model/run.h"
#include "../src/model/efficiency-ceiling.h"

#define AB_CSV_FORMAT_VERSION "1.98"
#define AB_CSV_FIELDS 50
#define AB_CSV_1_03_FIELDS 27
/* The I/O chunk and file chunk a 1.98 line leaves empty, and 1.03's
 * unwritten I/O chunk: bonnie++'s default. */
#define AB_CSV_DEFAULT_CHUNK 8192u
/* A `+++++` phase lasted under this (bonnie++'s MinTime, ours too). */
#define AB_CSV_MIN_TIME_S 0.5
#define AB_JSON_FORMAT_VERSION 2

/* One output format: everything `run`, `matrix` and `report` need to
 * write it, so a format is its file and its row in ab_writers[]. */
struct ab_writer {
	const char *name;       /* "text", "csv", "json": the --format word */
	const char *extension;  /* of a file holding it */
	/* run's option naming a file each run is appended to ("--csv"); NULL
	 * when run has none (the text goes to the terminal). */
	const char *run_option;
	/* Does run print it on standard output too, after the table (the CSV
	 * line, as bonnie++ does)? */
	gboolean run_stdout;
	/* Does this run have anything in this format?  NULL: every run has.
	 * (A sweep alone has no bonnie++ line: it would be all empty.) */
	gboolean (*has_run)(const struct ab_run *run);
	/* Written once before the first run of a file or a set (the sweep's
	 * column names); NULL for none. */
	const char *header;
	/* Appends one run to out (without the header). */
	gboolean (*write_run)(const struct ab_run *run, GString *out, GError **error);
	/* Appends many; NULL means the header, then each run in turn with
	 * write_run. */
	gboolean (*write_set)(const struct ab_run_set *set, GString *out, GError **error);
};

extern const struct ab_writer ab_writer_text, ab_writer_csv, ab_writer_json, ab_writer_sweep_csv;
/* NULL-terminated, in --format's order (run checks and writes its files in
 * this order too). */
extern const struct ab_writer *const ab_writers[];
const struct ab_writer *ab_writer_by_name(const char *name);
/* Does the run have anything in w's format (w->has_run)? */
gboolean ab_writer_has_run(const struct ab_writer *w, const struct ab_run *run);
/* One run in w's format, a new string (empty when it has none). */
char *ab_writer_format_run(const struct ab_writer *w, const struct ab_run *run, GError **error);
gboolean ab_writer_write_set(const struct ab_writer *w, const struct ab_run_set *set, GString *out,
			     GError **error);

/* One input format, read a line at a time (our JSON is one object per line,
 * CSV one run per line). */
struct ab_reader {
	const char *name;       /* "json", "csv-1.98", "csv-1.03" */
	/* Is this line of this format?  (Cheap: the first bytes decide.) */
	gboolean (*claims)(const char *line);
	/* One line (no newline) to a run, or NULL and an error naming what
	 * is wrong with it. */
	struct ab_run *(*read_line)(const char *line, GError **error);
};

extern const struct ab_reader ab_reader_json, ab_reader_csv_198, ab_reader_csv_103;
extern const struct ab_reader *const ab_readers[];
/* Reads every line of text (named `name` in messages) into set: runs it
 * could read are appended (to a set of ab_run_set_init_once(), a run it
 * holds already is dropped, a JSON run's own CSV line too, and the first
 * such line named in set->first_dropped); each line it could not read adds one message
 * "NAME:LINE: what" (a char * to g_free; problems may be NULL) to problems,
 * the first AB_REPORT_MAX_PROBLEMS of them, then one "NAME: N more lines
 * could not be read" (a file of junk would otherwise hold a message a line).
 * Lines end in "\n", "\r\n" or "\r", the last one may have none; a UTF-8
 * byte order mark is skipped, UTF-16 text is one problem; header lines
 * of bonnie++'s CSV and empty lines are skipped.  Returns how many runs it
 * read (dropped ones too).  Any bytes at all are safe to pass. */
#define AB_REPORT_MAX_PROBLEMS 20
unsigned ab_report_read_text(const char *name, const char *text, size_t len, struct ab_run_set *set,
			     GPtrArray *problems);

/* bonnie++ 1.98 CSV line, newline included: 50 fields, the documented column
 * layout (chunk in 6, dirs in 24, file chunk in 25; bonnie++ 2.00a's own
 * runs keep its dirs in 25), `+++++`/`+++` for phases under 0.5 s, empty
 * fields for what did not run or is not known. */
char *ab_csv_format_line(const struct ab_run *run);
/* Does the run have a bonnie++ line to write?  Not when all it measured is
 * beyond bonnie++'s phases (a sweep alone): that line would be all empty. */
gboolean ab_csv_has_line(const struct ab_run *run);
/* Latency field: "24us", "1560ms", "120s", or "" for AB_UNSET. */
void ab_csv_format_latency(uint64_t ns, char *out, size_t len);
/* Sizes bonnie++-style: "512", "4k", "1m". */
void ab_csv_format_chunk(uint64_t bytes, char *out, size_t len);
/* The inverse of both ("4k" -> 4096, "1560ms" -> 1560000000); FALSE if text
 * is not one. */
gboolean ab_csv_parse_chunk(const char *text, uint64_t *out);
gboolean ab_csv_parse_latency(const char *text, uint64_t *ns);
/* Does a 1.98 line of this tool and version hold its directory count in
 * column 25 (bonnie++ 1.98 to 2.00a) rather than 24?  The writer and the
 * reader ask the same question. */
gboolean ab_csv_dirs_in_25(const char *tool, const char *tool_version);

/* A run for people: every block of reports/text.c's blocks[] that applies
 * (text-block.h), the conditions (or raw's header) and the table first. */
char *ab_text_format(const struct ab_run *run);
/* The record-size sweep's iozone-style grids (reports/sweep-table.c),
 * appended to s; nothing when the run has no sweep. */
void ab_text_sweep(GString *s, const struct ab_run *run);
/* The wal phase's table (reports/wal-table.c), appended to s; nothing when
 * the run has no wal result.  Its results are not rows of the main table. */
void ab_text_wal(GString *s, const struct ab_run *run);
gboolean ab_text_is_wal_result(const struct ab_result *r);
/* The latency curve's steps and sizing answer, in a block of their own
 * (reports/curve-table.c), appended to s; nothing when the run has none. */
void ab_text_curve(GString *s, const struct ab_run *run);
/* Is r a result of the latency curve, shown in that block? */
gboolean ab_text_is_curve_result(const struct ab_result *r);
/* The closing sizing statement of a run with the database phases (wal,
 * oltp, oltp+wal, latency-curve; reports/sizing-text.c), read off their
 * results; nothing for a run without them. */
void ab_text_sizing(GString *s, const struct ab_run *run);
/* Is r a cell of a grid, shown there rather than as a row of the table? */
gboolean ab_text_is_grid_result(const struct ab_result *r);
/* A sweep cell's mark in the grid: 'c' read (partly) from the page cache,
 * 'w' writes timed without an fsync (they reached only the page cache),
 * ' ' a disk figure. */
char ab_text_sweep_mark(const struct ab_result *r);
/* The table's header for a run of `arraybench raw` (target backend "raw"):
 * appended to s, TRUE; FALSE and nothing appended for any other run
 * (reports/text-raw.c). */
gboolean ab_text_raw_header(GString *s, const struct ab_run *run);
/* run --raw-baseline (reports/efficiency.c): each I/O phase's share of
 * what the members' raw reads allow it (the ceiling:
 * src/model/efficiency-ceiling.h), when the run holds a raw-read row for
 * every member; nothing otherwise. */
void ab_text_efficiency(GString *s, const struct ab_run *run);

/* Findings (src/model/findings.h) as text (reports/findings-text.c): a
 * title line with their count, then each with its severity and id (with
 * `where`, its group, run and repeat), what the data show, the figures it
 * rests on and what to do; nothing at all for none. */
void ab_findings_text(GString *s, const GPtrArray *findings, const char *title, gboolean where);

/* The sweep's cells as CSV rows with named columns (reports/sweep-csv.c):
 * the header line, and the rows of one run (empty when it has no sweep). */
const char *ab_sweep_csv_header(void);
gboolean ab_sweep_csv_has_rows(const struct ab_run *run);
char *ab_sweep_csv_rows(const struct ab_run *run);

/* One self-contained HTML page over all the runs (reports/html.c): the
 * cells compared and their conditions, bar charts with 95 % intervals per
 * phase, the sweep's heat maps, per-member I/O and latency curves; inline
 * CSS and SVG, no script, nothing fetched. */
gboolean ab_html_write(const struct ab_run_set *set, GString *out, GError **error);

/* One JSON object (one line, no newline) describing the run. */
char *ab_json_format(const struct ab_run *run);

#endif
