/* ds-run-watch.h: what a run watches besides its own figures: the
 * environment at its start, other I/O on the device, all-zero reads; and
 * the warnings drawn from them at its end
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-run.h"

G_BEGIN_DECLS

typedef struct _DsRunWatch DsRunWatch;

/* At the run's start: records run->result's environment and snapshots
 * /proc/diskstats for the target.  Sets run->watch. */
void     ds_run_watch_start  (DsRun               *run);
/* After each ds_run_io(), on the thread that called it: what its I/O
 * moved and found (stats->watch). */
void     ds_run_watch_io     (DsRun               *run,
                              const DsIoPlan      *plan,
                              const DsIoStats     *stats);
/* At the run's end (whether it failed or not): the warnings into
 * run->result; frees run->watch. */
void     ds_run_watch_finish (DsRun               *run);

G_END_DECLS
