/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench run`'s parse with a --workload profile: the profile's words
 * before the user's, each step a config of its own.  The words themselves
 * go through src/options/run-option-parse.c. */
#include "run-options.h"
#include "profile.h"

#include <string.h>

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
		else if (ab_run_option_takes_next_word(argv[i]))
			i++;
	}
	return name;
}

/* argv[0] and then `words`, parsed into cfg. */
static gboolean parse_list(const GPtrArray *words, char *argv0, struct ab_config *cfg, GError **error)
{
	g_autoptr(GPtrArray) v = g_ptr_array_new();
	g_ptr_array_add(v, argv0);
	for (guint i = 0; i < words->len; i++)
		g_ptr_array_add(v, g_ptr_array_index(words, i));
	g_ptr_array_add(v, NULL);
	return ab_run_option_parse_words((int)v->len - 1, (char **)v->pdata, cfg, error);
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
	return ab_run_option_parse_words(argc, argv, cfg, error);
}

gboolean ab_run_options_parse(int argc, char **argv, struct ab_config *cfg, GError **error)
{
	const char *workload = workload_asked(argc, argv);
	if (!workload)
		return ab_run_option_parse_words(argc, argv, cfg, error);
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

