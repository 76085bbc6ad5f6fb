/* ds-job.c: one benchmark run on a worker thread, bridged to the main loop
 *
 * The worker only fills a buffer: the sink (called by the core on the
 * worker thread) copies each sample into a pending array under a mutex and
 * schedules at most one main-loop source at a time.  That source, on the
 * main thread, checks that the job is still alive and current (weak ref +
 * generation) before it emits anything.  No GTK, no signal, no list model is
 * touched off the main thread.
 *
 * What a sample points at (a series interval, a workload step's figures)
 * is valid only during the sink call: the sink copies it beside the
 * pending samples, and the flush points each sample at its copy, which
 * lives until the "samples" handlers have returned.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-mark.h"
#include "ds-interval.h"
#include "ds-job.h"
#include "ds-run.h"

/* Shared by the job (main thread) and the worker; reference counted with
 * g_atomic_rc_box so either side may go first. */
typedef struct {
  GMutex        mutex;
  GCond         cond;
  GArray       *pending;          /* DsSample */
  GArray       *intervals;        /* DsIntervalPoint, of the pending samples */
  GPtrArray    *steps;            /* DsMarkStep copies, likewise */
  GPtrArray    *histograms;       /* DsIntervalSum copies, likewise */
  gboolean      flush_scheduled;
  gboolean      running;          /* the worker is inside ds_run() */
  GMainContext *context;          /* where flushes run */
  GWeakRef      job;
  guint         generation;       /* the job's generation when started */
  gint          cancel;           /* the core's atomic flag */
} JobShared;

struct _DsJob
{
  GObject       parent_instance;

  DsBenchSpec   spec;
  JobShared    *shared;
  GCancellable *cancellable;
  gulong        cancelled_id;
  guint         generation;
  double        progress;
};

G_DEFINE_FINAL_TYPE (DsJob, ds_job, G_TYPE_OBJECT)

enum {
  SAMPLES,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
job_shared_clear (gpointer data)
{
  JobShared *shared = data;

  g_mutex_clear (&shared->mutex);
  g_cond_clear (&shared->cond);
  g_clear_pointer (&shared->pending, g_array_unref);
  g_clear_pointer (&shared->intervals, g_array_unref);
  g_clear_pointer (&shared->steps, g_ptr_array_unref);
  g_clear_pointer (&shared->histograms, g_ptr_array_unref);
  g_clear_pointer (&shared->context, g_main_context_unref);
  g_weak_ref_clear (&shared->job);
}

static void
job_shared_unref (JobShared *shared)
{
  g_atomic_rc_box_release_full (shared, job_shared_clear);
}

static JobShared *
job_shared_new (DsJob *job)
{
  JobShared *shared = g_atomic_rc_box_new0 (JobShared);

  g_mutex_init (&shared->mutex);
  g_cond_init (&shared->cond);
  shared->pending = g_array_sized_new (FALSE, FALSE, sizeof (DsSample), 256);
  shared->intervals = g_array_new (FALSE, FALSE, sizeof (DsIntervalPoint));
  shared->steps = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_mark_step_free);
  shared->histograms = g_ptr_array_new_with_free_func (g_free);
  shared->context = g_main_context_ref_thread_default ();
  g_weak_ref_init (&shared->job, job);

  return shared;
}

/* Main thread: hands what is pending to whoever listens. */
static void
ds_job_flush (DsJob *self)
{
  JobShared *shared = self->shared;
  g_autoptr(GArray) samples = NULL;
  g_autoptr(GArray) intervals = NULL;
  g_autoptr(GPtrArray) steps = NULL;
  g_autoptr(GPtrArray) histograms = NULL;
  guint next_interval = 0, next_step = 0, next_histogram = 0;

  g_mutex_lock (&shared->mutex);
  shared->flush_scheduled = FALSE;
  if (shared->pending->len > 0)
    {
      samples = g_steal_pointer (&shared->pending);
      shared->pending = g_array_sized_new (FALSE, FALSE, sizeof (DsSample), 256);
      intervals = g_steal_pointer (&shared->intervals);
      shared->intervals = g_array_new (FALSE, FALSE, sizeof (DsIntervalPoint));
      steps = g_steal_pointer (&shared->steps);
      shared->steps = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_mark_step_free);
      histograms = g_steal_pointer (&shared->histograms);
      shared->histograms = g_ptr_array_new_with_free_func (g_free);
    }
  g_mutex_unlock (&shared->mutex);

  if (samples == NULL || shared->generation != self->generation)
    return;

  /* The copies, in the order the samples came. */
  for (guint i = 0; i < samples->len; i++)
    {
      DsSample *sample = &g_array_index (samples, DsSample, i);

      if (sample->interval != NULL)
        sample->interval = &g_array_index (intervals, DsIntervalPoint, next_interval++);
      if (sample->step != NULL)
        sample->step = steps->pdata[next_step++];
      if (sample->histogram != NULL)
        sample->histogram = histograms->pdata[next_histogram++];
    }

  self->progress = g_array_index (samples, DsSample, samples->len - 1).progress;
  g_signal_emit (self, signals[SAMPLES], 0, samples);
}

static gboolean
flush_source_cb (gpointer data)
{
  JobShared *shared = data;
  g_autoptr(DsJob) job = g_weak_ref_get (&shared->job);

  if (job != NULL)
    ds_job_flush (job);
  else
    {
      /* The job is gone: drop what nobody will read. */
      g_mutex_lock (&shared->mutex);
      shared->flush_scheduled = FALSE;
      g_array_set_size (shared->pending, 0);
      g_array_set_size (shared->intervals, 0);
      g_ptr_array_set_size (shared->steps, 0);
      g_ptr_array_set_size (shared->histograms, 0);
      g_mutex_unlock (&shared->mutex);
    }

  return G_SOURCE_REMOVE;
}

/* Worker thread: called by the core for each sample.  Quick, no GTK. */
static void
job_sink (const DsSample *sample,
          gpointer        user_data)
{
  JobShared *shared = user_data;
  DsMarkStep *step;
  DsIntervalSum *histogram;
  gboolean schedule = FALSE;

  if (g_atomic_int_get (&shared->cancel))
    return;

  /* A step's figures are copied outside the lock (a step ends rarely). */
  step = sample->step != NULL ? ds_mark_step_copy (sample->step) : NULL;
  /* 9 KiB an interval (at least 100 ms): the live histogram. */
  histogram = sample->histogram != NULL ? g_memdup2 (sample->histogram, sizeof *sample->histogram) : NULL;

  g_mutex_lock (&shared->mutex);
  /* The pointers are only tested for NULL until the flush redirects them. */
  g_array_append_vals (shared->pending, sample, 1);
  if (sample->interval != NULL)
    g_array_append_vals (shared->intervals, sample->interval, 1);
  if (step != NULL)
    g_ptr_array_add (shared->steps, step);
  if (histogram != NULL)
    g_ptr_array_add (shared->histograms, histogram);
  if (!shared->flush_scheduled)
    {
      shared->flush_scheduled = TRUE;
      schedule = TRUE;
    }
  g_mutex_unlock (&shared->mutex);

  if (schedule)
    {
      g_autoptr(GSource) source = g_timeout_source_new (DS_JOB_FLUSH_INTERVAL_MS);

      g_source_set_callback (source, flush_source_cb,
                             g_atomic_rc_box_acquire (shared),
                             (GDestroyNotify) job_shared_unref);
      g_source_set_static_name (source, "[diskscope] job flush");
      g_source_attach (source, shared->context);
    }
}

static void
ds_job_run_worker (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  DsBenchSpec *spec = task_data;
  JobShared *shared = g_object_get_data (G_OBJECT (task), "ds-job-shared");
  DsResult *result;

  result = ds_run (spec, job_sink, shared, &shared->cancel);

  g_mutex_lock (&shared->mutex);
  shared->running = FALSE;
  g_cond_broadcast (&shared->cond);
  g_mutex_unlock (&shared->mutex);

  g_task_return_pointer (task, result, (GDestroyNotify) ds_result_free);
}

static void
spec_free (gpointer data)
{
  DsBenchSpec *spec = data;

  ds_bench_spec_clear (spec);
  g_free (spec);
}

static void
cancellable_cancelled_cb (GCancellable *cancellable,
                          JobShared    *shared)
{
  /* May run on any thread: only the atomic flag is touched. */
  g_atomic_int_set (&shared->cancel, 1);
}

void
ds_job_run_async (DsJob               *self,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  DsBenchSpec *spec;

  g_return_if_fail (DS_IS_JOB (self));
  g_return_if_fail (!ds_job_is_running (self));

  self->shared->running = TRUE;
  self->shared->generation = self->generation;

  if (cancellable != NULL)
    self->cancellable = g_object_ref (cancellable);
  else
    self->cancellable = g_cancellable_new ();

  self->cancelled_id =
    g_cancellable_connect (self->cancellable,
                           G_CALLBACK (cancellable_cancelled_cb),
                           g_atomic_rc_box_acquire (self->shared),
                           (GDestroyNotify) job_shared_unref);

  spec = g_new0 (DsBenchSpec, 1);
  ds_bench_spec_copy (spec, &self->spec);

  task = g_task_new (self, self->cancellable, callback, user_data);
  g_task_set_source_tag (task, ds_job_run_async);
  g_task_set_name (task, "[diskscope] run");
  /* The result is always returned, even when cancelled. */
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, spec, spec_free);
  g_object_set_data_full (G_OBJECT (task), "ds-job-shared",
                          g_atomic_rc_box_acquire (self->shared),
                          (GDestroyNotify) job_shared_unref);
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
  ds_job_flush (self);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
ds_job_cancel (DsJob *self)
{
  g_return_if_fail (DS_IS_JOB (self));

  /* A new generation: flushes still queued are dropped. */
  self->generation++;
  g_atomic_int_set (&self->shared->cancel, 1);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

void
ds_job_cancel_and_wait (DsJob *self)
{
  JobShared *shared;

  g_return_if_fail (DS_IS_JOB (self));

  ds_job_cancel (self);

  shared = self->shared;
  g_mutex_lock (&shared->mutex);
  while (shared->running)
    g_cond_wait (&shared->cond, &shared->mutex);
  g_mutex_unlock (&shared->mutex);
}

gboolean
ds_job_is_running (DsJob *self)
{
  gboolean running;

  g_return_val_if_fail (DS_IS_JOB (self), FALSE);

  g_mutex_lock (&self->shared->mutex);
  running = self->shared->running;
  g_mutex_unlock (&self->shared->mutex);

  return running;
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
  if (self->shared != NULL)
    g_atomic_int_set (&self->shared->cancel, 1);

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
  g_clear_pointer (&self->shared, job_shared_unref);

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
}

static void
ds_job_init (DsJob *self)
{
  self->shared = job_shared_new (self);
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
