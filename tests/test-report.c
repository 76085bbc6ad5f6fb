/* test-report.c: the text report: HD Tune's layout for each kind, the
 * units line, the order of several runs, and nothing a terminal acts on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "ds-bench-block-size.h"
#include "ds-bench-extra.h"
#include "ds-bench-file.h"
#include "ds-bench-health.h"
#include "ds-bench-random-access.h"
#include "ds-bench-transfer.h"
#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

/* ---- report layout ------------------------------------------------------ */

/* The lines of @text that start with @prefix. */
static char *
line_starting (const char *text,
               const char *prefix)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return g_strdup (lines[i]);

  return NULL;
}

/* Right-aligned columns: every row of a table is as long as its head. */
static void
assert_table (const char        *text,
              const char *const *firsts,
              guint              n)
{
  glong width = -1;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *line = line_starting (text, firsts[i]);

      ck_assert_msg (line != NULL, "no line starts with “%s” in:\n%s", firsts[i], text);
      if (width < 0)
        width = g_utf8_strlen (line, -1);
      ck_assert_msg (g_utf8_strlen (line, -1) == width,
                     "“%s” is %ld wide, the table %ld:\n%s", line,
                     g_utf8_strlen (line, -1), width, text);
    }
}

START_TEST (test_report_extra)
{
  g_autoptr (DsResult) r = ds_test_extra_result (FALSE);
  g_autoptr (DsResult) w = ds_test_extra_result (TRUE);
  g_autofree char *text = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *wtext = ds_report_text (w, DS_UNITS_MB);
  g_autofree char *row = NULL;
  static const char *const firsts[] = {
    "Random seek  ", "Random seek 4 KB", "Butterfly seek", "Random seek / size 64 KB",
    "Random seek / size 8 MB", "Sequential outer", "Sequential middle",
    "Sequential inner", "Burst rate",
  };

  ck_assert_ptr_nonnull (strstr (text, "FUJITSU ETERNUS_DX400"));
  ck_assert_ptr_nonnull (strstr (text, "Extra Tests"));
  ck_assert_ptr_nonnull (strstr (text, "Test capacity: full"));
  ck_assert_ptr_null (strstr (text, "Write test"));
  assert_table (text, firsts, G_N_ELEMENTS (firsts));

  /* HD Tune's figures, HD Tune's way. */
  row = line_starting (text, "Random seek / size 8 MB");
  ck_assert_ptr_nonnull (strstr (row, "54 IOPS"));
  ck_assert_ptr_nonnull (strstr (row, "18.39 ms"));
  ck_assert_ptr_nonnull (strstr (row, "220.5 MB/s"));
  g_clear_pointer (&row, g_free);
  row = line_starting (text, "Random seek  ");
  ck_assert_ptr_nonnull (strstr (row, "198 IOPS"));
  ck_assert_ptr_nonnull (strstr (row, "5.057 ms"));
  ck_assert_ptr_nonnull (strstr (row, "0.097 MB/s"));
  /* Columns: the name padded to 26, then three cells of 14. */
  ck_assert_int_eq (strlen (row), 26 + 3 * 14);

  ck_assert_ptr_nonnull (strstr (wtext, "Write test"));
  assert_table (wtext, firsts, G_N_ELEMENTS (firsts));
}
END_TEST

START_TEST (test_report_random_access)
{
  g_autoptr (DsResult) r = ds_test_random_access_result (FALSE);
  g_autofree char *text = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *row = NULL;
  static const char *const firsts[] = {
    "Transfer size     operations", "512 bytes", "4 KiB", "64 KiB", "1 MiB", "Random",
  };

  ck_assert_ptr_nonnull (strstr (text, "Random Access"));
  assert_table (text, firsts, G_N_ELEMENTS (firsts));
  ck_assert_ptr_nonnull (strstr (text, "avg. access time"));
  ck_assert_ptr_nonnull (strstr (text, "max. access time"));
  ck_assert_ptr_nonnull (strstr (text, "p99.9"));
  row = line_starting (text, "1 MiB");
  ck_assert_ptr_nonnull (strstr (row, "63 IOPS"));
  ck_assert_ptr_nonnull (strstr (row, "15.67 ms"));
  ck_assert_ptr_nonnull (strstr (row, "76.23 ms"));
  ck_assert_ptr_nonnull (strstr (row, "63.8 MB/s"));

  {
    g_autoptr (DsResult) w = ds_test_random_access_result (TRUE);
    g_autofree char *wtext = ds_report_text (w, DS_UNITS_MIB);

    ck_assert_ptr_nonnull (strstr (wtext, "Write test"));
    ck_assert_ptr_nonnull (strstr (wtext, "MiB/s"));
  }
}
END_TEST

/* The header says what random offsets were multiples of (issue 25). */
START_TEST (test_report_alignment)
{
  g_autoptr (DsResult) ra = ds_test_random_access_result (FALSE);
  g_autoptr (DsResult) t = ds_test_transfer_result ();
  g_autofree char *text = ds_report_text (ra, DS_UNITS_MB);
  g_autofree char *hd = NULL;
  g_autofree char *kn = NULL;
  g_autofree char *bench = ds_report_text (t, DS_UNITS_MB);

  ck_assert_msg (strstr (text, "\nAlignment: random offsets are multiples of the block size\n"),
                 "%s", text);
  ra->spec.random_align_bytes = 512;
  hd = ds_report_text (ra, DS_UNITS_MB);
  ck_assert_msg (strstr (hd, "\nAlignment: random offsets are multiples of 512 bytes\n"), "%s", hd);
  /* Never finer than the device's logical block. */
  ra->target.logical_block_size = 4096;
  kn = ds_report_text (ra, DS_UNITS_MB);
  ck_assert_msg (strstr (kn, "\nAlignment: random offsets are multiples of 4 KiB\n"), "%s", kn);
  ck_assert_msg (strstr (bench, "Alignment") == NULL, "%s", bench);
}
END_TEST

START_TEST (test_report_block_size)
{
  g_autoptr (DsResult) r = ds_test_block_size_result (FALSE);
  g_autoptr (DsResult) w = ds_test_block_size_result (TRUE);
  g_autofree char *text = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *wtext = ds_report_text (w, DS_UNITS_MB);
  static const char *const firsts[] = {
    "Block size ", "0.5 KiB", "1 KiB", "2 KiB", "4 KiB", "8 KiB", "16 KiB", "32 KiB",
    "64 KiB", "128 KiB", "256 KiB", "512 KiB", "1 MiB", "2 MiB", "4 MiB", "8 MiB",
  };
  g_autofree char *row = NULL;

  assert_table (text, firsts, G_N_ELEMENTS (firsts));
  assert_table (wtext, firsts, G_N_ELEMENTS (firsts));
  ck_assert_ptr_null (strstr (text, "Write speed"));
  ck_assert_ptr_nonnull (strstr (wtext, "Write speed"));
  row = line_starting (text, "0.5 KiB");
  ck_assert_ptr_nonnull (strstr (row, "3.101 MB/s"));
}
END_TEST

START_TEST (test_report_file)
{
  g_autoptr (DsResult) r = ds_test_file_result (FALSE);
  g_autoptr (DsResult) b = ds_test_file_result (TRUE);
  g_autofree char *text = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *btext = ds_report_text (b, DS_UNITS_MB);
  static const char *const firsts[] = {
    "Sequential read", "Sequential write", "Random 4 KB read ", "Random 4 KB write ",
    "Random 4 KB read (queue depth = 32)", "Random 4 KB write (queue depth = 32)",
  };
  const char *read_head;
  const char *write_head;
  g_autofree char *row = NULL;

  ck_assert_ptr_nonnull (strstr (text, "File Benchmark"));
  ck_assert_ptr_nonnull (strstr (text, "Folder: /mnt/data"));
  ck_assert_ptr_nonnull (strstr (text, "Transfer rate test"));
  ck_assert_ptr_nonnull (strstr (text, "File Size: 4.7 GiB (5.0 GB)"));
  ck_assert_ptr_nonnull (strstr (text, "Block size test"));
  ck_assert_ptr_null (strstr (text, "Test capacity"));
  ck_assert_ptr_null (strstr (text, "Warning"));
  assert_table (text, firsts, G_N_ELEMENTS (firsts));
  row = line_starting (text, "Random 4 KB read (queue depth = 32)");
  ck_assert_ptr_nonnull (strstr (row, "110548 IOPS"));
  g_clear_pointer (&row, g_free);
  row = line_starting (text, "Sequential read");
  ck_assert_ptr_nonnull (strstr (row, "716.1 MB/s"));

  /* HD Tune's two tables: read speeds, then write speeds. */
  read_head = strstr (text, "Read speed");
  write_head = strstr (text, "Write speed");
  ck_assert_ptr_nonnull (read_head);
  ck_assert_ptr_nonnull (write_head);
  ck_assert (read_head < write_head);
  ck_assert_ptr_null (strstr (read_head + 1, "Read speed"));
  ck_assert_ptr_null (strstr (write_head + 1, "Write speed"));

  ck_assert_ptr_nonnull (strstr (btext, "Warning: buffered"));
}
END_TEST

/* Several runs print in the order given (`report a b c`), whatever their
 * kinds: the user chose it. */
START_TEST (test_report_session_order)
{
  g_autoptr (DsResult) f = ds_test_file_result (FALSE);
  g_autoptr (DsResult) b = ds_test_block_size_result (FALSE);
  g_autoptr (DsResult) ew = ds_test_extra_result (TRUE);
  g_autoptr (DsResult) ra = ds_test_random_access_result (FALSE);
  g_autoptr (DsResult) er = ds_test_extra_result (FALSE);
  DsResult *all[] = { f, b, ew, ra, er };
  g_autofree char *text = ds_report_session_text (all, G_N_ELEMENTS (all), DS_UNITS_MB);
  const char *pf = strstr (text, "File Benchmark");
  const char *pb = strstr (text, "Block Size");
  const char *pew = strstr (text, "Extra Tests");
  const char *pra = strstr (text, "Random Access");
  const char *per = pra ? strstr (pra, "Extra Tests") : NULL;

  ck_assert (pf != NULL && pb != NULL && pew != NULL && pra != NULL && per != NULL);
  ck_assert (pf < pb && pb < pew && pew < pra && pra < per);
  ck_assert_ptr_nonnull (strstr (pew, "Write test"));
  ck_assert_ptr_null (strstr (per, "Write test"));
  /* Separated by a blank line, each with its own header. */
  ck_assert_ptr_nonnull (strstr (text, "\n\n\nDiskscope "));
}
END_TEST

/* HD Tune's other tabs in a session report: the health verdict with its
 * reasons, and the scan and erase runs, each under its own header. */
START_TEST (test_report_session_tabs)
{
  g_autofree char *fixture = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl", "ST3500418AS_12.json", NULL);
  g_autoptr (DsResult) health = ds_health_result_from_file (fixture, NULL);
  g_autoptr (DsResult) scan = NULL;
  g_autoptr (DsResult) erase = NULL;
  g_autoptr (DsResult) extra = ds_test_extra_result (FALSE);
  g_autoptr (DsResult) file = ds_test_file_result (FALSE);
  DsResult *all[] = { extra, NULL, NULL, NULL, file };
  g_autofree char *text = NULL;
  DsBenchSpec spec;
  const char *p_extra, *p_health, *p_scan, *p_erase, *p_file;

  ck_assert_ptr_nonnull (health);
  ds_bench_spec_init (&spec, DS_BENCH_ERROR_SCAN);
  scan = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  ds_bench_spec_init (&spec, DS_BENCH_ERASE);
  erase = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  all[1] = health;
  all[2] = scan;
  all[3] = erase;

  text = ds_report_session_text (all, G_N_ELEMENTS (all), DS_UNITS_MB);
  p_extra = strstr (text, "Extra Tests");
  p_health = strstr (text, "304 reallocated sectors");
  p_scan = strstr (text, "Error Scan");
  p_erase = strstr (text, "Erase\n");
  p_file = strstr (text, "File Benchmark");
  ck_assert_msg (p_extra && p_health && p_scan && p_erase && p_file, "%s", text);
  ck_assert_msg (p_extra < p_health && p_health < p_scan && p_scan < p_erase && p_erase < p_file, "%s", text);
}
END_TEST

/* ---- units -------------------------------------------------------------- */

/* The header says what MB means, and how to match HD Tune. */
START_TEST (test_report_units_line)
{
  g_autoptr (DsResult) r = ds_test_extra_result (FALSE);
  g_autofree char *mb = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *mib = ds_report_text (r, DS_UNITS_MIB);
  g_autofree char *line = line_starting (mb, "Rates:");
  g_autofree char *mib_line = line_starting (mib, "Rates:");

  ck_assert_ptr_nonnull (line);
  ck_assert_ptr_nonnull (strstr (line, "1 MB = 10^6 bytes"));
  ck_assert_ptr_nonnull (strstr (line, "HD Tune"));
  ck_assert_ptr_nonnull (strstr (line, "--units MiB"));
  ck_assert_ptr_nonnull (mib_line);
  ck_assert_ptr_nonnull (strstr (mib_line, "1 MiB = 2^20 bytes"));
  /* No report claims HD Tune's MB is 10^6. */
  ck_assert_ptr_null (strstr (mb, "as HD Tune"));
}
END_TEST

/* HD Tune's "MB/s" is 2^20 bytes a second: its seed row "Sequential outer
 * 1952 IOPS ... 121.995 MB/s" at 64 KiB is 127.9 x 10^6 B/s.  Ours says
 * 127.9 MB/s, and with MiB the same 122.0 HD Tune shows. */
START_TEST (test_report_hdtune_units)
{
  g_autoptr (DsResult) r = ds_test_result_new (DS_BENCH_EXTRA, "/dev/sdz", FALSE);
  DsExtraData *d = r->data;
  DsExtraRow row = {
    .row = DS_EXTRA_SEQUENTIAL_OUTER,
    .iops = 1952,
    .access_time_s = 0.000512,
    .bytes_per_s = 1952.0 * 65536,
    .ios = 1952,
    .bytes = 1952 * UINT64_C (65536),
  };
  g_autofree char *mb = NULL;
  g_autofree char *mib = NULL;
  g_autofree char *mb_row = NULL;
  g_autofree char *mib_row = NULL;

  d->read_present = TRUE;
  g_array_append_val (d->read, row);
  mb = ds_report_text (r, DS_UNITS_MB);
  mib = ds_report_text (r, DS_UNITS_MIB);
  mb_row = line_starting (mb, "Sequential outer");
  mib_row = line_starting (mib, "Sequential outer");
  ck_assert_ptr_nonnull (strstr (mb_row, "127.9 MB/s"));
  ck_assert_ptr_nonnull (strstr (mib_row, "122.0 MiB/s"));
}
END_TEST

/* ---- what the report prints from a file --------------------------------- */

/* Nothing from a file or a device reaches the terminal raw: no control
 * character but the report's own newlines, and no line the file made up. */
static void
assert_inert_report (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  ck_assert (g_utf8_validate (text, -1, NULL));
  for (const char *p = text; *p != '\0'; p++)
    ck_assert_msg ((guchar) *p >= 0x20 || *p == '\n', "byte 0x%02x in the report:\n%s", *p, text);
  for (guint i = 0; lines[i] != NULL; i++)
    ck_assert_msg (!g_str_has_prefix (lines[i], "FAKE"), "a line the file made up:\n%s", text);
  ck_assert_ptr_null (strstr (text, "\xc2\x9b"));
  ck_assert_ptr_null (strstr (text, "\xe2\x80\xae"));
}

START_TEST (test_report_injection)
{
  static const char *const evil[] = {
    "\033]0;pwned\007", "\033[2J\033[H", "x\r\nFAKE line", "\nFAKE", "a\xc2\x9b" "2J",
    "rtl\xe2\x80\xae", "bad \xff utf-8", "\033P1;2q\033\\", "\t\b\177",
  };

  for (guint i = 0; i < G_N_ELEMENTS (evil); i++)
    {
      DsResult *all[] = {
        ds_test_transfer_result (), ds_test_workload_result (), ds_test_extra_result (FALSE),
        ds_test_random_access_result (TRUE), ds_test_block_size_result (FALSE),
        ds_test_file_result (TRUE),
      };

      for (guint k = 0; k < G_N_ELEMENTS (all); k++)
        {
          DsResult *r = all[k];
          g_autofree char *text = NULL;
          g_autofree char *loaded_text = NULL;
          g_autoptr (DsResult) back = NULL;
          g_autoptr (GError) e = g_error_new (DS_ERROR, DS_ERROR_IO, "read failed%s", evil[i]);

          g_free (r->target.model);
          r->target.model = g_strdup_printf ("Model%s", evil[i]);
          g_free (r->target.path);
          r->target.path = g_strdup_printf ("/dev/sdz%s", evil[i]);
          g_free (r->tool_version);
          r->tool_version = g_strdup_printf ("9%s", evil[i]);
          ds_result_add_note (r, "note%s", evil[i]);
          g_clear_error (&r->error);
          ds_result_set_error (r, e, EIO, 4096);
          if (r->kind == DS_BENCH_FILE)
            {
              DsFileData *d = r->data;
              g_free (d->directory);
              d->directory = g_strdup_printf ("/mnt%s", evil[i]);
            }
          if (r->kind == DS_BENCH_WORKLOAD)
            {
              DsWorkloadData *d = r->data;
              g_free (d->engine);
              d->engine = g_strdup_printf ("sync%s", evil[i]);
            }

          text = ds_report_text (r, DS_UNITS_MB);
          assert_inert_report (text);
          /* The same through a file. */
          back = ds_test_round_trip (r);
          loaded_text = ds_report_text (back, DS_UNITS_MIB);
          assert_inert_report (loaded_text);
          ds_result_free (r);
        }
    }
}
END_TEST

/* ---- a run stopped before it measured anything (issue 8, item 11) ------- */

static void
assert_dashes (const char *text)
{
  static const char *const labels[] = {
    "Transfer Rate Minimum", "Transfer Rate Maximum", "Transfer Rate Average",
  };

  ck_assert_ptr_null (strstr (text, "0.000 MB/s"));
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      g_autofree char *line = line_starting (text, labels[i]);

      ck_assert_msg (line != NULL, "no %s in:\n%s", labels[i], text);
      ck_assert_msg (g_str_has_suffix (line, ": –"), "“%s” is not a dash", line);
    }
}

START_TEST (test_report_stopped_before_first_point)
{
  DsBenchSpec spec;
  g_autofree char *image = ds_test_make_file ("stopped.img", 16 << 20, 1);
  g_autoptr (DsResult) r = NULL;
  g_autoptr (DsResult) back = NULL;
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;
  gint cancel = 1;

  /* A real run, stopped before its first point. */
  ds_bench_spec_init (&spec, DS_BENCH_TRANSFER);
  spec.target_path = g_strdup (image);
  spec.accuracy = 1;
  r = ds_run (&spec, NULL, NULL, &cancel);
  ds_bench_spec_clear (&spec);

  ck_assert (r->cancelled);
  ck_assert_ptr_nonnull (r->data);
  ck_assert (((DsTransferData *) r->data)->read.present);
  ck_assert_uint_eq (((DsTransferData *) r->data)->read.points->len, 0);

  text = ds_report_text (r, DS_UNITS_MB);
  assert_dashes (text);

  json = ds_result_to_data (r, NULL);
  ck_assert_ptr_nonnull (strstr (json, "\"min_bytes_per_s\" : null"));
  ck_assert_ptr_nonnull (strstr (json, "\"max_bytes_per_s\" : null"));
  ck_assert_ptr_nonnull (strstr (json, "\"avg_bytes_per_s\" : null"));
  back = ds_test_round_trip (r);
  g_free (text);
  text = ds_report_text (back, DS_UNITS_MB);
  assert_dashes (text);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("report");
  TCase *layout = tcase_create ("layout");
  TCase *safe = tcase_create ("safe-to-print");
  TCase *stopped = tcase_create ("stopped");

  ds_test_init ("report");

  tcase_add_test (layout, test_report_extra);
  tcase_add_test (layout, test_report_random_access);
  tcase_add_test (layout, test_report_alignment);
  tcase_add_test (layout, test_report_block_size);
  tcase_add_test (layout, test_report_file);
  tcase_add_test (layout, test_report_session_order);
  tcase_add_test (layout, test_report_session_tabs);
  tcase_add_test (layout, test_report_units_line);
  tcase_add_test (layout, test_report_hdtune_units);
  suite_add_tcase (s, layout);

  tcase_add_test (safe, test_report_injection);
  tcase_set_timeout (safe, 60);
  suite_add_tcase (s, safe);

  tcase_add_test (stopped, test_report_stopped_before_first_point);
  tcase_set_timeout (stopped, 60);
  suite_add_tcase (s, stopped);

  return ds_test_run_suite (s);
}
