/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RECOVER_H
#define AB_RECOVER_H

#include <glib.h>

#include "undo.h"

/* `arraybench cleanup`: finish every journal in the (trusted) state
 * directory whose run is gone, reporting each step and each file it would
 * not act on.  FALSE if an undo failed (its journal stays for next time). */
gboolean ab_undo_recover(const char *state_dir, ab_undo_exec_fn exec, GString *report, GError **error);

#endif
