/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The room the steps take in DIR (src/options/step-space.h): a phase family's own
 * statement (its row's `space`, src/options/phase-family.h), the flags for the
 * rest, and the walk over the steps that the pipeline checks before any
 * phase. */
#include "step-space.h"
#include "../base/error.h"
#include "phase-family.h"
#include "../../workloads/phase.h"

#include <stdio.h>
#include <string.h>


static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}


/* bonnie++'s phases and the latency curve, by their flags: an I/O phase
 * the test file (a write phase makes it anew at its size, per-char write
 * at the per-char size; the others read it, laid out at -s when it is
 * smaller), a file phase its small files beside it. */
static void space_by_flags(const struct ab_step *step, struct ab_step_space *out)
{
	unsigned flags = step->phase->flags;
	if (flags & AB_PHASE_IO) {
		gboolean writes_anew = (flags & AB_PHASE_WRITES) && !(flags & AB_PHASE_NEEDS_FILE);
		out->test_file = writes_anew && (flags & AB_PHASE_PER_CHAR) ? step->per_char_bytes : step->file_size;
		out->anew = writes_anew;
	}
	if ((flags & AB_PHASE_FILES) && step->num_files_k && step->file_max > 0) {
		uint64_t files = (uint64_t)step->num_files_k * 1024u;
		char size[32];
		ab_space_size_text((uint64_t)step->file_max, size, sizeof(size));
		out->beside = ab_space_mul(files, (uint64_t)step->file_max);
		snprintf(out->beside_what, sizeof(out->beside_what), "%" G_GUINT64_FORMAT " files of up to %s", files,
			 size);
	}
}

void ab_step_space(const struct ab_step *step, struct ab_step_space *out)
{
	memset(out, 0, sizeof(*out));
	const struct ab_phase_family *family = ab_phase_family_of(step->phase->id);
	if (family && family->space)
		family->space(step, out);
	else
		space_by_flags(step, out);
}

void ab_steps_space_need(const GArray *steps, unsigned repeats, struct ab_space_need *out)
{
	memset(out, 0, sizeof(*out));
	/* The test file stays from one repeat to the next: a second pass
	 * starts with what the first left (a wal step before oltp then has
	 * the data file beside its logs). */
	uint64_t held = 0;
	for (unsigned pass = 0; pass < MIN(MAX(repeats, 1u), 2u); pass++) {
		for (guint i = 0; steps && i < steps->len; i++) {
			struct ab_step_space sp;
			ab_step_space(&g_array_index(steps, struct ab_step, i), &sp);
			uint64_t file = sp.anew ? sp.test_file : MAX(held, sp.test_file);
			uint64_t total = add_sat(file, sp.beside);
			if (total > out->bytes) {
				out->bytes = total;
				out->step = i;
				out->test_file = file;
				out->at = sp;
			}
			held = sp.emptied ? 0 : file;
		}
	}
}

gboolean ab_steps_check_space(const GArray *steps, unsigned repeats, const char *dir, uint64_t free_bytes,
			      GError **error)
{
	struct ab_space_need need;
	ab_steps_space_need(steps, repeats, &need);
	if (!free_bytes || need.bytes <= free_bytes)
		return TRUE;
	const struct ab_step *st = &g_array_index(steps, struct ab_step, need.step);
	g_autoptr(GString) what = g_string_new(NULL);
	if (need.test_file) {
		char size[32];
		ab_space_size_text(need.test_file, size, sizeof(size));
		g_string_append_printf(what, "the %s test file", size);
	}
	if (need.at.beside)
		g_string_append_printf(what, "%s%s", what->len ? " and " : "", need.at.beside_what);
	g_autofree char *where = ab_one_line(dir);
	/* Rounded up: never "needs 0M". */
	g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
		    "not enough space in '%s': phase '%s' needs %" G_GUINT64_FORMAT "M (%s), %" G_GUINT64_FORMAT
		    "M is free",
		    where, st->phase->name, need.bytes / AB_MIB + (need.bytes % AB_MIB != 0), what->str,
		    free_bytes / AB_MIB);
	return FALSE;
}
