/* ds-trace-capture.c: a device's requests from the kernel's block
 * tracepoints, in a tracefs instance of our own, read as binary ring-buffer
 * pages (trace_pipe_raw: nanosecond stamps; the text pipe prints µs)
 *
 * Never opens the device: only tracefs and sysfs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "ds-clock.h"
#include "ds-error.h"
#include "ds-trace.h"

#define PAGE_BYTES   4096
#define POLL_US      20000
/* Events are taken in time order up to this long before the round began:
 * one committed on another CPU meanwhile is not older than that. */
#define MARGIN_NS    (50 * DS_NS_PER_MSEC)
#define MAX_CPUS     1024

static const struct {
  const char *name;
  uint8_t     kind;
  gboolean    required;
} events[] = {
  { "block_rq_issue", DS_TRACE_EV_ISSUE, TRUE },
  { "block_rq_complete", DS_TRACE_EV_COMPLETE, TRUE },
  { "block_rq_insert", DS_TRACE_EV_INSERT, FALSE },
  { "block_bio_queue", DS_TRACE_EV_QUEUE, FALSE },
};
#define N_EVENTS G_N_ELEMENTS (events)

typedef struct {
  /* the device */
  uint32_t       disk_dev, part_dev;   /* the kernel's dev_t (major << 20 | minor) */
  uint64_t       first_sector, n_sectors;
  uint64_t       device_bytes;
  /* tracefs */
  char          *instance;
  int            fds[MAX_CPUS];
  int            n_fds;
  DsTraceFormat  formats[N_EVENTS];
  gboolean       have[N_EVENTS];
  /* the stream */
  GArray        *batch;               /* DsTraceEvent, read and not yet fed */
  DsTraceMatcher *matcher;
  DsTraceWriter *writer;
  uint64_t       events, missed_pages, bytes;
} Capture;

static gboolean
write_file (const char  *dir,
            const char  *name,
            const char  *value,
            GError     **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  int fd = open (path, O_WRONLY | O_TRUNC | O_CLOEXEC);
  size_t len = strlen (value);

  if (fd < 0 || write (fd, value, len) != (ssize_t) len)
    {
      int e = errno;

      if (fd >= 0)
        close (fd);
      ds_set_error_from_errno (error, -e, path);
      return FALSE;
    }
  close (fd);
  return TRUE;
}

static gboolean
is_tracefs (const char *dir)
{
  g_autofree char *instances = g_build_filename (dir, "instances", NULL);

  return g_file_test (instances, G_FILE_TEST_IS_DIR);
}

char *
ds_trace_tracefs_dir (GError **error)
{
  if (is_tracefs ("/sys/kernel/tracing"))
    return g_strdup ("/sys/kernel/tracing");
  if (is_tracefs ("/sys/kernel/debug/tracing"))
    return g_strdup ("/sys/kernel/debug/tracing");
  if (mount ("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0 &&
      is_tracefs ("/sys/kernel/tracing"))
    return g_strdup ("/sys/kernel/tracing");
  g_set_error (error, DS_ERROR, errno == EPERM || errno == EACCES ? DS_ERROR_PERMISSION : DS_ERROR_UNSUPPORTED,
               _("tracefs is not mounted and could not be mounted on /sys/kernel/tracing (%s): "
                 "capture needs root and a kernel with tracing"), g_strerror (errno));
  return NULL;
}

static gboolean
read_sysfs_u64 (const char *dir,
                const char *name,
                uint64_t   *ret)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  *ret = g_ascii_strtoull (text, NULL, 10);
  return TRUE;
}

/* The device's numbers; for a partition its disk's and its sectors. */
static gboolean
resolve_device (Capture     *c,
                const char  *device,
                GError     **error)
{
  struct stat st;
  g_autofree char *sys = NULL, *real = NULL, *parent = NULL, *dev_text = NULL, *dev_file = NULL;
  uint64_t start = 0, size = 0;
  unsigned maj, min;

  if (stat (device, &st) != 0)
    {
      ds_set_error_from_errno (error, -errno, device);
      return FALSE;
    }
  if (!S_ISBLK (st.st_mode))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("%s is not a block device"), device);
      return FALSE;
    }
  maj = major (st.st_rdev);
  min = minor (st.st_rdev);
  c->part_dev = c->disk_dev = (maj << 20) | min;
  sys = g_strdup_printf ("/sys/dev/block/%u:%u", maj, min);
  read_sysfs_u64 (sys, "size", &size);
  c->device_bytes = size * 512;
  if (!read_sysfs_u64 (sys, "start", &start))
    return TRUE;
  /* A partition: the requests are its disk's, in its sectors. */
  real = realpath (sys, NULL);
  parent = real ? g_path_get_dirname (real) : NULL;
  dev_file = parent ? g_build_filename (parent, "dev", NULL) : NULL;
  if (dev_file == NULL || !g_file_get_contents (dev_file, &dev_text, NULL, NULL) ||
      sscanf (dev_text, "%u:%u", &maj, &min) != 2)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED, _("%s: its disk is not found in sysfs"), device);
      return FALSE;
    }
  c->disk_dev = (maj << 20) | min;
  c->first_sector = start;
  c->n_sectors = size;
  return TRUE;
}

static gboolean
setup_events (Capture            *c,
              uint32_t            buffer_kib,
              GError            **error)
{
  g_autofree char *kib = g_strdup_printf ("%u", buffer_kib);

  if (!write_file (c->instance, "tracing_on", "0", error) ||
      !write_file (c->instance, "buffer_size_kb", kib, error) ||
      !write_file (c->instance, "trace_clock", "mono", error))
    return FALSE;
  for (unsigned i = 0; i < N_EVENTS; i++)
    {
      g_autofree char *dir = g_build_filename (c->instance, "events", "block", events[i].name, NULL);
      g_autofree char *format = g_build_filename (dir, "format", NULL);
      g_autofree char *filter = NULL;

      if (!g_file_test (format, G_FILE_TEST_EXISTS) && !events[i].required)
        continue;
      if (!ds_trace_format_load (format, &c->formats[i], error))
        return FALSE;
      /* A bio is queued on the partition; requests are the disk's. */
      filter = g_strdup_printf ("dev == %u", events[i].kind == DS_TRACE_EV_QUEUE ? c->part_dev : c->disk_dev);
      if (!write_file (dir, "filter", filter, error) || !write_file (dir, "enable", "1", error))
        return FALSE;
      c->have[i] = TRUE;
    }
  return TRUE;
}

static gboolean
open_pipes (Capture  *c,
            GError  **error)
{
  g_autofree char *per_cpu = g_build_filename (c->instance, "per_cpu", NULL);

  for (int cpu = 0; cpu < MAX_CPUS; cpu++)
    {
      g_autofree char *dir = g_strdup_printf ("%s/cpu%d", per_cpu, cpu);
      g_autofree char *pipe = NULL;
      int fd;

      if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
        continue;
      pipe = g_build_filename (dir, "trace_pipe_raw", NULL);
      fd = open (pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0)
        {
          ds_set_error_from_errno (error, -errno, pipe);
          return FALSE;
        }
      c->fds[c->n_fds++] = fd;
    }
  if (c->n_fds == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED, _("%s has no per-CPU buffers"), c->instance);
      return FALSE;
    }
  return TRUE;
}

static void
on_raw (uint64_t       ts,
        const uint8_t *data,
        size_t         len,
        gpointer       user_data)
{
  Capture *c = user_data;
  uint16_t id;

  if (len < 2)
    return;
  memcpy (&id, data, 2);
  for (unsigned i = 0; i < N_EVENTS; i++)
    if (c->have[i] && c->formats[i].id == id)
      {
        DsTraceEvent e;
        uint32_t dev;

        ds_trace_format_decode (&c->formats[i], data, len, &e, &dev);
        if (dev != (events[i].kind == DS_TRACE_EV_QUEUE ? c->part_dev : c->disk_dev))
          return;
        e.kind = events[i].kind;
        e.ts_ns = ts;
        g_array_append_val (c->batch, e);
        c->events++;
        return;
      }
}

/* Reads every CPU's buffer to its end (now). */
static gboolean
read_pipes (Capture  *c,
            GError  **error)
{
  uint8_t page[PAGE_BYTES];

  for (int i = 0; i < c->n_fds; i++)
    for (;;)
      {
        ssize_t n = read (c->fds[i], page, sizeof page);
        gboolean missed;

        if (n < 0 && errno == EINTR)
          continue;
        if (n < 0 && errno == EAGAIN)
          break;
        if (n < 0)
          {
            ds_set_error_from_errno (error, -errno, "trace_pipe_raw");
            return FALSE;
          }
        if (n == 0)
          break;
        if (!ds_trace_ring_page (page, (size_t) n, on_raw, c, &missed))
          {
            g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                         _("a trace buffer page does not parse (kernel format not understood)"));
            return FALSE;
          }
        if (missed)
          c->missed_pages++;
      }
  return TRUE;
}

static int
compare_events (gconstpointer a,
                gconstpointer b)
{
  const DsTraceEvent *x = a, *y = b;

  if (x->ts_ns != y->ts_ns)
    return x->ts_ns < y->ts_ns ? -1 : 1;
  return (int) x->kind - (int) y->kind;   /* queue, insert, issue, complete */
}

/* Feeds the batch's events older than @before (all: G_MAXUINT64). */
static gboolean
feed_batch (Capture   *c,
            uint64_t   before,
            GError   **error)
{
  guint n = 0;

  g_array_sort (c->batch, compare_events);
  while (n < c->batch->len && g_array_index (c->batch, DsTraceEvent, n).ts_ns < before)
    {
      const DsTraceEvent *e = &g_array_index (c->batch, DsTraceEvent, n);

      if (e->kind == DS_TRACE_EV_ISSUE)
        c->bytes += e->bytes;
      if (!ds_trace_matcher_feed (c->matcher, e, error))
        return FALSE;
      n++;
    }
  g_array_remove_range (c->batch, 0, n);
  return TRUE;
}

/* The events the instance's buffers dropped: overrun (overwritten),
 * commit overrun and dropped events, summed over the CPUs. */
static uint64_t
lost_events (Capture *c)
{
  uint64_t lost = 0;

  for (int cpu = 0; cpu < MAX_CPUS; cpu++)
    {
      g_autofree char *path = g_strdup_printf ("%s/per_cpu/cpu%d/stats", c->instance, cpu);
      g_autofree char *text = NULL;
      g_auto (GStrv) lines = NULL;

      if (!g_file_get_contents (path, &text, NULL, NULL))
        continue;
      lines = g_strsplit (text, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        if (g_str_has_prefix (lines[i], "overrun:") ||
            g_str_has_prefix (lines[i], "commit overrun:") ||
            g_str_has_prefix (lines[i], "dropped events:"))
          lost += g_ascii_strtoull (strchr (lines[i], ':') + 1, NULL, 10);
    }
  return MAX (lost, c->missed_pages);
}

static void
teardown (Capture *c)
{
  for (int i = 0; i < c->n_fds; i++)
    close (c->fds[i]);
  c->n_fds = 0;
  if (c->instance == NULL)
    return;
  write_file (c->instance, "tracing_on", "0", NULL);
  write_file (c->instance, "events/enable", "0", NULL);
  if (g_rmdir (c->instance) != 0 && errno != ENOENT)
    g_warning ("%s: %s", c->instance, g_strerror (errno));
  g_clear_pointer (&c->instance, g_free);
}

static void
report (Capture                  *c,
        const DsTraceCaptureSpec *spec,
        uint64_t                  elapsed,
        uint64_t                 *last_ns,
        uint64_t                 *last_records,
        uint64_t                 *last_bytes)
{
  DsTraceProgress p = { 0 };
  double dt = (double) (elapsed - *last_ns) / 1e9;

  p.elapsed_ns = elapsed;
  p.events = c->events;
  p.records = ds_trace_writer_count (c->writer);
  p.bytes = c->bytes;
  p.lost = lost_events (c);
  p.iops = dt > 0 ? (double) (p.records - *last_records) / dt : 0;
  p.bytes_per_s = dt > 0 ? (double) (p.bytes - *last_bytes) / dt : 0;
  *last_ns = elapsed;
  *last_records = p.records;
  *last_bytes = p.bytes;
  if (spec->progress != NULL)
    spec->progress (&p, spec->progress_data);
}

static gboolean
run_loop (Capture                  *c,
          const DsTraceCaptureSpec *spec,
          uint64_t                  origin,
          GError                  **error)
{
  uint64_t last_ns = 0, last_records = 0, last_bytes = 0, next_report = DS_NS_PER_SEC;

  for (;;)
    {
      uint64_t now = ds_clock_ns ();
      uint64_t elapsed = now - origin;

      if ((spec->duration_ns > 0 && elapsed >= spec->duration_ns) ||
          (spec->cancel != NULL && g_atomic_int_get (spec->cancel)))
        return TRUE;
      if (!read_pipes (c, error) ||
          !feed_batch (c, now > MARGIN_NS ? now - MARGIN_NS : 0, error))
        return FALSE;
      if (elapsed >= next_report)
        {
          report (c, spec, elapsed, &last_ns, &last_records, &last_bytes);
          next_report += DS_NS_PER_SEC;
        }
      g_usleep (POLL_US);
    }
}

static gboolean
capture_body (Capture                  *c,
              const DsTraceCaptureSpec *spec,
              DsTraceCaptureResult     *res,
              GError                  **error)
{
  DsTraceHeader *h = &res->header;
  uint64_t origin;

  if (!setup_events (c, spec->buffer_kib ? spec->buffer_kib : 8192, error) || !open_pipes (c, error))
    return FALSE;
  h->source = DS_TRACE_SOURCE_CAPTURE;
  h->flags = DS_TRACE_HAS_COMPLETIONS | DS_TRACE_HAS_TIMES;
  h->device_bytes = c->device_bytes;
  h->dev_major = c->part_dev >> 20;
  h->dev_minor = c->part_dev & 0xfffff;
  g_strlcpy (h->device, spec->device, sizeof h->device);
  c->writer = ds_trace_writer_new (spec->output, h, error);
  if (c->writer == NULL)
    return FALSE;
  origin = ds_clock_ns ();
  h->start_unix_ns = (uint64_t) g_get_real_time () * 1000;
  c->matcher = ds_trace_matcher_new (c->writer, origin, c->first_sector, c->n_sectors);
  if (!write_file (c->instance, "tracing_on", "1", error) || !run_loop (c, spec, origin, error))
    return FALSE;
  h->duration_ns = ds_clock_ns () - origin;
  if (!write_file (c->instance, "tracing_on", "0", error) || !read_pipes (c, error) ||
      !feed_batch (c, G_MAXUINT64, error))
    return FALSE;
  res->incomplete = ds_trace_matcher_in_flight (c->matcher);
  res->unmatched = ds_trace_matcher_unmatched (c->matcher);
  if (!ds_trace_matcher_flush (c->matcher, error))
    return FALSE;
  h->lost_events = lost_events (c);
  res->events = c->events;
  if (h->lost_events > 0 && spec->accept_lost)
    h->flags |= DS_TRACE_LOST_ACCEPTED;
  return TRUE;
}

/* Instances of captures that were killed (SIGKILL cannot be caught): a
 * diskscope-PID whose process is gone is removed. */
static void
remove_stale (const char *tracefs)
{
  g_autofree char *dir = g_build_filename (tracefs, "instances", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      char *end;
      long pid;

      if (!g_str_has_prefix (name, "diskscope-"))
        continue;
      pid = strtol (name + 10, &end, 10);
      if (*end == 0 && pid > 0 && kill ((pid_t) pid, 0) != 0 && errno == ESRCH)
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);

          g_rmdir (path);
        }
    }
}

gboolean
ds_trace_capture (const DsTraceCaptureSpec *spec,
                  DsTraceCaptureResult     *ret_result,
                  GError                  **error)
{
  Capture c = { 0 };
  DsTraceCaptureResult res = { 0 };
  g_autofree char *tracefs = NULL;
  gboolean ok;

  if (!resolve_device (&c, spec->device, error) || (tracefs = ds_trace_tracefs_dir (error)) == NULL)
    return FALSE;
  remove_stale (tracefs);
  c.instance = g_strdup_printf ("%s/instances/diskscope-%d", tracefs, (int) getpid ());
  if (g_mkdir (c.instance, 0700) != 0 && !(errno == EEXIST && g_rmdir (c.instance) == 0 &&
                                           g_mkdir (c.instance, 0700) == 0))
    {
      ds_set_error_from_errno (error, -errno, c.instance);
      g_free (c.instance);
      return FALSE;
    }
  g_strlcpy (res.instance, c.instance, sizeof res.instance);
  c.batch = g_array_new (FALSE, FALSE, sizeof (DsTraceEvent));
  ok = capture_body (&c, spec, &res, error);
  teardown (&c);
  if (c.matcher != NULL)
    ds_trace_matcher_free (c.matcher);
  g_array_unref (c.batch);
  if (!ok)
    {
      if (c.writer != NULL)
        ds_trace_writer_abandon (c.writer);
      return FALSE;
    }
  if (!ds_trace_writer_finish (c.writer, &res.header, error))
    return FALSE;
  *ret_result = res;
  if (res.header.lost_events > 0 && !spec->accept_lost)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("the kernel's trace buffer dropped %" PRIu64 " events: the capture "
                     "is incomplete (kept in %s; --accept-lost keeps such a capture, a larger "
                     "--buffer loses fewer)"), res.header.lost_events, spec->output);
      return FALSE;
    }
  return TRUE;
}
