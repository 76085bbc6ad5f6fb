/* test-int-monitor.c: the disk monitor on a busy loop device (root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fio reads a loop device at a fixed rate; the monitor must see about that
 * rate and IOPS on the device, and fio as the process reading it, with the
 * device among its open files.
 */
#include "config.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ds-clock.h"
#include "ds-faultdisk.h"
#include "ds-monitor.h"
#include "ds-test-util.h"

#define MiB (UINT64_C (1024) * 1024)
#define RATE (16 * MiB)        /* fio --rate=16m: MiB/s */
#define BLOCK (1024 * 1024)   /* few I/Os: fio keeps its rate on a busy machine */

#define note ds_test_note

static DsFaultProc *
start_fio (const char *dev,
           const char *seconds)
{
  g_autofree char *filename = g_strdup_printf ("--filename=%s", dev);
  g_autofree char *runtime = g_strdup_printf ("--runtime=%s", seconds);
  const char *argv[] = {
    "fio", "--name=busy", filename, "--rw=read", "--bs=1m", "--direct=1",
    "--ioengine=psync", "--rate=16m", "--time_based", runtime, NULL,
  };

  return ds_fault_proc_spawn (argv);
}

typedef struct {
  const char *name;
  GArray     *device_rates;   /* double */
  GArray     *iops;
  GArray     *fio_rates;
  gboolean    fio_has_device;
} Seen;

static void
on_sample (const DsMonitorSample *sample,
           gpointer               user_data)
{
  Seen *s = user_data;
  double fio = 0;

  ck_assert_uint_eq (sample->devices->len, 1);
  ck_assert_str_eq (g_array_index (sample->devices, DsMonitorDevice, 0).name, s->name);
  g_array_append_val (s->device_rates, g_array_index (sample->devices, DsMonitorDevice, 0).read_bytes_per_s);
  g_array_append_val (s->iops, g_array_index (sample->devices, DsMonitorDevice, 0).read_iops);
  for (guint i = 0; i < sample->processes->len; i++)
    {
      const DsMonitorProcess *p = &g_array_index (sample->processes, DsMonitorProcess, i);

      note ("pid %d %s read %.1f MiB/s write %.1f MiB/s devices '%s'", p->pid, p->comm,
            p->read_bytes_per_s / MiB, p->write_bytes_per_s / MiB, p->devices);
      if (strcmp (p->comm, "fio") == 0)
        {
          fio += p->read_bytes_per_s;
          if (strstr (p->devices, s->name) != NULL)
            s->fio_has_device = TRUE;
        }
    }
  g_array_append_val (s->fio_rates, fio);
}

static gint
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y;
}

START_TEST (test_monitor_sees_fio)
{
  g_autofree char *dev = ds_test_loop_new (64 * MiB, TRUE);
  g_autoptr (DsFaultProc) fio = NULL;
  g_autoptr (DsMonitor) monitor = NULL;
  g_autoptr (GError) error = NULL;
  Seen seen = {
    .name = dev + strlen ("/dev/"),
    .device_rates = g_array_new (FALSE, FALSE, sizeof (double)),
    .iops = g_array_new (FALSE, FALSE, sizeof (double)),
    .fio_rates = g_array_new (FALSE, FALSE, sizeof (double)),
  };
  double dev_rate = 0, iops = 0, fio_rate = 0;

  monitor = ds_monitor_new (dev, &error);
  ck_assert_msg (monitor != NULL, "%s", error ? error->message : "");
  fio = start_fio (dev, "8");
  g_usleep (1500 * 1000);   /* fio starts its job */
  ck_assert_int_eq (ds_monitor_run (monitor, DS_NS_PER_SEC, 4, NULL, on_sample, &seen, &error), 0);
  ds_fault_proc_signal (fio, SIGTERM);
  ds_fault_proc_wait (fio, 10000);

  /* The middle samples: no start-up or shutdown in them. */
  for (guint i = 0; i < seen.device_rates->len; i++)
    {
      note ("sample %u: device %.2f MiB/s, %.0f IOPS; fio %.2f MiB/s", i,
            g_array_index (seen.device_rates, double, i) / MiB,
            g_array_index (seen.iops, double, i),
            g_array_index (seen.fio_rates, double, i) / MiB);
      dev_rate += g_array_index (seen.device_rates, double, i);
      iops += g_array_index (seen.iops, double, i);
      fio_rate += g_array_index (seen.fio_rates, double, i);
    }
  dev_rate /= seen.device_rates->len;
  iops /= seen.iops->len;
  fio_rate /= seen.fio_rates->len;
  /* fio never goes above its rate; on a machine starved of CPU it may
   * fall below it.  The device's rate and fio's own must agree. */
  ck_assert_msg (dev_rate > RATE * 0.6 && dev_rate < RATE * 1.15, "device %.2f MiB/s", dev_rate / MiB);
  ck_assert_msg (fio_rate > dev_rate * 0.85 && fio_rate < dev_rate * 1.15,
                 "fio %.2f MiB/s, device %.2f MiB/s", fio_rate / MiB, dev_rate / MiB);
  /* The block layer may split fio's 1 MiB reads (a loop device passes
   * 512 KiB on): one or two device requests per read.  The median sample,
   * as udev may probe the new device during the first. */
  {
    g_autoptr (GArray) sorted = g_array_copy (seen.iops);
    double median;

    g_array_sort (sorted, compare_doubles);
    median = g_array_index (sorted, double, sorted->len / 2);
    ck_assert_msg (median > dev_rate / BLOCK * 0.85 && median < dev_rate / (BLOCK / 2) * 1.15,
                   "%.1f IOPS at %.2f MiB/s", median, dev_rate / MiB);
  }
  ck_assert (seen.fio_has_device);

  g_array_unref (seen.device_rates);
  g_array_unref (seen.iops);
  g_array_unref (seen.fio_rates);
}
END_TEST

START_TEST (test_cli_monitor_json_lines)
{
  g_autofree char *dev = ds_test_loop_new (64 * MiB, TRUE);
  g_autoptr (DsFaultProc) fio = start_fio (dev, "6");
  const char *argv[] = { ds_test_cli_path (), "monitor", dev, "--interval", "500ms",
                         "--count", "4", "--json-lines", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean saw_fio = FALSE;
  double best = 0;

  g_usleep (1000 * 1000);
  ck_assert_int_eq (ds_test_run (argv, &out, &err), 0);
  ds_fault_proc_signal (fio, SIGTERM);
  ds_fault_proc_wait (fio, 10000);

  lines = g_strsplit (g_strstrip (out), "\n", -1);
  ck_assert_uint_eq (g_strv_length (lines), 4);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonNode) root = ds_fault_json_parse (lines[i]);
      JsonObject *o;
      JsonArray *devices, *procs;

      ck_assert_ptr_nonnull (root);
      o = json_node_get_object (root);
      ck_assert (json_object_get_double_member (o, "interval_s") > 0.4);
      devices = json_object_get_array_member (o, "devices");
      ck_assert_uint_eq (json_array_get_length (devices), 1);
      best = MAX (best, json_object_get_double_member (json_array_get_object_element (devices, 0),
                                                       "read_bytes_per_s"));
      procs = json_object_get_array_member (o, "processes");
      for (guint k = 0; k < json_array_get_length (procs); k++)
        if (g_strcmp0 (json_object_get_string_member (json_array_get_object_element (procs, k), "comm"),
                       "fio") == 0)
          saw_fio = TRUE;
    }
  ck_assert_msg (best > RATE * 0.5, "best %.2f MiB/s", best / MiB);
  ck_assert (saw_fio);
}
END_TEST

/* A process born between two samples did all its I/O in that interval:
 * the sample after its birth counts it, whole, not only the next one. */
START_TEST (test_monitor_counts_a_newborn)
{
  g_autofree char *dev = ds_test_loop_new (64 * MiB, TRUE);
  g_autoptr (DsFaultProc) fio = NULL;
  g_autoptr (DsMonitor) monitor = NULL;
  g_autoptr (DsMonitorSample) prime = NULL;
  g_autoptr (DsMonitorSample) sample = NULL;
  g_autoptr (GError) error = NULL;
  double device_bytes, fio_bytes = 0;

  monitor = ds_monitor_new (dev, &error);
  ck_assert_msg (monitor != NULL, "%s", error ? error->message : "");
  prime = ds_monitor_sample (monitor, &error);
  ck_assert_msg (prime != NULL, "%s", error ? error->message : "");
  fio = start_fio (dev, "8");
  g_usleep (2500 * 1000);
  sample = ds_monitor_sample (monitor, &error);
  ck_assert_msg (sample != NULL, "%s", error ? error->message : "");
  ds_fault_proc_signal (fio, SIGTERM);
  ds_fault_proc_wait (fio, 10000);

  device_bytes = g_array_index (sample->devices, DsMonitorDevice, 0).read_bytes_per_s * sample->interval_s;
  for (guint i = 0; i < sample->processes->len; i++)
    {
      const DsMonitorProcess *p = &g_array_index (sample->processes, DsMonitorProcess, i);

      if (strcmp (p->comm, "fio") == 0)
        fio_bytes += p->read_bytes_per_s * sample->interval_s;
    }
  note ("in %.2f s: device read %.2f MiB, fio %.2f MiB", sample->interval_s,
        device_bytes / MiB, fio_bytes / MiB);
  ck_assert_msg (device_bytes >= 4 * MiB, "device read %.2f MiB", device_bytes / MiB);
  ck_assert_msg (fio_bytes > device_bytes * 0.9 && fio_bytes < device_bytes * 1.1,
                 "fio read %.2f MiB, the device %.2f MiB", fio_bytes / MiB, device_bytes / MiB);
}
END_TEST

START_TEST (test_monitor_refuses_unknown_device)
{
  g_autoptr (GError) error = NULL;
  DsMonitor *monitor = ds_monitor_new ("/dev/no-such-disk", &error);
  const char *argv[] = { ds_test_cli_path (), "monitor", "nodisk0", "--count", "1", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  ck_assert_ptr_null (monitor);
  ck_assert_ptr_nonnull (strstr (error->message, "/proc/diskstats"));
  ck_assert_int_eq (ds_test_run (argv, &out, &err), 1);
  ck_assert_ptr_nonnull (strstr (err, "nodisk0"));
}
END_TEST

static Suite *
monitor_suite (void)
{
  Suite *suite = suite_create ("int-monitor");
  TCase *tc = tcase_create ("monitor");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_monitor_sees_fio);
  tcase_add_test (tc, test_monitor_counts_a_newborn);
  tcase_add_test (tc, test_cli_monitor_json_lines);
  tcase_add_test (tc, test_monitor_refuses_unknown_device);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  ds_test_init ("int-monitor");
  ds_test_require_root ("the monitor watches loop devices it attaches");
  ds_faultdisk_init ();

  return ds_test_run_suite (monitor_suite ());
}
