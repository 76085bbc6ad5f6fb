/* test-cli-history.c: `diskscope-cli results` over the library's index: a
 * device's history, imports of a result already there, hand edits seen by
 * the next list, the saved id said to a script (no root, no device)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-result-json.h"
#include "ds-test-library.h"
#include "ds-test-util.h"

static char *lib;

static void
setup (void)
{
  lib = g_strdup_printf ("%s/lib-XXXXXX", ds_test_scratch_dir ());
  ck_assert_ptr_nonnull (g_mkdtemp_full (lib, 0755));
  g_setenv ("DISKSCOPE_RESULTS_DIR", lib, TRUE);
}

static void
teardown (void)
{
  g_unsetenv ("DISKSCOPE_RESULTS_DIR");
  g_clear_pointer (&lib, g_free);
}

/* A read benchmark of the disk with @wwn (NULL: none recorded) and
 * @serial at @path, averaging @avg. */
static void
put_drive (const char *name,
           const char *wwn,
           const char *serial,
           const char *path,
           double      avg,
           const char *started_at)
{
  g_autoptr (DsResult) r = ds_test_library_transfer ("WDC WD40EFRX", UINT64_C (4000787030016),
                                                     avg * 0.8, avg * 1.2, 0.012, started_at);
  g_autoptr (GError) error = NULL;
  g_autofree char *file = g_strdup_printf ("%s/%s.json", lib, name);

  g_free (r->target.path);
  r->target.path = g_strdup (path);
  r->target.serial = g_strdup (serial);
  r->target.wwn = g_strdup (wwn);
  ck_assert_msg (ds_result_save (r, file, &error), "%s", error ? error->message : "");
}

/* The same, of a disk that reports no WWN. */
static void
put (const char *name,
     const char *serial,
     const char *path,
     double      avg,
     const char *started_at)
{
  put_drive (name, NULL, serial, path, avg, started_at);
}

static int
cli (char      **out,
     char      **err,
     const char *first,
     ...) G_GNUC_NULL_TERMINATED;

static int
cli (char      **out,
     char      **err,
     const char *first,
     ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  va_list args;

  g_ptr_array_add (argv, (gpointer) ds_test_cli_path ());
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  return ds_test_run ((const char *const *) argv->pdata, out, err);
}

/* One disk seen as sdb, then sdc, then sda (its /dev name changed between
 * boots), and another disk: the history is the first disk's three runs,
 * oldest first, with the change since the first. */
START_TEST (test_history_by_serial)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  const char *p1, *p2, *p3;
  JsonArray *devices;

  put ("20240101-100000-benchmark-sdb", "WD-WCC7K1", "/dev/sdb", 1.5e8, "2024-01-01T10:00:00Z");
  put ("20240301-100000-benchmark-sda", "WD-WCC7K1", "/dev/sda", 1.2e8, "2024-03-01T10:00:00Z");
  put ("20240201-100000-benchmark-sdc", "WD-WCC7K1", "/dev/sdc", 1.35e8, "2024-02-01T10:00:00Z");
  put ("20240215-100000-benchmark-sdb", "WD-OTHER9", "/dev/sdb", 1.9e8, "2024-02-15T10:00:00Z");

  ck_assert_int_eq (cli (&out, &err, "results", "history", NULL), 0);
  ck_assert_msg (strstr (out, "2 devices") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "serial WD-WCC7K1") != NULL && strstr (out, "3 results") != NULL, "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  ck_assert_int_eq (cli (&out, &err, "results", "history", "WD-WCC7K1", NULL), 0);
  ck_assert_msg (strstr (out, "benchmark — Read transfer rate") != NULL, "%s", out);
  p1 = strstr (out, "20240101-100000-benchmark-sdb");
  p2 = strstr (out, "20240201-100000-benchmark-sdc");
  p3 = strstr (out, "20240301-100000-benchmark-sda");
  ck_assert_msg (p1 != NULL && p2 != NULL && p3 != NULL && p1 < p2 && p2 < p3, "%s", out);
  ck_assert_msg (strstr (out, "150.0 MB/s") != NULL && strstr (out, "120.0 MB/s") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "-10.0%") != NULL && strstr (out, "-20.0%") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "20240215-100000-benchmark-sdb") == NULL, "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* A result's id names its device too; --json for scripts. */
  ck_assert_int_eq (cli (&out, &err, "results", "history", "20240215", "--json", NULL), 0);
  ck_assert_msg (json_parser_load_from_data (parser, out, -1, &error), "%s", out);
  devices = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "devices");
  ck_assert_uint_eq (json_array_get_length (devices), 1);
  ck_assert_str_eq (json_object_get_string_member (json_array_get_object_element (devices, 0), "serial"),
                    "WD-OTHER9");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  ck_assert_int_eq (cli (&out, &err, "results", "history", "no-such-disk", NULL), 1);
  ck_assert_msg (strstr (err, "no results of a device") != NULL, "%s", err);
}
END_TEST

/* A WWN is the drive's own name: runs of one WWN under four /dev names
 * and two spellings ("0x5000c500…", "5000C500…") are one device, and a run
 * that recorded no WWN (an import, a USB bridge hiding it) joins it by its
 * serial.  Two disks behind one bridge that reports its own serial for
 * both are two devices, and a run of that serial without a WWN joins
 * neither. */
START_TEST (test_history_by_wwn)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *p1, *p2, *p3, *p4;

  put_drive ("20240101-100000-benchmark-sdb", "0x5000c500a1b2c3d4", "ZA1B2C3D", "/dev/sdb", 2.0e8,
             "2024-01-01T10:00:00Z");
  put_drive ("20240201-100000-benchmark-sdc", "5000C500A1B2C3D4", "ZA1B2C3D ", "/dev/sdc", 1.9e8,
             "2024-02-01T10:00:00Z");
  put_drive ("20240301-100000-benchmark-sdd", NULL, "ZA1B2C3D", "/dev/sdd", 1.8e8, "2024-03-01T10:00:00Z");
  put_drive ("20240401-100000-benchmark-sde", "0x5000c500a1b2c3d4", NULL, "/dev/sde", 1.6e8,
             "2024-04-01T10:00:00Z");
  put_drive ("20240215-100000-benchmark-usb1", "0x5000c500ffff0001", "BRIDGE01", "/dev/sdf", 2.5e8,
             "2024-02-15T10:00:00Z");
  put_drive ("20240216-100000-benchmark-usb2", "0x5000c500ffff0002", "BRIDGE01", "/dev/sdf", 2.4e8,
             "2024-02-16T10:00:00Z");
  put_drive ("20240217-100000-benchmark-usb3", NULL, "BRIDGE01", "/dev/sdf", 2.3e8, "2024-02-17T10:00:00Z");

  ck_assert_int_eq (cli (&out, &err, "results", "history", NULL), 0);
  ck_assert_msg (strstr (out, "4 devices") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "4 results") != NULL, "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Named by its WWN in any case, or by any of its results. */
  for (guint i = 0; i < 2; i++)
    {
      ck_assert_int_eq (cli (&out, &err, "results", "history",
                             i == 0 ? "0X5000C500A1B2C3D4" : "20240301-100000-benchmark-sdd", NULL), 0);
      p1 = strstr (out, "20240101-100000-benchmark-sdb");
      p2 = strstr (out, "20240201-100000-benchmark-sdc");
      p3 = strstr (out, "20240301-100000-benchmark-sdd");
      p4 = strstr (out, "20240401-100000-benchmark-sde");
      ck_assert_msg (p1 != NULL && p2 != NULL && p3 != NULL && p4 != NULL && p1 < p2 && p2 < p3 && p3 < p4,
                     "%s", out);
      ck_assert_msg (strstr (out, "-20.0%") != NULL && strstr (out, "usb") == NULL, "%s", out);
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
    }

  ck_assert_int_eq (cli (&out, &err, "results", "history", "0x5000c500ffff0002", NULL), 0);
  ck_assert_msg (strstr (out, "benchmark-usb2") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "benchmark-usb1") == NULL && strstr (out, "benchmark-usb3") == NULL, "%s", out);
}
END_TEST

/* Health follows what warns first: two readings of one drive, the second
 * with 8 sectors reallocated, show as 0 then 8 (and +∞ is not a change
 * worth a percentage: the first is 0). */
START_TEST (test_health_history_follows_reallocations)
{
  g_autofree char *fixture = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl",
                                               "HGST_HUS724020ALE640_28.json", NULL);
  g_autofree char *later = g_build_filename (lib, "..", "hgst-later.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *raw = "\"raw\": {\n\t\t\t\t\t\"string\": \"0\",\n\t\t\t\t\t\"value\": 0\n";
  const char *eight = "\"raw\": {\n\t\t\t\t\t\"string\": \"8\",\n\t\t\t\t\t\"value\": 8\n";
  char *name, *at;
  GString *edited;
  const char *zero, *eight_at;

  ck_assert (g_file_get_contents (fixture, &text, NULL, NULL));
  name = strstr (text, "\"Reallocated_Sector_Ct\"");
  ck_assert_ptr_nonnull (name);
  at = strstr (name, raw);
  ck_assert_ptr_nonnull (at);
  edited = g_string_new_len (text, at - text);
  g_string_append (edited, eight);
  g_string_append (edited, at + strlen (raw));
  ck_assert (g_file_set_contents (later, edited->str, -1, NULL));
  g_string_free (edited, TRUE);

  ck_assert_int_eq (cli (&out, &err, "health", "--from-json", fixture, "--no-progress", NULL), 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_usleep (1100 * 1000);   /* another second: another id, a later date */
  ck_assert_int_eq (cli (&out, &err, "health", "--from-json", later, "--no-progress", NULL), 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  ck_assert_int_eq (cli (&out, &err, "results", "history", "HUS724020", NULL), 0);
  ck_assert_msg (strstr (out, "health — Health, ATA attributes, 5 Reallocated_Sector_Ct count") != NULL,
                 "%s", out);
  zero = strstr (out, "               0  ");
  eight_at = strstr (out, "               8  ");
  ck_assert_msg (zero != NULL && eight_at != NULL && zero < eight_at, "%s", out);
  g_unlink (later);
}
END_TEST

START_TEST (test_import_twice_keeps_one)
{
  g_autofree char *file = g_strdup_printf ("%s/elsewhere.json", ds_test_scratch_dir ());
  g_autoptr (DsResult) r = ds_test_library_workload ("Disk", DS_PATTERN_RANDREAD, 1e8, 1e-4,
                                                     "2020-05-01T00:00:00Z");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  ck_assert (ds_result_save (r, file, NULL));
  ck_assert_int_eq (cli (&out, &err, "results", "import", file, NULL), 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  ck_assert_int_eq (cli (&out, &err, "results", "import", file, NULL), 0);
  ck_assert_msg (strstr (out, "already in the library") != NULL, "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  ck_assert_int_eq (cli (&out, &err, "results", "list", NULL), 0);
  ck_assert_msg (strstr (out, "1 result in") != NULL, "%s", out);
  ck_assert_msg (strstr (out, "-2 ") == NULL, "%s", out);
}
END_TEST

/* A list after a file was edited by hand or dropped in shows it; so does
 * one after the index was deleted. */
START_TEST (test_list_sees_hand_edits)
{
  g_autofree char *file = g_strdup_printf ("%s/20240101-100000-benchmark-sdb.json", lib);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (DsResult) r = NULL;

  put ("20240101-100000-benchmark-sdb", "S1", "/dev/sdb", 1.5e8, "2024-01-01T10:00:00Z");
  ck_assert_int_eq (cli (&out, &err, "results", "list", NULL), 0);
  ck_assert_msg (strstr (out, "WDC WD40EFRX /dev/sdb · 2024-01-01") != NULL, "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  r = ds_result_load (file, NULL);
  ck_assert_ptr_nonnull (r);
  ck_assert (ds_annotation_set_label (&r->annotation, "relabelled in an editor", NULL));
  ck_assert (ds_annotation_add_tag (&r->annotation, "by-hand", NULL));
  ck_assert (ds_result_save (r, file, NULL));
  put ("20240102-100000-benchmark-sdb", "S1", "/dev/sdb", 1.4e8, "2024-01-02T10:00:00Z");

  ck_assert_int_eq (cli (&out, &err, "results", "list", "--tag", "by-hand", NULL), 0);
  ck_assert_msg (strstr (out, "1 result in") != NULL && strstr (out, "relabelled in an editor") != NULL,
                 "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  ck_assert_int_eq (cli (&out, &err, "results", "list", "--search", "editor", NULL), 0);
  ck_assert_msg (strstr (out, "1 result in") != NULL, "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  ck_assert_int_eq (cli (&out, &err, "results", "list", "--kind", "benchmark", NULL), 0);
  ck_assert_msg (strstr (out, "2 results in") != NULL, "%s", out);
}
END_TEST

/* A run whose stderr is no terminal (a script's) still says the id. */
START_TEST (test_saved_id_said_to_scripts)
{
  g_autofree char *target = g_strdup_printf ("%s/target", ds_test_scratch_dir ());
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *zeros = g_malloc0 (16 << 20);

  ck_assert (g_file_set_contents (target, zeros, 16 << 20, &error));
  ck_assert_int_eq (cli (&out, &err, "benchmark", target, "--accuracy", "1", NULL), 0);
  ck_assert_msg (strstr (err, "Saved in the results library as ") != NULL, "%s", err);
}
END_TEST

int
main (void)
{
  Suite *s;
  TCase *tc;

  ds_test_init ("cli-history");
  s = suite_create ("cli-history");
  tc = tcase_create ("core");

  tcase_set_timeout (tc, 120);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_history_by_serial);
  tcase_add_test (tc, test_history_by_wwn);
  tcase_add_test (tc, test_health_history_follows_reallocations);
  tcase_add_test (tc, test_import_twice_keeps_one);
  tcase_add_test (tc, test_list_sees_hand_edits);
  tcase_add_test (tc, test_saved_id_said_to_scripts);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
