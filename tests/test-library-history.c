/* test-library-history.c: a library's results by physical device, over
 * time (core/library/ds-library-history.c)
 *
 * Unit suite: no root, no device, no file: entries made from their
 * fields (ds-library-private.h) in a library that is never read from
 * disk (test-cli-history.c runs the same through the CLI and real files).
 * What ds-library-history.h promises: one device per WWN, whatever its
 * spelling ("0x", case, blanks); a result without a WWN joins the device
 * its serial was seen with, or, when that serial was seen with two WWNs
 * (a USB bridge's), a device of its own; results with neither grouped by
 * model, capacity and host, or by path; unreadable results in none;
 * devices newest first, their results oldest first, named by their
 * newest result; what a device matches, how it is described; its trends
 * (one per kind with a headline figure, in the order the kinds were first
 * run); its history as text with each figure's change since the first
 * that is not zero; and ds_library_device_of().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <string.h>

#include "ds-compare.h"
#include "ds-library-history.h"
#include "ds-library-private.h"
#include "ds-test-util.h"

/* 2024-01-01T00:00:00Z */
#define JAN_1_2024 G_GINT64_CONSTANT (1704067200)
#define DAY        (24 * 3600)

typedef struct {
  const char     *id;
  int             day;        /* days after 2024-01-01 */
  DsBenchKind     kind;
  const char     *wwn;
  const char     *serial;
  const char     *model;
  const char     *path;
  const char     *host;
  uint64_t        size_bytes;
  double          value;      /* NAN: no headline figure */
  DsLibraryStatus status;
} Run;

static DsLibraryEntry *
entry_new (const Run *run)
{
  DsLibraryEntryFields f = {
    .id = run->id,
    .path = "/nowhere/x.json",
    .status = run->status,
    .kind = run->kind,
    .label = run->id,
    .custom_label = TRUE,
    .model = run->model,
    .serial = run->serial,
    .wwn = run->wwn,
    .device_path = run->path,
    .size_bytes = run->size_bytes,
    .date_us = (JAN_1_2024 + (gint64) run->day * DAY + 10 * 3600) * G_USEC_PER_SEC,
    .hostname = run->host,
    .headline_key = isnan (run->value) ? NULL : "read.transfer_avg",
    .headline_name = run->kind == DS_BENCH_WORKLOAD ? "Read IOPS" : "Read transfer rate",
    .headline_unit = run->kind == DS_BENCH_WORKLOAD ? DS_COMPARE_IOPS : DS_COMPARE_RATE,
    .headline_value = run->value,
  };

  if (run->status == DS_LIBRARY_STATUS_UNREADABLE)
    f.error_message = "not JSON";
  return ds_library_entry_new_fields (&f);
}

/* A library of @runs, never read from its folder. */
static DsLibrary *
library_of (const Run *runs,
            guint      n)
{
  DsLibrary *library = ds_library_new ("/nonexistent/kt-f-library");

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DsLibraryEntry) e = entry_new (&runs[i]);

      ds_library_replace_entry (library, e);
    }
  ck_assert_uint_eq (g_list_model_get_n_items (G_LIST_MODEL (library)), n);
  return library;
}

#define GB      UINT64_C (1000000000)
#define OK      DS_LIBRARY_STATUS_COMPLETE
#define T       DS_BENCH_TRANSFER
#define W       DS_BENCH_WORKLOAD

/* Given in no order: the library sorts them newest first. */
static const Run disks[] = {
  /* One drive under three spellings of its WWN, and once without it. */
  { "a1", 0, T, "0x5000C500A1B2C3D4", "ZA1", "ST4000", "/dev/sdb", "h1", 4000 * GB, 2.0e8, OK },
  { "a3", 60, T, NULL, "ZA1", "ST4000", "/dev/sdd", "h1", 4000 * GB, 1.8e8, OK },
  { "a2", 31, T, " 5000c500a1b2c3d4 ", " ZA1 ", "ST4000", "/dev/sdc", "h1", 4000 * GB, 1.9e8, OK },
  { "a4", 40, T, "5000C500A1B2C3D4", NULL, "ST4000", "/dev/sde", "h1", 4000 * GB, 1.6e8, OK },
  /* Two drives behind a bridge that says BRIDGE for both, then that
   * serial twice without a WWN: neither drive's. */
  { "b1", 45, T, "0x5000c500ffff0001", "BRIDGE", "USB", "/dev/sdf", "h1", 2000 * GB, 2.5e8, OK },
  { "b2", 46, T, "0x5000c500ffff0002", "BRIDGE", "USB", "/dev/sdf", "h1", 2000 * GB, 2.4e8, OK },
  { "b3", 47, T, NULL, "BRIDGE", "USB", "/dev/sdf", "h1", 2000 * GB, 2.3e8, OK },
  { "b4", 48, T, "", "BRIDGE", "USB", "/dev/sdg", "h1", 2000 * GB, 2.2e8, OK },
  /* Neither: a model and a size on a host; a file by its path. */
  { "c1", 10, T, NULL, NULL, "Loop", "/dev/loop0", "h1", 1 * GB, 1e9, OK },
  { "c2", 11, T, NULL, "", "Loop", "/dev/loop3", "h1", 1 * GB, 1e9, OK },
  { "c3", 12, T, NULL, NULL, "Loop", "/dev/loop0", "h2", 1 * GB, 1e9, OK },
  { "d1", 13, T, NULL, NULL, NULL, "/tmp/f.img", "h1", 1 * GB, 1e9, OK },
  /* Read by no one. */
  { "z1", 100, T, "0x5000C500A1B2C3D4", "ZA1", "ST4000", "/dev/sdb", "h1", 4000 * GB, 1.0, DS_LIBRARY_STATUS_UNREADABLE },
};

static const char *
ids_of (const DsLibraryDevice *d)
{
  static char buf[256];
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < d->entries->len; i++)
    g_string_append_printf (s, "%s%s", i ? " " : "", ds_library_entry_get_id (d->entries->pdata[i]));
  g_strlcpy (buf, s->str, sizeof buf);
  g_string_free (s, TRUE);
  return buf;
}

/* The grouping, the order and what names each device. */
START_TEST (test_devices)
{
  g_autoptr (DsLibrary) library = library_of (disks, G_N_ELEMENTS (disks));
  g_autoptr (GPtrArray) devices = ds_library_get_devices (library);
  static const char *const expected[] = {
    "a1 a2 a4 a3", "b3 b4", "b2", "b1", "d1", "c3", "c1 c2",
  };
  DsLibraryDevice *d;

  ck_assert_uint_eq (devices->len, G_N_ELEMENTS (expected));
  for (guint i = 0; i < devices->len; i++)
    ck_assert_str_eq (ids_of (devices->pdata[i]), expected[i]);

  /* Named by the newest of its results with a WWN, which come first. */
  d = devices->pdata[0];
  ck_assert_str_eq (d->key, "wwn:5000C500A1B2C3D4");
  ck_assert_str_eq (d->wwn, "5000C500A1B2C3D4");
  ck_assert_str_eq (d->serial, "ZA1");
  ck_assert_str_eq (d->model, "ST4000");
  ck_assert_str_eq (d->hostname, "h1");
  ck_assert_uint_eq (d->size_bytes, 4000 * GB);

  d = devices->pdata[1];
  ck_assert_str_eq (d->key, "serial:BRIDGE");
  ck_assert_ptr_null (d->wwn);
  ck_assert_str_eq (d->serial, "BRIDGE");
  d = devices->pdata[2];
  ck_assert_str_eq (d->key, "wwn:0x5000c500ffff0002");

  d = devices->pdata[4];
  ck_assert_str_eq (d->key, "path:/tmp/f.img:1000000000:h1");
  ck_assert_ptr_null (d->model);
  ck_assert_str_eq (d->path, "/tmp/f.img");
  d = devices->pdata[5];
  ck_assert_str_eq (d->key, "model:Loop:1000000000:h2");
  d = devices->pdata[6];
  ck_assert_str_eq (d->key, "model:Loop:1000000000:h1");
  ck_assert_str_eq (d->path, "/dev/loop3");

  /* Nothing readable, nothing to follow. */
  {
    g_autoptr (DsLibrary) empty = ds_library_new ("/nonexistent/kt-f-empty");
    g_autoptr (GPtrArray) none = ds_library_get_devices (empty);
    g_autoptr (DsLibrary) unreadable = library_of (&disks[G_N_ELEMENTS (disks) - 1], 1);
    g_autoptr (GPtrArray) none2 = ds_library_get_devices (unreadable);

    ck_assert_uint_eq (none->len, 0);
    ck_assert_uint_eq (none2->len, 0);
  }
}
END_TEST

/* Two drives with neither a WWN nor a serial worth the name (blanks, a
 * bare "0x") are told apart by their model, size and host. */
START_TEST (test_blank_names)
{
  static const Run runs[] = {
    { "e1", 0, T, "  ", "   ", "Disk A", "/dev/sda", "h1", 500 * GB, 1e8, OK },
    { "e2", 1, T, "0x", "\t", "Disk B", "/dev/sdb", "h1", 500 * GB, 1e8, OK },
    { "e3", 2, T, NULL, "  ", "Disk A", "/dev/sdc", "h1", 500 * GB, 1e8, OK },
    { "e4", 3, T, NULL, "  ", "Disk C", "/dev/sdd", "h1", 500 * GB, 1e8, OK },
  };
  g_autoptr (DsLibrary) library = library_of (runs, G_N_ELEMENTS (runs));
  g_autoptr (GPtrArray) devices = ds_library_get_devices (library);
  DsLibraryDevice *a;

  ck_assert_uint_eq (devices->len, 3);
  ck_assert_str_eq (ids_of (devices->pdata[0]), "e4");
  ck_assert_str_eq (ids_of (devices->pdata[1]), "e1 e3");
  ck_assert_str_eq (ids_of (devices->pdata[2]), "e2");
  a = devices->pdata[1];
  ck_assert_str_eq (a->key, "model:Disk A:500000000000:h1");
  ck_assert_ptr_null (a->serial);
  ck_assert_ptr_null (a->wwn);
  ck_assert_ptr_null (((DsLibraryDevice *) devices->pdata[2])->wwn);
  {
    g_autofree char *words = ds_library_device_describe (a);

    ck_assert_str_eq (words, "Disk A (/dev/sdc, 500 GB, on h1)");
    ck_assert (!ds_library_device_matches (a, "   "));
  }
}
END_TEST

/* What a device matches, and its words. */
START_TEST (test_matches_and_describe)
{
  g_autoptr (DsLibrary) library = library_of (disks, G_N_ELEMENTS (disks));
  g_autoptr (GPtrArray) devices = ds_library_get_devices (library);
  DsLibraryDevice *a = devices->pdata[0];
  DsLibraryDevice *bridge = devices->pdata[1];
  DsLibraryDevice *file = devices->pdata[4];
  DsLibraryDevice *loop = devices->pdata[6];
  static const struct { const char *text; gboolean a, bridge, file, loop; } cases[] = {
    { "5000c500a1b2c3d4", TRUE, FALSE, FALSE, FALSE },
    { "5000C500A1B2C3D", FALSE, FALSE, FALSE, FALSE },   /* a WWN whole or not */
    { "za1", TRUE, FALSE, FALSE, FALSE },
    { "ZA", FALSE, FALSE, FALSE, FALSE },                /* so is a serial */
    { "bridge", FALSE, TRUE, FALSE, FALSE },
    { "wwn:5000C500A1B2C3D4", TRUE, FALSE, FALSE, FALSE },
    { "WWN:5000C500A1B2C3D4", FALSE, FALSE, FALSE, FALSE }, /* a key exactly */
    { "st40", TRUE, FALSE, FALSE, FALSE },               /* a model's part, any case */
    { "usb", FALSE, TRUE, FALSE, FALSE },
    { "/dev/sd", TRUE, TRUE, FALSE, FALSE },             /* a path's part */
    { "F.IMG", FALSE, FALSE, TRUE, FALSE },
    { "loop3", FALSE, FALSE, FALSE, TRUE },
    { "model:Loop:1000000000:h1", FALSE, FALSE, FALSE, TRUE },
    { "", FALSE, FALSE, FALSE, FALSE },
    { "h1", FALSE, FALSE, FALSE, FALSE },                /* not by host */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      ck_assert_msg (ds_library_device_matches (a, cases[i].text) == cases[i].a, "a: “%s”", cases[i].text);
      ck_assert_msg (ds_library_device_matches (bridge, cases[i].text) == cases[i].bridge, "b: “%s”",
                     cases[i].text);
      ck_assert_msg (ds_library_device_matches (file, cases[i].text) == cases[i].file, "f: “%s”", cases[i].text);
      ck_assert_msg (ds_library_device_matches (loop, cases[i].text) == cases[i].loop, "l: “%s”", cases[i].text);
    }
  ck_assert (ds_library_device_matches (a, NULL));

  {
    g_autofree char *da = ds_library_device_describe (a);
    g_autofree char *db = ds_library_device_describe (bridge);
    g_autofree char *df = ds_library_device_describe (file);
    g_autofree char *dl = ds_library_device_describe (loop);

    ck_assert_str_eq (da, "ST4000 (WWN 5000C500A1B2C3D4, 4.0 TB)");
    ck_assert_str_eq (db, "USB (serial BRIDGE, 2.0 TB)");
    ck_assert_str_eq (df, "/tmp/f.img (1.0 GB, on h1)");
    ck_assert_str_eq (dl, "Loop (/dev/loop3, 1.0 GB, on h1)");
  }
  {
    DsLibraryDevice nothing = { .key = (char *) "path:?:0:?" };
    g_autofree char *d = ds_library_device_describe (&nothing);

    ck_assert_str_eq (d, "? (0 bytes)");
    ck_assert (!ds_library_device_matches (&nothing, "?"));
    ck_assert (ds_library_device_matches (&nothing, "path:?:0:?"));
  }
}
END_TEST

/* The device of an entry: by the entry, or another entry of its id. */
START_TEST (test_device_of)
{
  g_autoptr (DsLibrary) library = library_of (disks, G_N_ELEMENTS (disks));
  g_autoptr (GPtrArray) devices = ds_library_get_devices (library);
  g_autoptr (DsLibraryEntry) copy = entry_new (&disks[1]);          /* a3 */
  g_autoptr (DsLibraryEntry) stranger = NULL;
  g_autoptr (DsLibraryEntry) unreadable = entry_new (&disks[G_N_ELEMENTS (disks) - 1]);
  Run other = disks[0];

  ck_assert_ptr_eq (ds_library_device_of (devices, ds_library_get_entry (library, "a3")), devices->pdata[0]);
  ck_assert_ptr_eq (ds_library_device_of (devices, ds_library_get_entry (library, "b4")), devices->pdata[1]);
  ck_assert_ptr_eq (ds_library_device_of (devices, ds_library_get_entry (library, "c2")), devices->pdata[6]);
  ck_assert_ptr_eq (ds_library_device_of (devices, copy), devices->pdata[0]);
  other.id = "a9";
  stranger = entry_new (&other);
  ck_assert_ptr_null (ds_library_device_of (devices, stranger));
  ck_assert_ptr_null (ds_library_device_of (devices, unreadable));
  ck_assert_ptr_null (ds_library_device_of (devices, ds_library_get_entry (library, "z1")));
}
END_TEST

/* One drive's runs of three kinds: two with figures, one with none. */
static const Run mixed[] = {
  { "m1", 0, W, NULL, "S1", "SSD", "/dev/nvme0n1", "h1", 1000 * GB, 0, OK },
  { "m2", 1, T, NULL, "S1", "SSD", "/dev/nvme0n1", "h1", 1000 * GB, 2.0e9, OK },
  { "m3", 2, W, NULL, "S1", "SSD", "/dev/nvme0n1", "h1", 1000 * GB, 5.0e5, DS_LIBRARY_STATUS_STOPPED },
  { "m4", 3, DS_BENCH_HEALTH, NULL, "S1", "SSD", "/dev/nvme0n1", "h1", 1000 * GB, NAN, OK },
  { "m5", 4, T, NULL, "S1", "SSD", "/dev/nvme0n1", "h1", 1000 * GB, 1.5e9, DS_LIBRARY_STATUS_FAILED },
  { "m6", 5, W, NULL, "S1", "SSD", "/dev/nvme0n1", "h1", 1000 * GB, 5.5e5, OK },
  { "m7", 6, T, NULL, "S1", "SSD", "/dev/nvme0n1", "h1", 1000 * GB, NAN, OK },
};

START_TEST (test_trends)
{
  g_autoptr (DsLibrary) library = library_of (mixed, G_N_ELEMENTS (mixed));
  g_autoptr (GPtrArray) devices = ds_library_get_devices (library);
  g_autoptr (GPtrArray) trends = NULL;
  DsLibraryTrend *t;

  ck_assert_uint_eq (devices->len, 1);
  trends = ds_library_device_trends (devices->pdata[0]);
  /* Workload first (run first), then the benchmark; health has none. */
  ck_assert_uint_eq (trends->len, 2);
  t = trends->pdata[0];
  ck_assert_str_eq (t->kind, "workload");
  ck_assert_str_eq (t->name, "Read IOPS");
  ck_assert_int_eq (t->unit, DS_COMPARE_IOPS);
  ck_assert_uint_eq (t->entries->len, 3);
  ck_assert_uint_eq (t->values->len, 3);
  ck_assert_str_eq (ds_library_entry_get_id (t->entries->pdata[0]), "m1");
  ck_assert_str_eq (ds_library_entry_get_id (t->entries->pdata[2]), "m6");
  ck_assert_double_eq (g_array_index (t->values, double, 0), 0);
  ck_assert_double_eq (g_array_index (t->values, double, 1), 5.0e5);
  ck_assert_double_eq (g_array_index (t->values, double, 2), 5.5e5);
  t = trends->pdata[1];
  ck_assert_str_eq (t->kind, "benchmark");
  ck_assert_int_eq (t->unit, DS_COMPARE_RATE);
  /* m7 has no figure: not in the trend. */
  ck_assert_uint_eq (t->entries->len, 2);
  ck_assert_double_eq (g_array_index (t->values, double, 1), 1.5e9);
}
END_TEST

/* The history as text: each figure with its change since the first one
 * that is not zero, the state of runs that did not finish. */
START_TEST (test_history_text)
{
  g_autoptr (DsLibrary) library = library_of (mixed, G_N_ELEMENTS (mixed));
  g_autoptr (GPtrArray) devices = ds_library_get_devices (library);
  g_autofree char *text = ds_library_device_history (devices->pdata[0], DS_UNITS_MB);
  g_autofree char *mib = ds_library_device_history (devices->pdata[0], DS_UNITS_MIB);

  ck_assert_str_eq (text,
                    "SSD (serial S1, 1.0 TB)\n"
                    "7 results\n"
                    "\n"
                    "workload — Read IOPS\n"
                    "  2024-01-01 10:00        0.0 IOPS           m1  m1\n"
                    "  2024-01-03 10:00     500000 IOPS           m3  m3 (stopped)\n"
                    "  2024-01-06 10:00     550000 IOPS   +10.0%  m6  m6\n"
                    "\n"
                    "benchmark — Read transfer rate\n"
                    "  2024-01-02 10:00     2000.0 MB/s           m2  m2\n"
                    "  2024-01-05 10:00     1500.0 MB/s   -25.0%  m5  m5 (failed)\n");
  ck_assert_msg (strstr (mib, "  2024-01-02 10:00    1907.3 MiB/s           m2  m2\n") != NULL, "%s", mib);

  {
    /* One run of a kind with no figure. */
    g_autoptr (DsLibrary) one = library_of (&mixed[3], 1);
    g_autoptr (GPtrArray) its = ds_library_get_devices (one);
    g_autofree char *only = ds_library_device_history (its->pdata[0], DS_UNITS_MB);

    ck_assert_str_eq (only, "SSD (serial S1, 1.0 TB)\n"
                      "1 result\n"
                      "\nNo figures to follow over time (these tests have no headline figure).\n");
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("library-history");
  TCase *tc = tcase_create ("history");

  /* Dates are printed in local time. */
  g_setenv ("TZ", "UTC", TRUE);
  tcase_add_test (tc, test_devices);
  tcase_add_test (tc, test_blank_names);
  tcase_add_test (tc, test_matches_and_describe);
  tcase_add_test (tc, test_device_of);
  tcase_add_test (tc, test_trends);
  tcase_add_test (tc, test_history_text);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
