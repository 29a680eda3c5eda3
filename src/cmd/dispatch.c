/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sub-command table; prints the error a command returns (the pipeline's
 * teardown failure after a run, and warnings, are printed where they
 * happen). */
#include "dispatch.h"
#include "commands.h"
#include "../runner/rundir.h"
#include "../runner/runner.h"
#include "../base/cluster.h"
#include "../base/error.h"
#include "outfile.h"
#include "../runner/progress.h"
#include "../../fs-setup/target.h"
#include "../../fs-setup/target-build.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Bytes of an error message shown at most. */
#define AB_ERROR_SHOWN 4096

struct command {
	const char *name;
	int (*fn)(int argc, char **argv, GError **error);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", ab_cmd_run, "run bonnie++'s phases on a directory" },
	{ "list", ab_cmd_list, "list the phases and what each does" },
	{ "report", ab_cmd_report, "write saved results (arraybench JSON, bonnie++ CSV) as a table, CSV or JSON" },
	{ "matrix", ab_cmd_matrix, "run every cell of a matrix file (levels x fs x options x workloads), resumable" },
	{ "tune", ab_cmd_tune, "race the mount and mkfs options of a search space; end with the best and an fstab line" },
	{ "raw", ab_cmd_raw, "measure block devices' raw sequential throughput (the dd baseline)" },
	{ "cleanup", ab_cmd_cleanup, "undo what killed runs left behind (mounts, arrays, loop devices)" },
};

static void usage(FILE *to)
{
	fprintf(to, "Usage: arraybench COMMAND [OPTION...]\n"
		    "       arraybench --help | --version\n\n"
		    "A file system benchmark for disk arrays, in the tradition of bonnie++.\n\n"
		    "Commands:\n");
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(to, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(to, "\n'arraybench COMMAND --help' shows a command's options; arraybench(1) has the rest.\n"
		    "Example: arraybench run -d /mnt/array -s 1g -r 512 -n 4\n");
}

/* Set once a command printed on a standard output that was closed at start
 * (the text went nowhere): the command then exits 5, as documented, not 0
 * (list, --version, cleanup and every --help did). */
static gboolean stdout_lost;

static ssize_t lose(void *cookie, const char *buf, size_t size)
{
	(void)cookie, (void)buf;
	stdout_lost |= size > 0;
	return (ssize_t)size;
}

/* GOption prints a command's --help and calls exit(0) itself. */
static void exit_lost(void)
{
	if (fflush(stdout) == 0 && stdout_lost) {
		fprintf(stderr, "arraybench: error: cannot write to standard output: it was closed\n");
		_exit(AB_ERROR_OUTPUT);
	}
}

/* With fd 0, 1 or 2 closed at start (">&-"), the next open() would take it:
 * the journal would become "standard output" and the CSV line would land in
 * it.  /dev/null holds those places instead. */
static void hold_standard_fds(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			ab_outfile_closed_std |= 1u << fd;
			if (fd == 0)
				ab_stdin_closed = TRUE;
			if (fd == 1)
				ab_stdout_closed = TRUE; /* what goes there is lost: say so */
			int got = open("/dev/null", O_RDWR);
			if (got >= 0 && got != fd)
				close(got); /* cannot happen: open takes the lowest free fd */
		}
	/* The descriptor keeps /dev/null (for the programs run); what this
	 * process prints is counted as lost. */
	FILE *lost = ab_stdout_closed ? fopencookie(NULL, "w", (cookie_io_functions_t){ .write = lose }) : NULL;
	if (lost) {
		stdout = lost;
		atexit(exit_lost);
	}
}

int ab_main(int argc, char **argv, char **error_text)
{
	hold_standard_fds();
	/* A reader that went away shows as EPIPE on our writes, reported. */
	signal(SIGPIPE, SIG_IGN);
	/* Numbers in the CSV and JSON must never get a decimal comma. */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	/* fs-setup journals the run's directory and test file; src knows them. */
	ab_undo_exec_set_run_files(ab_run_files_undo);
	/* ... and says what it builds on the status line. */
	ab_target_set_activity_fn(ab_progress_activity);
	if (argc < 2) {
		usage(stderr);
		return AB_ERROR_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("arraybench %s\n", AB_VERSION);
		return 0;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
		if (strcmp(argv[1], commands[i].name) != 0)
			continue;
		g_autoptr(GError) error = NULL;
		/* Every wait for other ranks gives up on a stop signal. */
		ab_cluster_set_stop_check(ab_runner_stop_requested);
		int status = commands[i].fn(argc - 1, argv + 1, &error);
		if (status == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
			g_set_error(&error, AB_ERROR, AB_ERROR_OUTPUT, "cannot write to standard output: %s",
				    g_strerror(errno ? errno : EIO));
			status = AB_ERROR_OUTPUT;
		}
		/* A matrix's or a tune's results are in its DIR: its lines on standard
		 * output only follow the visits. */
		if (status == 0 && stdout_lost && commands[i].fn != ab_cmd_matrix && commands[i].fn != ab_cmd_tune) {
			g_set_error(&error, AB_ERROR, AB_ERROR_OUTPUT, "cannot write to standard output: it was closed");
			status = AB_ERROR_OUTPUT;
		}
		stdout_lost = FALSE; /* said, or not to be said */
		ab_progress_stop();
		/* On many ranks, rank 0 says another rank's fault, naming it;
		 * the rank at fault says its own too (rank 0 may be gone),
		 * unless it is bad usage or a stop, which every rank meets alike. */
		struct ab_cluster *cluster = ab_cluster_get();
		if (error && error_text)
			*error_text = ab_one_line(error->message);
		gboolean others_say_it = cluster->rank != 0 && (cluster->peer_fault || status == AB_ERROR_USAGE ||
								 status == AB_ERROR_INTERRUPTED);
		if (error && !others_say_it) {
			g_autofree char *line = ab_one_line(error->message);
			if (cluster->rank != 0) {
				g_autofree char *own = line;
				line = g_strdup_printf("rank %u: %s", cluster->rank, own);
			}
			/* A bad value quoted whole can be a megabyte (a matrix
			 * file's one line): the start names it well enough. */
			size_t len = strlen(line);
			if (len > AB_ERROR_SHOWN) {
				const char *end = g_utf8_find_prev_char(line, line + AB_ERROR_SHOWN + 1);
				size_t cut = end ? (size_t)(end - line) : AB_ERROR_SHOWN;
				fprintf(stderr, "arraybench: error: %.*s... (%zu more bytes)\n", (int)cut, line, len - cut);
			} else {
				fprintf(stderr, "arraybench: error: %s\n", line);
			}
		}
		return status;
	}
	fprintf(stderr, "arraybench: error: unknown command '%s' (try 'arraybench --help')\n", argv[1]);
	return AB_ERROR_USAGE;
}
