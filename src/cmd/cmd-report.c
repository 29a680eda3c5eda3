/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench report`: saved results (our JSON, bonnie++'s CSV) read back
 * and written again in one format, the runs in the order of the files; or,
 * with --compare, the runs grouped by cell and compared (reports/compare.h). */
#include "../options/cmd-options.h"
#include "commands.h"
#include "../base/error.h"
#include "outfile.h"
#include "../base/replace-file.h"
#include "../../reports/compare.h"
#include "../../reports/report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the options and the FILEs say. */
struct report_opts {
	const struct ab_writer *writer;
	GPtrArray *files; /* char *, in order */
	char *html;       /* --html FILE, or NULL */
	char *format;     /* as given, for --compare's own formats */
	gboolean compare;
	char *baseline;
};

static gboolean opt_format(const char *name, const char *value, void *data, GError **error)
{
	struct report_opts *o = data;
	o->writer = ab_writer_by_name(value);
	g_free(o->format);
	o->format = g_strdup(value);
	if (o->writer)
		return TRUE;
	g_autoptr(GString) names = g_string_new(NULL);
	for (const struct ab_writer *const *k = ab_writers; *k; k++)
		g_string_append_printf(names, "%s'%s'", k == ab_writers ? "" : k[1] ? ", " : " or ", (*k)->name);
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid %s '%s': expected %s", name, value, names->str);
	return FALSE;
}

/* Each FILE, as bytes; through G_OPTION_REMAINING, which drops the "--"
 * that ends the options (left in argv, it was read as a FILE). */
static gboolean opt_file(const char *name, const char *value, void *data, GError **error)
{
	(void)name, (void)error;
	g_ptr_array_add(((struct report_opts *)data)->files, g_strdup(value));
	return TRUE;
}

static gboolean opt_html(const char *name, const char *value, void *data, GError **error)
{
	struct report_opts *o = data;
	if (!*value) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid %s '': expected a file name", name);
		return FALSE;
	}
	g_free(o->html);
	o->html = g_strdup(value);
	return TRUE;
}

static gboolean opt_baseline(const char *name, const char *value, void *data, GError **error)
{
	struct report_opts *o = data;
	if (!*value) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid %s '': a group's label is not empty", name);
		return FALSE;
	}
	g_free(o->baseline);
	o->baseline = g_strdup(value);
	return TRUE;
}

#define CUSTOM(fn) .kind = AB_OPTION_CUSTOM, .parse = (fn)

static const struct ab_option_row rows[] = {
	{ "format", 0, CUSTOM(opt_format), .family = AB_OPTION_OUTPUT,
	  .help = "Output format: text (default), csv, json or sweep-csv", .arg = "FORMAT" },
	{ "compare", 0, .kind = AB_OPTION_SWITCH, AB_OPTION_FIELD(struct report_opts, compare),
	  .help = "Group the runs by cell and compare them: statistics, ratios to a baseline, noise" },
	{ "baseline", 0, CUSTOM(opt_baseline),
	  .help = "The group --compare gives ratios to (default: each table's first group with the figure)",
	  .arg = "LABEL" },
	{ "html", 0, CUSTOM(opt_html), .family = AB_OPTION_OUTPUT, .flags = AB_OPTION_FILENAME,
	  .help = "Also write one self-contained HTML page of charts to FILE", .arg = "FILE" },
	{ G_OPTION_REMAINING, 0, CUSTOM(opt_file), .flags = AB_OPTION_FILENAME },
};

static const char report_description[] =
	"Reads arraybench JSON lines and bonnie++ CSV lines (1.98, 2.00a and 1.03; header lines are\n"
	"skipped) from each FILE ('-' is standard input) and writes all the runs, in file order, on\n"
	"standard output: text is the table a run prints, csv bonnie++ 1.98 lines (a comma or control\n"
	"character in a name written as '_'), json arraybench JSON.  Figures a file does not hold show\n"
	"as '-', empty or null, never 0.  Lines may end in LF, CR LF or CR.  A line or FILE that\n"
	"cannot be read is skipped with a warning naming it (20 lines a FILE, then a count of the\n"
	"rest), as is a FILE that is neither a regular file nor a pipe (a device) or holds more than\n"
	"64 MiB.  A run read again (the same run id, repeat and cell; a line without a run id: the same\n"
	"text; the CSV line of a JSON run read: that run) counts once, with one warning.\n"
	"--html FILE also writes one page comparing the runs, grouped by cell (the run's cell, else\n"
	"target label and workload, else machine): bar charts with 95 % intervals per phase, the\n"
	"sweep's heat maps, I/O per member device and latency percentiles, in inline SVG with no\n"
	"script and nothing fetched.  FILE is replaced; anything there but a regular file (or one of\n"
	"the FILEs read, or a descriptor such as /dev/stdout) is refused, and another user's file or\n"
	"any symbolic link (exit 4).\n"
	"--compare groups the runs by cell (a matrix run's cell; else target label and workload; else\n"
	"the machine, as a bonnie++ line's name) and prints, per figure (each phase's rate, CPU %,\n"
	"p99 latency), each group's n, median, mean with its 95% Student t interval, CV, outliers\n"
	"(shown, not dropped), its ratio to the baseline group with an interval (delta method), and\n"
	"whether the difference is within the noise (Welch's t-test, p >= 0.05); the best is marked\n"
	"'*'.  Failed runs are listed, not averaged; +++++ figures are shown, not counted.  Formats:\n"
	"text, csv (one row per figure and group), json (one object).\n"
	"Every form but CSV lists the findings: what the figures show that they do not say (a rate\n"
	"above the disks, reads the page cache served, unequal members, noisy groups, groups run\n"
	"under different conditions...), each with its id, severity, evidence and what to do; see\n"
	"Findings in arraybench(1).\n"
	"Exit status: 0 ok, 1 bad option, no run read at all or a --baseline that names no group,\n"
	"4 an --html FILE of another user or a symbolic link, 5 output not written.\n"
	"See arraybench-report(1).";

gboolean ab_stdin_closed;

/* Over 5000 runs of JSON (some 12 KB a line), 250000 of CSV.  The runs
 * read are all held: a CSV run takes some 25 times its line (64 MiB of them
 * 1.6 GB), a JSON run twice.  Past it the input is no file of results (a
 * disk image, /dev/zero on standard input) and is refused, not read. */
#define MAX_MIB 64
#define MAX_BYTES ((size_t)MAX_MIB << 20)

/* The whole of path ("-": standard input) into text; FALSE and an error
 * naming it if it is a directory, a device, too big or cannot be read.  A
 * FIFO is opened without blocking (one with no writer would hang open()),
 * then read as it comes: with no writer it is empty. */
static gboolean read_whole(const char *path, GString *text, GError **error)
{
	gboolean stdin_ = g_str_equal(path, "-");
	if (stdin_ && ab_stdin_closed) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot read '-': standard input is closed");
		return FALSE;
	}
	int fd = stdin_ ? 0 : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || (!stdin_ && fcntl(fd, F_SETFL, 0) != 0)) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot read '%s'", path);
		if (fd > 0)
			close(fd);
		return FALSE;
	}
	gboolean ok = FALSE;
	if (S_ISDIR(st.st_mode))
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot read '%s': it is a directory", path);
	else if (!stdin_ && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot read '%s': not a regular file", path);
	else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > MAX_BYTES)
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "cannot read '%s': %jd bytes, more than the %d MiB a file of results may hold", path,
			    (intmax_t)st.st_size, MAX_MIB);
	else
		ok = TRUE;
	char buf[65536];
	while (ok) {
		ssize_t got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot read '%s'", path);
			ok = FALSE;
		} else if ((size_t)got > MAX_BYTES - text->len) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "cannot read '%s': more than the %d MiB a file of results may hold", path, MAX_MIB);
			ok = FALSE;
		}
		if (got <= 0 || !ok)
			break;
		g_string_append_len(text, buf, got);
	}
	if (!stdin_)
		close(fd);
	return ok;
}

/* Who else could have put this here?  (As run's outputs: root writing
 * where another user can plant a file or symlink, /tmp say.) */
static gboolean foreign_owner(const struct stat *st)
{
	return st->st_uid != 0 && st->st_uid != geteuid();
}

/* Any symbolic link, ours too: the page replaces what it points to (one
 * to /etc/passwd as root would be written over), and a link swapped in
 * after the check would be followed; the descriptor is opened O_NOFOLLOW. */
static gboolean html_symlink(const char *path, GError **error)
{
	g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
		    "refusing to write the HTML report to '%s': a symbolic link (name the file itself)", path);
	return FALSE;
}

/* --html's FILE may be new or a regular file of ours (replaced): never a
 * device, FIFO or directory (the page would go into it, or hang), a
 * symlink, another user's file, or one of the FILEs being read (the
 * results would be lost).  Checked before reading, and again on the
 * descriptor. */
static gboolean html_target_ok(const char *path, GPtrArray *inputs, GError **error)
{
	if (g_str_equal(path, "-")) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --html '-': the page goes to a file (standard output has the report; "
			    "'./-' names a file called '-')");
		return FALSE;
	}
	if (ab_outfile_names_descriptor(path)) {
		/* Run's outputs take these; a page is replaced, never appended. */
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --html '%s': the page goes to a regular file, not a descriptor (standard output "
			    "has the report)", path);
		return FALSE;
	}
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return html_symlink(path, error);
	if (stat(path, &st) != 0) {
		if (errno == ENOENT)
			return TRUE;
		ab_set_error_errno(error, AB_ERROR_OUTPUT, errno, "cannot write the HTML report to '%s'", path);
		return FALSE;
	}
	if (!S_ISREG(st.st_mode)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "refusing to write the HTML report to '%s': not a regular file", path);
		return FALSE;
	}
	if (foreign_owner(&st)) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "refusing to write the HTML report to '%s': it belongs to uid %u", path, (unsigned)st.st_uid);
		return FALSE;
	}
	for (guint i = 0; inputs && i < inputs->len; i++) {
		struct stat in;
		const char *file = g_ptr_array_index(inputs, i);
		if (!g_str_equal(file, "-") && stat(file, &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "refusing to write the HTML report to '%s': it is one of the FILEs read", path);
			return FALSE;
		}
	}
	return TRUE;
}

/* Written whole or not at all (src/base/replace-file.c): a full disk or a kill
 * leaves the old page as it was. */
static gboolean write_html(const char *path, GPtrArray *inputs, const GString *page, GError **error)
{
	return html_target_ok(path, inputs, error) &&
	       ab_replace_file("the HTML report", path, page->str, page->len, error);
}

static void warn(const char *text)
{
	g_autofree char *line = ab_one_line(text);
	fprintf(stderr, "arraybench: warning: %s\n", line);
}

int ab_cmd_report(int argc, char **argv, GError **error)
{
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
	struct report_opts o = { &ab_writer_text, files, NULL, NULL, FALSE, NULL };
	gboolean parsed = ab_cmd_options_parse("report", "FILE...",
					       "Write saved results (arraybench JSON, bonnie++ CSV) as a table, CSV or JSON, "
					       "or compare them.",
					       report_description, rows, G_N_ELEMENTS(rows), &o, argc, argv, error);
	g_autofree char *format = o.format, *baseline = o.baseline, *html_path = o.html;
	if (!parsed)
		return AB_ERROR_USAGE;
	if (baseline && !o.compare) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "--baseline needs --compare");
		return AB_ERROR_USAGE;
	}
	if (o.compare && format && !g_str_equal(format, "text") && !g_str_equal(format, "csv") &&
	    !g_str_equal(format, "json")) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --format '%s' with --compare: expected 'text', 'csv' or 'json'", format);
		return AB_ERROR_USAGE;
	}
	if (!files->len) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "report: no FILE given ('-' reads standard input)");
		return AB_ERROR_USAGE;
	}
	if (html_path && !html_target_ok(html_path, files, error))
		return ab_error_exit_status(*error);
	struct ab_run_set set;
	ab_run_set_init_once(&set);
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < files->len; i++) {
		const char *file = g_ptr_array_index(files, i);
		g_autoptr(GString) text = g_string_new(NULL);
		g_autoptr(GError) read_error = NULL;
		if (!read_whole(file, text, &read_error)) {
			warn(read_error->message);
			continue;
		}
		ab_report_read_text(g_str_equal(file, "-") ? "(standard input)" : file, text->str, text->len, &set,
				    problems);
		for (guint k = 0; k < problems->len; k++)
			warn(g_ptr_array_index(problems, k));
		g_ptr_array_set_size(problems, 0);
	}
	/* One run given twice (`--compare R R`, a line in two files) was
	 * counted twice: n=2 and a CV of 0 for one measurement. */
	if (set.dropped) {
		g_autofree char *text = g_strdup_printf(
			"%u run%s read again %s dropped: each run counts once (the first at '%s'; a run is known by "
			"its run id, repeat and cell, a line without a run id by its text, a JSON run's CSV line as "
			"that run)",
			set.dropped, set.dropped == 1 ? "" : "s", set.dropped == 1 ? "was" : "were", set.first_dropped);
		warn(text);
	}
	if (set.runs->len == 0) {
		ab_run_set_clear(&set);
		if (files->len == 1)
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "no run could be read from '%s'",
				    (char *)g_ptr_array_index(files, 0));
		else
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "no run could be read from any of the %u files",
				    files->len);
		return AB_ERROR_USAGE;
	}
	if (html_path) {
		g_autoptr(GString) page = g_string_new(NULL);
		if (!ab_html_write(&set, page, error) || !write_html(html_path, files, page, error)) {
			ab_run_set_clear(&set);
			return ab_error_exit_status(*error);
		}
	}
	g_autoptr(GString) out = g_string_new(NULL);
	gboolean ok;
	if (o.compare) {
		struct ab_compare *c = ab_compare_build(&set, baseline, error);
		ok = c != NULL;
		if (ok) {
			gboolean plain = !format || g_str_equal(format, "text");
			char *(*view)(const struct ab_compare *) = plain ? ab_compare_text
				: g_str_equal(format, "csv") ? ab_compare_csv : ab_compare_json;
			if (!plain)
				ab_compare_bootstrap(c);
			g_autofree char *text = view(c);
			g_string_append(out, text);
		}
		ab_compare_free(c);
	} else {
		ok = ab_writer_write_set(o.writer, &set, out, error);
	}
	ab_run_set_clear(&set);
	if (!ok)
		return ab_error_exit_status(*error);
	errno = 0;
	if (fwrite(out->str, 1, out->len, stdout) != out->len || fflush(stdout) != 0 || ferror(stdout) ||
	    ab_stdout_closed) {
		int e = ab_stdout_closed ? EBADF : errno ? errno : EIO;
		g_set_error(error, AB_ERROR, AB_ERROR_OUTPUT, "cannot write the report to standard output: %s",
			    g_strerror(e));
		return AB_ERROR_OUTPUT;
	}
	return 0;
}
