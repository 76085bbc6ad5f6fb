/* ds-run.c: run one benchmark spec (the I/O loop is in io/ds-io-loop.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "ds-clock.h"
#include "ds-error.h"
#include "ds-run.h"
#include "ds-run-watch.h"

/* ---- the run context ---------------------------------------------------- */

gboolean
ds_run_cancelled (DsRun *run)
{
  return run->cancel != NULL && g_atomic_int_get (run->cancel) != 0;
}

int
ds_run_check_cancelled (DsRun   *run,
                        GError **error)
{
  return ds_check_cancelled (run->cancel, error);
}

gboolean
ds_run_ok (DsRun   *run,
           int      rc,
           GError **error)
{
  if (error != NULL && *error != NULL)
    return FALSE;
  if (rc >= 0)
    return TRUE;

  ds_set_error_from_errno (error, rc, run->spec->target_path);
  return FALSE;
}

void
ds_run_set_progress (DsRun  *run,
                     double  progress)
{
  run->progress = CLAMP (progress, 0.0, 1.0);
}

void
ds_run_emit (DsRun    *run,
             DsSample *sample)
{
  sample->progress = run->progress;
  if (run->sink != NULL)
    run->sink (sample, run->sink_data);
}

/* ---- ds_run() ----------------------------------------------------------- */

/* The open of the target waits for polkit: the front end hears it as a
 * DS_SAMPLE_NOTICE, in order with the samples. */
static void
notice_sink (const char *message,
             gpointer    user_data)
{
  DsSample notice = { .kind = DS_SAMPLE_NOTICE, .name = message };

  ds_run_emit (user_data, &notice);
}

DsResult *
ds_run (const DsBenchSpec *spec,
        DsSinkFunc         sink,
        gpointer           sink_data,
        const gint        *cancel)
{
  DsRunOptions options = { .sink = sink, .sink_data = sink_data, .cancel = cancel };

  return ds_run_full (spec, &options);
}

/* Before anything opens: a kind that exists, a spec that holds (unless the
 * caller checked it) and an engine that runs here, which run->engine then
 * names (NULL for auto).  FALSE with @error and *ret_errno set. */
static gboolean
check_spec (const DsBenchOps    *ops,
            const DsBenchSpec   *spec,
            const DsRunOptions  *options,
            DsRun               *run,
            int                 *ret_errno,
            GError             **error)
{
  *ret_errno = 0;

  /* Every kind in the table has a run(): only a kind out of range ends
   * here. */
  if (ops == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("unknown test kind %d"), (int) spec->kind);
      return FALSE;
    }

  if (!options->validated && !ds_bench_spec_validate (spec, error))
    return FALSE;

  run->engine_auto = spec->engine == NULL || strcmp (spec->engine, "auto") == 0;
  if (!run->engine_auto)
    run->engine = ds_engine_lookup (spec->engine);

  if (run->engine == &ds_engine_uring)
    {
      int why = 0;

      if (!ds_engine_uring_available (&why))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                       _("io_uring is not available here (%s): use the "
                       "threads engine, or auto"), g_strerror (why));
          *ret_errno = why;
          return FALSE;
        }
    }

  return TRUE;
}

/* Runs the kind and records how it ended. */
static void
run_kind (const DsBenchOps  *ops,
          DsRun             *run,
          GError           **error)
{
  DsResult *result = run->result;

  if (!ops->run (run, error))
    {
      /* A kind that failed without saying why still fails, with a word. */
      if (*error == NULL)
        g_set_error (error, DS_ERROR, DS_ERROR_FAILED, _("the %s test failed"), ops->name);
      if (g_error_matches (*error, DS_ERROR, DS_ERROR_CANCELLED) || ds_run_cancelled (run))
        result->cancelled = TRUE;
      ds_result_set_error (result, *error, run->error_errno, run->error_offset_bytes);
    }
  else
    {
      result->complete = TRUE;
      ds_run_set_progress (run, 1.0);
    }
}

DsResult *
ds_run_full (const DsBenchSpec  *spec,
             const DsRunOptions *options)
{
  g_autoptr (GError) error = NULL;
  const DsBenchOps *ops = ds_bench_get (spec->kind);
  DsResult *result = ds_result_new (spec);
  DsRun run = {
    .spec = &result->spec,
    .result = result,
    .sink = options->sink,
    .sink_data = options->sink_data,
    .cancel = options->cancel,
    .access = options->access,
    .error_offset_bytes = -1,
  };
  int check_errno;

  run.access.cancel = options->cancel;
  run.access.notice = notice_sink;
  run.access.notice_data = &run;

  /* The result keeps the seed used, drawn or given: --seed with it
   * repeats the run's offsets and data. */
  result->spec.seed = spec->seed != 0 ? spec->seed : (ds_clock_ns () ^ (uint64_t) getpid ()) | 1;
  ds_rng_seed (&run.rng, result->spec.seed);

  if (!check_spec (ops, spec, options, &run, &check_errno, &error))
    {
      ds_result_set_error (result, error, check_errno, -1);
      return result;
    }

  /* A workload whose pattern writes is a write test: same gate. */
  result->spec.write = ds_bench_spec_is_write_test (spec);
  /* Only this run's gate confirms a write, not a spec loaded from a file. */
  result->spec.write_confirmed = FALSE;

  /* The environment, and /proc/diskstats, before the first byte. */
  ds_run_watch_start (&run);

  if (ops->opens_target)
    {
      if (!ds_run_open_target (&run, &error))
        {
          if (ds_run_cancelled (&run))
            result->cancelled = TRUE;
          ds_result_set_error (result, error, run.error_errno, run.error_offset_bytes);
          ds_run_watch_finish (&run);
          g_clear_pointer (&run.target, ds_target_free);
          return result;
        }
    }
  else
    {
      result->target.path = g_strdup (spec->target_path);
    }

  run_kind (ops, &run, &error);

  ds_run_watch_finish (&run);
  if (ops->opens_target)
    g_clear_pointer (&run.target, ds_target_free);

  return result;
}
