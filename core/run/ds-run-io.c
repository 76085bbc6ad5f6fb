/* ds-run-io.c: the I/O loop on behalf of a run
 *
 * The loop (io/ds-io-loop.c) knows no run: it takes a context (target,
 * engine, sink, cancel flag, random stream) and says what it did in its
 * stats.  Here a run's kinds call it, and the run keeps what a run keeps:
 * the engine named in the result (and why it fell back, once), the first
 * failed I/O for the result's error, and the watch's counts for the
 * warnings.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ds-run.h"
#include "ds-run-watch.h"

/* The loop's samples, stamped with the run's progress as it is then. */
static void
run_sink (const DsSample *sample,
          gpointer        user_data)
{
  DsSample copy = *sample;

  ds_run_emit (user_data, &copy);
}

int
ds_run_io (DsRun           *run,
           const DsIoPlan  *plan,
           DsIoStats       *ret_stats,
           GError         **error)
{
  DsIoContext ctx = {
    .target = run->target,
    .engine = run->engine_auto ? NULL : run->engine,
    .sink = run_sink,
    .sink_data = run,
    .cancel = run->cancel,
    .rng = &run->rng,
  };
  int r;

  r = ds_io_run (&ctx, plan, ret_stats, error);

  if (ret_stats->engine != NULL)
    {
      g_free (run->result->engine);
      run->result->engine = g_strdup (ret_stats->engine->name);
    }
  if (ret_stats->engine_fallback_errno != 0 && !run->noted_fallback)
    {
      ds_result_add_note (run->result,
                          _("io_uring is not available here (%s): queue depth "
                          "%u ran on the threads engine (one thread per "
                          "queued I/O)"), g_strerror (ret_stats->engine_fallback_errno),
                          plan->depth);
      run->noted_fallback = TRUE;
    }
  if (ret_stats->error_errno != 0 && run->error_errno == 0)
    {
      run->error_errno = ret_stats->error_errno;
      run->error_offset_bytes = ret_stats->error_offset_bytes;
    }
  /* A plan refused before any I/O (a region that does not fit, a depth the
   * engine cannot take) moved nothing to watch. */
  if (ret_stats->engine != NULL)
    ds_run_watch_io (run, plan, ret_stats);

  return r;
}
