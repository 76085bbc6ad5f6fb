/* ds-sink-cost.c: the figures behind tests/bench/sink-cost
 *
 *   ds-sink-cost DEVICE [ROUNDS] [ROW_MS] [random-access|benchmark]
 *
 * Does delivering samples cost the timed I/O anything?  Runs Random Access
 * (rows of ROW_MS) and the Benchmark (accuracy 1) on DEVICE (or only the
 * one named), ROUNDS times, alternating two ways of receiving samples:
 *   bare  ds_run() with no sink at all;
 *   job   DsJob on a worker thread with a main loop on this one, the way
 *         the window runs a test (its sink takes a mutex per sample and
 *         schedules main-loop flushes).
 * Prints one "key=value" line per figure and run (mode, round, figure), so
 * the two modes can be compared on the same device in the same session.
 * Needs no display (DsJob is a plain GObject).  Exit 0 unless a run failed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "ds-bench-random-access.h"
#include "ds-bench-transfer.h"
#include "ds-clock.h"
#include "ds-job.h"
#include "ds-run.h"

typedef struct {
  GMainLoop *loop;
  DsResult  *result;
  guint      samples;
} JobWait;

static void
samples_cb (DsJob  *job,
            GArray *samples,
            JobWait *wait)
{
  wait->samples += samples->len;
}

static void
finished_cb (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  JobWait *wait = user_data;

  wait->result = ds_job_run_finish (DS_JOB (source), res, NULL);
  g_main_loop_quit (wait->loop);
}

static DsResult *
run_spec (const DsBenchSpec *spec,
          gboolean           job)
{
  g_autoptr (DsJob) j = NULL;
  JobWait wait = { 0 };
  gint cancel = 0;

  if (!job)
    return ds_run (spec, NULL, NULL, &cancel);

  j = ds_job_new (spec);
  wait.loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (j, "samples", G_CALLBACK (samples_cb), &wait);
  ds_job_run_async (j, NULL, finished_cb, &wait);
  g_main_loop_run (wait.loop);
  g_main_loop_unref (wait.loop);

  return wait.result;
}

static gboolean
check (const char     *what,
       const DsResult *result)
{
  if (result != NULL && result->error == NULL)
    return TRUE;

  fprintf (stderr, "ds-sink-cost: %s failed: %s\n", what,
           result != NULL && result->error != NULL ? result->error->message : "no result");
  return FALSE;
}

static int
random_access (const char *device,
               uint64_t    row_ms,
               gboolean    job,
               const char *name,
               unsigned    round)
{
  g_autoptr (DsResult) r = NULL;
  const DsRandomAccessData *d;
  DsBenchSpec spec;

  ds_bench_spec_init (&spec, DS_BENCH_RANDOM_ACCESS);
  spec.target_path = g_strdup (device);
  spec.duration_ns = row_ms * DS_NS_PER_MSEC;
  r = run_spec (&spec, job);
  ds_bench_spec_clear (&spec);
  if (!check ("random-access", r))
    return 1;

  d = r->data;
  for (guint i = 0; i < d->read.rows->len; i++)
    {
      const DsRandomAccessRow *row = &g_array_index (d->read.rows, DsRandomAccessRow, i);
      g_autofree char *title = ds_random_access_row_title (row);

      g_strdelimit (title, " ", '_');
      printf ("%s.%u.ra%u_%s_iops=%.0f\n", name, round, i, title, row->iops);
    }

  return 0;
}

static int
benchmark (const char *device,
           gboolean    job,
           const char *name,
           unsigned    round)
{
  g_autoptr (DsResult) r = NULL;
  const DsTransferData *d;
  DsBenchSpec spec;

  ds_bench_spec_init (&spec, DS_BENCH_TRANSFER);
  spec.target_path = g_strdup (device);
  spec.accuracy = 1;
  r = run_spec (&spec, job);
  ds_bench_spec_clear (&spec);
  if (!check ("benchmark", r))
    return 1;

  d = r->data;
  printf ("%s.%u.bench_avg_mb_s=%.1f\n", name, round, d->read.avg_bytes_per_s / 1e6);
  printf ("%s.%u.bench_access_us=%.2f\n", name, round, d->read.access_time_s * 1e6);
  printf ("%s.%u.bench_access_points=%u\n", name, round, d->read.access->len);
  printf ("%s.%u.bench_burst_mb_s=%.1f\n", name, round, d->read.burst_bytes_per_s / 1e6);

  return 0;
}

int
main (int    argc,
      char **argv)
{
  const char *device;
  unsigned rounds;
  uint64_t row_ms;
  const char *only;
  int status = 0;

  if (argc < 2)
    {
      fprintf (stderr, "usage: ds-sink-cost DEVICE [ROUNDS] [ROW_MS] "
               "[random-access|benchmark]\n");
      return 2;
    }
  device = argv[1];
  rounds = argc > 2 ? (unsigned) atoi (argv[2]) : 3;
  row_ms = argc > 3 ? (uint64_t) atoi (argv[3]) : 3000;
  only = argc > 4 ? argv[4] : NULL;

  for (unsigned round = 1; round <= rounds; round++)
    for (unsigned mode = 0; mode < 2; mode++)
      {
        const char *name = mode == 0 ? "bare" : "job";

        if (only == NULL || g_str_equal (only, "random-access"))
          status |= random_access (device, row_ms, mode == 1, name, round);
        if (only == NULL || g_str_equal (only, "benchmark"))
          status |= benchmark (device, mode == 1, name, round);
        fflush (stdout);
      }

  return status;
}
