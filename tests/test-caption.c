/* test-caption.c: what a screenshot's caption says
 *
 * Unit suite: no root, no display.  A result is made up here as a run
 * would leave it; the caption must name its own device (path, model,
 * capacity in GB and GiB), the serial and firmware only when the device
 * selected is that same device, the test and what shaped it (direction,
 * accuracy, block size, capacity tested in the unit it was set in), the
 * run's date in local time, Diskscope's version and the file an opened
 * result came from; the PNG text carries the same.  Without a result, the
 * device selected and the settings Start would use, marked "not run yet".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench-erase.h"
#include "ds-bench-error-scan.h"
#include "ds-bench-file.h"
#include "ds-bench-mark.h"
#include "ds-caption.h"
#include "ds-test-util.h"

#define GiB (UINT64_C (1) << 30)
#define MiB (UINT64_C (1) << 20)

static DsDevice *
make_device (const char *path,
             uint64_t    size_bytes,
             const char *model)
{
  DsDevice *device = g_new0 (DsDevice, 1);

  device->name = g_path_get_basename (path);
  device->path = g_strdup (path);
  device->type = DS_DEVICE_DISK;
  device->size_bytes = size_bytes;
  device->model = g_strdup (model);
  device->serial = g_strdup ("S62ANJ0R654321");
  device->firmware = g_strdup ("SVT02B6Q");
  device->mountpoints = g_new0 (char *, 1);
  device->holders = g_new0 (char *, 1);
  device->partitions = g_new0 (char *, 1);

  return device;
}

static DsResult *
make_result (void)
{
  DsBenchSpec spec;
  DsResult *result;

  ds_bench_spec_init (&spec, DS_BENCH_TRANSFER);
  spec.target_path = g_strdup ("/dev/sda");
  ds_bench_spec_set_accuracy (&spec, 2);
  spec.block_size_bytes = 64 * 1024;
  spec.capacity_bytes = 200 * MiB;
  result = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);

  result->target.path = g_strdup ("/dev/sda");
  result->target.model = g_strdup ("Samsung SSD 870 EVO 500GB");
  result->target.size_bytes = 2 * GiB;
  result->target.is_block = TRUE;
  result->complete = TRUE;
  g_free (result->started_at);
  result->started_at = g_strdup ("2026-11-30T10:41:00Z");

  return result;
}

static void
assert_has (const char *text,
            const char *part)
{
  ck_assert_msg (strstr (text, part) != NULL, "“%s” is not in “%s”", part, text);
}

START_TEST (test_result_caption)
{
  g_autoptr(DsResult) result = make_result ();
  g_autoptr(DsDevice) same = make_device ("/dev/sda", 2 * GiB, "Samsung SSD 870 EVO 500GB");
  g_autoptr(DsDevice) other = make_device ("/dev/sdb", 4 * GiB, "Other Disk");
  g_autoptr(DsCaption) caption = ds_caption_new ("Benchmark", result, NULL, NULL, same);
  g_autoptr(DsCaption) elsewhere = ds_caption_new ("Benchmark", result, "/home/u/Documents/sda.json",
                                                   NULL, other);
  g_autoptr(GDateTime) created = g_date_time_new_utc (2026, 12, 1, 9, 5, 7);
  g_autoptr(GDateTime) run = g_date_time_new_from_iso8601 ("2026-11-30T10:41:00Z", NULL);
  g_autoptr(GDateTime) local = g_date_time_to_local (run);
  g_autofree char *when = g_date_time_format (local, "%Y-%m-%d %H:%M");
  g_autofree char *text = NULL;
  g_auto(GStrv) png = NULL;

  assert_has (caption->device, "/dev/sda");
  assert_has (caption->device, "Samsung SSD 870 EVO 500GB");
  assert_has (caption->device, "2.1 GB (2 GiB)");
  assert_has (caption->device, "S62ANJ0R654321");
  assert_has (caption->device, "SVT02B6Q");
  assert_has (caption->test, "Benchmark: read");
  assert_has (caption->test, "accuracy 2 (125 ms a point)");
  assert_has (caption->test, "block 64 KiB");
  assert_has (caption->test, "first 200 MiB (210 MB)");
  assert_has (caption->when, when);
  assert_has (caption->software, "Diskscope " PACKAGE_VERSION);
  ck_assert_str_eq (caption->title, "Benchmark of /dev/sda (Samsung SSD 870 EVO 500GB)");

  /* Opened while another device is selected: the result's own device,
   * without the other one's serial, and the file it came from. */
  assert_has (elsewhere->device, "/dev/sda");
  ck_assert_ptr_null (strstr (elsewhere->device, "/dev/sdb"));
  ck_assert_ptr_null (strstr (elsewhere->device, "S62ANJ0R654321"));
  assert_has (elsewhere->software, "sda.json");

  text = ds_caption_to_text (caption);
  png = ds_caption_png_text (caption, created);
  ck_assert_str_eq (png[0], "Title");
  ck_assert_str_eq (png[1], caption->title);
  ck_assert_str_eq (png[2], "Description");
  ck_assert_str_eq (png[3], text);
  assert_has (png[3], caption->device);
  assert_has (png[3], caption->test);
  ck_assert_str_eq (png[4], "Creation Time");
  ck_assert_str_eq (png[5], "Tue, 01 Dec 2026 09:05:07 +0000");
  ck_assert_str_eq (png[6], "Software");
  ck_assert_str_eq (png[7], "Diskscope " PACKAGE_VERSION);
  ck_assert_ptr_null (png[8]);
}
END_TEST

START_TEST (test_states)
{
  g_autoptr(DsResult) stopped = make_result ();
  g_autoptr(DsResult) older = make_result ();
  g_autoptr(DsDevice) device = make_device ("/dev/sda", 2 * GiB, NULL);
  g_autoptr(DsCaption) stopped_caption = NULL;
  g_autoptr(DsCaption) older_caption = NULL;
  g_autoptr(DsCaption) before = NULL;
  g_autoptr(DsCaption) info = NULL;
  DsBenchSpec spec;

  stopped->complete = FALSE;
  stopped->cancelled = TRUE;
  stopped->spec.write = TRUE;
  stopped_caption = ds_caption_new ("Benchmark", stopped, NULL, NULL, NULL);
  assert_has (stopped_caption->test, "Benchmark: write");
  assert_has (stopped_caption->test, "stopped before the end");

  g_free (older->tool_version);
  older->tool_version = g_strdup ("0.0.9");
  older_caption = ds_caption_new ("Benchmark", older, NULL, NULL, NULL);
  assert_has (older_caption->software, "measured with 0.0.9");

  /* Not run yet: the device selected and what Start would run. */
  ds_bench_spec_init (&spec, DS_BENCH_RANDOM_ACCESS);
  spec.target_path = g_strdup ("/dev/sda");
  ds_bench_spec_set_accuracy (&spec, 3);
  before = ds_caption_new ("Random Access", NULL, NULL, &spec, device);
  ds_bench_spec_clear (&spec);
  assert_has (before->device, "/dev/sda");
  assert_has (before->device, "S62ANJ0R654321");
  assert_has (before->test, "Random Access: read");
  assert_has (before->test, "3 s a row");
  assert_has (before->test, "whole device");
  assert_has (before->test, "not run yet");

  /* The cache probe's write variant says so. */
  {
    g_autoptr(DsCaption) probe = NULL;
    g_autoptr(DsCaption) write_probe = NULL;

    ds_bench_spec_init (&spec, DS_BENCH_CACHE);
    spec.target_path = g_strdup ("/dev/sda");
    spec.block_size_bytes = 256 * 1024;
    probe = ds_caption_new ("Cache Probe", NULL, NULL, &spec, device);
    ck_assert_ptr_null (strstr (probe->test, "write-back"));
    spec.write = TRUE;
    write_probe = ds_caption_new ("Cache Probe", NULL, NULL, &spec, device);
    ds_bench_spec_clear (&spec);
    assert_has (write_probe->test, "Cache Probe: write-back cache");
    assert_has (write_probe->test, "block 256 KiB");
  }

  /* A page without a test is named alone. */
  info = ds_caption_new ("Info", NULL, NULL, NULL, device);
  ck_assert_str_eq (info->test, "Info");
  assert_has (info->device, "/dev/sda");
}
END_TEST

/* Each page's caption says what shaped its own run (issue 25): no "block
 * 64 KiB" for Workloads (each row has its own) or Health (no block at
 * all), and the file tested as it was, not as asked. */
START_TEST (test_kinds_say_their_own)
{
  g_autoptr(DsDevice) device = make_device ("/dev/sda", 2 * GiB, NULL);
  DsBenchSpec spec;

  {
    g_autoptr(DsCaption) mark = NULL;
    g_autoptr(DsCaption) rows = NULL;

    ds_bench_spec_init (&spec, DS_BENCH_MARK);
    spec.target_path = g_strdup ("/dev/sda");
    mark = ds_caption_new ("Workloads", NULL, NULL, &spec, device);
    assert_has (mark->test, "Workloads: cdm-default");
    assert_has (mark->test, "test size 1 GiB");
    assert_has (mark->test, "best of 5 × 5 s");
    ck_assert_msg (strstr (mark->test, "block") == NULL, "%s", mark->test);
    ds_mark_options (&spec)->rows = g_strdup ("randread,4k,qd1,t1,1s");
    ds_mark_options (&spec)->reads_only = TRUE;
    rows = ds_caption_new ("Workloads", NULL, NULL, &spec, device);
    assert_has (rows->test, "Workloads: custom rows · reads only");
    ck_assert_msg (strstr (rows->test, "× 5 s") == NULL, "%s", rows->test);
    ds_bench_spec_clear (&spec);
  }
  {
    /* An opened mark: its own runs and time (a file's params do not keep
     * them: the loaded spec has the preset's 5 × 5 s). */
    g_autoptr(DsResult) ran = NULL;
    g_autoptr(DsCaption) caption = NULL;
    DsMarkData *data;

    ds_bench_spec_init (&spec, DS_BENCH_MARK);
    spec.target_path = g_strdup ("/dev/sda");
    ran = ds_result_new (&spec);
    ds_bench_spec_clear (&spec);
    ran->target.path = g_strdup ("/dev/sda");
    ran->complete = TRUE;
    data = ran->data;
    data->preset = g_strdup ("cdm-default");
    data->count = 1;
    data->duration_s = 2;
    data->test_size_bytes = 512 * MiB;
    caption = ds_caption_new ("Workloads", ran, "/tmp/mark.json", NULL, NULL);
    assert_has (caption->test, "Workloads: cdm-default · reads only · test size 512 MiB · best of 1 × 2 s");
  }
  {
    g_autoptr(DsResult) failed = NULL;
    g_autoptr(DsCaption) health = NULL;
    g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "smartctl failed");

    ds_bench_spec_init (&spec, DS_BENCH_HEALTH);
    spec.target_path = g_strdup ("/dev/sda");
    failed = ds_result_new (&spec);
    ds_bench_spec_clear (&spec);
    failed->target.path = g_strdup ("/dev/sda");
    ds_result_set_error (failed, error, 0, -1);
    health = ds_caption_new ("Health", failed, NULL, NULL, NULL);
    ck_assert_str_eq (health->test, "Health: ended with an error");
  }
  {
    g_autoptr(DsResult) file = NULL;
    g_autoptr(DsCaption) caption = NULL;

    ds_bench_spec_init (&spec, DS_BENCH_FILE);
    spec.target_path = g_strdup ("/mnt/data");
    file = ds_result_new (&spec);
    ds_bench_spec_clear (&spec);
    file->target.path = g_strdup ("/mnt/data");
    file->complete = TRUE;
    ((DsFileData *) file->data)->file_bytes = 897 * MiB;
    caption = ds_caption_new ("File Benchmark", file, NULL, NULL, NULL);
    assert_has (caption->test, "test file 897 MiB (1 GiB asked: the free space)");
  }
  {
    g_autoptr(DsCaption) workload = NULL;
    g_autoptr(DsCaption) scan = NULL;
    g_autoptr(DsCaption) erase = NULL;

    ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
    spec.target_path = g_strdup ("/dev/sda");
    spec.block_size_bytes = 4096;
    spec.queue_depth = 32;
    workload = ds_caption_new ("Workload", NULL, NULL, &spec, device);
    ds_bench_spec_clear (&spec);
    assert_has (workload->test, "Workload: randread · block 4 KiB · queue depth 32 · 1 thread");
    ds_bench_spec_init (&spec, DS_BENCH_ERROR_SCAN);
    spec.target_path = g_strdup ("/dev/sda");
    ds_error_scan_options (&spec)->quick = TRUE;
    scan = ds_caption_new ("Error Scan", NULL, NULL, &spec, device);
    ds_bench_spec_clear (&spec);
    assert_has (scan->test, "Error Scan: quick (sampled) · block 128 KiB");
    ds_bench_spec_init (&spec, DS_BENCH_ERASE);
    spec.target_path = g_strdup ("/dev/sda");
    ds_erase_options (&spec)->verify = TRUE;
    erase = ds_caption_new ("Erase", NULL, NULL, &spec, device);
    ds_bench_spec_clear (&spec);
    assert_has (erase->test, "Erase: zeros · verified");
    ck_assert_msg (strstr (erase->test, "block") == NULL, "%s", erase->test);
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("caption");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_result_caption);
  tcase_add_test (tc, test_states);
  tcase_add_test (tc, test_kinds_say_their_own);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
