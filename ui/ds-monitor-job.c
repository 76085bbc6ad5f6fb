/* ds-monitor-job.c: the disk monitor's sampler on a worker thread
 *
 * Reading /proc/diskstats is cheap, but attributing I/O to processes
 * reads /proc/PID/io and walks /proc/PID/fd of every busy process, which
 * can take long on a loaded machine: ds_monitor_run() does it on a worker
 * thread, and each sample is copied into a queue under a mutex, with at
 * most one main-loop source scheduled to hand it over.  As in DsJob, that
 * source checks the job is still alive (weak ref) and not cancelled before
 * it emits anything; nothing but the queue is shared with the worker.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-monitor-job.h"

typedef struct {
  GMutex        mutex;
  GCond         cond;
  GPtrArray    *pending;          /* DsMonitorSample */
  gboolean      flush_scheduled;
  gboolean      running;          /* the worker is inside ds_monitor_run() */
  GMainContext *context;
  GWeakRef      job;
  gint          cancel;           /* the core's atomic flag */
} MonitorShared;

struct _DsMonitorJob
{
  GObject        parent_instance;

  DsMonitor     *monitor;         /* moved to the worker while it runs */
  MonitorShared *shared;
};

G_DEFINE_FINAL_TYPE (DsMonitorJob, ds_monitor_job, G_TYPE_OBJECT)

enum {
  SAMPLE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
shared_clear (gpointer data)
{
  MonitorShared *shared = data;

  g_mutex_clear (&shared->mutex);
  g_cond_clear (&shared->cond);
  g_clear_pointer (&shared->pending, g_ptr_array_unref);
  g_clear_pointer (&shared->context, g_main_context_unref);
  g_weak_ref_clear (&shared->job);
}

static void
shared_unref (MonitorShared *shared)
{
  g_atomic_rc_box_release_full (shared, shared_clear);
}

/* Main thread: emits what the worker measured, unless cancelled. */
static void
ds_monitor_job_flush (DsMonitorJob *self)
{
  MonitorShared *shared = self->shared;
  g_autoptr(GPtrArray) samples = NULL;

  g_mutex_lock (&shared->mutex);
  shared->flush_scheduled = FALSE;
  samples = g_steal_pointer (&shared->pending);
  shared->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_monitor_sample_free);
  g_mutex_unlock (&shared->mutex);

  for (guint i = 0; i < samples->len && !g_atomic_int_get (&shared->cancel); i++)
    g_signal_emit (self, signals[SAMPLE], 0, samples->pdata[i]);
}

static gboolean
flush_cb (gpointer data)
{
  MonitorShared *shared = data;
  g_autoptr(DsMonitorJob) job = g_weak_ref_get (&shared->job);

  if (job != NULL)
    ds_monitor_job_flush (job);

  return G_SOURCE_REMOVE;
}

/* Worker thread. */
static void
sample_cb (const DsMonitorSample *sample,
           gpointer               user_data)
{
  MonitorShared *shared = user_data;
  DsMonitorSample *copy = g_new (DsMonitorSample, 1);
  gboolean schedule;

  *copy = *sample;
  copy->devices = g_array_copy (sample->devices);
  copy->processes = g_array_copy (sample->processes);

  g_mutex_lock (&shared->mutex);
  g_ptr_array_add (shared->pending, copy);
  schedule = !shared->flush_scheduled;
  shared->flush_scheduled = TRUE;
  g_mutex_unlock (&shared->mutex);

  if (schedule)
    {
      g_autoptr(GSource) source = g_idle_source_new ();

      g_source_set_callback (source, flush_cb, g_atomic_rc_box_acquire (shared),
                             (GDestroyNotify) shared_unref);
      g_source_set_static_name (source, "[diskscope] monitor sample");
      g_source_attach (source, shared->context);
    }
}

typedef struct {
  DsMonitor     *monitor;
  MonitorShared *shared;
  uint64_t       interval_ns;
  guint          count;
} RunData;

static void
run_data_free (RunData *data)
{
  g_clear_pointer (&data->monitor, ds_monitor_free);
  g_clear_pointer (&data->shared, shared_unref);
  g_free (data);
}

static void
run_worker (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  RunData *data = task_data;
  MonitorShared *shared = data->shared;
  GError *error = NULL;
  int r;

  r = ds_monitor_run (data->monitor, data->interval_ns, data->count, &shared->cancel,
                      sample_cb, shared, &error);

  g_mutex_lock (&shared->mutex);
  shared->running = FALSE;
  g_cond_broadcast (&shared->cond);
  g_mutex_unlock (&shared->mutex);

  if (r < 0)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
ds_monitor_job_run_async (DsMonitorJob        *self,
                          uint64_t             interval_ns,
                          guint                count,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  RunData *data;

  g_return_if_fail (DS_IS_MONITOR_JOB (self));
  g_return_if_fail (self->monitor != NULL);

  self->shared->running = TRUE;

  data = g_new0 (RunData, 1);
  data->monitor = g_steal_pointer (&self->monitor);
  data->shared = g_atomic_rc_box_acquire (self->shared);
  data->interval_ns = interval_ns;
  data->count = count;

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, ds_monitor_job_run_async);
  g_task_set_name (task, "[diskscope] disk monitor");
  g_task_set_task_data (task, data, (GDestroyNotify) run_data_free);
  g_task_run_in_thread (task, run_worker);
}

gboolean
ds_monitor_job_run_finish (DsMonitorJob  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (DS_IS_MONITOR_JOB (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  /* The last sample may still wait in the queue. */
  ds_monitor_job_flush (self);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
ds_monitor_job_cancel (DsMonitorJob *self)
{
  g_return_if_fail (DS_IS_MONITOR_JOB (self));

  g_atomic_int_set (&self->shared->cancel, 1);
}

void
ds_monitor_job_cancel_and_wait (DsMonitorJob *self)
{
  MonitorShared *shared;

  g_return_if_fail (DS_IS_MONITOR_JOB (self));

  ds_monitor_job_cancel (self);

  shared = self->shared;
  g_mutex_lock (&shared->mutex);
  while (shared->running)
    g_cond_wait (&shared->cond, &shared->mutex);
  g_mutex_unlock (&shared->mutex);
}

gboolean
ds_monitor_job_is_running (DsMonitorJob *self)
{
  gboolean running;

  g_return_val_if_fail (DS_IS_MONITOR_JOB (self), FALSE);

  g_mutex_lock (&self->shared->mutex);
  running = self->shared->running;
  g_mutex_unlock (&self->shared->mutex);

  return running;
}

static void
ds_monitor_job_dispose (GObject *object)
{
  DsMonitorJob *self = (DsMonitorJob *) object;

  /* The worker holds its own references: told to stop, it ends alone. */
  if (self->shared != NULL)
    g_atomic_int_set (&self->shared->cancel, 1);

  G_OBJECT_CLASS (ds_monitor_job_parent_class)->dispose (object);
}

static void
ds_monitor_job_finalize (GObject *object)
{
  DsMonitorJob *self = (DsMonitorJob *) object;

  g_clear_pointer (&self->monitor, ds_monitor_free);
  g_clear_pointer (&self->shared, shared_unref);

  G_OBJECT_CLASS (ds_monitor_job_parent_class)->finalize (object);
}

static void
ds_monitor_job_class_init (DsMonitorJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ds_monitor_job_dispose;
  object_class->finalize = ds_monitor_job_finalize;

  /**
   * DsMonitorJob::sample:
   * @sample: (type gpointer): the const DsMonitorSample
   *
   * On the main thread, once per interval.
   */
  signals[SAMPLE] =
    g_signal_new ("sample", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
ds_monitor_job_init (DsMonitorJob *self)
{
  MonitorShared *shared = g_atomic_rc_box_new0 (MonitorShared);

  g_mutex_init (&shared->mutex);
  g_cond_init (&shared->cond);
  shared->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_monitor_sample_free);
  shared->context = g_main_context_ref_thread_default ();
  g_weak_ref_init (&shared->job, self);
  self->shared = shared;
}

DsMonitorJob *
ds_monitor_job_new (const char  *device,
                    GError     **error)
{
  g_autoptr(DsMonitorJob) self = g_object_new (DS_TYPE_MONITOR_JOB, NULL);

  self->monitor = ds_monitor_new (device, error);
  if (self->monitor == NULL)
    return NULL;

  return g_steal_pointer (&self);
}
