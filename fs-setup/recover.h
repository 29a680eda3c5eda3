/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RECOVER_H
#define AB_RECOVER_H

#include <glib.h>

#include "undo.h"

/* `arraybench cleanup`: finish every journal in the (trusted) state
 * directory whose run is gone, reporting each step and each file it would
 * not act on.  FALSE if an undo failed (its journal stays for next time). */
gboolean ab_undo_recover(const char *state_dir, ab_undo_exec_fn exec, GString *report, GError **error);

/* The same for the journal of one run only (and its hidden name, a run
 * that died before naming it), if the state directory holds it: what a
 * matrix resumed after a kill does for the visit that was in flight.
 * *undone: how many steps were left and are now undone, -1 when no journal
 * was acted on (none, its run still going, or one moved aside: `report`
 * says which). */
gboolean ab_undo_recover_run(const char *state_dir, const char *run_id, ab_undo_exec_fn exec, GString *report,
			     int *undone, GError **error);

#endif
