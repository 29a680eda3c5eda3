/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench run`'s parse: the option rows (src/run-option-rows.h) through
 * src/option-table.c, a --workload profile's words before the user's, and
 * what GLib would read otherwise (-fSIZE, --switch=VALUE). */
#include "run-options.h"
#include "error.h"
#include "profile.h"
#include "run-option-rows.h"
#include "../workloads/phase.h"

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
static gboolean takes_next_word(const char *arg)
{
	if (arg[0] != '-' || g_str_equal(arg, "--"))
		return FALSE;
	const struct ab_option_row *row = ab_option_find(run_sets(), AB_RUN_OPTION_SETS, arg, NULL);
	return row && row->kind != AB_OPTION_SWITCH && !(row->flags & AB_OPTION_OPTIONAL_ARG);
}

/* The value of the last --workload in argv (before any "--"), or NULL;
 * NULL too when help is asked for, which needs no profile read. */
static const char *workload_asked(int argc, char **argv)
{
	const char *name = NULL;
	for (int i = 1; i < argc; i++) {
		if (g_str_equal(argv[i], "--"))
			break;
		if (g_str_has_prefix(argv[i], "--help") || g_str_equal(argv[i], "-h") || g_str_equal(argv[i], "-?"))
			return NULL;
		if (g_str_has_prefix(argv[i], "--workload="))
			name = argv[i] + strlen("--workload=");
		else if (g_str_equal(argv[i], "--workload") && i + 1 < argc)
			name = argv[++i];
		else if (takes_next_word(argv[i]))
			i++;
	}
	return name;
}

static gboolean parse_words(int argc, char **argv, struct ab_config *cfg, GError **error);

/* argv[0] and then `words`, parsed into cfg. */
static gboolean parse_list(const GPtrArray *words, char *argv0, struct ab_config *cfg, GError **error)
{
	g_autoptr(GPtrArray) v = g_ptr_array_new();
	g_ptr_array_add(v, argv0);
	for (guint i = 0; i < words->len; i++)
		g_ptr_array_add(v, g_ptr_array_index(words, i));
	g_ptr_array_add(v, NULL);
	return parse_words((int)v->len - 1, (char **)v->pdata, cfg, error);
}

/* One step of a profile: the run-wide words of [workload], the step's own,
 * then the user's, which so change every step. */
static gboolean parse_step(const struct ab_profile *p, const struct ab_profile_step *st, int argc, char **argv,
			   struct ab_config *cfg, GError **error)
{
	if (!parse_list(p->run_words, argv[0], cfg, error) || !parse_list(st->words, argv[0], cfg, error)) {
		g_prefix_error(error, "%s: ", st->where);
		return FALSE;
	}
	/* Which phases' options the step's own keys gave: another step's
	 * phase does not excuse those (ab_config_finish). */
	g_auto(ab_config_auto) own;
	ab_config_init(&own);
	if (!parse_list(st->words, argv[0], &own, error)) {
		g_prefix_error(error, "%s: ", st->where);
		return FALSE;
	}
	cfg->step_own_phase_options = ab_config_phase_options(&own);
	cfg->step_own_wal_timing = own.wal_seconds > 0 || own.wal_count;
	g_free(cfg->workload);
	cfg->workload = g_strdup(p->name);
	g_free(cfg->step_where);
	cfg->step_where = g_strdup(st->where);
	return parse_words(argc, argv, cfg, error);
}

gboolean ab_run_options_parse(int argc, char **argv, struct ab_config *cfg, GError **error)
{
	const char *workload = workload_asked(argc, argv);
	if (!workload)
		return parse_words(argc, argv, cfg, error);
	g_autoptr(ab_profile_auto) p = ab_profile_load(workload, error);
	if (!p)
		return FALSE;
	/* The first step is cfg itself (its conditions are the run's); each
	 * other step gets a config of its own, finished with cfg. */
	for (guint i = 0; i < p->steps->len; i++) {
		const struct ab_profile_step *st = g_ptr_array_index(p->steps, i);
		if (i == 0) {
			if (!parse_step(p, st, argc, argv, cfg, error))
				return FALSE;
			continue;
		}
		struct ab_config *sub = g_new(struct ab_config, 1);
		ab_config_init(sub);
		if (!cfg->step_configs)
			cfg->step_configs = g_ptr_array_new_with_free_func(ab_config_free);
		g_ptr_array_add(cfg->step_configs, sub);
		if (!parse_step(p, st, argc, argv, sub, error))
			return FALSE;
	}
	return TRUE;
}

gboolean ab_run_options_check_word(const char *word, GError **error)
{
	g_auto(ab_config_auto) scratch;
	ab_config_init(&scratch);
	char *argv[] = { "run", (char *)word, NULL };
	return parse_words(2, argv, &scratch, error);
}

gboolean ab_run_option_known(const char *long_name)
{
	return ab_run_option_row(long_name) != NULL;
}

static gboolean parse_words(int argc, char **argv, struct ab_config *cfg, GError **error)
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
		if (takes_next_word(args[i])) {
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
