/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `arraybench tune` works out before anything is built (tune-setup.h). */
#include "tune-setup.h"
#include "../base/error.h"
#include "../base/replace-file.h"
#include "../base/runid.h"
#include "../matrix/matrix-resume.h"
#include "../matrix/matrix-state.h"
#include "../model/objective.h"
#include "../model/race.h"
#include "../model/tune-race.h"
#include "../options/run-options.h"
#include "../pipeline/run-prepare.h"
#include "../runner/progress.h"
#include "../tune/candidates.h"
#include "../tune/fstab.h"
#include "../tune/space.h"
#include "../tune/tune-options.h"
#include "../tune/tune-plan.h"
#include "../tune/tune-rounds.h"
#include "../tune/tune-screen.h"
#include "../tune/tune-state.h"
#include "../tune/tune-summary.h"
#include "../tune/tune-target.h"
#include "../tune/tune-visits.h"
#include "../../fs-setup/backend.h"
#include "../../fs-setup/target-build.h"
#include "../../workloads/phase.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>


void ab_tune_setup_clear(struct ab_tune_setup *p)
{
	ab_objective_clear(&p->obj);
	if (p->visit_words)
		g_ptr_array_unref(p->visit_words);
	ab_config_clear(&p->cfg);
	if (p->space)
		ab_space_free(p->space);
	if (p->resolved)
		ab_space_free(p->resolved);
	if (p->omitted)
		g_ptr_array_unref(p->omitted);
	if (p->candidates)
		g_ptr_array_unref(p->candidates);
	g_free(p->ini);
	g_free(p->digest);
	if (p->m)
		ab_matrix_free(p->m);
}

/* A run error as the tune's, its code kept (AB_ERROR_USAGE from another
 * domain); FALSE. */
static gboolean as_tune_error(GError **error, const GError *local)
{
	g_set_error(error, AB_ERROR, local->domain == AB_ERROR ? local->code : AB_ERROR_USAGE, "%s", local->message);
	return FALSE;
}

/* The visits' run words checked as run and a matrix check them, before
 * anything is built: the options, the target's plan and its devices. */
static gboolean check_visit_words(struct ab_tune_setup *p, GError **error)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	for (guint i = 0; i < p->visit_words->len; i++)
		g_ptr_array_add(argv, g_ptr_array_index(p->visit_words, i));
	g_ptr_array_add(argv, "-x");
	g_ptr_array_add(argv, "1");
	g_ptr_array_add(argv, NULL);
	uint64_t ram;
	g_autoptr(GError) local = NULL;
	if (!ab_run_options_parse((int)argv->len - 1, (char **)argv->pdata, &p->cfg, &local))
		return as_tune_error(error, local);
	/* The tune's own rules of the target come first: run's answer to a
	 * target that does not build offers -d DIR, which a tune refuses. */
	if (!ab_tune_target_check(&p->cfg.target, error))
		return FALSE;
	if (ab_run_check_parsed(&p->cfg, &ram, &local) != 0 || !ab_target_spec_check_options(&p->cfg.target, &local))
		return as_tune_error(error, local);
	const struct ab_target_spec *t = &p->cfg.target;
	g_autofree char *run_id = ab_run_id_new(error);
	if (!run_id || !ab_target_check(&p->cfg.target, run_id, NULL, error))
		return FALSE;
	return ab_fs_type_parse(t->fs, &p->fs, error);
}

/* The array's geometry, for the space's alignment values: an md array's
 * chunk and data members, as the visits will build it. */
static gboolean find_geometry(struct ab_tune_setup *p, GError **error)
{
	const struct ab_target_spec *t = &p->cfg.target;
	if (!t->array_level)
		return TRUE;
	const struct ab_backend_ops *b = ab_backend_pick(t, p->fs);
	if (b && g_str_equal(b->name, "btrfs"))
		p->btrfs_profile = t->array_level;
	if (!b || !g_str_equal(b->name, "mdadm"))
		return TRUE;
	guint members = t->loop_count ? t->loop_count : g_strv_length(t->members);
	if (!ab_mdadm_geometry(t->array_level, members, t->chunk_bytes, t->layout, &p->geo, error))
		return FALSE;
	p->striped = TRUE;
	return TRUE;
}

/* Why a key of the space is not in the resolved one: its values other
 * than the default, each left out and why ("nobarrier (unsafe:
 * --allow-unsafe tries it)"), or NULL when the space has no such key. */
static char *key_left_out(const struct ab_tune_setup *p, const char *name)
{
	const struct ab_space_key *key = NULL;
	for (guint i = 0; !key && i < p->space->keys->len; i++)
		if (g_str_equal(((struct ab_space_key *)g_ptr_array_index(p->space->keys, i))->name, name))
			key = g_ptr_array_index(p->space->keys, i);
	if (!key)
		return NULL;
	GString *out = g_string_new(NULL);
	for (guint v = 1; v < key->values->len; v++) {
		const char *label = ((struct ab_space_value *)g_ptr_array_index(key->values, v))->label;
		for (guint i = 0; i < p->omitted->len; i++) {
			const struct ab_space_omission *om = g_ptr_array_index(p->omitted, i);
			if (g_str_equal(om->what, label))
				g_string_append_printf(out, "%s%s (%s)", out->len ? ", " : "", label,
						       om->unsafe ? "unsafe: --allow-unsafe tries it" : "no stripe here");
		}
	}
	return g_string_free(out, FALSE);
}

/* --keys: the resolved space narrowed to the keys named. */
static gboolean keep_keys(const struct ab_tune_setup *p, const char *keys, GError **error)
{
	struct ab_space *s = p->resolved;
	if (!keys)
		return TRUE;
	g_auto(GStrv) names = g_strsplit(keys, ",", -1);
	for (char **n = names; *n; n++) {
		gboolean found = FALSE;
		for (guint i = 0; !found && i < s->keys->len; i++)
			found = g_str_equal(((struct ab_space_key *)g_ptr_array_index(s->keys, i))->name, *n);
		g_autofree char *left_out = found ? NULL : key_left_out(p, *n);
		if (left_out && *left_out) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "invalid --keys '%s': key '%s' of space '%s' has nothing but its default to try here "
				    "(left out: %s)", keys, *n, s->name, left_out);
			return FALSE;
		}
		if (!found) {
			g_autoptr(GString) have = g_string_new(NULL);
			for (guint i = 0; i < s->keys->len; i++)
				g_string_append_printf(have, "%s%s", i ? ", " : "",
						       ((struct ab_space_key *)g_ptr_array_index(s->keys, i))->name);
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "invalid --keys '%s': space '%s' has no key '%s' to try here (it has: %s)", keys,
				    s->name, *n, have->len ? have->str : "none");
			return FALSE;
		}
	}
	for (guint i = 0; i < s->keys->len; i++)
		if (!g_strv_contains((const char *const *)names,
				     ((struct ab_space_key *)g_ptr_array_index(s->keys, i))->name))
			g_ptr_array_remove_index(s->keys, i--);
	return TRUE;
}

static const char *plan_words(enum ab_race_plan plan)
{
	return plan == AB_RACE_PLAN_WHOLE ? "race whole" : "screen first";
}

/* A space with no value but its defaults left here (each key's others
 * unsafe, or naming a stripe the target has not) races the defaults
 * against themselves: refused, saying what was left out. */
static gboolean something_to_try(const struct ab_tune_setup *p, GError **error)
{
	if (p->resolved->keys->len)
		return TRUE;
	g_autoptr(GString) out = g_string_new(NULL);
	for (guint i = 0; i < p->omitted->len; i++) {
		const struct ab_space_omission *om = g_ptr_array_index(p->omitted, i);
		g_string_append_printf(out, "%s%s (%s)", out->len ? ", " : "; left out: ", om->what,
				       om->unsafe ? "unsafe: --allow-unsafe tries it" : "no stripe here");
	}
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
		    "invalid --space '%s': nothing to try on this target, no key has a value besides its default%s",
		    p->space->where, out->str);
	return FALSE;
}

/* A budget of visits under one round of the candidates it races pays for
 * no visit: the tune would end at once with nothing decided. */
static gboolean budget_pays_a_round(const struct ab_tune_opts *o, const struct ab_tune_setup *p, size_t one_key,
				    GError **error)
{
	if (!o->budget.visits || o->budget.visits >= p->candidates->len)
		return TRUE;
	if (p->plan == AB_RACE_PLAN_SCREEN && ab_tune_screen_rounds(o->budget.visits, one_key))
		return TRUE; /* screening's rounds are paid; the race gets what is left */
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
		    "invalid --budget '%s': %u visits do not pay for one round of the %u candidates (%u pay for the "
		    "%u rounds before a drop): give more, or fewer --keys",
		    o->budget_text, o->budget.visits, p->candidates->len, p->candidates->len * o->min_rounds,
		    o->min_rounds);
	return FALSE;
}

/* Everything known before anything is built, --dry-run's too. */
gboolean ab_tune_setup_make(const struct ab_tune_opts *o, struct ab_tune_setup *p, GError **error)
{
	if (!ab_objective_parse(o->objective, ab_phase_names(), &p->obj, error))
		return FALSE;
	p->visit_words = ab_tune_visit_words(o, &p->obj, error);
	if (!p->visit_words || !check_visit_words(p, error) || !ab_tune_objective_run(&p->cfg, &p->obj, error) ||
	    !find_geometry(p, error))
		return FALSE;
	const char *fs_name = ab_fs_type_name(p->fs);
	if (!o->space && !g_strv_contains(ab_space_builtin_names(), fs_name)) {
		g_autofree char *names = g_strjoinv(", ", (char **)ab_space_builtin_names());
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--fs %s has no built-in search space (%s have): give one as --space FILE", fs_name, names);
		return FALSE;
	}
	p->space = ab_space_load(o->space ? o->space : fs_name, error);
	if (!p->space)
		return FALSE;
	if (p->space->fs != p->fs) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "space '%s' is for %s, not for --fs %s", p->space->where,
			    ab_fs_type_name(p->space->fs), ab_fs_type_name(p->fs));
		return FALSE;
	}
	p->omitted = g_ptr_array_new_with_free_func(ab_space_omission_free);
	p->resolved = ab_space_resolve(p->space, p->striped ? &p->geo : NULL, o->allow_unsafe, p->omitted, error);
	if (!p->resolved || !keep_keys(p, o->keys, error) || !something_to_try(p, error))
		return FALSE;
	p->candidates = ab_candidates_product(p->resolved, NULL, error);
	if (!p->candidates)
		return FALSE;
	p->plan = o->budget.visits ? ab_race_plan_for(p->candidates->len, o->budget.visits, o->min_rounds)
				   : AB_RACE_PLAN_WHOLE;
	/* A time budget pays for a number of visits no one knows before one
	 * is made: screen when the product is over twice the one-key set,
	 * where screening costs little beside what it spares. */
	g_autoptr(GPtrArray) one = ab_candidates_one_at_a_time(p->resolved);
	if (!o->budget.visits)
		p->plan = p->candidates->len > 2 * one->len ? AB_RACE_PLAN_SCREEN : AB_RACE_PLAN_WHOLE;
	/* One key (or none) to try: its one-key changes are the space itself,
	 * and screening them would only race them without drops. */
	if (one->len >= p->candidates->len)
		p->plan = AB_RACE_PLAN_WHOLE;
	if (!budget_pays_a_round(o, p, one->len, error))
		return FALSE;
	/* The narrowed words hold the step's own; whole, a visit reads the
	 * profile anew, so its text must be the one the tune began with. */
	g_autofree char *workload_sha256 = NULL;
	if (o->whole_workload) {
		GError *local = NULL;
		workload_sha256 = ab_tune_workload_sha256(p->visit_words, &local);
		if (local) {
			g_propagate_error(error, local);
			return FALSE;
		}
	}
	struct ab_tune_ini in = {
		.objective = p->obj.name, .o = o, .space = p->space->where, .plan = plan_words(p->plan),
		.visit_words = p->visit_words, .workload_sha256 = workload_sha256, .candidates = p->candidates,
	};
	p->ini = ab_tune_ini_text(&in, &p->seed);
	p->digest = g_compute_checksum_for_string(G_CHECKSUM_SHA256, p->ini, -1);
	p->m = ab_tune_matrix_new(p->visit_words, p->candidates, "", p->seed, p->digest);
	return TRUE;
}

/* How many rounds screening gets of a budget of visits: as many whole
 * rounds as half of it pays for, since each round adds a pair per change
 * and a paired test on 3 pairs (2 degrees of freedom, then Holm over every
 * change) tells only gross differences apart; 0 when that is under 2 (a
 * paired test needs 2 rounds). */
unsigned ab_tune_screen_rounds(unsigned budget, size_t screen)
{
	size_t r = screen ? MIN((size_t)AB_TUNE_MAX_ROUNDS, budget / 2 / screen) : 0;
	return r >= 2 ? (unsigned)r : 0;
}

/* What the stripe-hint switch's values mean on this array: its label
 * "geometry" names no figure, and the su/sw (or stride) mkfs is given is
 * what a reader checks against the array (chunk, data members). */
static void print_stripe_hint(const struct ab_tune_setup *p)
{
	const struct ab_space_key *hint = NULL;
	for (guint k = 0; k < p->resolved->keys->len; k++) {
		const struct ab_space_key *key = g_ptr_array_index(p->resolved->keys, k);
		if (key->place == AB_SPACE_SWITCH)
			hint = key;
	}
	if (!hint || !p->striped)
		return; /* resolving left it out where there is no stripe, and said why */
	const char *devices[] = { "/dev/mdX", NULL };
	for (guint v = 0; v < hint->values->len; v++) {
		const struct ab_space_value *val = g_ptr_array_index(hint->values, v);
		struct ab_candidate c = { .no_stripe_hint = v > 0 };
		g_autoptr(GError) local = NULL;
		g_autofree char *command = ab_fstab_mkfs_command(p->fs, &p->geo, NULL, devices, &c, &local);
		if (command)
			printf("%s=%s: %s (chunk %" PRIu32 "k, %" PRIu32 " data members)\n", hint->name, val->text,
			       command, p->geo.chunk_bytes / 1024, p->geo.data_disks);
	}
}

void ab_tune_setup_print(const struct ab_tune_opts *o, const struct ab_tune_setup *p)
{
	size_t k = p->candidates->len;
	printf("tune: objective %s (%s)\n", p->obj.name, ab_objective_direction_word(&p->obj));
	g_autofree char *where = ab_one_line(p->space->where); /* a file name may hold a newline */
	printf("space: %s, %u keys, %zu candidates\n", where, p->resolved->keys->len, k);
	for (guint i = 0; i < k; i++) {
		const struct ab_candidate *c = g_ptr_array_index(p->candidates, i);
		g_autoptr(GPtrArray) words = g_ptr_array_new();
		for (guint j = 0; c->argv && j < c->argv->len; j++)
			g_ptr_array_add(words, g_ptr_array_index(c->argv, j));
		g_ptr_array_add(words, NULL);
		g_autofree char *line = ab_matrix_command_line((char **)words->pdata);
		printf("candidate %u/%zu: %s%s%s%s\n", i + 1, k, c->label, c->argv && c->argv->len ? " (" : "",
		       c->argv && c->argv->len ? line + strlen("arraybench ") : "", c->argv && c->argv->len ? ")" : "");
	}
	print_stripe_hint(p);
	for (guint i = 0; i < p->omitted->len; i++) {
		const struct ab_space_omission *om = g_ptr_array_index(p->omitted, i);
		printf("left out%s: %s: %s\n", om->unsafe ? " as unsafe (--allow-unsafe tries it)" : "", om->what, om->why);
	}
	if (o->budget.visits)
		printf("plan: %s: %zu candidates x %u rounds = %zu visits %s the budget of %u visits%s\n",
		       plan_words(p->plan), k, o->min_rounds, k * o->min_rounds,
		       k * o->min_rounds <= o->budget.visits ? "within" : "over", o->budget.visits,
		       p->plan == AB_RACE_PLAN_WHOLE && k * o->min_rounds > o->budget.visits
			       ? " (one key: nothing to screen; the race goes as far as the budget pays)"
			       : "");
	else if (p->plan == AB_RACE_PLAN_WHOLE)
		printf("plan: race whole: %zu candidates, as many rounds as %s pays for (a visit's time is known once one "
		       "is made)\n",
		       k, o->budget_text);
	else
		printf("plan: screen first: %zu candidates, over twice the one-key changes, and a time budget (%s)\n", k,
		       o->budget_text);
	if (p->plan == AB_RACE_PLAN_SCREEN && !o->budget.visits) {
		g_autoptr(GPtrArray) one = ab_candidates_one_at_a_time(p->resolved);
		printf("screening: %u one-key candidates in as many whole rounds as half of %s pays for, then a race of "
		       "the values that mattered with the rest\n",
		       one->len, o->budget_text);
	} else if (p->plan == AB_RACE_PLAN_SCREEN) {
		g_autoptr(GPtrArray) one = ab_candidates_one_at_a_time(p->resolved);
		unsigned rounds = ab_tune_screen_rounds(o->budget.visits, one->len);
		if (rounds)
			printf("screening: %u one-key candidates x %u rounds = %u visits, then a race of the values that "
			       "mattered with the rest\n",
			       one->len, rounds, one->len * rounds);
		else
			printf("screening: the budget does not pay for 2 rounds of the %u one-key candidates: the whole "
			       "space is raced\n",
			       one->len);
	}
	const struct ab_matrix_cell *first = g_ptr_array_index(p->m->cells, 0);
	g_auto(GStrv) argv = ab_matrix_visit_argv(p->m, first, 1, TRUE);
	g_autofree char *line = ab_matrix_command_line(argv);
	printf("each visit: %s, then the candidate's words\n", line);
}

