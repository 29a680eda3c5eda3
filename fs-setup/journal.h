/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_JOURNAL_H
#define AB_JOURNAL_H

#include <glib.h>

#include "liveness.h"
#include "undo-step.h"

/*
 * The undo journal's text: a header naming the run and its process, then one
 * line per event, tab-separated, strings escaped (g_strescape):
 *
 *   arraybench-undo 2 <TAB>run=ID<TAB>pid=N<TAB>start=TICKS<TAB>boot=UUID<TAB>uid=N
 *   intent KIND PATH DETAIL [MAJ:MIN INO FSID]  step n is the n-th intent (from 0)
 *   ident  N MAJ:MIN INO FSID                   step N's object now exists
 *   detail N TEXT                            what became known of it (a loop device)
 *   done   N                                 step N is undone
 *
 * Only lines ending in a newline count: a power cut mid-write leaves a torn
 * last line, which is ignored (the write-ahead rule means its action never
 * began).  Anything else malformed makes the whole journal corrupt: we do
 * not act on a journal we do not fully understand.
 */
#define AB_JOURNAL_MAGIC "arraybench-undo 2"

struct ab_journal_owner {
	char run_id[32];
	struct ab_process_id process;
	uid_t uid;
};

enum ab_journal_state {
	AB_JOURNAL_OK,
	AB_JOURNAL_EMPTY,   /* no complete header line */
	AB_JOURNAL_CORRUPT, /* a complete line we do not understand */
};

char *ab_journal_header(const struct ab_journal_owner *owner);
char *ab_journal_intent_line(const struct ab_undo_step *step);
char *ab_journal_ident_line(guint index, const struct ab_undo_step *step);
char *ab_journal_done_line(guint index);
char *ab_journal_detail_line(guint index, const char *detail);

/* Parse `len` bytes.  OK fills *owner and *steps (each step's owner set to
 * the header's uid); otherwise *why says what is wrong, for the report. */
enum ab_journal_state ab_journal_parse(const char *text, gsize len, struct ab_journal_owner *owner,
				       GPtrArray **steps, char **why);

#endif
