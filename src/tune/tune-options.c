/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench tune`'s options (tune-options.h): its own rows, the run
 * words passed on to each visit, the budget. */
#include "tune-options.h"
#include "../base/error.h"
#include "../base/parse.h"
#include "../matrix/matrix-cells.h"
#include "../options/cmd-options.h"
#include "../options/run-option-parse.h"

#include <math.h>
#include <string.h>

void ab_tune_opts_init(struct ab_tune_opts *o)
{
	*o = (struct ab_tune_opts){
		.budget = { 0, NAN }, .alpha = 0.05, .min_rounds = 3, .run_words = g_ptr_array_new_with_free_func(g_free),
	};
}

void ab_tune_opts_clear(struct ab_tune_opts *o)
{
	g_free(o->out_dir);
	g_free(o->objective);
	g_free(o->budget_text);
	g_free(o->space);
	g_free(o->keys);
	if (o->run_words)
		g_ptr_array_unref(o->run_words);
	*o = (struct ab_tune_opts){ 0 };
}

gboolean ab_tune_budget_parse(const char *text, struct ab_tune_budget *out, GError **error)
{
	static const char why[] = "a time (2h, 20m, 90s) or a number of visits (40)";
	size_t n = strlen(text);
	if (n && ab_parse_all_digits(text)) {
		guint64 visits;
		if (!g_ascii_string_to_unsigned(text, 10, 1, AB_TUNE_MAX_VISITS, &visits, NULL))
			return ab_parse_refuse(error, "--budget", text, why);
		*out = (struct ab_tune_budget){ (unsigned)visits, NAN };
		return TRUE;
	}
	static const struct {
		char suffix;
		double seconds;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 } };
	for (size_t i = 0; n > 1 && i < G_N_ELEMENTS(units); i++) {
		if (text[n - 1] != units[i].suffix)
			continue;
		g_autofree char *digits = g_strndup(text, n - 1);
		guint64 v;
		if (!ab_parse_all_digits(digits) || !g_ascii_string_to_unsigned(digits, 10, 1, 1000000, &v, NULL))
			break;
		*out = (struct ab_tune_budget){ 0, (double)v * units[i].seconds };
		return TRUE;
	}
	return ab_parse_refuse(error, "--budget", text, why);
}

static gboolean opt_budget(const char *name, const char *value, void *data, GError **error)
{
	(void)name;
	struct ab_tune_opts *o = data;
	if (!ab_tune_budget_parse(value, &o->budget, error))
		return FALSE;
	g_free(o->budget_text);
	o->budget_text = g_strdup(value);
	return TRUE;
}

static gboolean opt_alpha(const char *name, const char *value, void *data, GError **error)
{
	char *end = NULL;
	double v = g_ascii_isdigit(*value) ? g_ascii_strtod(value, &end) : NAN;
	if (!end || *end || !(v > 0 && v <= 0.5))
		return ab_option_refuse(error, name, value, "a level above 0 and at most 0.5 (0.05)");
	((struct ab_tune_opts *)data)->alpha = v;
	return TRUE;
}

static gboolean opt_min_rounds(const char *name, const char *value, void *data, GError **error)
{
	guint64 n;
	if (!ab_parse_all_digits(value) || !g_ascii_string_to_unsigned(value, 10, 2, AB_TUNE_MAX_ROUNDS, &n, NULL)) {
		g_autofree char *why = g_strdup_printf("a whole number from 2 to %u", AB_TUNE_MAX_ROUNDS);
		return ab_option_refuse(error, name, value, why);
	}
	((struct ab_tune_opts *)data)->min_rounds = (unsigned)n;
	return TRUE;
}

static gboolean opt_seed(const char *name, const char *value, void *data, GError **error)
{
	struct ab_tune_opts *o = data;
	if (!ab_parse_all_digits(value) || !g_ascii_string_to_unsigned(value, 10, 0, G_MAXUINT64, &o->seed, NULL))
		return ab_option_refuse(error, name, value, "a whole number");
	o->seed_given = TRUE;
	return TRUE;
}

#define OPTS(f) AB_OPTION_FIELD(struct ab_tune_opts, f)
#define CUSTOM(fn) .kind = AB_OPTION_CUSTOM, .parse = (fn)

static const struct ab_option_row rows[] = {
	{ "output", 'o', .kind = AB_OPTION_PATH, OPTS(out_dir), .why = "directory name", .family = AB_OPTION_OUTPUT,
	  .help = "Results directory (made if missing): results.jsonl, results.csv, tune.ini, tune.txt, tune.json; the "
		  "same command again resumes",
	  .arg = "DIR" },
	{ "objective", 0, .kind = AB_OPTION_STRING, OPTS(objective), .why = "objective",
	  .help = "What to optimise: commits[:SYNC[:RECORD]], iops, p99, curve, PHASE or PHASE:p99; min: or max: "
		  "sets the direction",
	  .arg = "SPEC" },
	{ "budget", 0, CUSTOM(opt_budget), .help = "How long the tune may take (2h, 20m, 90s) or how many visits (40)",
	  .arg = "DURATION|N" },
	{ "space", 0, .kind = AB_OPTION_PATH, OPTS(space), .why = "file name",
	  .help = "Search space: a file, or a built-in space's name (default: the one of --fs; see 'arraybench list')",
	  .arg = "FILE" },
	{ "keys", 0, .kind = AB_OPTION_STRING, OPTS(keys), .why = "key list", .help = "Try only these keys of the space",
	  .arg = "K,K" },
	{ "allow-unsafe", 0, .kind = AB_OPTION_SWITCH, OPTS(allow_unsafe),
	  .help = "Also try the values that can lose data on power loss" },
	{ "alpha", 0, CUSTOM(opt_alpha), .help = "Level of the race's tests, corrected for the candidates (0.05)",
	  .arg = "P" },
	{ "min-rounds", 0, CUSTOM(opt_min_rounds), .help = "No candidate is dropped before this many rounds (3)",
	  .arg = "N" },
	{ "seed", 0, CUSTOM(opt_seed), .help = "Seed of the visits' order in each round (default: from the inputs)",
	  .arg = "N" },
	{ "whole-workload", 0, .kind = AB_OPTION_SWITCH, OPTS(whole_workload),
	  .help = "Run every step of the workload at each visit, not only the one the objective reads" },
	{ "quiet", 'q', .kind = AB_OPTION_SWITCH, OPTS(quiet), .family = AB_OPTION_OUTPUT,
	  .help = "No line per visit, no progress" },
	{ "dry-run", 0, .kind = AB_OPTION_SWITCH, OPTS(dry_run),
	  .help = "Print the candidates, the unsafe ones left out, the stripe hint's mkfs command and the plan, then exit; build nothing" },
};

static const char description[] =
	"The run options of the target (--loop N:SIZE[:DIR], --device DEV, or --array with\n"
	"--members; --yes-destroy naming every device, which each visit formats again; --chunk,\n"
	"--fs) and of the workload (--workload NAME|FILE, or --phases and the phases' options)\n"
	"are passed on to every visit, as 'arraybench run' takes them.\n"
	"Each visit builds, formats, mounts, measures and tears down one candidate's file\n"
	"system; candidates beaten beyond the noise are dropped round by round (a race).\n"
	"Exit status: 0 ok, 1 bad input or another tune's DIR, 2 a visit failed (recorded),\n"
	"3 missing resource or privilege, 4 unsafe, 5 results not written, 130 interrupted.\n"
	"See arraybench-tune(1).";

/* The run options a tune sets itself, or that make no sense for one. */
static const char *refused_word(const char *long_name)
{
	static const struct {
		const char *name, *why;
	} refused[] = {
		{ "directory", "a tune builds its target at each visit: give --loop N:SIZE[:DIR], --device DEV "
			       "--yes-destroy DEV, or --array LEVEL --members DEV,... --yes-destroy DEV,..., with --fs "
			       "(mkfs options cannot be tried on a directory)" },
		{ "mkfs-opts", "the candidates set it: put the mkfs options to try in a --space file" },
		{ "mount-opts", "the candidates set it: put the mount options to try in a --space file" },
		{ "no-stripe-hint", "the candidates set it: a space's key may try it" },
		{ "repeats", "a tune visits each candidate once per round" },
		{ "seed", "a tune gives each visit its seed (its own --seed sets the order of the visits)" },
		{ "csv", "a tune's runs are in DIR/results.csv" },
		{ "json", "a tune's runs are in DIR/results.jsonl" },
		{ "sweep-csv", "a tune writes its results to DIR only" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(refused); i++)
		if (g_str_equal(refused[i].name, long_name))
			return refused[i].why;
	return NULL;
}

/* The long name of a run option word ("--loop=2:1G", "-d"), or NULL. */
static const char *run_long_name(const char *word)
{
	size_t n_sets;
	const struct ab_option_set *sets = ab_run_option_sets(&n_sets);
	g_autofree char *name = g_strndup(word, strcspn(word, "="));
	if (word[0] == '-' && word[1] && word[1] != '-' && word[2])
		name[2] = '\0'; /* -fSIZE */
	const struct ab_option_row *row = ab_option_find(sets, n_sets, name, NULL);
	return row ? row->long_name : NULL;
}

/* The tune's row of an option word ("--budget=2h", "-oDIR", "-q"), or NULL. */
static const struct ab_option_row *tune_row(const char *word, gboolean *attached)
{
	const struct ab_option_set set = { rows, G_N_ELEMENTS(rows) };
	g_autofree char *name = g_strndup(word, strcspn(word, "="));
	*attached = word[strlen(name)] == '=';
	if (word[0] == '-' && word[1] && word[1] != '-' && word[2]) {
		*attached = TRUE;
		name[2] = '\0';
	}
	return ab_option_find(&set, 1, name, NULL);
}

/* A relative name made absolute from the directory the tune started in. */
static char *from_here(const char *path)
{
	return g_path_is_absolute(path) ? g_strdup(path) : g_canonicalize_filename(path, NULL);
}

/* The value of run option `name` with every file name in it absolute:
 * the visits run from "/" (cmd-tune.c), where a relative --loop DIR,
 * device or profile named another file, or none, and every visit failed. */
static char *absolute_value(const char *name, const char *value)
{
	if (g_str_equal(name, "loop")) {
		g_auto(GStrv) f = g_strsplit(value, ":", 3);
		if (g_strv_length(f) < 3 || !*f[2] || g_path_is_absolute(f[2]))
			return g_strdup(value);
		g_autofree char *dir = from_here(f[2]);
		return g_strdup_printf("%s:%s:%s", f[0], f[1], dir);
	}
	if (g_str_equal(name, "workload"))
		return ab_matrix_workload_is_file(value) ? from_here(value) : g_strdup(value);
	if (g_str_equal(name, "device"))
		return *value ? from_here(value) : g_strdup(value);
	if (g_str_equal(name, "members") || g_str_equal(name, "yes-destroy")) {
		g_auto(GStrv) list = g_strsplit(value, ",", -1);
		for (char **d = list; *d; d++)
			if (**d) {
				char *abs = from_here(*d);
				g_free(*d);
				*d = abs;
			}
		return g_strjoinv(",", list);
	}
	return g_strdup(value);
}

/* o->run_words with their file names absolute (absolute_value()). */
static void absolute_run_words(GPtrArray *words)
{
	for (guint i = 0; i < words->len; i++) {
		const char *w = g_ptr_array_index(words, i);
		const char *name = run_long_name(w);
		if (!name || !g_str_has_prefix(w, "--"))
			continue;
		const char *eq = strchr(w, '=');
		if (eq) {
			g_autofree char *v = absolute_value(name, eq + 1);
			char *now = g_strdup_printf("%.*s=%s", (int)(eq - w), w, v);
			g_free(g_ptr_array_index(words, i));
			words->pdata[i] = now;
		} else if (ab_run_option_takes_next_word(w) && i + 1 < words->len) {
			char *v = absolute_value(name, g_ptr_array_index(words, i + 1));
			g_free(g_ptr_array_index(words, i + 1));
			words->pdata[++i] = v;
		}
	}
}

gboolean ab_tune_options_parse(int argc, char **argv, struct ab_tune_opts *o, GError **error)
{
	g_autoptr(GPtrArray) own = g_ptr_array_new();
	g_ptr_array_add(own, argv[0]);
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		gboolean attached;
		const struct ab_option_row *row = w[0] == '-' ? tune_row(w, &attached) : NULL;
		if (row || g_str_equal(w, "--help") || g_str_equal(w, "-h") || g_str_equal(w, "-?")) {
			g_ptr_array_add(own, argv[i]);
			if (row && row->kind != AB_OPTION_SWITCH && !attached && i + 1 < argc)
				g_ptr_array_add(own, argv[++i]);
			continue;
		}
		const char *name = w[0] == '-' ? run_long_name(w) : NULL;
		const char *why = name ? refused_word(name) : NULL;
		if (why) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "tune does not take --%s: %s", name, why);
			return FALSE;
		}
		if (w[0] != '-') {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "unexpected argument '%s'", w);
			return FALSE;
		}
		g_ptr_array_add(o->run_words, g_strdup(w));
		if (ab_run_option_takes_next_word(w) && !strchr(w, '=')) {
			/* Last on the line, it would take the word the tune adds
			 * after the user's ("-x"), and be refused as something else. */
			if (i + 1 == argc) {
				g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "missing argument for %s", w);
				return FALSE;
			}
			g_ptr_array_add(o->run_words, g_strdup(argv[++i]));
		}
	}
	absolute_run_words(o->run_words);
	g_ptr_array_add(own, NULL);
	if (!ab_cmd_options_parse("tune", "-o DIR",
				  "Race the mount and mkfs options of a search space and end with the best and an fstab "
				  "line.",
				  description, rows, G_N_ELEMENTS(rows), o, (int)own->len - 1, (char **)own->pdata, error))
		return FALSE;
	if (!o->objective) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "missing --objective SPEC: what to optimise");
		return FALSE;
	}
	if (!o->budget_text) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "missing --budget DURATION|N: how long the tune may take");
		return FALSE;
	}
	if (!o->dry_run && !o->out_dir) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "missing -o DIR: the results directory");
		return FALSE;
	}
	return TRUE;
}
