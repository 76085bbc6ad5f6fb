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

/* One read in this many (per I/O thread, the first one included) has its
 * buffer checked for all zeros: a cost well under 1 % of a run. */
#define DS_WATCH_ZERO_SAMPLE_EVERY 32

typedef struct _DsRunWatch DsRunWatch;

/* What one ds_run_io() adds to the watch (all its I/O, ramp and fills
 * included: /proc/diskstats counts them too). */
typedef struct {
  uint64_t read_bytes;
  uint64_t written_bytes;
  uint64_t zero_sampled;
  uint64_t zero_found;
  uint64_t zero_first_bytes;  /* the lowest offset found all zeros (valid
                               * when zero_found > 0) */
} DsWatchCounts;

/* At the run's start: records run->result's environment and snapshots
 * /proc/diskstats for the target.  Sets run->watch. */
void     ds_run_watch_start  (DsRun               *run);
/* After each ds_run_io(), on the thread that called it. */
void     ds_run_watch_io     (DsRun               *run,
                              const DsIoPlan      *plan,
                              const DsIoStats     *stats,
                              const DsWatchCounts *counts);
/* At the run's end (whether it failed or not): the warnings into
 * run->result; frees run->watch. */
void     ds_run_watch_finish (DsRun               *run);

/* TRUE when all @len bytes at @buf are zero. */
gboolean ds_buffer_is_zero   (const void          *buf,
                              size_t               len);

G_END_DECLS
