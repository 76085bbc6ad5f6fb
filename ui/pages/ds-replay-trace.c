/* ds-replay-trace.c: the Replay page's capture and profile worker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "ds-replay-trace.h"

struct _DsReplayTrace {
  char                *device;       /* NULL: profile only */
  char                *path;
  uint64_t             duration_ns;
  uint64_t             interval_ns;
  gint                 cancel;
  GThread             *thread;

  GMutex               lock;         /* guards what follows */
  DsTraceProgress      progress;
  gboolean             done;
  DsTraceProfile      *profile;
  DsTraceCaptureResult capture;
  GError              *error;
};

static void
on_progress (const DsTraceProgress *progress,
             gpointer               user_data)
{
  DsReplayTrace *job = user_data;

  g_mutex_lock (&job->lock);
  job->progress = *progress;
  g_mutex_unlock (&job->lock);
}

static gpointer
run (gpointer data)
{
  DsReplayTrace *job = data;
  DsTraceCaptureResult capture = { 0 };
  DsTraceProfile *profile = NULL;
  GError *error = NULL;
  gboolean ok = TRUE;

  if (job->device != NULL)
    {
      DsTraceCaptureSpec spec = {
        .device = job->device,
        .output = job->path,
        .duration_ns = job->duration_ns,
        .cancel = &job->cancel,
        .progress = on_progress,
        .progress_data = job,
      };

      ok = ds_trace_capture (&spec, &capture, &error);
    }
  else if (!ds_trace_file_is_capture (job->path))
    {
      /* A blktrace file or a fio iolog: into a capture file of our own. */
      g_autofree char *output = ds_replay_trace_new_path (job->path, &error);
      const char *paths[] = { job->path, NULL };
      DsTraceHeader header = { 0 };

      ok = output != NULL &&
           ds_trace_import_any (paths, DS_TRACE_FIO_UNITS_AUTO, output, &header, &error);
      if (ok)
        {
          g_free (job->path);
          job->path = g_steal_pointer (&output);
        }
    }
  if (ok)
    profile = ds_trace_profile_new (job->path, job->interval_ns, NULL, &error);

  g_mutex_lock (&job->lock);
  job->capture = capture;
  job->profile = profile;
  job->error = error;
  job->done = TRUE;
  g_mutex_unlock (&job->lock);

  return NULL;
}

DsReplayTrace *
ds_replay_trace_start (const char *device,
                       const char *path,
                       uint64_t    duration_ns,
                       uint64_t    interval_ns)
{
  DsReplayTrace *job = g_new0 (DsReplayTrace, 1);

  g_return_val_if_fail (path != NULL, NULL);

  job->device = g_strdup (device);
  job->path = g_strdup (path);
  job->duration_ns = duration_ns;
  job->interval_ns = interval_ns;
  g_mutex_init (&job->lock);
  job->thread = g_thread_new ("ds-trace", run, job);

  return job;
}

gboolean
ds_replay_trace_poll (DsReplayTrace   *job,
                      DsTraceProgress *ret_progress)
{
  gboolean done;

  g_mutex_lock (&job->lock);
  if (ret_progress != NULL)
    *ret_progress = job->progress;
  done = job->done;
  g_mutex_unlock (&job->lock);

  return done;
}

void
ds_replay_trace_stop (DsReplayTrace *job)
{
  g_atomic_int_set (&job->cancel, 1);
}

DsTraceProfile *
ds_replay_trace_finish (DsReplayTrace         *job,
                        DsTraceCaptureResult  *ret_capture,
                        char                 **ret_path,
                        GError               **error)
{
  DsTraceProfile *profile;

  g_thread_join (job->thread);
  profile = job->profile;
  if (ret_capture != NULL)
    *ret_capture = job->capture;
  if (job->error != NULL)
    g_propagate_error (error, job->error);
  if (ret_path != NULL)
    *ret_path = g_steal_pointer (&job->path);
  g_mutex_clear (&job->lock);
  g_free (job->device);
  g_free (job->path);
  g_free (job);

  return profile;
}

void
ds_replay_trace_free (DsReplayTrace *job)
{
  g_autoptr (DsTraceProfile) profile = NULL;

  if (job == NULL)
    return;
  ds_replay_trace_stop (job);
  profile = ds_replay_trace_finish (job, NULL, NULL, NULL);
}

char *
ds_replay_trace_new_path (const char  *device_path,
                          GError     **error)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "diskscope", "traces", NULL);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *base = g_path_get_basename (device_path);
  g_autofree char *name = NULL;

  /* "sdb-20261207-181500.dstrace"; an import keeps its file's name
   * ("trace.blktrace.0-20261207-181500.dstrace"). */
  name = g_strdup_printf ("%s-%s.dstrace", base, stamp);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   /* Translators: "Cannot make ~/.local/share/diskscope/traces: …" */
                   _("Cannot make %s: %s"), dir, g_strerror (saved));
      return NULL;
    }

  return g_build_filename (dir, name, NULL);
}
