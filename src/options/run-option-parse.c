/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench run`'s option words: the option rows (src/options/run-option-sets.h)
 * through src/options/option-table.c, and what GLib would read otherwise (-fSIZE,
 * --switch=VALUE).  A --workload profile's words come first: that is
 * src/options/run-options.c's. */
#include "run-option-parse.h"
#include "../base/error.h"
#include "run-option-sets.h"
#include "../../workloads/phase.h"

#include <string.h>

static gboolean bad_option(GError **error, const char *option, const char *value, const char *why)
{
	return ab_option_refuse(error, option, value, why);
}

/* The run's option sets, in --help's order. */
static const struct ab_option_set *run_sets(void)
{
	static struct ab_option_set sets[AB_RUN_OPTION_SETS];
	if (!sets[0].rows) {
		sets[AB_RUN_OPTIONS_GENERAL] = ab_general_options;
		sets[AB_RUN_OPTIONS_SWEEP] = ab_sweep_options;
		sets[AB_RUN_OPTIONS_WAL] = ab_wal_options;
		sets[AB_RUN_OPTIONS_OLTP] = ab_oltp_options;
		sets[AB_RUN_OPTIONS_CURVE] = ab_curve_options;
	}
	return sets;
}

const struct ab_option_set *ab_run_option_sets(size_t *n_sets)
{
	*n_sets = AB_RUN_OPTION_SETS;
	return run_sets();
}

const struct ab_option_row *ab_run_option_row(const char *long_name)
{
	return ab_option_find_long(run_sets(), AB_RUN_OPTION_SETS, long_name);
}

const char *ab_run_option_given(const struct ab_config *cfg, enum ab_option_family family)
{
	const struct ab_option_row *row = ab_option_first_given(run_sets(), AB_RUN_OPTION_SETS, cfg->options_given, family);
	if (!row)
		return NULL;
	g_autofree char *name = g_strconcat("--", row->long_name, NULL);
	return g_intern_string(name);
}

gboolean ab_run_option_matrix_own(const char *word)
{
	const struct ab_option_row *row = ab_option_find(run_sets(), AB_RUN_OPTION_SETS, word, NULL);
	return row && (row->flags & AB_OPTION_MATRIX_OWN);
}

gboolean ab_parse_phase_list(const char *text, struct ab_config *cfg, GError **error)
{
	g_auto(GStrv) names = g_strsplit(text, ",", 0);
	/* In the order given; a phase named twice runs twice. */
	g_autoptr(GArray) ids = g_array_new(FALSE, FALSE, sizeof(unsigned));
	gboolean all = FALSE;
	for (char **n = names; *n; n++) {
		if (g_str_equal(*n, "all")) {
			for (unsigned id = 0; id < AB_PHASE_COUNT; id++)
				g_array_append_val(ids, id);
			all = TRUE;
			continue;
		}
		const struct ab_phase *ph = ab_phase_by_name(*n);
		if (!ph)
			return bad_option(error, "phase", *n, "unknown (see 'arraybench list')");
		if (ph->flags & AB_PHASE_DEVICE)
			return bad_option(error, "phase", *n, "it measures a block device: use 'arraybench raw'");
		unsigned id = ph->id;
		g_array_append_val(ids, id);
	}
	if (!ids->len)
		return bad_option(error, "--phases", text, "no phase named");
	if (ids->len > AB_MAX_STEPS) {
		/* The count, not the list: that would be a line of kilobytes. */
		g_autofree char *of_all = all ? g_strdup_printf(" ('all' is %d)", AB_PHASE_COUNT) : g_strdup("");
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid --phases: %u steps%s, more than %d", ids->len,
			    of_all, AB_MAX_STEPS);
		return FALSE;
	}
	if (cfg->phase_ids)
		g_array_unref(cfg->phase_ids);
	cfg->phase_ids = g_steal_pointer(&ids);
	cfg->phases_given = TRUE;
	return TRUE;
}

static const char run_description[] =
	"Runs bonnie++'s phases in DIR and prints a table and a bonnie++ 1.98 CSV line.\n"
	"Exit status: 0 ok, 1 bad input, 2 a phase failed, 3 missing resource or privilege,\n"
	"4 unsafe target, state directory or output file (a symbolic link: see OUTPUT in\n"
	"arraybench(1)), 5 results not written, 130 interrupted.\n"
	"On a terminal, stderr shows one live status line: repeat, phase, percent done,\n"
	"current rate, elapsed time and ETA, or what the run is doing between phases\n"
	"(building, formatting, syncing, dropping caches, tearing down); off a terminal,\n"
	"one line per finished phase with its rate and time.  -q silences both.\n"
	"Every run journals what it makes (in $ARRAYBENCH_STATE_DIR, /var/lib/arraybench for\n"
	"root, ~/.local/state/arraybench for others) so 'arraybench cleanup' can undo it\n"
	"after a crash.  See arraybench(1).";

/* "--direct=no": GLib drops the value of a switch and turns it on, which
 * would run the opposite of what was asked.  Returns the switch's name
 * when `arg` gives one a value. */
static const char *switch_with_value(const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (arg[0] != '-' || arg[1] != '-' || !eq)
		return NULL;
	g_autofree char *name = g_strndup(arg + 2, (gsize)(eq - arg - 2));
	const struct ab_option_row *row = ab_run_option_row(name);
	return row && row->kind == AB_OPTION_SWITCH ? row->long_name : NULL;
}

gboolean ab_run_option_takes_rest(char short_name)
{
	const struct ab_option_row *row = ab_option_find_short(run_sets(), AB_RUN_OPTION_SETS, short_name);
	return row && (row->flags & AB_OPTION_OPTIONAL_ARG);
}

/* Is `arg` an option whose value is the next word ("-d DIR", "--csv FILE")? */
gboolean ab_run_option_takes_next_word(const char *arg)
{
	if (arg[0] != '-' || g_str_equal(arg, "--"))
		return FALSE;
	const struct ab_option_row *row = ab_option_find(run_sets(), AB_RUN_OPTION_SETS, arg, NULL);
	return row && row->kind != AB_OPTION_SWITCH && !(row->flags & AB_OPTION_OPTIONAL_ARG);
}

gboolean ab_run_options_check_word(const char *word, GError **error)
{
	g_auto(ab_config_auto) scratch;
	ab_config_init(&scratch);
	char *argv[] = { "run", (char *)word, NULL };
	return ab_run_option_parse_words(2, argv, &scratch, error);
}

gboolean ab_run_option_known(const char *long_name)
{
	return ab_run_option_row(long_name) != NULL;
}

gboolean ab_run_option_parse_words(int argc, char **argv, struct ab_config *cfg, GError **error)
{
	static const struct ab_option_command run = {
		"run", "-d DIR", "Run bonnie++'s phases on a directory.", run_description,
	};
	g_autofree char **args = g_new0(char *, argc + 1);
	memcpy(args, argv, sizeof(char *) * (size_t)argc);
	/* bonnie++'s -fSIZE takes its value attached; GLib only does that for
	 * long options, so spell it --fast=SIZE.  The strings live in `owned`. */
	g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func(g_free);
	for (int i = 1; i < argc; i++) {
		if (g_str_equal(args[i], "--"))
			break;
		const char *sw = switch_with_value(args[i]);
		if (sw) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid '%s': --%s takes no value", args[i], sw);
			return FALSE;
		}
		if (ab_run_option_takes_next_word(args[i])) {
			i++; /* that word is a value ("--csv -fx.csv"), not an option */
			continue;
		}
		if (g_str_has_prefix(args[i], "-f") && args[i][2]) {
			args[i] = g_strdup_printf("--fast=%s", args[i] + 2);
			g_ptr_array_add(owned, args[i]);
		}
	}
	int n = argc;
	char **view = args;
	if (!ab_option_parse(&run, run_sets(), AB_RUN_OPTION_SETS, cfg, cfg->options_given, &n, &view, error))
		return FALSE;
	if (n > 1) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "unexpected argument '%s'", view[1]);
		return FALSE;
	}
	return TRUE;
}
