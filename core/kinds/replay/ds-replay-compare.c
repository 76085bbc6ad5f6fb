/* ds-replay-compare.c: replays side by side, and each against the
 * capture it replayed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two replays of one trace on two disks line up row by row; each result
 * also carries the capture's own figures (the production disk's), so the
 * comparison shows them, and each replay's latency as a multiple of them.
 */
#include "config.h"

#include <math.h>

#include "ds-bench-replay.h"
#include "ds-figures.h"
#include "ds-result.h"

/* @v where it was measured (a latency of 0: none of those I/Os). */
static double
seen (double v)
{
  return v > 0 ? v : NAN;
}

static double
ratio (double replayed,
       double captured)
{
  return replayed > 0 && captured > 0 ? replayed / captured : NAN;
}

void
ds_replay_compare_rows (const DsResult *result,
                        DsFigures      *f)
{
  const DsReplayData *d = result->data;
  const DsReplayCapture *c = &d->capture;
  gboolean open = d->loop == DS_TRACE_LOOP_OPEN;
  const char *replay = "Replay";
  const char *capture = "Replay against the capture";
  const struct { const char *key, *name; DsCompareUnit unit; gboolean hib; double v; } rows[] = {
    { "iops.achieved", "IOPS, achieved", DS_COMPARE_IOPS, TRUE, d->achieved_iops },
    { "iops.recorded", "IOPS, recorded (× speed)", DS_COMPARE_IOPS, TRUE, d->recorded_iops },
    /* On time: the open loop's; the closed loop keeps a depth instead. */
    { "fidelity.100us", "I/Os on time, within 100 µs", DS_COMPARE_PERCENT, TRUE, open ? 100 * d->within_100us : NAN },
    { "fidelity.1ms", "I/Os on time, within 1 ms", DS_COMPARE_PERCENT, TRUE, open ? 100 * d->within_1ms : NAN },
    /* Open loop: the same schedule with fewer in flight is a faster disk;
     * closed loop: more in flight kept more of the trace's depth. */
    { "depth.mean", "In flight on average", DS_COMPARE_RATIO, !open, d->mean_depth > 0 ? d->mean_depth : NAN },
    { "depth.recorded", "In flight on average, the trace's", DS_COMPARE_RATIO, !open,
      d->recorded_mean_depth > 0 ? d->recorded_mean_depth : NAN },
    { "latency.p50", "Latency p50", DS_COMPARE_TIME, FALSE, seen (d->p50_s) },
    { "latency.p99", "Latency p99", DS_COMPARE_TIME, FALSE, seen (d->p99_s) },
    { "latency.p99_9", "Latency p99.9", DS_COMPARE_TIME, FALSE, seen (d->p999_s) },
    { "read.p50", "Reads p50", DS_COMPARE_TIME, FALSE, d->reads > 0 ? seen (d->read_p50_s) : NAN },
    { "read.p99", "Reads p99", DS_COMPARE_TIME, FALSE, d->reads > 0 ? seen (d->read_p99_s) : NAN },
    { "write.p50", "Writes p50", DS_COMPARE_TIME, FALSE, d->writes > 0 ? seen (d->write_p50_s) : NAN },
    { "write.p99", "Writes p99", DS_COMPARE_TIME, FALSE, d->writes > 0 ? seen (d->write_p99_s) : NAN },
    { "waited", "I/Os that waited for a slot", DS_COMPARE_COUNT, FALSE, (double) d->waited },
    { "wrapped", "I/Os wrapped past the target's end", DS_COMPARE_COUNT, FALSE, (double) d->wrapped },
  };
  const struct { const char *key, *name; DsCompareUnit unit; gboolean hib; double v; } against[] = {
    { "capture.iops", "Capture IOPS", DS_COMPARE_IOPS, TRUE, c->iops },
    { "capture.p50", "Capture latency p50", DS_COMPARE_TIME, FALSE, seen (c->p50_s) },
    { "capture.p99", "Capture latency p99", DS_COMPARE_TIME, FALSE, seen (c->p99_s) },
    { "capture.p99_9", "Capture latency p99.9", DS_COMPARE_TIME, FALSE, seen (c->p999_s) },
    /* The capture's IOPS are of all its requests at 1x: a replay of its
     * reads alone is not their match. */
    { "vs_capture.iops", "Achieved IOPS / capture's × speed", DS_COMPARE_RATIO, TRUE,
      d->reads_only ? NAN : ratio (d->achieved_iops, c->iops * d->speed) },
    { "vs_capture.p50", "Latency p50 / capture's", DS_COMPARE_RATIO, FALSE, ratio (d->p50_s, c->p50_s) },
    { "vs_capture.p99", "Latency p99 / capture's", DS_COMPARE_RATIO, FALSE, ratio (d->p99_s, c->p99_s) },
    { "vs_capture.p99_9", "Latency p99.9 / capture's", DS_COMPARE_RATIO, FALSE, ratio (d->p999_s, c->p999_s) },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    ds_figures_add (f, rows[i].key, replay, rows[i].name, "", rows[i].unit, rows[i].hib,
                    d->ios > 0 ? rows[i].v : NAN);
  if (!d->has_capture)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (against); i++)
    ds_figures_add (f, against[i].key, capture, against[i].name, "", against[i].unit, against[i].hib,
                    against[i].v);
}
