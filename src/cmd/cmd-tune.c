/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench tune`: what tune-setup.c works out before anything is
 * built (the options, the objective, the visits' words and target
 * checked as run checks them, the space and its candidates, the plan),
 * then the results directory opened or resumed as a matrix's
 * (src/matrix/matrix-state.c, matrix-resume.c), the stages (screening,
 * src/tune/tune-screen.c's verdict, the race: src/tune/tune-rounds.c
 * through tune-visits.c and the matrix's visits), then the end
 * (src/tune/tune-summary.c). */
#include "commands.h"
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
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Where the fstab line mounts the winner: the reader's to change. */
#define FSTAB_MOUNT_POINT "/srv/data"

/* The results directory: made, or resumed when it holds this very tune;
 * another tune's (or a matrix's) is refused, naming what differs. */
static int open_dir(struct ab_matrix_dir *d, const struct ab_tune_opts *o, const struct ab_tune_setup *p,
		    GError **error)
{
	d->copy = AB_TUNE_INI;
	enum ab_matrix_dir_state state;
	int opened = ab_matrix_resume_open(d, o->out_dir, p->digest, &state, error);
	if (opened)
		return opened;
	g_autofree char *stored = NULL;
	size_t len;
	if (state != AB_MATRIX_DIR_NEW && !ab_matrix_dir_read(d, AB_TUNE_INI, &stored, &len, error))
		return ab_error_exit_status(*error);
	if (state == AB_MATRIX_DIR_FOREIGN || (state == AB_MATRIX_DIR_CHANGED && !stored)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "'%s' holds results no tune started there (no %s): give another -o DIR", o->out_dir,
			    AB_TUNE_INI);
		return AB_ERROR_USAGE;
	}
	if (state == AB_MATRIX_DIR_CHANGED) {
		g_autofree char *was = NULL, *now = NULL;
		ab_tune_ini_differs(stored, p->ini, &was, &now);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "'%s' holds another tune: its %s has '%s' where this command makes '%s': give the same "
			    "command to resume, or another -o DIR",
			    o->out_dir, AB_TUNE_INI, was ? was : "", now ? now : "");
		return AB_ERROR_USAGE;
	}
	if (state == AB_MATRIX_DIR_SAME) {
		int status = ab_matrix_resume_undo(d, "tune", error);
		if (status)
			return status;
	} else if (!ab_matrix_dir_start(d, p->ini, strlen(p->ini), p->digest, NULL, error)) {
		return ab_error_exit_status(*error);
	}
	return 0;
}

/* The recommended candidate's mkfs command and fstab line. */
static void recommended_words(const struct ab_tune_setup *p, GPtrArray *candidates, struct ab_tune_summary *s)
{
	if (s->recommended == SIZE_MAX)
		return;
	const struct ab_candidate *c = g_ptr_array_index(candidates, s->recommended);
	g_auto(GStrv) devices = ab_tune_target_mkfs_devices(&p->cfg.target, p->striped, p->btrfs_profile != NULL);
	g_autoptr(GError) local = NULL;
	s->mkfs_command = ab_fstab_mkfs_command(p->fs, p->striped ? &p->geo : NULL, p->btrfs_profile,
						(const char *const *)devices, c, &local);
	g_clear_error(&local);
	s->fstab_line = ab_fstab_line(NULL, FSTAB_MOUNT_POINT, p->fs, c->mount_opts, &local);
}

/* The end: printed, and written to DIR/tune.txt and DIR/tune.json. */
static int finish(const struct ab_tune_opts *o, const struct ab_tune_setup *p, GPtrArray *candidates,
		  const struct ab_tune_stage *st, GPtrArray *screening, GPtrArray *not_allowed,
		  const struct ab_matrix_dir *d, GError **error)
{
	guint k = candidates->len;
	g_autofree const char **labels = g_new0(const char *, k);
	g_autofree const char **mount = g_new0(const char *, k);
	g_autofree const char **mkfs = g_new0(const char *, k);
	for (guint i = 0; i < k; i++) {
		const struct ab_candidate *c = g_ptr_array_index(candidates, i);
		labels[i] = c->label;
		mount[i] = c->mount_opts;
		mkfs[i] = c->mkfs_opts;
	}
	g_autoptr(GPtrArray) omitted = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < p->omitted->len; i++) {
		const struct ab_space_omission *om = g_ptr_array_index(p->omitted, i);
		if (om->unsafe)
			g_ptr_array_add(omitted, g_strdup_printf("%s (%s)", om->what, om->why));
	}
	size_t alive = ab_race_alive_count(st->race);
	if (alive > 1)
		g_ptr_array_add(not_allowed,
				g_strdup_printf("the race was not decided: %zu candidates still in it after %zu rounds "
						"(%s); a longer --budget would go on from here",
						alive, st->rounds, ab_tune_end_words(st->end)));
	struct ab_tune_summary s = {
		.obj = &p->obj, .race = st, .labels = labels, .mount_opts = mount, .mkfs_opts = mkfs,
		.omitted = omitted, .not_allowed = not_allowed, .screening = screening,
	};
	ab_tune_summary_rank(&s);
	recommended_words(p, candidates, &s);
	g_autofree char *text = ab_tune_summary_text(&s);
	g_autofree char *json = ab_tune_summary_json(&s);
	ab_tune_summary_clear(&s);
	ab_progress_clear();
	/* Said now, with its own errno: writing the files sets another. */
	errno = 0;
	gboolean printed = fputs(text, stdout) >= 0 && fflush(stdout) == 0 && !ferror(stdout);
	int print_errno = errno ? errno : EIO;
	if (!ab_replace_file_at("the tune's summary", d->fd, d->path, AB_TUNE_TEXT, text, strlen(text), error) ||
	    !ab_replace_file_at("the tune's summary", d->fd, d->path, AB_TUNE_JSON, json, strlen(json), error))
		return AB_ERROR_OUTPUT;
	if (!printed) {
		ab_set_error_errno(error, AB_ERROR_OUTPUT, print_errno,
				   "cannot write the tune's end to standard output (it is in %s/%s)", d->path,
				   AB_TUNE_TEXT);
		return AB_ERROR_OUTPUT;
	}
	return 0;
}

/* One stage's visits and rounds. */
struct stage_run {
	struct ab_matrix *m;
	GPtrArray *candidates;        /* struct ab_candidate * */
	const char **labels;
	struct ab_tune_visits tv;
	struct ab_tune_stage st;
	gboolean ready;
};

static void stage_run_clear(struct stage_run *sr)
{
	if (sr->ready) {
		ab_tune_stage_clear(&sr->st);
		ab_tune_visits_clear(&sr->tv);
	}
	if (sr->m)
		ab_matrix_free(sr->m);
	if (sr->candidates)
		g_ptr_array_unref(sr->candidates);
	g_free(sr->labels);
	*sr = (struct stage_run){ 0 };
}

/* A stage over `candidates` (sr takes them), its cells labelled with
 * `prefix`: the runs of its cells that set holds are its visits done. */
static int stage_go_rounds(struct stage_run *sr, const struct ab_tune_opts *o, const struct ab_tune_setup *p,
			   struct ab_matrix_dir *d, const char *stage, const char *prefix, GPtrArray *candidates,
			   bool drops, bool whole_rounds, struct ab_tune_budget budget, unsigned max_rounds,
			   struct ab_run_set *set, GError **error)
{
	sr->candidates = candidates;
	sr->m = ab_tune_matrix_new(p->visit_words, candidates, prefix, p->seed, p->digest);
	sr->labels = g_new0(const char *, candidates->len);
	for (guint i = 0; i < candidates->len; i++)
		sr->labels[i] = ((struct ab_candidate *)g_ptr_array_index(candidates, i))->label;
	ab_tune_visits_init(&sr->tv, sr->m, d, &p->obj, candidates, stage, o->alpha, o->min_rounds, o->quiet);
	ab_tune_visits_take_done(&sr->tv, set);
	sr->st = (struct ab_tune_stage){
		.stage = stage, .candidates = candidates->len, .defaults = 0, .labels = sr->labels, .drops = drops,
		.whole_rounds = whole_rounds, .seed = p->seed, .budget = budget, .max_rounds = max_rounds, .visit = ab_tune_visits_visit,
		.visit_data = &sr->tv, .clock = ab_tune_visits_clock,
	};
	ab_race_params_init(&sr->st.params);
	sr->st.params.direction = p->obj.higher_is_better ? AB_RACE_HIGHER_IS_BETTER : AB_RACE_LOWER_IS_BETTER;
	sr->st.params.alpha = o->alpha;
	sr->st.params.min_rounds = o->min_rounds;
	if (!ab_tune_stage_init(&sr->st, error)) {
		ab_tune_visits_clear(&sr->tv);
		return ab_error_exit_status(*error);
	}
	sr->ready = TRUE;
	sr->st.spend.done_cost_s = ab_tune_visits_done_cost(&sr->tv);
	return ab_tune_stage_run(&sr->st, error);
}

static int stage_go(struct stage_run *sr, const struct ab_tune_opts *o, const struct ab_tune_setup *p,
		    struct ab_matrix_dir *d, const char *stage, const char *prefix, GPtrArray *candidates,
		    bool drops, struct ab_tune_budget budget, unsigned max_rounds, struct ab_run_set *set,
		    GError **error)
{
	return stage_go_rounds(sr, o, p, d, stage, prefix, candidates, drops, false, budget, max_rounds, set, error);
}

static int race(const struct ab_tune_opts *o, struct ab_tune_setup *p, GError **error)
{
	g_autofree char *out_abs = g_canonicalize_filename(o->out_dir, NULL);
	struct ab_tune_opts opened = *o;
	opened.out_dir = out_abs;
	struct ab_matrix_dir d;
	ab_matrix_dir_init(&d);
	int status = open_dir(&d, &opened, p, error);
	struct ab_run_set set;
	ab_run_set_init(&set);
	unsigned failed_before = 0;
	GHashTable *done = NULL;
	if (status == 0)
		status = ab_matrix_resume_read(&d, FALSE, &set, &done, &failed_before, error);
	if (done)
		g_hash_table_unref(done);
	if (status == 0 && chdir("/") != 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot change to '/'");
		status = AB_ERROR_SKIPPED;
	}
	struct stage_run screen = { 0 }, whole = { 0 };
	g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) not_allowed = g_ptr_array_new_with_free_func(g_free);
	struct ab_tune_budget budget = o->budget;
	GPtrArray *race_candidates = g_ptr_array_ref(p->candidates);
	if (status == 0)
		ab_progress_start(stderr, ab_progress_mode_for(stderr, o->quiet));
	if (status == 0 && p->plan == AB_RACE_PLAN_SCREEN && !o->budget.visits) {
		/* As many whole rounds as half the time pays for; a resume
		 * whose record holds race visits takes screening as it ended
		 * (its recorded rounds), whatever the time says now. */
		GPtrArray *one = ab_candidates_one_at_a_time(p->resolved);
		unsigned recorded = 0;
		gboolean raced = FALSE;
		for (guint i = 0; i < set.runs->len; i++) {
			const struct ab_run *r = g_ptr_array_index(set.runs, i);
			if (r->tune.stage && g_str_equal(r->tune.stage, AB_TUNE_STAGE_SCREEN) && ab_known(r->tune.round))
				recorded = MAX(recorded, (unsigned)r->tune.round);
			raced = raced || (r->tune.stage && g_str_equal(r->tune.stage, AB_TUNE_STAGE_RACE));
		}
		struct ab_tune_budget share = { 0, o->budget.seconds / 2 };
		unsigned rounds = AB_TUNE_MAX_ROUNDS;
		if (raced)
			share = (struct ab_tune_budget){ (unsigned)(one->len * recorded), NAN }, rounds = recorded;
		if (raced && !recorded) {
			g_ptr_array_unref(one);
		} else {
			status = stage_go_rounds(&screen, o, p, &d, AB_TUNE_STAGE_SCREEN, "screen: ", one, false, true, share, rounds,
						 &set, error);
			const struct ab_tune_spend *sp = &screen.st.spend;
			budget.seconds = MAX(0.0, budget.seconds - ab_tune_spent_s(sp));
		}
	} else if (status == 0 && p->plan == AB_RACE_PLAN_SCREEN) {
		GPtrArray *one = ab_candidates_one_at_a_time(p->resolved);
		unsigned rounds = ab_tune_screen_rounds(o->budget.visits, one->len);
		if (!rounds) {
			g_ptr_array_add(not_allowed, g_strdup_printf("the keys were not screened: %s visits do not pay for 2 "
								     "rounds of the %u one-key candidates and a race after",
								     o->budget_text, one->len));
			g_ptr_array_unref(one);
		} else {
			struct ab_tune_budget share = { (unsigned)(one->len * rounds), NAN };
			status = stage_go(&screen, o, p, &d, AB_TUNE_STAGE_SCREEN, "screen: ", one, false, share, rounds, &set, error);
			budget.visits -= MIN(budget.visits, screen.st.spend.visits);
		}
	}
	if (status == 0 && screen.ready) {
		/* With a budget of visits, no more candidates than the visits
		 * left pay --min-rounds rounds of. */
		guint at_least = o->budget.visits ? MIN(AB_TUNE_RACE_AFTER_SCREEN_MIN,
							budget.visits / MAX(o->min_rounds, 1u))
						  : AB_TUNE_RACE_AFTER_SCREEN_MIN;
		g_ptr_array_unref(race_candidates);
		race_candidates = ab_tune_screened(p->resolved, &screen.st, at_least, lines, error);
		if (!race_candidates)
			status = ab_error_exit_status(*error);
	}
	if (status == 0 && screen.ready && screen.st.rounds >= 2 && race_candidates && race_candidates->len == 1)
		g_ptr_array_add(not_allowed, g_strdup_printf("screening left the defaults alone in %zu rounds (no change "
							     "not worse than them, or no visit left to race one): "
							     "nothing was raced; a larger budget gives screening more rounds",
							     screen.st.rounds));
	if (status == 0 && screen.ready && screen.st.rounds < 2)
		g_ptr_array_add(not_allowed, g_strdup_printf("screening had %zu round%s within the budget: under 2, no key "
							     "could be told to matter, so each kept its default",
							     screen.st.rounds, screen.st.rounds == 1 ? "" : "s"));
	if (status == 0)
		status = stage_go(&whole, o, p, &d, AB_TUNE_STAGE_RACE, "", g_steal_pointer(&race_candidates), true, budget, 0, &set,
				  error);
	if (race_candidates)
		g_ptr_array_unref(race_candidates);
	ab_progress_stop();
	ab_run_set_clear(&set);
	unsigned ran = screen.tv.v.ran + whole.tv.v.ran, failed = screen.tv.v.failed + whole.tv.v.failed;
	if (status == AB_ERROR_INTERRUPTED) {
		g_clear_error(error);
		g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED,
			    "interrupted: %u visits done this time, the one in flight is not recorded; run the same "
			    "command again to resume",
			    ran);
	} else if (status == 0) {
		status = finish(o, p, whole.candidates, &whole.st, lines, not_allowed, &d, error);
		failed += failed_before;
		if (status == 0 && failed) {
			g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "%u visits of the tune failed (their reasons are in %s/%s)",
				    failed, out_abs, AB_MATRIX_RESULTS_JSON);
			status = AB_ERROR_PHASE;
		}
	}
	stage_run_clear(&screen);
	stage_run_clear(&whole);
	ab_matrix_dir_clear(&d);
	return status;
}

static int tune_main(const struct ab_tune_opts *o, GError **error)
{
	struct ab_tune_setup p = { 0 };
	ab_config_init(&p.cfg);
	int status = 0;
	if (!ab_tune_setup_make(o, &p, error)) {
		status = ab_error_exit_status(*error);
	} else if (o->dry_run) {
		if (ab_stdout_closed) {
			g_set_error(error, AB_ERROR, AB_ERROR_OUTPUT,
				    "cannot write the plan to standard output: it was closed");
			status = AB_ERROR_OUTPUT;
		} else {
			ab_tune_setup_print(o, &p);
		}
	} else if (geteuid() != 0) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "a tune builds its targets, which needs root");
		status = AB_ERROR_SKIPPED;
	} else {
		status = race(o, &p, error);
	}
	ab_tune_setup_clear(&p);
	return status;
}

int ab_cmd_tune(int argc, char **argv, GError **error)
{
	struct ab_tune_opts o;
	ab_tune_opts_init(&o);
	int status = AB_ERROR_USAGE;
	if (ab_tune_options_parse(argc, argv, &o, error))
		status = tune_main(&o, error);
	ab_tune_opts_clear(&o);
	return status;
}
