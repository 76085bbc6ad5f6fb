/* ds-job.c: one benchmark run on a worker thread, bridged to the main loop
 *
 * The worker only fills a buffer: the sink (called by the core on the
 * worker thread) copies each sample into a batch of the worker bridge
 * (ds-worker-bridge.c), which hands it to the main thread only while the
 * job is alive and the run not cancelled.  No GTK, no signal, no list
 * model is touched off the main thread.
 *
 * What a sample points at (a series interval, a workload step's figures,
 * a sweep level's, a cache probe set's)
 * is valid only during the sink call: the sink copies it beside the
 * pending samples, and the flush points each sample at its copy, which
 * lives until the "samples" handlers have returned.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-bench.h"
#include "ds-interval.h"
#include "ds-job.h"
#include "ds-run.h"
#include "ds-worker-bridge.h"

/* What the worker measured since the last delivery. */
typedef struct {
  GArray    *samples;          /* DsSample */
  GArray    *intervals;        /* DsIntervalPoint, of the samples */
  GPtrArray *details;          /* the kind's detail_copy()s, likewise */
  GPtrArray *histograms;       /* DsIntervalSum copies, likewise */
} JobBatch;

/* What the worker thread runs: its own copy of the spec, the bridge to
 * the main thread and the kind (for its details). */
typedef struct {
  DsBenchSpec       spec;
  gboolean          checked;
  DsWorkerBridge   *bridge;
  const DsBenchOps *ops;
} JobRun;

struct _DsJob
{
  GObject         parent_instance;

  DsBenchSpec     spec;
  gboolean        checked;   /* ds_job_new_checked() */
  DsWorkerBridge *bridge;
  GCancellable   *cancellable;
  gulong          cancelled_id;
  double          progress;
};

G_DEFINE_FINAL_TYPE (DsJob, ds_job, G_TYPE_OBJECT)

enum {
  SAMPLES,
  WAITING,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gpointer
job_batch_new (void)
{
  JobBatch *batch = g_new0 (JobBatch, 1);

  batch->samples = g_array_sized_new (FALSE, FALSE, sizeof (DsSample), 256);
  batch->intervals = g_array_new (FALSE, FALSE, sizeof (DsIntervalPoint));
  /* Its free function is the kind's, set with the first detail (a job
   * runs one kind). */
  batch->details = g_ptr_array_new ();
  batch->histograms = g_ptr_array_new_with_free_func (g_free);
  return batch;
}

static void
job_batch_free (gpointer data)
{
  JobBatch *batch = data;

  g_array_unref (batch->samples);
  g_array_unref (batch->intervals);
  g_ptr_array_unref (batch->details);
  g_ptr_array_unref (batch->histograms);
  g_free (batch);
}

/* Main thread: hands a batch to whoever listens. */
static void
job_deliver (gpointer owner,
             gpointer data)
{
  DsJob *self = owner;
  JobBatch *batch = data;
  GArray *samples = batch->samples;
  guint next_interval = 0, next_detail = 0;
  guint next_histogram = 0;

  if (samples->len == 0)
    return;

  /* The copies, in the order the samples came. */
  for (guint i = 0; i < samples->len; i++)
    {
      DsSample *sample = &g_array_index (samples, DsSample, i);

      if (sample->interval != NULL)
        sample->interval = &g_array_index (batch->intervals, DsIntervalPoint, next_interval++);
      if (sample->detail != NULL)
        sample->detail = batch->details->pdata[next_detail++];
      if (sample->histogram != NULL)
        sample->histogram = batch->histograms->pdata[next_histogram++];
    }

  self->progress = g_array_index (samples, DsSample, samples->len - 1).progress;
  g_signal_emit (self, signals[SAMPLES], 0, samples);
}

/* Main thread: the run waits for something outside it (@message says
 * what), or the wait is over (NULL). */
static void
job_waiting_news (gpointer owner,
                  gpointer message)
{
  g_signal_emit (owner, signals[WAITING], 0, message);
}

/* Worker thread: called by the core for each sample.  Quick, no GTK. */
static void
job_sink (const DsSample *sample,
          gpointer        user_data)
{
  JobRun *run = user_data;
  DsWorkerBridge *bridge = run->bridge;
  gpointer detail = NULL;
  DsIntervalSum *histogram;
  JobBatch *batch;

  if (g_atomic_int_get (ds_worker_bridge_get_cancel_flag (bridge)))
    return;
  /* The run waits (a busy device): the sentence is the news, in order
   * with the samples; its text lives only during this call. */
  if (sample->kind == DS_SAMPLE_NOTICE)
    {
      ds_worker_bridge_post (bridge, job_waiting_news, g_strdup (sample->name), g_free);
      return;
    }

  /* A row's figures are copied outside the lock (a row ends rarely). */
  if (sample->detail != NULL && run->ops->detail_copy != NULL)
    detail = run->ops->detail_copy (sample->detail);
  /* 9 KiB an interval (at least 100 ms): the live histogram. */
  histogram = sample->histogram != NULL ? g_memdup2 (sample->histogram, sizeof *sample->histogram) : NULL;

  batch = ds_worker_bridge_lock (bridge);
  /* The pointers are only tested for NULL until the delivery redirects
   * them. */
  g_array_append_vals (batch->samples, sample, 1);
  if (sample->detail != NULL)
    {
      DsSample *kept = &g_array_index (batch->samples, DsSample, batch->samples->len - 1);

      /* A kind that copies nothing delivers no detail. */
      if (detail != NULL)
        {
          g_ptr_array_set_free_func (batch->details, run->ops->detail_free);
          g_ptr_array_add (batch->details, detail);
        }
      else
        kept->detail = NULL;
    }
  if (sample->interval != NULL)
    g_array_append_vals (batch->intervals, sample->interval, 1);
  if (histogram != NULL)
    g_ptr_array_add (batch->histograms, histogram);
  ds_worker_bridge_unlock (bridge);
}

static void
ds_job_run_worker (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  JobRun *run = task_data;
  DsRunOptions options = {
    .sink = job_sink,
    .sink_data = run,
    .cancel = ds_worker_bridge_get_cancel_flag (run->bridge),
    .validated = run->checked,
  };
  DsResult *result;

  result = ds_run_full (&run->spec, &options);
  ds_worker_bridge_end (run->bridge);

  g_task_return_pointer (task, result, (GDestroyNotify) ds_result_free);
}

static void
job_run_free (gpointer data)
{
  JobRun *run = data;

  ds_bench_spec_clear (&run->spec);
  ds_worker_bridge_unref (run->bridge);
  g_free (run);
}

static void
cancellable_cancelled_cb (GCancellable   *cancellable,
                          DsWorkerBridge *bridge)
{
  /* May run on any thread: only the atomic flag is touched. */
  ds_worker_bridge_stop (bridge);
}

void
ds_job_run_async (DsJob               *self,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  JobRun *run;

  g_return_if_fail (DS_IS_JOB (self));
  g_return_if_fail (!ds_job_is_running (self));

  ds_worker_bridge_begin (self->bridge);

  if (cancellable != NULL)
    self->cancellable = g_object_ref (cancellable);
  else
    self->cancellable = g_cancellable_new ();

  self->cancelled_id =
    g_cancellable_connect (self->cancellable,
                           G_CALLBACK (cancellable_cancelled_cb),
                           ds_worker_bridge_ref (self->bridge),
                           (GDestroyNotify) ds_worker_bridge_unref);

  run = g_new0 (JobRun, 1);
  ds_bench_spec_copy (&run->spec, &self->spec);
  run->checked = self->checked;
  run->bridge = ds_worker_bridge_ref (self->bridge);
  run->ops = ds_bench_get (self->spec.kind);

  task = g_task_new (self, self->cancellable, callback, user_data);
  g_task_set_source_tag (task, ds_job_run_async);
  g_task_set_name (task, "[diskscope] run");
  /* The result is always returned, even when cancelled. */
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, run, job_run_free);
  g_task_run_in_thread (task, ds_job_run_worker);
}

DsResult *
ds_job_run_finish (DsJob         *self,
                   GAsyncResult  *result,
                   GError       **error)
{
  g_return_val_if_fail (DS_IS_JOB (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ds_job_run_async, NULL);

  /* What the worker measured last still waits in the buffer. */
  ds_worker_bridge_flush (self->bridge);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
ds_job_cancel (DsJob *self)
{
  g_return_if_fail (DS_IS_JOB (self));

  /* Deliveries still queued are dropped. */
  ds_worker_bridge_cancel (self->bridge);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

void
ds_job_cancel_and_wait (DsJob *self)
{
  g_return_if_fail (DS_IS_JOB (self));

  ds_job_cancel (self);
  ds_worker_bridge_wait (self->bridge);
}

gboolean
ds_job_is_running (DsJob *self)
{
  g_return_val_if_fail (DS_IS_JOB (self), FALSE);

  return ds_worker_bridge_is_running (self->bridge);
}

const DsBenchSpec *
ds_job_get_spec (DsJob *self)
{
  g_return_val_if_fail (DS_IS_JOB (self), NULL);

  return &self->spec;
}

double
ds_job_get_progress (DsJob *self)
{
  g_return_val_if_fail (DS_IS_JOB (self), 0);

  return self->progress;
}

static void
ds_job_dispose (GObject *object)
{
  DsJob *self = (DsJob *) object;

  /* Nobody can be told about the run any more: stop it (the worker holds
   * its own references and finishes on its own). */
  if (self->bridge != NULL)
    ds_worker_bridge_stop (self->bridge);

  if (self->cancellable != NULL)
    {
      g_cancellable_disconnect (self->cancellable, self->cancelled_id);
      self->cancelled_id = 0;
    }
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (ds_job_parent_class)->dispose (object);
}

static void
ds_job_finalize (GObject *object)
{
  DsJob *self = (DsJob *) object;

  ds_bench_spec_clear (&self->spec);
  g_clear_pointer (&self->bridge, ds_worker_bridge_unref);

  G_OBJECT_CLASS (ds_job_parent_class)->finalize (object);
}

static void
ds_job_class_init (DsJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ds_job_dispose;
  object_class->finalize = ds_job_finalize;

  /**
   * DsJob::samples:
   * @samples: (element-type DsSample): a batch, oldest first
   *
   * Emitted on the main thread, about ten times a second while samples come.
   */
  signals[SAMPLES] =
    g_signal_new ("samples",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ARRAY);

  /**
   * DsJob::waiting:
   * @message: (nullable): what the run waits for, as a sentence for the
   *   user ("Waiting for permission to open /dev/sdb…": polkit may be
   *   showing a password prompt; a busy device), or NULL when the wait is
   *   over
   *
   * Emitted on the main thread.
   */
  signals[WAITING] =
    g_signal_new ("waiting",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
ds_job_init (DsJob *self)
{
  self->bridge = ds_worker_bridge_new (self, DS_JOB_FLUSH_INTERVAL_MS, "[diskscope] job flush",
                                       job_batch_new, job_batch_free, job_deliver);
}

DsJob *
ds_job_new (const DsBenchSpec *spec)
{
  DsJob *self;

  g_return_val_if_fail (spec != NULL, NULL);

  self = g_object_new (DS_TYPE_JOB, NULL);
  ds_bench_spec_copy (&self->spec, spec);

  return self;
}

DsJob *
ds_job_new_checked (const DsBenchSpec *spec)
{
  DsJob *self = ds_job_new (spec);

  if (self != NULL)
    self->checked = TRUE;

  return self;
}
