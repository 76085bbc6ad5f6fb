/* test-job.c: DsJob, the bridge from the run's worker thread to the main loop
 *
 * Unit suite: no root, no display.  The target is a regular file of random
 * data in the scratch folder (a real filesystem that takes O_DIRECT), and
 * a GMainLoop waits for what the job delivers.  Covers:
 *  - samples arrive on the thread that runs the main loop, never on the
 *    worker, and a finished job has delivered every one of them before its
 *    callback gets the result (each transfer point and each access);
 *  - cancelling joins the worker: ds_job_cancel_and_wait() returns with
 *    the worker gone, promptly, and no sample arrives after the cancel;
 *    the callback still gets the partial result, marked cancelled.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <stdio.h>

#include "ds-bench-transfer.h"
#include "ds-job.h"
#include "ds-test-util.h"

#define MiB (UINT64_C (1) << 20)

typedef struct {
  GMainLoop *loop;
  GThread   *main_thread;
  guint      n_batches;
  guint      n_off_thread;     /* batches delivered on another thread */
  guint      n_points;
  guint      n_accesses;
  guint      n_after_cancel;
  gboolean   cancelled;
  gboolean   done;
  DsResult  *result;
  GError    *error;
} Watch;

static void
samples_cb (DsJob  *job,
            GArray *samples,
            Watch  *watch)
{
  watch->n_batches++;
  if (g_thread_self () != watch->main_thread)
    watch->n_off_thread++;
  if (watch->cancelled)
    watch->n_after_cancel += samples->len;

  for (guint i = 0; i < samples->len; i++)
    {
      const DsSample *sample = &g_array_index (samples, DsSample, i);

      if (sample->kind == DS_SAMPLE_POINT)
        watch->n_points++;
      else if (sample->kind == DS_SAMPLE_ACCESS)
        watch->n_accesses++;
    }

  /* The first batch is what the cancel test waits for. */
  if (watch->n_batches == 1)
    g_main_loop_quit (watch->loop);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Watch *watch = user_data;

  watch->result = ds_job_run_finish (DS_JOB (object), result, &watch->error);
  watch->done = TRUE;
  g_main_loop_quit (watch->loop);
}

static gboolean
timeout_cb (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

/* Runs the loop until something quits it, or @timeout_ms. */
static void
run_loop (Watch *watch,
          guint  timeout_ms)
{
  g_autoptr(GSource) timeout = g_timeout_source_new (timeout_ms);

  g_source_set_callback (timeout, timeout_cb, watch->loop, NULL);
  g_source_attach (timeout, NULL);
  g_main_loop_run (watch->loop);
  g_source_destroy (timeout);
}

static void
watch_init (Watch *watch)
{
  *watch = (Watch) {
    .loop = g_main_loop_new (NULL, FALSE),
    .main_thread = g_thread_self (),
  };
}

static void
watch_clear (Watch *watch)
{
  g_clear_pointer (&watch->loop, g_main_loop_unref);
  g_clear_pointer (&watch->result, ds_result_free);
  g_clear_error (&watch->error);
}

static DsJob *
new_job (const char *path,
         unsigned    accuracy)
{
  DsBenchSpec spec;
  DsJob *job;

  ds_bench_spec_init (&spec, DS_BENCH_TRANSFER);
  spec.target_path = g_strdup (path);
  ds_bench_spec_set_accuracy (&spec, accuracy);
  job = ds_job_new (&spec);
  ds_bench_spec_clear (&spec);

  return job;
}

START_TEST (test_samples_on_main_thread_all_delivered)
{
  g_autofree char *path = ds_test_make_file ("job.img", 16 * MiB, 1);
  g_autoptr(DsJob) job = new_job (path, 1);
  const DsTransferData *data;
  Watch watch;

  watch_init (&watch);
  g_signal_connect (job, "samples", G_CALLBACK (samples_cb), &watch);
  ds_job_run_async (job, NULL, done_cb, &watch);
  ck_assert (ds_job_is_running (job));

  while (!watch.done)
    {
      guint batches = watch.n_batches;

      run_loop (&watch, 60000);
      ck_assert_msg (watch.done || watch.n_batches > batches, "the job went quiet");
    }

  ck_assert_msg (watch.result != NULL, "%s", watch.error ? watch.error->message : "no result");
  ck_assert_msg (watch.result->error == NULL, "%s", watch.result->error->message);
  ck_assert (watch.result->complete);
  ck_assert (!ds_job_is_running (job));

  /* Batches, not one signal per sample, and all on this thread. */
  ck_assert_uint_ge (watch.n_batches, 1);
  ck_assert_uint_lt (watch.n_batches, watch.n_points + watch.n_accesses);
  ck_assert_uint_eq (watch.n_off_thread, 0);

  /* Everything the worker measured reached the main thread before the
   * callback, down to the last access. */
  data = watch.result->data;
  ck_assert_uint_eq (watch.n_points, DS_BENCH_TRANSFER_POINTS);
  ck_assert_uint_eq (data->read.points->len, DS_BENCH_TRANSFER_POINTS);
  ck_assert_uint_gt (data->read.access->len, 0);
  ck_assert_uint_eq (watch.n_accesses, data->read.access->len);

  watch_clear (&watch);
}
END_TEST

START_TEST (test_cancel_joins_worker)
{
  g_autofree char *path = ds_test_make_file ("job.img", 16 * MiB, 2);
  /* Accuracy 5: the access-time phase alone takes 8 s. */
  g_autoptr(DsJob) job = new_job (path, 5);
  gint64 start, waited_us;
  Watch watch;

  watch_init (&watch);
  g_signal_connect (job, "samples", G_CALLBACK (samples_cb), &watch);
  ds_job_run_async (job, NULL, done_cb, &watch);

  run_loop (&watch, 30000);
  ck_assert_msg (watch.n_batches >= 1, "no samples within 30 s");
  ck_assert_msg (!watch.done, "the run ended before it could be cancelled");

  ck_assert (ds_job_is_running (job));
  start = g_get_monotonic_time ();
  watch.cancelled = TRUE;
  ds_job_cancel_and_wait (job);
  waited_us = g_get_monotonic_time () - start;
  printf ("# cancel_and_wait returned after %.1f ms\n", waited_us / 1000.0);

  /* Joined: the worker has returned from ds_run(). */
  ck_assert (!ds_job_is_running (job));
  ck_assert_msg (waited_us < 2 * G_USEC_PER_SEC, "joining took %.0f ms", waited_us / 1000.0);

  /* The callback still comes, with what was measured, marked cancelled;
   * nothing is delivered after the cancel. */
  while (!watch.done)
    run_loop (&watch, 10000);
  ck_assert_msg (watch.result != NULL, "%s", watch.error ? watch.error->message : "no result");
  ck_assert (watch.result->cancelled);
  ck_assert (!watch.result->complete);
  ck_assert_uint_eq (watch.n_after_cancel, 0);

  watch_clear (&watch);
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  ds_test_init ("job");

  suite = suite_create ("job");
  tc = tcase_create ("job");
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_samples_on_main_thread_all_delivered);
  tcase_add_test (tc, test_cancel_joins_worker);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
