/* test-library-entry-new.c: a library entry made from a result, from the
 * fields the index keeps, or for a file that cannot be read
 * (core/library/ds-library-entry-new.c): its status, label, device, date,
 * summary, headline figure and search, each from what the result says and
 * from what it lacks; the fields given back as they were given
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-compare.h"
#include "ds-error.h"
#include "ds-library-entry.h"
#include "ds-library-private.h"
#include "ds-warnings.h"
#include "ds-test-library.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

static DsResult *
workload (void)
{
  return ds_test_library_workload ("Disk B", DS_PATTERN_RANDREAD, 4e8, 1e-4, "2012-10-19T03:00:00Z");
}

static DsLibraryEntry *
entry_of (const DsResult *r)
{
  return ds_library_entry_new_for_result ("20121019-030000-workload-sdb", "/lib/20121019-030000-workload-sdb.json", r);
}

/* ---- from a result ------------------------------------------------------ */

/* What a complete run's entry says, every getter. */
START_TEST (test_for_result)
{
  g_autoptr (DsResult) r = workload ();
  g_autoptr (DsLibraryEntry) e = NULL;
  g_autofree char *date = NULL;

  g_free (r->target.serial);
  r->target.serial = g_strdup ("SER123");
  g_free (r->target.wwn);
  r->target.wwn = g_strdup ("0x5000c500a1b2c3d4");
  r->target.size_bytes = UINT64_C (500) * 1000000000;
  g_ptr_array_add (r->warnings, ds_warning_new ("other_io", "something else used the disk"));
  g_ptr_array_add (r->warnings, ds_warning_new ("cache", "a cache"));

  e = entry_of (r);
  ck_assert_str_eq (ds_library_entry_get_id (e), "20121019-030000-workload-sdb");
  ck_assert_str_eq (ds_library_entry_get_path (e), "/lib/20121019-030000-workload-sdb.json");
  ck_assert_int_eq (ds_library_entry_get_status (e), DS_LIBRARY_STATUS_COMPLETE);
  ck_assert (ds_library_entry_is_readable (e));
  ck_assert_ptr_null (ds_library_entry_get_error_message (e));
  ck_assert_int_eq (ds_library_entry_get_kind (e), DS_BENCH_WORKLOAD);
  ck_assert_str_eq (ds_library_entry_get_kind_name (e), "workload");
  ck_assert (!ds_library_entry_has_custom_label (e));
  ck_assert_str_eq (ds_library_entry_get_label (e), "Disk B /dev/loop9 · 2012-10-19 03:00");
  ck_assert_ptr_null (ds_library_entry_get_notes (e));
  ck_assert_ptr_nonnull (ds_library_entry_get_tags (e));
  ck_assert_ptr_null (ds_library_entry_get_tags (e)[0]);
  ck_assert_str_eq (ds_library_entry_get_device (e), "/dev/loop9");
  ck_assert_str_eq (ds_library_entry_get_device_path (e), "/dev/loop9");
  ck_assert_uint_eq (ds_library_entry_get_size_bytes (e), UINT64_C (500) * 1000000000);
  date = g_date_time_format_iso8601 (ds_library_entry_get_date (e));
  ck_assert_str_eq (date, "2012-10-19T03:00:00Z");
  ck_assert_str_eq (ds_library_entry_get_hostname (e), r->hostname);
  ck_assert_str_eq (ds_library_entry_get_summary (e), "randread 4 KiB, QD 1, 1 thread");
  ck_assert_str_eq (ds_library_entry_get_model (e), "Disk B");
  ck_assert_str_eq (ds_library_entry_get_serial (e), "SER123");
  ck_assert_str_eq (ds_library_entry_get_wwn (e), "0x5000c500a1b2c3d4");
  ck_assert_uint_eq (ds_library_entry_get_n_warnings (e), 2);
}
END_TEST

/* Stopped wins over failed: a stopped run may end with an error too. */
START_TEST (test_status)
{
  g_autoptr (DsResult) r = workload ();

  r->error = g_error_new_literal (DS_ERROR, DS_ERROR_IO, "EIO at 1 GB");
  {
    g_autoptr (DsLibraryEntry) e = entry_of (r);

    ck_assert_int_eq (ds_library_entry_get_status (e), DS_LIBRARY_STATUS_FAILED);
    ck_assert (ds_library_entry_is_readable (e));
    /* The run's error is the result's, not the file's. */
    ck_assert_ptr_null (ds_library_entry_get_error_message (e));
  }
  r->cancelled = TRUE;
  {
    g_autoptr (DsLibraryEntry) e = entry_of (r);

    ck_assert_int_eq (ds_library_entry_get_status (e), DS_LIBRARY_STATUS_STOPPED);
  }
  g_clear_error (&r->error);
  {
    g_autoptr (DsLibraryEntry) e = entry_of (r);

    ck_assert_int_eq (ds_library_entry_get_status (e), DS_LIBRARY_STATUS_STOPPED);
  }
}
END_TEST

/* The user's label; else the model (or, without one, the host) and the
 * path and the start in local time; with less, what there is. */
START_TEST (test_labels)
{
  g_autoptr (DsResult) r = workload ();
  struct {
    const char *model, *path, *host, *want_label, *want_device;
  } cases[] = {
    { "Disk B", "/dev/sdb", "node7", "Disk B /dev/sdb · 2012-10-19 03:00", "/dev/sdb" },
    { NULL, "/dev/sdb", "node7", "node7 /dev/sdb · 2012-10-19 03:00", "/dev/sdb" },
    { NULL, "/dev/sdb", NULL, "/dev/sdb · 2012-10-19 03:00", "/dev/sdb" },
    { "Disk B", NULL, "node7", "Disk B · 2012-10-19 03:00", "Disk B" },
    { NULL, NULL, "node7", "node7 · 2012-10-19 03:00", NULL },
    { NULL, NULL, NULL, "? · 2012-10-19 03:00", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DsLibraryEntry) e = NULL;

      g_free (r->target.model);
      r->target.model = g_strdup (cases[i].model);
      g_free (r->target.path);
      r->target.path = g_strdup (cases[i].path);
      g_free (r->hostname);
      r->hostname = g_strdup (cases[i].host);
      e = entry_of (r);
      ck_assert_msg (strcmp (ds_library_entry_get_label (e), cases[i].want_label) == 0, "case %u: %s", i,
                     ds_library_entry_get_label (e));
      ck_assert (!ds_library_entry_has_custom_label (e));
      if (cases[i].want_device != NULL)
        ck_assert_str_eq (ds_library_entry_get_device (e), cases[i].want_device);
      else
        ck_assert_ptr_null (ds_library_entry_get_device (e));
      if (cases[i].path != NULL)
        ck_assert_str_eq (ds_library_entry_get_device_path (e), cases[i].path);
      else
        ck_assert_ptr_null (ds_library_entry_get_device_path (e));
    }

  /* The user's, whatever else there is; with the notes and tags, copied. */
  r->annotation.label = g_strdup ("DX440 RAID 5");
  r->annotation.notes = g_strdup ("FC 8G, one path\nsecond line");
  r->annotation.tags = g_strsplit ("RAID 5,FC 8G", ",", -1);
  {
    g_autoptr (DsLibraryEntry) e = entry_of (r);

    g_clear_pointer (&r->annotation.label, g_free);
    g_clear_pointer (&r->annotation.notes, g_free);
    g_clear_pointer (&r->annotation.tags, g_strfreev);
    ck_assert (ds_library_entry_has_custom_label (e));
    ck_assert_str_eq (ds_library_entry_get_label (e), "DX440 RAID 5");
    ck_assert_str_eq (ds_library_entry_get_notes (e), "FC 8G, one path\nsecond line");
    ck_assert_str_eq (ds_library_entry_get_tags (e)[0], "RAID 5");
    ck_assert_str_eq (ds_library_entry_get_tags (e)[1], "FC 8G");
    ck_assert_ptr_null (ds_library_entry_get_tags (e)[2]);
  }
}
END_TEST

/* A start that is missing or not a date: the entry is dated now. */
START_TEST (test_date_missing)
{
  g_autoptr (DsResult) r = workload ();
  const char *starts[] = { NULL, "", "yesterday", "2012-13-45T99:00:00Z" };

  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    {
      g_autoptr (DsLibraryEntry) e = NULL;
      gint64 before = g_get_real_time () / G_USEC_PER_SEC;
      gint64 at;

      g_free (r->started_at);
      r->started_at = g_strdup (starts[i]);
      e = entry_of (r);
      at = g_date_time_to_unix (ds_library_entry_get_date (e));
      ck_assert_msg (at >= before && at <= g_get_real_time () / G_USEC_PER_SEC, "“%s”: %" G_GINT64_FORMAT,
                     starts[i] ? starts[i] : "(null)", at);
    }
}
END_TEST

/* The summary is the kind's own description; a result of no kind says
 * only which way it went. */
START_TEST (test_describe)
{
  g_autoptr (DsResult) r = workload ();
  g_autoptr (DsResult) t = ds_test_library_transfer ("Disk A", UINT64_C (1) << 30, 1e8, 2e8, 0.001,
                                                    "2020-01-01T00:00:00Z");
  g_autofree char *w = ds_result_describe (r);
  g_autofree char *tr = ds_result_describe (t);
  g_autofree char *read = NULL;
  g_autofree char *write = NULL;
  DsBenchKind kind = r->kind;

  ck_assert_str_eq (w, "randread 4 KiB, QD 1, 1 thread");
  ck_assert_str_ne (tr, "read");
  r->kind = DS_BENCH_N_KINDS;
  read = ds_result_describe (r);
  r->spec.write = TRUE;
  write = ds_result_describe (r);
  r->kind = kind;
  ck_assert_str_eq (read, "read");
  ck_assert_str_eq (write, "write");
}
END_TEST

/* The headline: the average transfer rate of a Benchmark, the figure the
 * comparison of the result with itself has under that key; nothing for a
 * result that measured nothing. */
START_TEST (test_headline)
{
  g_autoptr (DsResult) t = ds_test_library_transfer ("Disk A", UINT64_C (1) << 30, 1e8, 2e8, 0.001,
                                                    "2020-01-01T00:00:00Z");
  g_autoptr (DsResult) empty = ds_test_result_new (DS_BENCH_WORKLOAD, "/dev/sdb", FALSE);
  g_autoptr (DsLibraryEntry) e = entry_of (t);
  g_autoptr (DsLibraryEntry) none = entry_of (empty);
  DsResult *pair[2] = { t, t };
  g_autoptr (DsComparison) cmp = ds_comparison_new (pair, NULL, 2, NULL);
  const char *key = NULL, *name = NULL;
  int unit = -1;
  double value = NAN;
  gboolean found = FALSE;

  ck_assert (ds_library_entry_get_headline (e, &key, &name, &unit, &value));
  ds_test_note ("headline: %s, %s = %g", key, name, value);
  ck_assert_str_eq (key, "read.transfer_avg");
  ck_assert_int_eq (unit, DS_COMPARE_RATE);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const DsCompareRow *row = cmp->rows->pdata[i];

      if (strcmp (row->key, key) != 0)
        continue;
      found = TRUE;
      ck_assert_double_eq (value, row->values[0]);
      if (*row->measure != '\0')
        {
          g_autofree char *want = g_strdup_printf ("%s, %s %s", row->section, row->name, row->measure);

          ck_assert_str_eq (name, want);
        }
      else
        {
          g_autofree char *want = g_strdup_printf ("%s, %s", row->section, row->name);

          ck_assert_str_eq (name, want);
        }
    }
  ck_assert (found);
  /* Rising linearly from 100 to 200 MB/s: the average is in between. */
  ck_assert (value > 1e8 && value < 2e8);

  ck_assert (!ds_library_entry_get_headline (none, &key, &name, &unit, &value));
}
END_TEST

/* A kind without an average rate: its first rate, the comparison's
 * first row in that unit (a workload's read bandwidth). */
START_TEST (test_headline_first_rate)
{
  g_autoptr (DsResult) r = workload ();
  g_autoptr (DsLibraryEntry) e = entry_of (r);
  DsResult *pair[2] = { r, r };
  g_autoptr (DsComparison) cmp = ds_comparison_new (pair, NULL, 2, NULL);
  const DsCompareRow *first_rate = NULL;
  const char *key = NULL, *name = NULL;
  int unit = -1;
  double value = NAN;

  for (guint i = 0; i < cmp->rows->len && first_rate == NULL; i++)
    {
      const DsCompareRow *row = cmp->rows->pdata[i];

      ck_assert_msg (strstr (row->key, "avg") == NULL && strstr (row->key, "average") == NULL, "%s", row->key);
      if (row->unit == DS_COMPARE_RATE && !isnan (row->values[0]))
        first_rate = row;
    }
  ck_assert_ptr_nonnull (first_rate);

  ck_assert (ds_library_entry_get_headline (e, &key, &name, &unit, &value));
  ds_test_note ("headline: %s, %s = %g", key, name, value);
  ck_assert_str_eq (key, first_rate->key);
  ck_assert_int_eq (unit, DS_COMPARE_RATE);
  ck_assert_double_eq (value, 4e8);
}
END_TEST

/* A search finds every field, without regard to case, and nothing else. */
START_TEST (test_search)
{
  g_autoptr (DsResult) r = workload ();
  g_autoptr (DsLibraryEntry) e = NULL;
  const char *found[] = {
    "", "20121019-030000", "disk b", "/DEV/LOOP9", "NODE7", "randread 4 kib", "WORKLOAD", "ser123",
    "0X5000", "dx440", "one path", "second line", "raid 5", "fc 8g",
  };

  g_free (r->hostname);
  r->hostname = g_strdup ("node7");
  g_free (r->target.serial);
  r->target.serial = g_strdup ("SER123");
  g_free (r->target.wwn);
  r->target.wwn = g_strdup ("0x5000c500a1b2c3d4");
  r->annotation.label = g_strdup ("DX440 RAID 5");
  r->annotation.notes = g_strdup ("FC 8G, one path\nsecond line");
  r->annotation.tags = g_strsplit ("RAID 5,fc 8G", ",", -1);
  e = entry_of (r);

  for (guint i = 0; i < G_N_ELEMENTS (found); i++)
    ck_assert_msg (ds_library_entry_matches (e, found[i]), "“%s” not found", found[i]);
  ck_assert (ds_library_entry_matches (e, NULL));
  ck_assert (!ds_library_entry_matches (e, "sequential"));
  ck_assert (!ds_library_entry_matches (e, "disk c"));
}
END_TEST

/* ---- the index's fields ------------------------------------------------- */

/* An entry's fields make the same entry again: every field, the date to
 * the microsecond; the default label made anew, the user's kept. */
START_TEST (test_fields_round_trip)
{
  g_autoptr (DsResult) r = ds_test_library_transfer ("Disk A", UINT64_C (1) << 30, 1e8, 2e8, 0.001,
                                                    "2020-01-01T12:34:56.789012Z");
  g_autoptr (DsLibraryEntry) e = NULL;
  g_autoptr (DsLibraryEntry) again = NULL;
  DsLibraryEntryFields f, g;

  g_free (r->target.serial);
  r->target.serial = g_strdup ("SER1");
  g_clear_pointer (&r->target.wwn, g_free);
  r->annotation.notes = g_strdup ("notes");
  r->annotation.tags = g_strsplit ("a,b", ",", -1);
  g_ptr_array_add (r->warnings, ds_warning_new ("x", "y"));
  e = entry_of (r);
  ds_library_entry_get_fields (e, &f);
  ck_assert_int_eq (f.date_us % G_USEC_PER_SEC, 789012);
  again = ds_library_entry_new_fields (&f);
  ds_library_entry_get_fields (again, &g);

  ck_assert_str_eq (g.id, f.id);
  ck_assert_str_eq (g.path, f.path);
  ck_assert_int_eq (g.status, f.status);
  ck_assert_ptr_null (g.error_message);
  ck_assert_int_eq (g.kind, DS_BENCH_TRANSFER);
  ck_assert_str_eq (g.label, "Disk A /dev/loop9 · 2020-01-01 12:34");
  ck_assert (!g.custom_label);
  ck_assert_str_eq (g.notes, "notes");
  ck_assert_str_eq (g.tags[0], "a");
  ck_assert_str_eq (g.tags[1], "b");
  ck_assert_ptr_null (g.tags[2]);
  ck_assert_str_eq (g.device, f.device);
  ck_assert_str_eq (g.device_path, f.device_path);
  ck_assert_str_eq (g.model, "Disk A");
  ck_assert_str_eq (g.serial, "SER1");
  ck_assert_ptr_null (g.wwn);
  ck_assert_uint_eq (g.size_bytes, UINT64_C (1) << 30);
  ck_assert_int_eq (g.date_us, f.date_us);
  ck_assert_str_eq (g.hostname, f.hostname);
  ck_assert_str_eq (g.summary, f.summary);
  ck_assert_uint_eq (g.n_warnings, 1);
  ck_assert_str_eq (g.headline_key, "read.transfer_avg");
  ck_assert_str_eq (g.headline_name, f.headline_name);
  ck_assert_int_eq (g.headline_unit, f.headline_unit);
  ck_assert_double_eq (g.headline_value, f.headline_value);
  ck_assert (ds_library_entry_matches (again, "disk a"));
  ck_assert (ds_library_entry_matches (again, "ser1"));
}
END_TEST

/* A default label is made from the fields, whatever the index kept (it
 * was written in another time zone); the user's, and an unreadable
 * file's, are kept, or are the id when the index has none. */
START_TEST (test_fields_labels)
{
  const char *tags[] = { "t", NULL };
  DsLibraryEntryFields f = {
    .id = "the-id", .path = "/lib/the-id.json", .status = DS_LIBRARY_STATUS_STOPPED,
    .kind = DS_BENCH_WORKLOAD, .label = "Disk · 1999-01-01 00:00", .model = "Disk",
    .device = "/dev/sdc", .device_path = "/dev/sdc", .hostname = "h",
    .date_us = INT64_C (1350615600) * G_USEC_PER_SEC, .summary = NULL, .tags = tags,
  };

  {
    g_autoptr (DsLibraryEntry) e = ds_library_entry_new_fields (&f);

    ck_assert_str_eq (ds_library_entry_get_label (e), "Disk /dev/sdc · 2012-10-19 03:00");
    ck_assert_int_eq (ds_library_entry_get_status (e), DS_LIBRARY_STATUS_STOPPED);
    ck_assert_str_eq (ds_library_entry_get_summary (e), "");
    ck_assert_str_eq (ds_library_entry_get_tags (e)[0], "t");
    ck_assert (!ds_library_entry_get_headline (e, NULL, NULL, NULL, NULL));
  }
  f.custom_label = TRUE;
  {
    g_autoptr (DsLibraryEntry) e = ds_library_entry_new_fields (&f);

    ck_assert_str_eq (ds_library_entry_get_label (e), "Disk · 1999-01-01 00:00");
  }
  f.label = NULL;
  f.tags = NULL;
  {
    g_autoptr (DsLibraryEntry) e = ds_library_entry_new_fields (&f);

    ck_assert_str_eq (ds_library_entry_get_label (e), "the-id");
    ck_assert_ptr_nonnull (ds_library_entry_get_tags (e));
    ck_assert_ptr_null (ds_library_entry_get_tags (e)[0]);
  }
  f.custom_label = FALSE;
  f.status = DS_LIBRARY_STATUS_UNREADABLE;
  f.error_message = "the-id.json: not JSON";
  {
    g_autoptr (DsLibraryEntry) e = ds_library_entry_new_fields (&f);

    ck_assert_str_eq (ds_library_entry_get_label (e), "the-id");
    ck_assert (!ds_library_entry_is_readable (e));
    ck_assert_str_eq (ds_library_entry_get_error_message (e), "the-id.json: not JSON");
  }
}
END_TEST

/* A date the index holds that GDateTime cannot: the epoch, not a crash. */
START_TEST (test_fields_bad_date)
{
  DsLibraryEntryFields f = {
    .id = "x", .path = "/lib/x.json", .kind = DS_BENCH_WORKLOAD, .date_us = G_MAXINT64,
  };
  g_autoptr (DsLibraryEntry) e = ds_library_entry_new_fields (&f);
  g_autofree char *date = g_date_time_format_iso8601 (ds_library_entry_get_date (e));

  ck_assert_msg (g_str_has_prefix (date, "1970-01-01T00:00:00"), "%s", date);
  /* No model, path or host: "?" and the date. */
  ck_assert_str_eq (ds_library_entry_get_label (e), "? · 1970-01-01 00:00");
}
END_TEST

/* ---- a file that cannot be read ----------------------------------------- */

START_TEST (test_unreadable)
{
  g_autoptr (GError) error = g_error_new_literal (DS_ERROR, DS_ERROR_CORRUPT, "/lib/broken.json: not JSON");
  g_autoptr (DsLibraryEntry) e = ds_library_entry_new_unreadable ("broken", "/lib/broken.json", error,
                                                                  1350615600);
  g_autoptr (DsLibraryEntry) no_error = ds_library_entry_new_unreadable ("b2", "/lib/b2.json", NULL, G_MAXINT64);
  g_autofree char *date = g_date_time_format_iso8601 (ds_library_entry_get_date (e));
  g_autofree char *epoch = g_date_time_format_iso8601 (ds_library_entry_get_date (no_error));

  ck_assert_int_eq (ds_library_entry_get_status (e), DS_LIBRARY_STATUS_UNREADABLE);
  ck_assert (!ds_library_entry_is_readable (e));
  ck_assert_str_eq (ds_library_entry_get_error_message (e), "/lib/broken.json: not JSON");
  ck_assert_int_eq (ds_library_entry_get_kind (e), DS_BENCH_N_KINDS);
  ck_assert_str_eq (ds_library_entry_get_kind_name (e), "?");
  ck_assert_str_eq (ds_library_entry_get_label (e), "broken.json");
  ck_assert (!ds_library_entry_has_custom_label (e));
  ck_assert_ptr_nonnull (ds_library_entry_get_tags (e));
  ck_assert_ptr_null (ds_library_entry_get_tags (e)[0]);
  ck_assert_ptr_null (ds_library_entry_get_device (e));
  ck_assert_str_eq (date, "2012-10-19T03:00:00Z");
  ck_assert_str_eq (ds_library_entry_get_summary (e), "unreadable");
  ck_assert (!ds_library_entry_get_headline (e, NULL, NULL, NULL, NULL));
  ck_assert (ds_library_entry_matches (e, "BROKEN"));
  ck_assert (ds_library_entry_matches (e, "unreadable"));
  ck_assert (!ds_library_entry_matches (e, "not json"));

  ck_assert_str_eq (ds_library_entry_get_error_message (no_error), "unreadable");
  ck_assert_str_eq (epoch, "1970-01-01T00:00:00Z");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("library-entry-new");
  TCase *tc = tcase_create ("result");
  TCase *tc_fields = tcase_create ("fields");

  /* Default labels are in local time: make it UTC, before GLib looks. */
  g_setenv ("TZ", "UTC", TRUE);
  tcase_set_timeout (tc, 30);
  tcase_add_test (tc, test_for_result);
  tcase_add_test (tc, test_status);
  tcase_add_test (tc, test_labels);
  tcase_add_test (tc, test_date_missing);
  tcase_add_test (tc, test_describe);
  tcase_add_test (tc, test_headline);
  tcase_add_test (tc, test_headline_first_rate);
  tcase_add_test (tc, test_search);
  suite_add_tcase (s, tc);
  tcase_add_test (tc_fields, test_fields_round_trip);
  tcase_add_test (tc_fields, test_fields_labels);
  tcase_add_test (tc_fields, test_fields_bad_date);
  tcase_add_test (tc_fields, test_unreadable);
  suite_add_tcase (s, tc_fields);

  return ds_test_run_suite (s);
}
