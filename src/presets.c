/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The built-in workloads: what the seeds' authors ran, as our options. */
#include "presets.h"

#include <glib.h>
#include <string.h>

/* Seed 002 (a mirror site's file serving, on RAID of two disks): 200 files
 * of 40 MB read and written sequentially and at random by several
 * processes at once.  Its author's own tool is not published; four streams
 * of 50 files each and 64 KiB records are our reading of it. */
static const char *const mirror_args[] = {
	"--phases", "sweep", "--sweep-tests", "write,read,random-read,random-write", "--sweep-file-sizes", "40m",
	"--sweep-records", "64k", "--streams", "4", "--sweep-files", "50", NULL,
};

static const struct ab_preset mirror = {
	.name = "mirror",
	.summary = "seed 002: 200 files of 40m, sequential and random read and write, 4 streams of 50 files, 64k records",
	.args = mirror_args,
};

/* Seed 001 (a RAID lab): ten files of 10 GB written with dd bs=1G, timed
 * with the sync after them.  Each file's fsync is timed here, so the total
 * holds the same work; the data is incompressible rather than dd's zeros.
 * --sweep-file-sizes sets N GB. */
static const char *const lab_args[] = {
	"--phases", "sweep", "--sweep-tests", "write", "--sweep-file-sizes", "10g", "--sweep-records", "1g",
	"--sweep-files", "10", NULL,
};

static const struct ab_preset lab = {
	.name = "lab",
	.summary = "seed 001: 10 files of 10g (--sweep-file-sizes sets N) written in 1g blocks, one stream, fsync timed",
	.args = lab_args,
};

/* bonnie++'s own run: its phases with its defaults, which are run's.  A
 * name for it, so that a matrix can set it beside the others. */
static const char *const bonnie_args[] = { NULL };

static const struct ab_preset bonnie = {
	.name = "bonnie",
	.summary = "bonnie++'s phases with its defaults (as 'run' without --workload)",
	.args = bonnie_args,
};

const struct ab_preset *const ab_presets[] = { &bonnie, &mirror, &lab, NULL };

const struct ab_preset *ab_preset_by_name(const char *name)
{
	for (const struct ab_preset *const *p = ab_presets; *p; p++)
		if (strcmp((*p)->name, name) == 0)
			return *p;
	return NULL;
}

char *ab_preset_names(void)
{
	GString *s = g_string_new(NULL);
	for (const struct ab_preset *const *p = ab_presets; *p; p++)
		g_string_append_printf(s, "%s%s", p == ab_presets ? "" : ", ", (*p)->name);
	return g_string_free(s, FALSE);
}
