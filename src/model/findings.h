/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_FINDINGS_H
#define AB_FINDINGS_H

/*
 * Findings: what a set of runs shows that its figures alone do not say
 * (a rate the disks cannot deliver, a member that did all the work, a
 * difference lost in the noise), each with an id, a severity, the figures
 * it rests on and what to do.  A table of rules (findings.c), each a
 * function over a run set, in a file of its family
 * (src/model/finding-*.c), that appends what it finds; the writers render
 * the same list: the text's findings block (reports/findings-text.c), the
 * comparison's, the HTML page's "Findings" section and the JSON
 * `findings` arrays (reports/json.c's ab_json_add_findings()).  Findings are derived,
 * never stored: a run read back finds the same again, so the JSON writer
 * writes them and the reader passes them by.
 *
 * The thresholds below are what the rules and man/arraybench.1's Findings
 * state; a rule's comment says why its threshold is where it is.
 */

#include <glib.h>
#include <stdint.h>

#include "run.h"

/* rate-above-members: a rate over this share of what the members' raw
 * reads allow (the raw baseline is itself one measurement: a rate a hair
 * over it is noise, one a tenth over is the page cache). */
#define AB_FINDING_CEILING_SHARE 1.10
/* members-unequal: the most a member did over the least, where the level
 * spreads the work; and the least work (bytes, the busiest member's) worth
 * judging (a phase served by the page cache moves a few KiB). */
#define AB_FINDING_MEMBER_RATIO 1.5
#define AB_FINDING_MEMBER_MIN_BYTES (4u << 20)
/* A slow member moves the same bytes as the others (every stripe waits for
 * it) but is busy longer: judged by busy time per byte, over this much of
 * the busiest member's busy time. */
#define AB_FINDING_MEMBER_MIN_BUSY_MS 1000u
/* noisy-group: a group's coefficient of variation over this; the
 * difference it should tell apart, with its alpha and power. */
#define AB_FINDING_CV_MAX 0.10
#define AB_FINDING_CV_DIFFERENCE 0.05
#define AB_FINDING_CV_ALPHA 0.05
#define AB_FINDING_CV_POWER 0.80
/* cached-at-start: a cold read phase with more of its file cached than this. */
#define AB_FINDING_RESIDENT_MAX 0.05
/* warm-read-device: a warm read phase of a file the cache could hold whose
 * members read more than this share of its bytes. */
#define AB_FINDING_WARM_DEVICE_SHARE 0.10
/* stream-straggler: stonewall and end-to-end rates further apart than this
 * (over the larger). */
#define AB_FINDING_STONEWALL_GAP 0.20
/* curve-coarse: the answer lies between two steps whose offered rates are
 * further apart than this (the steps place it only within their ratio). */
#define AB_FINDING_CURVE_STEP 0.20

enum ab_finding_severity {
	AB_FINDING_INFO,     /* worth knowing; the figures stand */
	AB_FINDING_WARNING,  /* a figure may mislead: read it with the finding */
	AB_FINDING_CRITICAL, /* a figure does not measure what it is labelled */
};

/* A figure a finding rests on: "rate" 6203115.9 "KiB/s". */
struct ab_finding_figure {
	char *name;
	double value;
	char *unit;
};

struct ab_finding {
	const char *id; /* its rule's: "rate-above-members" */
	enum ab_finding_severity severity;
	/* Where: the group (ab_run_group_label()), and for a run's finding its
	 * run id and repeat (NULL, AB_UNSET for a group's); the result it is
	 * about ("block-read", "sweep read 64m/4k x4"), NULL for the run or
	 * group as a whole. */
	char *group;
	char *run_id;
	uint64_t repeat;
	char *subject;
	char *text;      /* what the data show, its figures in words; one line */
	char *advice;    /* what to do; one line */
	GArray *figures; /* struct ab_finding_figure, never NULL */
};

/* Which rules: those over one run at a time (a run's own text and JSON
 * carry them), and those over groups of runs (the set's). */
enum ab_finding_scope {
	AB_FINDING_SCOPE_RUN = 1u << 0,
	AB_FINDING_SCOPE_GROUPS = 1u << 1,
	AB_FINDING_SCOPE_ALL = AB_FINDING_SCOPE_RUN | AB_FINDING_SCOPE_GROUPS,
};

/* One rule: the id its findings carry, its scope, what it means and its
 * threshold in words (the man page's Findings list), and the function that
 * appends its findings (struct ab_finding *) to out. */
struct ab_finding_rule {
	const char *id;
	enum ab_finding_severity severity;
	enum ab_finding_scope scope;
	const char *meaning;
	void (*find)(const struct ab_run_set *set, GPtrArray *out);
};

/* The rules, in the order their findings are listed. */
extern const struct ab_finding_rule ab_finding_rules[];
extern const size_t ab_finding_rule_count;

/* Every finding of the rules of `scopes` over set: a new array (its
 * elements freed with it), rule by rule in the table's order, each rule's
 * in run order.  Failed runs (run->failure) are no group's repeats. */
GPtrArray *ab_findings_find(const struct ab_run_set *set, unsigned scopes);
/* The run rules over one run (its text block and JSON line). */
GPtrArray *ab_findings_of_run(const struct ab_run *run);
/* "info", "warning", "critical". */
const char *ab_finding_severity_name(enum ab_finding_severity s);

/* For the rules (finding-*.c): a new finding of the rule `id` about run
 * (NULL for a group's, then `group` names it) and subject (NULL for the
 * whole), appended to out; text and advice are set with the two below. */
struct ab_finding *ab_finding_add(GPtrArray *out, const char *id, const struct ab_run *run, const char *group,
				  const char *subject);
void ab_finding_say(struct ab_finding *f, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void ab_finding_advise(struct ab_finding *f, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void ab_finding_figure(struct ab_finding *f, const char *name, double value, const char *unit);
void ab_finding_free(struct ab_finding *f);
/* A result's name as the comparison names its column: "block-read",
 * "block-read#2", "sweep read 64m/4k x4"; to g_free. */
char *ab_finding_result_name(const struct ab_result *r);
/* A figure's value for people: a rate (a unit in "/s", IOPS) by the rate
 * rule of src/base/rate-text.h, a whole number as such, else 4 digits;
 * "?" when unknown. */
void ab_finding_value_text(const struct ab_finding_figure *fig, char *out, size_t len);
/* A size for a finding's words: "64M", "1.5G", "512K". */
void ab_finding_size_text(uint64_t bytes, char *out, size_t len);

/* The result's device rows that are its target's members (matched by the
 * member's base name, as /proc/diskstats names them), into a new array of
 * const struct ab_device_io *; empty when the target lists none (a
 * directory) or none was counted. */
GPtrArray *ab_finding_member_io(const struct ab_run *run, const struct ab_result *r);
/* Does the result read a file (a read phase of bonnie++'s, the curve, a
 * sweep cell whose share cached at start was taken)? */
gboolean ab_finding_reads_file(const struct ab_result *r);
/* The most page cache the run's phases could fill: the cgroup's limit,
 * else the machine's RAM; AB_UNSET when neither is known. */
uint64_t ab_finding_cache_room(const struct ab_run *run);

/* The repeats per group that tell a relative difference apart at a CV
 * (two-sample, two-sided alpha, power): 2 (z_a/2 + z_b)^2 CV^2 / d^2,
 * rounded up (finding-spread.c). */
double ab_finding_repeats_needed(double cv, double difference, double alpha, double power);
/* The unit of a result's rate ("KiB/s", "seeks/s"), NULL when unknown. */
const char *ab_finding_unit(const struct ab_result *r);

/* Each rule (one file per family). */
void ab_finding_rate_above_members(const struct ab_run_set *set, GPtrArray *out);
void ab_finding_cache_none_fits(const struct ab_run_set *set, GPtrArray *out);
void ab_finding_cached_at_start(const struct ab_run_set *set, GPtrArray *out);
void ab_finding_warm_read_device(const struct ab_run_set *set, GPtrArray *out);
void ab_finding_too_short(const struct ab_run_set *set, GPtrArray *out);
void ab_finding_members_unequal(const struct ab_run_set *set, GPtrArray *out);
void ab_finding_stream_straggler(const struct ab_run_set *set, GPtrArray *out);
void ab_finding_curve_coarse(const struct ab_run_set *set, GPtrArray *out);
void ab_finding_noisy_group(const struct ab_run_set *set, GPtrArray *out);
void ab_finding_conditions_differ(const struct ab_run_set *set, GPtrArray *out);

#endif
