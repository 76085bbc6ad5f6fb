/* test-monitor.c: the disk activity monitor (core/monitor/ds-monitor.c)
 * on this machine's real /proc/diskstats and /proc/PID/io
 *
 * Unit suite: no root, no device of its own (test-int-monitor.c drives
 * loop devices as root).  What ds-monitor.h promises: a device
 * /proc/diskstats does not list refused, with its message; "sda" and
 * "/dev/sda" the same; the first sample primes (interval 0, zero rates);
 * every disk but no partition nor empty loop; the rates of the next
 * sample between what /proc/diskstats said just before and just after
 * each sample (so its columns are read right); this process's reads of a
 * regular file counted, byte for byte, with the disk it has open;
 * processes busiest first; the JSON of a sample, member names, order and
 * types; ds_monitor_run's count and cancel.  Not covered: the
 * DS_ERROR_VANISHED of a device removed between samples (it needs a
 * device of the test's own: test-int-monitor.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-monitor.h"
#include "ds-test-util.h"

typedef struct {
  uint64_t reads, read_sectors, writes, write_sectors;
} Counters;

/* The test's own reading of /proc/diskstats for @name. */
static gboolean
diskstats (const char *name,
           Counters   *c)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  ck_assert (g_file_get_contents ("/proc/diskstats", &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char dev[64];

      if (sscanf (lines[i], " %*u %*u %63s %" SCNu64 " %*u %" SCNu64 " %*u %" SCNu64 " %*u %" SCNu64,
                  dev, &c->reads, &c->read_sectors, &c->writes, &c->write_sectors) == 5 &&
          strcmp (dev, name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* The first device /proc/diskstats lists. */
static char *
first_device (void)
{
  g_autofree char *text = NULL;
  char dev[64];

  ck_assert (g_file_get_contents ("/proc/diskstats", &text, NULL, NULL));
  ck_assert (sscanf (text, " %*u %*u %63s", dev) == 1);
  return g_strdup (dev);
}

static void
assert_sane_device (const DsMonitorDevice *d)
{
  const double v[] = { d->read_bytes_per_s, d->write_bytes_per_s, d->read_iops, d->write_iops,
                       d->util_percent, d->queue_depth, d->read_await_ms, d->write_await_ms };

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    ck_assert_msg (isfinite (v[i]) && v[i] >= 0, "%s: value %u is %g", d->name, i, v[i]);
  ck_assert_double_le (d->util_percent, 100.0);
}

START_TEST (test_unknown_device)
{
  const char *names[] = { "/dev/ds-no-such-disk", "ds-no-such-disk", "", "/dev/", "sda1x/../" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *want = g_strdup_printf ("%s is not a block device the kernel counts I/O for "
                                               "(/proc/diskstats does not list it)", names[i]);
      g_autoptr (DsMonitor) m = ds_monitor_new (names[i], &error);

      ck_assert_ptr_null (m);
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
      ck_assert_str_eq (error->message, want);
    }
}
END_TEST

/* The disk (or partition) the temporary folder is on, else the first
 * device /proc/diskstats lists. */
static char *
tmp_device (void)
{
  struct stat st;
  g_autofree char *sys = NULL;
  g_autofree char *target = NULL;
  Counters c;

  if (stat (g_get_tmp_dir (), &st) == 0)
    {
      sys = g_strdup_printf ("/sys/dev/block/%u:%u", major (st.st_dev), minor (st.st_dev));
      target = g_file_read_link (sys, NULL);
      if (target != NULL)
        {
          char *name = g_path_get_basename (target);

          if (diskstats (name, &c))
            return name;
          g_free (name);
        }
    }
  return first_device ();
}

/* Reads 1 MiB from a new file in the temporary folder, its cache dropped
 * first: the disk under it has reads to count. */
static void
read_own_file (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "ds-test-monitor-XXXXXX", NULL);
  g_autofree char *data = g_malloc0 (1 << 20);
  int fd = g_mkstemp (path);

  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (write (fd, data, 1 << 20), 1 << 20);
  ck_assert_int_eq (fsync (fd), 0);
  ck_assert_int_eq (posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED), 0);
  ck_assert_int_eq (pread (fd, data, 1 << 20, 0), 1 << 20);
  close (fd);
  g_unlink (path);
}

/* A named device: one row, primed at zero, then rates between what
 * /proc/diskstats said around each of the two samples. */
START_TEST (test_named_device)
{
  g_autofree char *name = tmp_device ();
  g_autofree char *dev_path = g_strdup_printf ("/dev/%s", name);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsMonitor) m = ds_monitor_new (dev_path, &error);
  g_autoptr (DsMonitorSample) s1 = NULL;
  g_autoptr (DsMonitorSample) s2 = NULL;
  const DsMonitorDevice *d;
  Counters a, b, c, e;
  double t;

  ck_assert_msg (m != NULL, "%s", error ? error->message : "");
  ck_assert (diskstats (name, &a));
  s1 = ds_monitor_sample (m, &error);
  ck_assert (diskstats (name, &b));
  ck_assert_ptr_nonnull (s1);
  ck_assert_double_eq (s1->interval_s, 0);
  ck_assert_uint_eq (s1->devices->len, 1);
  d = &g_array_index (s1->devices, DsMonitorDevice, 0);
  ck_assert_str_eq (d->name, name);
  ck_assert (d->read_bytes_per_s == 0 && d->write_bytes_per_s == 0 && d->read_iops == 0 &&
             d->write_iops == 0 && d->util_percent == 0 && d->queue_depth == 0 &&
             d->read_await_ms == 0 && d->write_await_ms == 0);
  ck_assert_uint_eq (s1->processes->len, 0);

  read_own_file ();
  g_usleep (30000);
  ck_assert (diskstats (name, &c));
  s2 = ds_monitor_sample (m, &error);
  ck_assert (diskstats (name, &e));
  ck_assert_ptr_nonnull (s2);
  ck_assert_uint_eq (s2->devices->len, 1);
  ck_assert_uint_gt (s2->time_ns, s1->time_ns);
  ck_assert_double_eq_tol (s2->interval_s, (double) (s2->time_ns - s1->time_ns) / 1e9, 1e-9);
  ck_assert_double_ge (s2->interval_s, 0.029);
  d = &g_array_index (s2->devices, DsMonitorDevice, 0);
  ck_assert_str_eq (d->name, name);
  assert_sane_device (d);
  t = s2->interval_s;
  /* Counted from the second sample's reading minus the first's. */
  ck_assert_double_ge (d->read_iops * t + 1e-6, (double) (c.reads - b.reads));
  ck_assert_double_le (d->read_iops * t - 1e-6, (double) (e.reads - a.reads));
  ck_assert_double_ge (d->write_iops * t + 1e-6, (double) (c.writes - b.writes));
  ck_assert_double_le (d->write_iops * t - 1e-6, (double) (e.writes - a.writes));
  ck_assert_double_ge (d->read_bytes_per_s * t + 1e-3, (double) (c.read_sectors - b.read_sectors) * 512);
  ck_assert_double_le (d->read_bytes_per_s * t - 1e-3, (double) (e.read_sectors - a.read_sectors) * 512);
  ck_assert_double_ge (d->write_bytes_per_s * t + 1e-3, (double) (c.write_sectors - b.write_sectors) * 512);
  ck_assert_double_le (d->write_bytes_per_s * t - 1e-3, (double) (e.write_sectors - a.write_sectors) * 512);

  /* A named device lists only processes that have it open. */
  for (guint i = 0; i < s2->processes->len; i++)
    {
      const DsMonitorProcess *p = &g_array_index (s2->processes, DsMonitorProcess, i);
      g_auto (GStrv) devs = g_strsplit (p->devices, " ", -1);

      ck_assert_msg (g_strv_contains ((const char *const *) devs, name), "%d %s: %s", p->pid, p->comm,
                     p->devices);
    }

  /* "name" is "/dev/name". */
  {
    g_autoptr (DsMonitor) bare = ds_monitor_new (name, &error);
    g_autoptr (DsMonitorSample) s = bare ? ds_monitor_sample (bare, &error) : NULL;

    ck_assert_ptr_nonnull (s);
    ck_assert_uint_eq (s->devices->len, 1);
    ck_assert_str_eq (g_array_index (s->devices, DsMonitorDevice, 0).name, name);
  }
}
END_TEST

/* Every disk: whole disks in /proc/diskstats order, no partition, no
 * empty loop; a disk that is not a loop nor a RAM disk always there. */
START_TEST (test_every_disk)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsMonitor) m = ds_monitor_new (NULL, &error);
  g_autoptr (DsMonitorSample) s = NULL;
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  guint next = 0;

  ck_assert_ptr_nonnull (m);
  s = ds_monitor_sample (m, &error);
  ck_assert_ptr_nonnull (s);
  ck_assert (g_file_get_contents ("/proc/diskstats", &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char dev[64];
      g_autofree char *sys = NULL;
      gboolean whole, steady;

      if (sscanf (lines[i], " %*u %*u %63s", dev) != 1)
        continue;
      sys = g_build_filename ("/sys/block", dev, NULL);
      whole = g_file_test (sys, G_FILE_TEST_EXISTS);
      steady = !g_str_has_prefix (dev, "loop") && !g_str_has_prefix (dev, "ram") &&
               !g_str_has_prefix (dev, "zram");
      if (next < s->devices->len &&
          strcmp (g_array_index (s->devices, DsMonitorDevice, next).name, dev) == 0)
        {
          ck_assert_msg (whole, "%s is listed but is not a whole disk", dev);
          next++;
        }
      else
        ck_assert_msg (!(whole && steady), "%s is a disk, not listed", dev);
    }
  /* All of them matched, in order. */
  ck_assert_uint_eq (next, s->devices->len);
  for (guint i = 0; i < s->devices->len; i++)
    assert_sane_device (&g_array_index (s->devices, DsMonitorDevice, i));
}
END_TEST

/* This process reads a file it wrote, its cache dropped: the bytes the
 * kernel counts in /proc/self/io, and the disk the file is on. */
START_TEST (test_own_reads)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsMonitor) m = ds_monitor_new (NULL, &error);
  g_autoptr (DsMonitorSample) s1 = NULL;
  g_autoptr (DsMonitorSample) s2 = NULL;
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "ds-test-monitor-XXXXXX", NULL);
  g_autofree char *data = g_malloc (4 << 20);
  g_autofree char *io = NULL;
  uint64_t before = 0, after = 0;
  const DsMonitorProcess *me = NULL;
  struct stat st;
  int fd;

  ck_assert_ptr_nonnull (m);
  fd = g_mkstemp (path);
  ck_assert_int_ge (fd, 0);
  memset (data, 'm', 4 << 20);
  ck_assert_int_eq (write (fd, data, 4 << 20), 4 << 20);
  ck_assert_int_eq (fsync (fd), 0);
  ck_assert_int_eq (posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED), 0);
  ck_assert_int_eq (fstat (fd, &st), 0);

  s1 = ds_monitor_sample (m, &error);
  ck_assert_ptr_nonnull (s1);
  if (!g_file_get_contents ("/proc/self/io", &io, NULL, NULL))
    {
      ds_test_note ("/proc/self/io cannot be read here: own reads not checked");
      close (fd);
      g_unlink (path);
      return;
    }
  ck_assert (sscanf (strstr (io, "\nread_bytes: "), "\nread_bytes: %" SCNu64, &before) == 1);
  ck_assert_int_eq (pread (fd, data, 4 << 20, 0), 4 << 20);
  g_clear_pointer (&io, g_free);
  ck_assert (g_file_get_contents ("/proc/self/io", &io, NULL, NULL));
  ck_assert (sscanf (strstr (io, "\nread_bytes: "), "\nread_bytes: %" SCNu64, &after) == 1);
  s2 = ds_monitor_sample (m, &error);
  ck_assert_ptr_nonnull (s2);

  for (guint i = 0; i < s2->processes->len; i++)
    {
      const DsMonitorProcess *p = &g_array_index (s2->processes, DsMonitorProcess, i);

      if (p->pid == getpid ())
        me = p;
      if (i > 0)
        {
          const DsMonitorProcess *q = &g_array_index (s2->processes, DsMonitorProcess, i - 1);

          ck_assert_double_ge (q->read_bytes_per_s + q->write_bytes_per_s,
                               p->read_bytes_per_s + p->write_bytes_per_s);
        }
    }
  if (after == before)
    {
      ds_test_note ("the file's reads were not counted by the kernel (page cache kept?)");
      ck_assert_ptr_null (me);
    }
  else
    {
      g_autofree char *sysdev = g_strdup_printf ("/sys/dev/block/%u:%u", major (st.st_dev),
                                                 minor (st.st_dev));
      g_autofree char *comm = NULL;

      ck_assert_ptr_nonnull (me);
      ck_assert (g_file_get_contents ("/proc/self/comm", &comm, NULL, NULL));
      ck_assert_str_eq (me->comm, g_strstrip (comm));
      ck_assert_uint_ge (after - before, 4 << 20);
      ck_assert_double_eq_tol (me->read_bytes_per_s * s2->interval_s, (double) (after - before), 1.0);
      /* On a disk (not an overlay's anonymous device): named. */
      if (g_file_test (sysdev, G_FILE_TEST_EXISTS))
        ck_assert_msg (me->devices[0] != '\0', "no device for a file on %s", sysdev);
    }
  close (fd);
  g_unlink (path);

  /* Not root: other users' processes are counted as unreadable. */
  if (geteuid () != 0)
    ck_assert_uint_gt (s2->unreadable_processes, 0);
}
END_TEST

static JsonObject *
member_object (JsonArray *array,
               guint      i)
{
  return json_node_get_object (json_array_get_element (array, i));
}

static void
assert_members (JsonObject        *o,
                const char *const *names,
                const GType       *types)
{
  g_autoptr (GList) members = json_object_get_members (o);
  guint i = 0;

  for (GList *l = members; l != NULL; l = l->next, i++)
    {
      JsonNode *n = json_object_get_member (o, l->data);

      ck_assert_msg (names[i] != NULL, "extra member %s", (char *) l->data);
      ck_assert_str_eq (l->data, names[i]);
      if (types[i] == JSON_TYPE_ARRAY)
        ck_assert (JSON_NODE_HOLDS_ARRAY (n));
      else
        ck_assert_msg (json_node_get_value_type (n) == types[i], "%s", names[i]);
    }
  ck_assert_ptr_null (names[i]);
}

START_TEST (test_json)
{
  DsMonitorSample s = { .time_ns = 5, .interval_s = 1.5, .unreadable_processes = 7 };
  DsMonitorDevice d = { .name = "sda", .read_bytes_per_s = 1048576, .write_bytes_per_s = 0.5,
                        .read_iops = 10, .write_iops = 2, .util_percent = 100, .queue_depth = 1.25,
                        .in_flight = 3, .read_await_ms = 0.75, .write_await_ms = 4 };
  DsMonitorProcess p1 = { .pid = 42, .comm = "dd", .read_bytes_per_s = 3, .write_bytes_per_s = 0,
                          .devices = "loop3 sda" };
  DsMonitorProcess p2 = { .pid = 1, .comm = "x\"y", .devices = "" };
  const char *top[] = { "interval_s", "devices", "processes", "unreadable_processes", NULL };
  const GType top_types[] = { G_TYPE_DOUBLE, JSON_TYPE_ARRAY, JSON_TYPE_ARRAY, G_TYPE_INT64 };
  const char *dev[] = { "name", "read_bytes_per_s", "write_bytes_per_s", "read_iops", "write_iops",
                        "util_percent", "queue_depth", "in_flight", "read_await_ms", "write_await_ms", NULL };
  const GType dev_types[] = { G_TYPE_STRING, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_DOUBLE,
                              G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_INT64, G_TYPE_DOUBLE, G_TYPE_DOUBLE };
  const char *proc[] = { "pid", "comm", "read_bytes_per_s", "write_bytes_per_s", "devices", NULL };
  const GType proc_types[] = { G_TYPE_INT64, G_TYPE_STRING, G_TYPE_DOUBLE, G_TYPE_DOUBLE, JSON_TYPE_ARRAY };
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GArray) devices = g_array_new (FALSE, TRUE, sizeof (DsMonitorDevice));
  g_autoptr (GArray) processes = g_array_new (FALSE, TRUE, sizeof (DsMonitorProcess));
  g_autofree char *text = NULL;
  JsonObject *o, *jd, *jp;
  JsonArray *devs;

  g_array_append_val (devices, d);
  g_array_append_val (processes, p1);
  g_array_append_val (processes, p2);
  s.devices = devices;
  s.processes = processes;
  node = ds_monitor_sample_to_json (&s);
  o = json_node_get_object (node);
  assert_members (o, top, top_types);
  ck_assert_double_eq (json_object_get_double_member (o, "interval_s"), 1.5);
  ck_assert_int_eq (json_object_get_int_member (o, "unreadable_processes"), 7);
  ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (o, "devices")), 1);
  ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (o, "processes")), 2);

  jd = member_object (json_object_get_array_member (o, "devices"), 0);
  assert_members (jd, dev, dev_types);
  ck_assert_str_eq (json_object_get_string_member (jd, "name"), "sda");
  ck_assert_double_eq (json_object_get_double_member (jd, "read_bytes_per_s"), 1048576);
  ck_assert_double_eq (json_object_get_double_member (jd, "queue_depth"), 1.25);
  ck_assert_int_eq (json_object_get_int_member (jd, "in_flight"), 3);
  ck_assert_double_eq (json_object_get_double_member (jd, "write_await_ms"), 4);

  jp = member_object (json_object_get_array_member (o, "processes"), 0);
  assert_members (jp, proc, proc_types);
  ck_assert_int_eq (json_object_get_int_member (jp, "pid"), 42);
  ck_assert_str_eq (json_object_get_string_member (jp, "comm"), "dd");
  devs = json_object_get_array_member (jp, "devices");
  ck_assert_uint_eq (json_array_get_length (devs), 2);
  ck_assert_str_eq (json_array_get_string_element (devs, 0), "loop3");
  ck_assert_str_eq (json_array_get_string_element (devs, 1), "sda");
  jp = member_object (json_object_get_array_member (o, "processes"), 1);
  ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (jp, "devices")), 0);

  /* One line: quoting done by JSON. */
  text = json_to_string (node, FALSE);
  ck_assert (strchr (text, '\n') == NULL);
  ck_assert (strstr (text, "\"comm\":\"x\\\"y\"") != NULL);

  /* An empty sample: empty lists. */
  g_array_set_size (devices, 0);
  g_array_set_size (processes, 0);
  g_clear_pointer (&node, json_node_unref);
  g_clear_pointer (&text, g_free);
  node = ds_monitor_sample_to_json (&s);
  text = json_to_string (node, FALSE);
  ck_assert_str_eq (text, "{\"interval_s\":1.5,\"devices\":[],\"processes\":[],\"unreadable_processes\":7}");
}
END_TEST

typedef struct {
  guint  calls;
  double intervals;
  gint   cancel;
  guint  cancel_after;
} RunState;

static void
on_sample (const DsMonitorSample *sample,
           gpointer               user_data)
{
  RunState *st = user_data;

  ck_assert_uint_gt (sample->devices->len, 0);
  ck_assert_double_gt (sample->interval_s, 0);
  st->intervals += sample->interval_s;
  if (++st->calls == st->cancel_after)
    g_atomic_int_set (&st->cancel, 1);
}

START_TEST (test_run)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsMonitor) m = ds_monitor_new (NULL, &error);
  RunState st = { 0 };
  gint64 t0;

  ck_assert_ptr_nonnull (m);
  /* @count samples, the priming one not delivered, each ~interval. */
  t0 = g_get_monotonic_time ();
  ck_assert_int_eq (ds_monitor_run (m, 20 * 1000 * 1000, 3, NULL, on_sample, &st, &error), 0);
  ck_assert_uint_eq (st.calls, 3);
  ck_assert_double_ge (st.intervals, 0.059);
  ck_assert_int_ge (g_get_monotonic_time () - t0, 60000);
  ck_assert_double_lt (st.intervals, 2.0);

  /* Cancelled before: nothing delivered. */
  st = (RunState) { .cancel = 1 };
  ck_assert_int_eq (ds_monitor_run (m, 10 * 1000 * 1000, 0, &st.cancel, on_sample, &st, &error), 0);
  ck_assert_uint_eq (st.calls, 0);

  /* No limit, cancelled from the second sample's callback: two. */
  st = (RunState) { .cancel_after = 2 };
  ck_assert_int_eq (ds_monitor_run (m, 10 * 1000 * 1000, 0, &st.cancel, on_sample, &st, &error), 0);
  ck_assert_uint_eq (st.calls, 2);

  /* A long interval is cancelled within the 50 ms check. */
  st = (RunState) { .cancel_after = 1 };
  t0 = g_get_monotonic_time ();
  ck_assert_int_eq (ds_monitor_run (m, 10 * 1000 * 1000, 5, &st.cancel, on_sample, &st, &error), 0);
  ck_assert_uint_eq (st.calls, 1);
  ck_assert_int_lt (g_get_monotonic_time () - t0, 1000000);
  ck_assert_ptr_null (error);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("monitor");
  TCase *tc = tcase_create ("monitor");

  tcase_add_test (tc, test_unknown_device);
  tcase_add_test (tc, test_named_device);
  tcase_add_test (tc, test_every_disk);
  tcase_add_test (tc, test_own_reads);
  tcase_add_test (tc, test_json);
  tcase_add_test (tc, test_run);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
