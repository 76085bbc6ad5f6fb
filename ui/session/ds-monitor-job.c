/* ds-monitor-job.c: the disk monitor's sampler on a worker thread
 *
 * Reading /proc/diskstats is cheap, but attributing I/O to processes
 * reads /proc/PID/io and walks /proc/PID/fd of every busy process, which
 * can take long on a loaded machine: ds_monitor_run() does it on a worker
 * thread, and each sample is copied into a batch of the worker bridge
 * (ds-worker-bridge.c, as DsJob's), which hands it over only while the job
 * is alive and not cancelled; nothing but the bridge is shared with the
 * worker.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-monitor-job.h"
#include "ds-worker-bridge.h"

struct _DsMonitorJob
{
  GObject         parent_instance;

  DsMonitor      *monitor;        /* moved to the worker while it runs */
  DsWorkerBridge *bridge;
};

G_DEFINE_FINAL_TYPE (DsMonitorJob, ds_monitor_job, G_TYPE_OBJECT)

enum {
  SAMPLE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gpointer
batch_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) ds_monitor_sample_free);
}

/* Main thread: emits what the worker measured. */
static void
deliver (gpointer owner,
         gpointer batch)
{
  GPtrArray *samples = batch;

  for (guint i = 0; i < samples->len; i++)
    g_signal_emit (owner, signals[SAMPLE], 0, samples->pdata[i]);
}

/* Worker thread. */
static void
sample_cb (const DsMonitorSample *sample,
           gpointer               user_data)
{
  DsWorkerBridge *bridge = user_data;
  DsMonitorSample *copy = g_new (DsMonitorSample, 1);

  *copy = *sample;
  copy->devices = g_array_copy (sample->devices);
  copy->processes = g_array_copy (sample->processes);

  g_ptr_array_add (ds_worker_bridge_lock (bridge), copy);
  ds_worker_bridge_unlock (bridge);
}

typedef struct {
  DsMonitor      *monitor;
  DsWorkerBridge *bridge;
  uint64_t        interval_ns;
  guint           count;
} RunData;

static void
run_data_free (RunData *data)
{
  g_clear_pointer (&data->monitor, ds_monitor_free);
  g_clear_pointer (&data->bridge, ds_worker_bridge_unref);
  g_free (data);
}

static void
run_worker (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  RunData *data = task_data;
  GError *error = NULL;
  int r;

  r = ds_monitor_run (data->monitor, data->interval_ns, data->count,
                      ds_worker_bridge_get_cancel_flag (data->bridge),
                      sample_cb, data->bridge, &error);
  ds_worker_bridge_end (data->bridge);

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

  ds_worker_bridge_begin (self->bridge);

  data = g_new0 (RunData, 1);
  data->monitor = g_steal_pointer (&self->monitor);
  data->bridge = ds_worker_bridge_ref (self->bridge);
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
  ds_worker_bridge_flush (self->bridge);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
ds_monitor_job_cancel (DsMonitorJob *self)
{
  g_return_if_fail (DS_IS_MONITOR_JOB (self));

  /* Samples still on their way are dropped. */
  ds_worker_bridge_cancel (self->bridge);
}

void
ds_monitor_job_cancel_and_wait (DsMonitorJob *self)
{
  g_return_if_fail (DS_IS_MONITOR_JOB (self));

  ds_monitor_job_cancel (self);
  ds_worker_bridge_wait (self->bridge);
}

gboolean
ds_monitor_job_is_running (DsMonitorJob *self)
{
  g_return_val_if_fail (DS_IS_MONITOR_JOB (self), FALSE);

  return ds_worker_bridge_is_running (self->bridge);
}

static void
ds_monitor_job_dispose (GObject *object)
{
  DsMonitorJob *self = (DsMonitorJob *) object;

  /* The worker holds its own references: told to stop, it ends alone. */
  if (self->bridge != NULL)
    ds_worker_bridge_stop (self->bridge);

  G_OBJECT_CLASS (ds_monitor_job_parent_class)->dispose (object);
}

static void
ds_monitor_job_finalize (GObject *object)
{
  DsMonitorJob *self = (DsMonitorJob *) object;

  g_clear_pointer (&self->monitor, ds_monitor_free);
  g_clear_pointer (&self->bridge, ds_worker_bridge_unref);

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
  self->bridge = ds_worker_bridge_new (self, 0, "[diskscope] monitor sample", batch_new,
                                       (GDestroyNotify) g_ptr_array_unref, deliver);
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
