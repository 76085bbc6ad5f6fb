/* test-warnings.c: the warnings' rules on facts alone, the diskstats
 * delta, the zero check, the device stack on a made-up /sys, and the
 * warnings and environment through save and load
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "ds-diskstats.h"
#include "ds-environment.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run-watch.h"
#include "ds-test-util.h"
#include "ds-warnings.h"

#define MIB (UINT64_C (1) << 20)

static const char diskstats[] =
  "   7       3 loop3 120 0 2048 10 0 0 0 0 0 12 10 0 0 0 0 0 0\n"
  "   8       0 sda 5000 10 80000 900 700 5 16000 300 0 1000 1200 0 0 0 0 0 0\n"
  "   8       1 sda1 4000 10 64000 800 600 5 8000 200 0 900 1000 0 0 0 0 0 0\n"
  "   8       2 sda\n";

START_TEST (test_diskstats_parse)
{
  DsDiskstats d;

  ck_assert (ds_diskstats_parse (diskstats, "sda1", &d));
  ck_assert (d.valid);
  ck_assert_uint_eq (d.sectors_read, 64000);
  ck_assert_uint_eq (d.sectors_written, 8000);
  /* "sda" is not "sda1", and the cut line further down is not "sda". */
  ck_assert (ds_diskstats_parse (diskstats, "sda", &d));
  ck_assert_uint_eq (d.sectors_read, 80000);
  ck_assert (!ds_diskstats_parse (diskstats, "sdb", &d));
  ck_assert (!d.valid);
  ck_assert (!ds_diskstats_parse (NULL, "sda", &d));
}
END_TEST

START_TEST (test_diskstats_delta)
{
  DsDiskstats a = { TRUE, 1000, 2000 }, b = { TRUE, 1000 + 2048 * 10, 2000 + 2048 };
  DsDiskstats bad = { FALSE, 0, 0 }, back = { TRUE, 10, 2000 };
  uint64_t total = 0;

  /* 10 MiB read and 1 MiB written; we read 8 MiB and wrote 1 MiB. */
  ck_assert_uint_eq (ds_diskstats_other_bytes (&a, &b, 8 * MIB, 1 * MIB, &total), 2 * MIB);
  ck_assert_uint_eq (total, 11 * MIB);
  /* Our writes do not hide someone's reads. */
  ck_assert_uint_eq (ds_diskstats_other_bytes (&a, &b, 8 * MIB, 100 * MIB, NULL), 2 * MIB);
  /* Everything ours, or more than the kernel counted (a partial last
   * sector): nothing other. */
  ck_assert_uint_eq (ds_diskstats_other_bytes (&a, &b, 10 * MIB, 1 * MIB, NULL), 0);
  ck_assert_uint_eq (ds_diskstats_other_bytes (&a, &b, 11 * MIB, 2 * MIB, NULL), 0);
  /* Without both snapshots, or counters that went back: no judgement. */
  ck_assert_uint_eq (ds_diskstats_other_bytes (&bad, &b, 0, 0, &total), 0);
  ck_assert_uint_eq (total, 0);
  ck_assert_uint_eq (ds_diskstats_other_bytes (&a, &back, 0, 0, NULL), 0);
}
END_TEST

START_TEST (test_is_zero)
{
  static unsigned char buf[65536];

  memset (buf, 0, sizeof buf);
  ck_assert (ds_buffer_is_zero (buf, sizeof buf));
  ck_assert (ds_buffer_is_zero (buf, 1));
  buf[sizeof buf - 1] = 1;
  ck_assert (!ds_buffer_is_zero (buf, sizeof buf));
  ck_assert (ds_buffer_is_zero (buf, sizeof buf - 1));
  memset (buf, 7, sizeof buf);
  ck_assert (!ds_buffer_is_zero (buf, sizeof buf));
}
END_TEST

static gboolean
has_code (GPtrArray  *w,
          const char *code)
{
  for (guint i = 0; i < w->len; i++)
    if (strcmp (((DsWarning *) w->pdata[i])->code, code) == 0)
      return TRUE;
  return FALSE;
}

static const char *
message_of (GPtrArray  *w,
            const char *code)
{
  for (guint i = 0; i < w->len; i++)
    if (strcmp (((DsWarning *) w->pdata[i])->code, code) == 0)
      return ((DsWarning *) w->pdata[i])->message;
  return NULL;
}

START_TEST (test_rules_quiet)
{
  /* A disk, our own I/O only, real data, a region far above the cache. */
  DsWarnFacts f = {
    .other_judged = TRUE, .other_bytes = 512 * 1024, .ours_bytes = 100 * MIB,
    .zero_sampled = 100, .region_bytes = 1000 * MIB, .cache_bytes = 64 * MIB,
    .ram_bytes = 100 * MIB, .file_buffered = FALSE, .rotational = TRUE,
    .random_read_mean_s = 0.008, .random_write_mean_s = 0.004,
  };
  g_autoptr (GPtrArray) w = ds_warnings_judge (&f);

  ck_assert_uint_eq (w->len, 0);
}
END_TEST

START_TEST (test_rules_each)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new ();
  DsWarnFacts f = { 0 };
  g_autoptr (GPtrArray) w = NULL;

  f.loop_no_dio = "loop3 over /x.img";
  w = ds_warnings_judge (&f);
  ck_assert_uint_eq (w->len, 1);
  ck_assert_str_eq (((DsWarning *) w->pdata[0])->code, "loop_no_direct_io");
  ck_assert (strstr (message_of (w, "loop_no_direct_io"), "page cache") != NULL);
  ck_assert (strstr (message_of (w, "loop_no_direct_io"), "loop3 over /x.img") != NULL);
  g_clear_pointer (&w, g_ptr_array_unref);

  f = (DsWarnFacts) { .cache_layer = "bcache0" };
  w = ds_warnings_judge (&f);
  ck_assert (has_code (w, "cache_layer") && w->len == 1);
  g_clear_pointer (&w, g_ptr_array_unref);

  /* other_io: above 5 % and 1 MiB; not at 5 %, not below 1 MiB, not when
   * not judged. */
  f = (DsWarnFacts) { .other_judged = TRUE, .other_bytes = 6 * MIB, .ours_bytes = 100 * MIB };
  w = ds_warnings_judge (&f);
  ck_assert (has_code (w, "other_io"));
  g_clear_pointer (&w, g_ptr_array_unref);
  f.other_bytes = 5 * MIB;
  w = ds_warnings_judge (&f);
  ck_assert (!has_code (w, "other_io"));
  g_clear_pointer (&w, g_ptr_array_unref);
  f = (DsWarnFacts) { .other_judged = TRUE, .other_bytes = 4 * MIB - 1, .ours_bytes = 1 };
  w = ds_warnings_judge (&f);
  ck_assert (!has_code (w, "other_io"));
  g_clear_pointer (&w, g_ptr_array_unref);
  f = (DsWarnFacts) { .other_judged = FALSE, .other_bytes = 100 * MIB, .ours_bytes = 1 };
  w = ds_warnings_judge (&f);
  ck_assert (!has_code (w, "other_io"));
  g_clear_pointer (&w, g_ptr_array_unref);

  /* zero_reads names the rows. */
  g_ptr_array_add (rows, (gpointer) "4 KiB random, QD 1 × 1");
  g_ptr_array_add (rows, (gpointer) "1 MiB sequential at 0 bytes, QD 1 × 1");
  f = (DsWarnFacts) { .zero_sampled = 40, .zero_found = 12, .zero_rows = rows };
  w = ds_warnings_judge (&f);
  ck_assert (has_code (w, "zero_reads"));
  ck_assert (strstr (message_of (w, "zero_reads"), "12 of 40") != NULL);
  ck_assert (strstr (message_of (w, "zero_reads"), "4 KiB random, QD 1 × 1; 1 MiB sequential") != NULL);
  g_clear_pointer (&w, g_ptr_array_unref);

  f = (DsWarnFacts) { .region_bytes = 64 * MIB, .cache_bytes = 64 * MIB };
  w = ds_warnings_judge (&f);
  ck_assert (has_code (w, "region_below_cache"));
  g_clear_pointer (&w, g_ptr_array_unref);
  f.region_bytes = 65 * MIB;
  w = ds_warnings_judge (&f);
  ck_assert_uint_eq (w->len, 0);
  g_clear_pointer (&w, g_ptr_array_unref);

  /* Only a buffered file test is held by RAM. */
  f = (DsWarnFacts) { .file_buffered = TRUE, .region_bytes = MIB, .ram_bytes = 1024 * MIB };
  w = ds_warnings_judge (&f);
  ck_assert (has_code (w, "file_below_ram"));
  g_clear_pointer (&w, g_ptr_array_unref);
  f.file_buffered = FALSE;
  w = ds_warnings_judge (&f);
  ck_assert_uint_eq (w->len, 0);
  g_clear_pointer (&w, g_ptr_array_unref);

  /* A rotating disk cannot seek in 0.1 ms; an SSD can. */
  f = (DsWarnFacts) { .rotational = TRUE, .random_read_mean_s = 0.0001 };
  w = ds_warnings_judge (&f);
  ck_assert (has_code (w, "faster_than_media"));
  g_clear_pointer (&w, g_ptr_array_unref);
  f.rotational = FALSE;
  w = ds_warnings_judge (&f);
  ck_assert_uint_eq (w->len, 0);
  g_clear_pointer (&w, g_ptr_array_unref);

  /* Writes 20x faster than reads: absorbed; 5x: not judged so. */
  f = (DsWarnFacts) { .random_read_mean_s = 0.010, .random_write_mean_s = 0.0005 };
  w = ds_warnings_judge (&f);
  ck_assert (has_code (w, "write_back_cache"));
  g_clear_pointer (&w, g_ptr_array_unref);
  f.random_write_mean_s = 0.002;
  w = ds_warnings_judge (&f);
  ck_assert_uint_eq (w->len, 0);
}
END_TEST

/* A made-up /sys: dm-0 (dm-crypt) over sda2 (a partition of sda), and md0
 * (raid1) over loop1 (no direct I/O) and bcache0. */
static char *
fake_sysfs (void)
{
  g_autofree char *root = ds_test_scratch_path ("sys");
  struct { const char *path, *text; } files[] = {
    { "devices/dm-0/dm/uuid", "CRYPT-LUKS2-abc-luks\n" },
    { "devices/dm-0/dm/name", "luks\n" },
    { "devices/sda/sda2/partition", "2\n" },
    { "devices/sda/queue/rotational", "1\n" },
    { "devices/md0/md/level", "raid1\n" },
    { "devices/loop1/loop/backing_file", "/var/img\n" },
    { "devices/loop1/loop/dio", "0\n" },
    { "devices/bcache0/size", "100\n" },
  };
  struct { const char *link, *target; } links[] = {
    { "block/dm-0", "../devices/dm-0" },
    { "block/sda", "../devices/sda" },
    { "block/md0", "../devices/md0" },
    { "block/loop1", "../devices/loop1" },
    { "block/bcache0", "../devices/bcache0" },
    { "class/block/dm-0", "../../devices/dm-0" },
    { "class/block/sda", "../../devices/sda" },
    { "class/block/sda2", "../../devices/sda/sda2" },
    { "class/block/md0", "../../devices/md0" },
    { "class/block/loop1", "../../devices/loop1" },
    { "class/block/bcache0", "../../devices/bcache0" },
    { "devices/dm-0/slaves/sda2", "../../sda/sda2" },
    { "devices/md0/slaves/loop1", "../../loop1" },
    { "devices/md0/slaves/bcache0", "../../bcache0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *p = g_build_filename (root, files[i].path, NULL);
      g_autofree char *dir = g_path_get_dirname (p);

      ck_assert (g_mkdir_with_parents (dir, 0755) == 0);
      ck_assert (g_file_set_contents (p, files[i].text, -1, NULL));
    }
  for (guint i = 0; i < G_N_ELEMENTS (links); i++)
    {
      g_autofree char *p = g_build_filename (root, links[i].link, NULL);
      g_autofree char *dir = g_path_get_dirname (p);

      ck_assert (g_mkdir_with_parents (dir, 0755) == 0);
      ck_assert (symlink (links[i].target, p) == 0);
    }

  return g_steal_pointer (&root);
}

static const char *
layer (JsonArray  *stack,
       guint       i,
       const char *member)
{
  JsonObject *o = json_array_get_object_element (stack, i);

  return json_object_get_string_member (o, member);
}

START_TEST (test_stack)
{
  g_autofree char *sys = fake_sysfs ();
  DsEnvironment env = { 0 };
  JsonArray *stack;

  stack = ds_environment_stack (&env, sys, "dm-0");
  ck_assert_uint_eq (json_array_get_length (stack), 3);
  ck_assert_str_eq (layer (stack, 0, "type"), "dm-crypt");
  ck_assert_str_eq (layer (stack, 1, "name"), "sda2");
  ck_assert_str_eq (layer (stack, 1, "type"), "partition");
  ck_assert_str_eq (layer (stack, 1, "partition_of"), "sda");
  ck_assert_str_eq (layer (stack, 2, "type"), "disk");
  ck_assert (env.loop_no_dio == NULL && env.cache_layer == NULL);
  json_array_unref (stack);

  stack = ds_environment_stack (&env, sys, "md0");
  ck_assert_uint_eq (json_array_get_length (stack), 3);
  ck_assert_str_eq (layer (stack, 0, "type"), "md");
  ck_assert_str_eq (layer (stack, 0, "raid_level"), "raid1");
  ck_assert_str_eq (layer (stack, 1, "type"), "bcache");
  ck_assert_str_eq (layer (stack, 2, "type"), "loop");
  ck_assert_str_eq (layer (stack, 2, "backing_file"), "/var/img");
  ck_assert (!json_object_get_boolean_member (json_array_get_object_element (stack, 2), "direct_io"));
  ck_assert_str_eq (env.loop_no_dio, "loop1 over /var/img");
  ck_assert_str_eq (env.cache_layer, "bcache0");
  ck_assert (env.virtual_layer);
  json_array_unref (stack);
  g_free (env.loop_no_dio);
  g_free (env.cache_layer);
}
END_TEST

/* The environment's lines say what is known, and no "?" for what a
 * filesystem does not have (issue 25: "Filesystem: ext4 (rw,relatime),
 * compression ?"), nor "? KiB". */
START_TEST (test_environment_words)
{
  static const struct { const char *type; const char *compression; const char *want; } cases[] = {
    { "ext4", NULL, "  Filesystem: ext4 (rw,relatime)\n" },
    { "btrfs", "zstd:3", "  Filesystem: btrfs (rw,relatime), compression zstd:3\n" },
    { "btrfs", NULL, "  Filesystem: btrfs (rw,relatime), no compression\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (JsonObject) e = json_object_new ();
      JsonObject *fs = json_object_new ();
      g_autoptr (GString) out = g_string_new (NULL);

      json_object_set_string_member (e, "device", "sda");
      json_object_set_null_member (e, "read_ahead_kb");
      json_object_set_string_member (fs, "type", cases[i].type);
      json_object_set_string_member (fs, "mount_options", "rw,relatime");
      if (cases[i].compression != NULL)
        json_object_set_string_member (fs, "compression", cases[i].compression);
      else
        json_object_set_null_member (fs, "compression");
      json_object_set_object_member (e, "filesystem", fs);
      ds_environment_report (e, "6.1.0", out);
      ck_assert_msg (strstr (out->str, cases[i].want) != NULL, "%s", out->str);
      ck_assert_msg (strstr (out->str, "?") == NULL || strstr (out->str, "compression ?") == NULL,
                     "%s", out->str);
      ck_assert_msg (strstr (out->str, "read-ahead not reported,") != NULL &&
                     strstr (out->str, "? KiB") == NULL, "%s", out->str);
    }
}
END_TEST

/* Warnings and the environment through save and load, and into the report;
 * a malformed warning is refused. */
START_TEST (test_json_round_trip)
{
  DsBenchSpec spec;
  g_autoptr (DsResult) result = NULL;
  g_autoptr (DsResult) loaded = NULL;
  g_autoptr (DsEnvironment) env = ds_environment_collect ("/", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *again = NULL;
  g_autofree char *report = NULL;
  g_autoptr (GString) bad = NULL;

  ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
  spec.target_path = g_strdup ("/dev/loop9");
  result = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  result->target.path = g_strdup ("/dev/loop9");
  result->target.is_block = TRUE;
  result->environment = json_object_ref (env->json);
  g_ptr_array_add (result->warnings, ds_warning_new ("other_io", "Something else used the device"));
  g_ptr_array_add (result->warnings, ds_warning_new ("zero_reads", "12 of 40 reads, “quoted”"));

  data = ds_result_to_data (result, NULL);
  loaded = ds_result_load_data (data, -1, &error);
  ck_assert_msg (loaded != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (loaded->warnings->len, 2);
  ck_assert_str_eq (((DsWarning *) loaded->warnings->pdata[1])->code, "zero_reads");
  ck_assert_str_eq (((DsWarning *) loaded->warnings->pdata[1])->message, "12 of 40 reads, “quoted”");
  ck_assert (loaded->environment != NULL);
  ck_assert (json_object_has_member (loaded->environment, "filesystem"));
  ck_assert (json_object_has_member (loaded->environment, "memory_bytes"));
  ck_assert (!json_object_has_member (loaded->environment, "kernel"));
  ck_assert_str_eq (loaded->kernel, result->kernel);
  again = ds_result_to_data (loaded, NULL);
  ck_assert_str_eq (again, data);

  report = ds_report_text (loaded, DS_UNITS_MB);
  ck_assert_msg (strstr (report, "Warnings") != NULL && strstr (report, "[other_io]") != NULL, "%s", report);
  ck_assert_msg (strstr (report, "Environment: kernel") != NULL, "%s", report);
  ck_assert_msg (strstr (report, "Filesystem: ") != NULL, "%s", report);

  bad = g_string_new (data);
  g_string_replace (bad, "\"code\" : \"other_io\"", "\"code\" : 7", 1);
  ck_assert_str_ne (bad->str, data);
  g_clear_pointer (&loaded, ds_result_free);
  loaded = ds_result_load_data (bad->str, -1, &error);
  ck_assert (loaded == NULL);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert (strstr (error->message, "warnings[0]") != NULL);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("warnings");
  TCase *tc = tcase_create ("warnings");

  ds_test_init ("warnings");
  tcase_add_test (tc, test_diskstats_parse);
  tcase_add_test (tc, test_diskstats_delta);
  tcase_add_test (tc, test_is_zero);
  tcase_add_test (tc, test_rules_quiet);
  tcase_add_test (tc, test_rules_each);
  tcase_add_test (tc, test_stack);
  tcase_add_test (tc, test_json_round_trip);
  tcase_add_test (tc, test_environment_words);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
