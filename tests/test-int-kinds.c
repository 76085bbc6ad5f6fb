/* test-int-kinds.c: the extra, random-access and block-size kinds on real
 * loop devices (root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every row of every kind must come back with positive figures, and the I/O
 * must land where the row says: the offsets checked here are the ones the
 * engine completed (the kinds record them from DsIoPlan.on_complete, and the
 * random-access points are the engine's DsIo offsets and lengths).
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "ds-bench-block-size.h"
#include "ds-bench-extra.h"
#include "ds-bench-random-access.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-test-util.h"

#define DEVICE_BYTES (UINT64_C (64) << 20)
#define ROW_NS       (200 * DS_NS_PER_MSEC)

typedef struct {
  guint rows;
  guint phases;
  guint accesses;
  double last_progress;
  gboolean progress_backwards;
  uint64_t row_offsets[2 * DS_BLOCK_SIZE_N_SIZES];  /* DS_SAMPLE_ROW's */
  uint64_t last_access_ns;
  guint access_bursts;    /* runs of DS_SAMPLE_ACCESS less than a gap apart */
} Counts;

/* Samples sent one by one as the I/O goes come at least one I/O apart (tens
 * of microseconds on a loop device); those sent together between slices of
 * I/O come a few hundred nanoseconds apart. */
#define BURST_GAP_NS (10 * DS_NS_PER_USEC)

static void
count_sample (const DsSample *sample,
              gpointer        user_data)
{
  Counts *c = user_data;

  switch (sample->kind)
    {
    case DS_SAMPLE_ROW:
      if (c->rows < G_N_ELEMENTS (c->row_offsets))
        c->row_offsets[c->rows] = sample->offset_bytes;
      c->rows++;
      break;
    case DS_SAMPLE_PHASE:
      c->phases++;
      break;
    case DS_SAMPLE_ACCESS:
      {
        uint64_t now = ds_clock_ns ();

        if (c->last_access_ns == 0 || now - c->last_access_ns > BURST_GAP_NS)
          c->access_bursts++;
        c->last_access_ns = now;
        c->accesses++;
      }
      break;
    case DS_SAMPLE_POINT:
    case DS_SAMPLE_PROGRESS:
    default:
      break;
    }
  if (sample->progress + 1e-9 < c->last_progress)
    c->progress_backwards = TRUE;
  c->last_progress = sample->progress;
}

static DsResult *
run_kind (DsBenchKind  kind,
          const char  *device,
          gboolean     write,
          uint64_t     capacity_bytes,
          Counts      *counts)
{
  DsBenchSpec spec;
  DsResult *result;
  gint cancel = 0;

  ds_bench_spec_init (&spec, kind);
  spec.target_path = g_strdup (device);
  spec.duration_ns = ROW_NS;
  spec.capacity_bytes = capacity_bytes;
  spec.write = write;
  if (write)
    spec.destroy_data = g_strdup (device);
  result = ds_run (&spec, count_sample, counts, &cancel);
  ds_bench_spec_clear (&spec);

  if (result->error != NULL)
    ck_abort_msg ("%s on %s failed: %s", ds_bench_get (kind)->name, device,
                  result->error->message);
  ck_assert (result->complete);

  return result;
}

static void
assert_extra_rows (GArray   *rows,
                   uint64_t  span)
{
  ck_assert_uint_eq (rows->len, DS_EXTRA_N_ROWS);
  for (guint i = 0; i < rows->len; i++)
    {
      const DsExtraRow *row = &g_array_index (rows, DsExtraRow, i);
      const char *name = ds_extra_row_name (row->row);

      ck_assert_int_eq (row->row, i);
      ck_assert_msg (row->iops > 0 && row->access_time_s > 0 && row->bytes_per_s > 0 &&
                     row->ios > 0 && row->bytes > 0,
                     "%s: %.1f IOPS, %g s, %.0f B/s", name, row->iops,
                     row->access_time_s, row->bytes_per_s);
      ck_assert_msg (row->max_end_bytes <= span, "%s ends at %" G_GUINT64_FORMAT
                     " past the span %" G_GUINT64_FORMAT, name, row->max_end_bytes, span);
      /* About right: IOPS × bytes per I/O = bytes/s. */
      ck_assert_double_eq_tol (row->bytes_per_s, row->iops * row->bytes / row->ios,
                               row->bytes_per_s * 1e-6);
    }
}

START_TEST (test_extra_rows_and_offsets)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  Counts counts = { 0 };
  g_autoptr (DsResult) r = run_kind (DS_BENCH_EXTRA, dev, FALSE, 0, &counts);
  DsExtraData *d = r->data;
  uint64_t span = d->span_bytes;
  const DsExtraRow *rows;

  ck_assert_uint_eq (span, DEVICE_BYTES);
  ck_assert (d->read_present && !d->write_present);
  assert_extra_rows (d->read, span);
  rows = (const DsExtraRow *) d->read->data;

  /* Sequential outer / middle / inner read where they say. */
  ck_assert_uint_le (rows[DS_EXTRA_SEQUENTIAL_OUTER].max_end_bytes, span / 10);
  ck_assert_uint_eq (rows[DS_EXTRA_SEQUENTIAL_OUTER].min_offset_bytes, 0);
  ck_assert_uint_ge (rows[DS_EXTRA_SEQUENTIAL_MIDDLE].min_offset_bytes, span * 4 / 10);
  ck_assert_uint_le (rows[DS_EXTRA_SEQUENTIAL_MIDDLE].max_end_bytes, span * 6 / 10);
  ck_assert_uint_ge (rows[DS_EXTRA_SEQUENTIAL_INNER].min_offset_bytes, span * 9 / 10);
  /* The inner zone's last piece ends at the span's end (read to there when
   * the device is fast enough to read the whole piece in its time). */
  ck_assert_uint_gt (rows[DS_EXTRA_SEQUENTIAL_INNER].max_end_bytes,
                     span - span / DS_EXTRA_ZONE_DIVISOR / DS_EXTRA_ZONE_PIECES);
  ck_assert_uint_le (rows[DS_EXTRA_SEQUENTIAL_INNER].max_end_bytes, span);
  /* The burst rate stays in its small region at the start. */
  ck_assert_uint_le (rows[DS_EXTRA_BURST_RATE].max_end_bytes, DS_EXTRA_BURST_REGION_BYTES);
  /* The butterfly starts at both edges. */
  ck_assert_uint_eq (rows[DS_EXTRA_BUTTERFLY_SEEK].min_offset_bytes, 0);
  ck_assert_uint_eq (rows[DS_EXTRA_BUTTERFLY_SEEK].max_end_bytes, span);
  /* Random seeks cover the span, not a corner of it. */
  ck_assert_uint_lt (rows[DS_EXTRA_RANDOM_SEEK].min_offset_bytes, span / 4);
  ck_assert_uint_gt (rows[DS_EXTRA_RANDOM_SEEK].max_end_bytes, span * 3 / 4);
  /* Sizes: one block, 4 KB, and mixed up to 8 MB. */
  ck_assert_uint_eq (rows[DS_EXTRA_RANDOM_SEEK].bytes, rows[DS_EXTRA_RANDOM_SEEK].ios * 512);
  ck_assert_uint_eq (rows[DS_EXTRA_RANDOM_SEEK_4K].bytes, rows[DS_EXTRA_RANDOM_SEEK_4K].ios * 4096);
  ck_assert_uint_eq (rows[DS_EXTRA_SEQUENTIAL_MIDDLE].bytes,
                     rows[DS_EXTRA_SEQUENTIAL_MIDDLE].ios * 65536);
  ck_assert_uint_le (rows[DS_EXTRA_RANDOM_SEEK_64K].bytes, rows[DS_EXTRA_RANDOM_SEEK_64K].ios * 65536);
  ck_assert_uint_gt (rows[DS_EXTRA_RANDOM_SEEK_8M].bytes, rows[DS_EXTRA_RANDOM_SEEK_8M].ios * 65536);

  ck_assert_uint_eq (counts.rows, DS_EXTRA_N_ROWS);
  ck_assert_uint_eq (counts.phases, DS_EXTRA_N_ROWS);
  ck_assert (!counts.progress_backwards);

  ds_test_loop_detach (dev);
}
END_TEST

/* --capacity: every row stays inside the first N bytes. */
START_TEST (test_extra_capacity)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  Counts counts = { 0 };
  g_autoptr (DsResult) r = run_kind (DS_BENCH_EXTRA, dev, FALSE, 16 << 20, &counts);
  DsExtraData *d = r->data;
  const DsExtraRow *rows = (const DsExtraRow *) d->read->data;

  ck_assert_uint_eq (d->span_bytes, 16 << 20);
  assert_extra_rows (d->read, 16 << 20);
  ck_assert_uint_ge (rows[DS_EXTRA_SEQUENTIAL_INNER].min_offset_bytes, (16 << 20) * 9 / 10);

  ds_test_loop_detach (dev);
}
END_TEST

START_TEST (test_extra_write)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *before = ds_test_checksum (dev);
  g_autofree char *after = NULL;
  Counts counts = { 0 };
  g_autoptr (DsResult) r = run_kind (DS_BENCH_EXTRA, dev, TRUE, 0, &counts);
  DsExtraData *d = r->data;

  ck_assert (d->write_present && !d->read_present);
  assert_extra_rows (d->write, DEVICE_BYTES);
  /* It did write. */
  after = ds_test_checksum (dev);
  ck_assert_str_ne (before, after);

  ds_test_loop_detach (dev);
}
END_TEST

START_TEST (test_random_access_points)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  Counts counts = { 0 };
  g_autoptr (DsResult) r = run_kind (DS_BENCH_RANDOM_ACCESS, dev, FALSE, 0, &counts);
  DsRandomAccessData *d = r->data;
  g_autoptr (GHashTable) random_sizes = g_hash_table_new (NULL, NULL);
  guint per_row[DS_RANDOM_ACCESS_N_ROWS] = { 0 };

  ck_assert (d->read.present && !d->write.present);
  ck_assert_uint_eq (d->read.rows->len, DS_RANDOM_ACCESS_N_ROWS);
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    {
      const DsRandomAccessRow *row = &g_array_index (d->read.rows, DsRandomAccessRow, i);

      ck_assert_uint_eq (row->transfer_bytes, ds_random_access_row_bytes (i));
      ck_assert_msg (row->iops > 0 && row->avg_access_s > 0 && row->max_access_s >= row->avg_access_s &&
                     row->p50_s > 0 && row->p99_s >= row->p50_s && row->p99_9_s >= row->p99_s &&
                     row->bytes_per_s > 0,
                     "row %u: %.0f IOPS avg %g max %g p50 %g p99 %g p99.9 %g %.0f B/s", i,
                     row->iops, row->avg_access_s, row->max_access_s, row->p50_s,
                     row->p99_s, row->p99_9_s, row->bytes_per_s);
      /* No percentile past the slowest I/O. */
      ck_assert_double_le (row->p99_9_s, row->max_access_s);
    }

  ck_assert_uint_gt (d->read.points->len, 0);
  ck_assert_uint_eq (counts.accesses, d->read.points->len);
  for (guint i = 0; i < d->read.points->len; i++)
    {
      const DsRandomAccessPoint *p = &g_array_index (d->read.points, DsRandomAccessPoint, i);
      uint64_t want = ds_random_access_row_bytes (p->row);

      ck_assert_uint_lt (p->row, DS_RANDOM_ACCESS_N_ROWS);
      per_row[p->row]++;
      ck_assert_msg (p->offset_bytes + p->transfer_bytes <= d->span_bytes,
                     "point %u at %" G_GUINT64_FORMAT " + %u is outside the span",
                     i, p->offset_bytes, p->transfer_bytes);
      ck_assert_msg (p->offset_bytes % 512 == 0 && p->transfer_bytes % 512 == 0 &&
                     p->transfer_bytes > 0,
                     "point %u: offset %" G_GUINT64_FORMAT " size %u not aligned",
                     i, p->offset_bytes, p->transfer_bytes);
      ck_assert (p->access_s > 0);
      if (want != 0)
        ck_assert_uint_eq (p->transfer_bytes, want);
      else
        {
          ck_assert_uint_le (p->transfer_bytes, DS_RANDOM_ACCESS_MIXED_MAX_BYTES);
          g_hash_table_add (random_sizes, GUINT_TO_POINTER (p->transfer_bytes));
        }
    }
  /* Every row has its points, as many as it counted (or the cap). */
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    {
      const DsRandomAccessRow *row = &g_array_index (d->read.rows, DsRandomAccessRow, i);

      ck_assert_uint_eq (per_row[i], MIN (row->ios, DS_RANDOM_ACCESS_MAX_POINTS_PER_ROW));
    }
  /* "Random" mixes sizes. */
  ck_assert_uint_gt (g_hash_table_size (random_sizes), 5);

  /* No sample is sent inside a timed window, one per I/O: they come in
   * bursts between slices of I/O (two or three a row: a slice is at most
   * DS_BENCH_SLICE_NS; a busy machine may split a burst now and then).
   * One per I/O would make as many bursts as samples. */
  printf ("# %u access samples in %u bursts\n", counts.accesses, counts.access_bursts);
  ck_assert_msg (counts.access_bursts * 4 <= counts.accesses,
                 "%u access samples came in %u bursts", counts.accesses, counts.access_bursts);

  ds_test_loop_detach (dev);
}
END_TEST

START_TEST (test_block_size_all_sizes)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *before = ds_test_checksum (dev);
  g_autofree char *after = NULL;
  Counts counts = { 0 };
  g_autoptr (DsResult) r = run_kind (DS_BENCH_BLOCK_SIZE, dev, FALSE, 0, &counts);
  DsBlockSizeData *d = r->data;

  ck_assert_uint_eq (d->rows->len, DS_BLOCK_SIZE_N_SIZES);
  for (guint i = 0; i < d->rows->len; i++)
    {
      const DsBlockSizeRow *row = &g_array_index (d->rows, DsBlockSizeRow, i);

      ck_assert_uint_eq (row->block_bytes, UINT64_C (512) << i);
      ck_assert_msg (row->read_bytes_per_s > 0, "%" G_GUINT64_FORMAT ": %.0f",
                     row->block_bytes, row->read_bytes_per_s);
      ck_assert (row->write_bytes_per_s < 0);
    }
  ck_assert_uint_eq (d->rows->len, 15);
  ck_assert_uint_eq (g_array_index (d->rows, DsBlockSizeRow, 14).block_bytes, 8 << 20);
  ck_assert_uint_eq (counts.rows, DS_BLOCK_SIZE_N_SIZES);
  /* Once through the span: each size goes on where the previous stopped
   * (none re-reads what the one before had just read), starting over at
   * the start only after the whole span, and then the result says so. */
  ck_assert_uint_eq (counts.row_offsets[0], 0);
  ck_assert_uint_gt (counts.row_offsets[1], 0);
  for (guint i = 1; i < DS_BLOCK_SIZE_N_SIZES; i++)
    if (counts.row_offsets[i] <= counts.row_offsets[i - 1])
      {
        gboolean noted = FALSE;

        for (guint k = 0; k < r->notes->len; k++)
          noted = noted || strstr (r->notes->pdata[k], "started over") != NULL;
        ck_assert_msg (noted, "size %u starts at %" G_GUINT64_FORMAT ", before size %u "
                       "(%" G_GUINT64_FORMAT "), and no note says the sweep started over",
                       i, counts.row_offsets[i], i - 1, counts.row_offsets[i - 1]);
      }
  /* A read run reads. */
  after = ds_test_checksum (dev);
  ck_assert_str_eq (before, after);

  ds_test_loop_detach (dev);
}
END_TEST

START_TEST (test_block_size_write)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  Counts counts = { 0 };
  g_autoptr (DsResult) r = run_kind (DS_BENCH_BLOCK_SIZE, dev, TRUE, 0, &counts);
  DsBlockSizeData *d = r->data;

  for (guint i = 0; i < d->rows->len; i++)
    {
      const DsBlockSizeRow *row = &g_array_index (d->rows, DsBlockSizeRow, i);

      ck_assert (row->read_bytes_per_s > 0);
      ck_assert (row->write_bytes_per_s > 0);
    }
  ck_assert_uint_eq (counts.rows, 2 * DS_BLOCK_SIZE_N_SIZES);

  ds_test_loop_detach (dev);
}
END_TEST

/* The write variants refuse without the confirmation, or with one that
 * names another device (exit 3), and write nothing. */
START_TEST (test_write_refused)
{
  static const char *const kinds[] = { "extra", "random-access", "block-size" };
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *other = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *before = ds_test_checksum (dev);
  g_autofree char *wrong = g_strdup_printf ("--destroy-data=%s", other);

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    for (guint variant = 0; variant < 2; variant++)
      {
        const char *argv[] = {
          ds_test_cli_path (), kinds[i], dev, "--write", "--duration", "200ms",
          variant == 0 ? NULL : wrong, NULL,
        };
        g_autofree char *out = NULL;
        g_autofree char *err = NULL;
        g_autofree char *after = NULL;
        int rc = ds_test_run (argv, &out, &err);

        ck_assert_msg (rc == 3, "%s --write (%s): exit %d, stderr: %s", kinds[i],
                       variant == 0 ? "no confirmation" : "another device", rc, err);
        ck_assert_ptr_nonnull (strstr (err, dev));
        after = ds_test_checksum (dev);
        ck_assert_str_eq (before, after);
      }

  ds_test_loop_detach (dev);
  ds_test_loop_detach (other);
}
END_TEST

/* The CLI runs each kind by name; its JSON loads and its report has every
 * row. */
START_TEST (test_cli_json_and_report)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  static const struct {
    const char *kind;
    const char *last_row;
  } cases[] = {
    { "extra", "Burst rate" },
    { "random-access", "Random " },
    { "block-size", "8 MiB" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *json_argv[] = {
        ds_test_cli_path (), cases[i].kind, dev, "--duration", "100ms", "--json", NULL,
      };
      const char *text_argv[] = {
        ds_test_cli_path (), cases[i].kind, dev, "--duration", "100ms", NULL,
      };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *text = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (DsResult) r = NULL;
      int rc;

      rc = ds_test_run (json_argv, &out, &err);
      ck_assert_msg (rc == 0, "%s --json: exit %d: %s", cases[i].kind, rc, err);
      r = ds_result_load_data (out, -1, &error);
      ck_assert_msg (r != NULL, "%s: %s", cases[i].kind, error ? error->message : "");
      ck_assert_str_eq (ds_bench_get (r->kind)->name, cases[i].kind);
      ck_assert (r->complete);

      g_clear_pointer (&err, g_free);
      rc = ds_test_run (text_argv, &text, &err);
      ck_assert_msg (rc == 0, "%s: exit %d: %s", cases[i].kind, rc, err);
      ck_assert_ptr_nonnull (strstr (text, ds_bench_lookup (cases[i].kind)->title));
      ck_assert_ptr_nonnull (strstr (text, cases[i].last_row));
    }

  ds_test_loop_detach (dev);
}
END_TEST

/* Stop mid-run: back quickly, with the rows done so far. */
typedef struct {
  gint   *cancel;
  guint   rows;
  uint64_t  cancelled_ns;     /* when the third row came in */
} CancelAfter;

static void
cancel_after_rows (const DsSample *sample,
                   gpointer        user_data)
{
  CancelAfter *c = user_data;

  if (sample->kind == DS_SAMPLE_ROW && ++c->rows == 3)
    {
      c->cancelled_ns = ds_clock_ns ();
      g_atomic_int_set (c->cancel, 1);
    }
}

START_TEST (test_cancel_keeps_rows)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  gint cancel = 0;
  CancelAfter c = { &cancel, 0, 0 };
  DsBenchSpec spec;
  g_autoptr (DsResult) r = NULL;
  DsExtraData *d;
  uint64_t t0;

  ds_bench_spec_init (&spec, DS_BENCH_EXTRA);
  spec.target_path = g_strdup (dev);
  spec.duration_ns = DS_NS_PER_SEC;
  t0 = ds_clock_ns ();
  r = ds_run (&spec, cancel_after_rows, &c, &cancel);
  ds_bench_spec_clear (&spec);

  ck_assert (r->cancelled);
  ck_assert (!r->complete);
  ck_assert (g_error_matches (r->error, DS_ERROR, DS_ERROR_CANCELLED));
  d = r->data;
  ck_assert_uint_eq (d->read->len, 3);
  /* Three rows of 1 s, then a stop right away: the fourth row (another
   * second) is not run.  Timed from the stop, so a slow positioning read
   * on a loaded machine does not count against it. */
  ds_test_note ("three rows in %.2f s, stopped %.1f ms after the third",
                (c.cancelled_ns - t0) / 1e9, (ds_clock_ns () - c.cancelled_ns) / 1e6);
  ck_assert_uint_lt (ds_clock_ns () - c.cancelled_ns, DS_NS_PER_SEC / 2);

  ds_test_loop_detach (dev);
}
END_TEST

int
main (void)
{
  Suite *s;
  TCase *tc;

  ds_test_init ("int-kinds");
  ds_test_require_root ("loop devices");

  s = suite_create ("int-kinds");
  tc = tcase_create ("kinds");
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_extra_rows_and_offsets);
  tcase_add_test (tc, test_extra_capacity);
  tcase_add_test (tc, test_extra_write);
  tcase_add_test (tc, test_random_access_points);
  tcase_add_test (tc, test_block_size_all_sizes);
  tcase_add_test (tc, test_block_size_write);
  tcase_add_test (tc, test_write_refused);
  tcase_add_test (tc, test_cli_json_and_report);
  tcase_add_test (tc, test_cancel_keeps_rows);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
