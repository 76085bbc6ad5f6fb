/* ds-test-results.c: results of every kind, built by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <check.h>

#include "ds-bench-block-size.h"
#include "ds-bench-extra.h"
#include "ds-bench-file.h"
#include "ds-bench-random-access.h"
#include "ds-bench-replay.h"
#include "ds-bench-transfer.h"
#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-results.h"

DsResult *
ds_test_result_new (DsBenchKind  kind,
                    const char  *path,
                    gboolean     write)
{
  DsBenchSpec spec;
  DsResult *r;

  ds_bench_spec_init (&spec, kind);
  spec.target_path = g_strdup (path);
  spec.write = write;
  if (write)
    spec.destroy_data = g_strdup (path);
  spec.duration_ns = 200 * 1000 * 1000;
  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);

  r->target.path = g_strdup (path);
  r->target.is_block = kind != DS_BENCH_FILE;
  r->target.size_bytes = UINT64_C (500) * 1000 * 1000 * 1000;
  r->target.model = g_strdup ("FUJITSU ETERNUS_DX400");
  r->target.logical_block_size = 512;
  r->target.physical_block_size = 4096;
  r->engine = g_strdup ("sync");
  r->complete = TRUE;

  return r;
}

/* HD Tune's figures from the seed (DX440, read). */
static const struct {
  double iops;
  double ms;
  double mb_s;
} seed_extra[DS_EXTRA_N_ROWS] = {
  { 198, 5.057, 0.097 },
  { 190, 5.250, 0.744 },
  { 197, 5.066, 0.096 },
  { 180, 5.566, 2.762 },
  { 54, 18.387, 220.527 },
  { 1952, 0.512, 121.995 },
  { 2658, 0.376, 166.132 },
  { 2339, 0.428, 146.158 },
  { 2679, 0.373, 167.411 },
};

static void
fill_extra_rows (GArray *rows,
                 double  scale)
{
  for (unsigned i = 0; i < DS_EXTRA_N_ROWS; i++)
    {
      DsExtraRow row = {
        .row = (DsExtraRowKind) i,
        .iops = seed_extra[i].iops * scale,
        .access_time_s = seed_extra[i].ms / 1e3 / scale,
        .bytes_per_s = seed_extra[i].mb_s * 1e6 * scale,
        .ios = 1000 + i,
        .bytes = (1000 + i) * UINT64_C (4096),
        .min_offset_bytes = i * UINT64_C (1) << 20,
        .max_end_bytes = (i + 1) * UINT64_C (1) << 30,
      };

      g_array_append_val (rows, row);
    }
}

DsResult *
ds_test_extra_result (gboolean write)
{
  DsResult *r = ds_test_result_new (DS_BENCH_EXTRA, "/dev/sdz", write);
  DsExtraData *d = r->data;

  d->span_bytes = r->target.size_bytes;
  if (write)
    {
      d->write_present = TRUE;
      fill_extra_rows (d->write, 33.0);
    }
  else
    {
      d->read_present = TRUE;
      fill_extra_rows (d->read, 1.0);
    }

  return r;
}

static const struct {
  double iops;
  double avg_ms;
  double max_ms;
  double mb_s;
} seed_ra[DS_RANDOM_ACCESS_N_ROWS] = {
  { 192, 5.185, 31.367, 0.094 },
  { 184, 5.413, 28.616, 0.722 },
  { 144, 6.925, 34.814, 9.025 },
  { 63, 15.668, 76.230, 63.822 },
  { 88, 11.284, 44.351, 44.964 },
};

DsResult *
ds_test_random_access_result (gboolean write)
{
  DsResult *r = ds_test_result_new (DS_BENCH_RANDOM_ACCESS, "/dev/sdz", write);
  DsRandomAccessData *d = r->data;
  DsRandomAccessDir *dir = write ? &d->write : &d->read;

  d->span_bytes = r->target.size_bytes;
  dir->present = TRUE;
  for (unsigned i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    {
      DsRandomAccessRow row = {
        .transfer_bytes = ds_random_access_row_bytes (i),
        .iops = seed_ra[i].iops,
        .avg_access_s = seed_ra[i].avg_ms / 1e3,
        .max_access_s = seed_ra[i].max_ms / 1e3,
        .p50_s = seed_ra[i].avg_ms / 1e3 * 0.9,
        .p99_s = seed_ra[i].max_ms / 1e3 * 0.8,
        .p99_9_s = seed_ra[i].max_ms / 1e3 * 0.95,
        .bytes_per_s = seed_ra[i].mb_s * 1e6,
        .ios = 600 + i,
        .bytes = (600 + i) * UINT64_C (4096),
      };

      g_array_append_val (dir->rows, row);
      for (unsigned k = 0; k < 7; k++)
        {
          DsRandomAccessPoint p = {
            .offset_bytes = (uint64_t) (k * 7919 + i) * 512,
            .transfer_bytes = row.transfer_bytes != 0 ? (uint32_t) row.transfer_bytes : 512 * (k + 1),
            .row = i,
            .access_s = 0.001 * (k + 1),
          };
          g_array_append_val (dir->points, p);
        }
    }

  return r;
}

DsResult *
ds_test_block_size_result (gboolean write)
{
  DsResult *r = ds_test_result_new (DS_BENCH_BLOCK_SIZE, "/dev/sdz", write);
  DsBlockSizeData *d = r->data;

  d->span_bytes = r->target.size_bytes;
  for (unsigned i = 0; i < d->rows->len; i++)
    {
      DsBlockSizeRow *row = &g_array_index (d->rows, DsBlockSizeRow, i);

      row->read_bytes_per_s = 3.101e6 * (1u << i);
      row->write_bytes_per_s = write ? 2.841e6 * (1u << i) : -1;
    }

  return r;
}

DsResult *
ds_test_file_result (gboolean buffered)
{
  DsResult *r = ds_test_result_new (DS_BENCH_FILE, "/mnt/data", FALSE);
  DsFileData *d = r->data;

  d->directory = g_strdup ("/mnt/data");
  d->file_bytes = UINT64_C (5000) * 1000 * 1000;
  d->buffered = buffered;
  d->tmpfile = TRUE;
  d->sequential_read_bytes_per_s = 716064e3;
  d->sequential_write_bytes_per_s = 758425e3;
  d->random_read_iops = 8819;
  d->random_write_iops = 5787;
  d->random_read_qd32_iops = 110548;
  d->random_write_qd32_iops = -1;   /* not measured: a run that stopped */
  for (unsigned i = 0; i < d->block_size->len; i++)
    {
      DsBlockSizeRow *row = &g_array_index (d->block_size, DsBlockSizeRow, i);

      row->read_bytes_per_s = 3101e3 * (1u << i);
      row->write_bytes_per_s = i == 14 ? -1 : 2841e3 * (1u << i);
    }

  return r;
}

DsResult *
ds_test_transfer_result (void)
{
  DsBenchSpec spec;
  DsResult *r;
  DsTransferData *d;

  ds_bench_spec_init (&spec, DS_BENCH_TRANSFER);
  spec.target_path = g_strdup ("/dev/loop9");
  spec.accuracy = 2;
  spec.capacity_bytes = 1 << 30;
  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);

  r->target.path = g_strdup ("/dev/loop9");
  r->target.is_block = TRUE;
  r->target.size_bytes = UINT64_C (2) << 30;
  r->target.model = g_strdup ("Test Disk");
  r->target.logical_block_size = 512;
  r->target.physical_block_size = 4096;
  r->engine = g_strdup ("sync");
  ds_result_add_note (r, "a note");

  d = r->data;
  d->span_bytes = 1 << 30;
  d->block_bytes = 65536;
  d->read.present = TRUE;
  for (unsigned i = 0; i < 200; i++)
    {
      DsTransferPoint p = { .offset_bytes = (uint64_t) i << 20, .bytes_per_s = 1e8 + i };
      if (i == 17)
        {
          p.error = EIO;
          p.bytes_per_s = 0;
        }
      g_array_append_val (d->read.points, p);
    }
  for (unsigned i = 0; i < 50; i++)
    {
      DsAccessPoint a = { .offset_bytes = (uint64_t) i * 4096, .access_ns = 5000 + i };
      g_array_append_val (d->read.access, a);
    }
  d->read.min_bytes_per_s = 1e8;
  d->read.max_bytes_per_s = 1e8 + 199;
  d->read.avg_bytes_per_s = 1e8 + 100;
  d->read.access_time_s = 0.00594;
  d->read.burst_bytes_per_s = 1.681e8;
  d->read.cpu_percent = -1;

  {
    g_autoptr (GError) e = g_error_new_literal (DS_ERROR, DS_ERROR_IO, "/dev/loop9: read error at offset 17825792");
    ds_result_set_error (r, e, EIO, 17 << 20);
  }

  return r;
}

DsResult *
ds_test_workload_result (void)
{
  DsBenchSpec spec;
  DsResult *r;
  DsWorkloadData *d;

  ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
  spec.target_path = g_strdup ("/tmp/x.img");
  spec.pattern = DS_PATTERN_RANDRW;
  spec.queue_depth = 32;
  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  r->target.path = g_strdup ("/tmp/x.img");
  r->target.size_bytes = 1 << 20;
  r->target.logical_block_size = 512;
  r->target.physical_block_size = 512;
  r->complete = TRUE;
  d = r->data;
  d->runtime_s = 2.5;
  d->engine = g_strdup ("io_uring");
  d->read = (DsWorkloadDir) { .present = TRUE, .io_bytes = 4096 * 10, .ios = 10, .bytes_per_s = 16384,
                              .iops = 4, .lat_min_s = 1e-4, .lat_mean_s = 2e-4, .lat_max_s = 3e-4 };
  for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
    d->read.lat_percentile_s[k] = 1e-4 + k * 1e-6;

  return r;
}

DsResult *
ds_test_replay_result (void)
{
  DsResult *r = ds_test_result_new (DS_BENCH_REPLAY, "/dev/sdz", TRUE);
  DsReplayOptions *o = ds_replay_options (&r->spec);
  DsReplayData *d = r->data;

  o->trace_path = g_strdup ("/var/tmp/db.dstrace");
  o->speed = 2;
  g_free (r->engine);
  r->engine = g_strdup ("io_uring");
  *d = (DsReplayData) {
    .speed = 2, .ios = 1000, .reads = 700, .writes = 250, .flushes = 50, .skipped = 10,
    .bytes = 4096000, .max_in_flight = 256, .duration_s = 2, .recorded_iops = 500,
    .achieved_iops = 499.5, .within_100us = 0.995, .within_1ms = 1,
    .late_p50_s = 0.000004, .late_p99_s = 0.00008, .late_max_s = 0.0005,
    .p50_s = 0.0001, .p99_s = 0.0004, .p999_s = 0.002,
    .read_p50_s = 0.000125, .read_p99_s = 0.0005, .write_p50_s = 0.00005, .write_p99_s = 0.00025,
    .target_bytes = UINT64_C (500) * 1000 * 1000 * 1000, .trace_span_bytes = UINT64_C (1) << 30,
    .has_capture = TRUE,
    .capture = { .ios = 2000, .reads = 1400, .writes = 500, .duration_s = 4, .iops = 500,
                 .p50_s = 0.0002, .p99_s = 0.001, .p999_s = 0.004 },
    .mean_depth = 0.25, .recorded_mean_depth = 0.5,
  };
  return r;
}

/* A result no earlier one was: its kind, figures, strings and sizes drawn
 * from @i. */
DsResult *
ds_test_distinct_result (guint i)
{
  DsResult *r;

  switch (i % 7)
    {
    case 6: r = ds_test_replay_result (); break;
    case 0: r = ds_test_transfer_result (); break;
    case 1: r = ds_test_workload_result (); break;
    case 2: r = ds_test_extra_result (i & 8); break;
    case 3: r = ds_test_random_access_result (i & 8); break;
    case 4: r = ds_test_block_size_result (i & 8); break;
    default: r = ds_test_file_result (i & 8); break;
    }

  g_free (r->target.model);
  r->target.model = g_strdup_printf ("Disk %u \xce\xbb-%x", i, i * 2654435761u);
  g_free (r->target.path);
  r->target.path = g_strdup_printf ("/dev/disk/by-id/test-%u", i);
  {
    g_autofree char *dots = g_strnfill (i % 200, '.');
    ds_result_add_note (r, "note %u: %s", i, dots);
  }
  r->spec.seed = (uint64_t) i * UINT64_C (0x9E3779B97F4A7C15);
  r->target.size_bytes += i;
  if (r->kind == DS_BENCH_TRANSFER)
    {
      DsTransferData *d = r->data;

      for (guint k = 0; k < i % 500; k++)
        {
          DsAccessPoint a = { .offset_bytes = (uint64_t) k * i, .access_ns = 1000 + k + i };
          g_array_append_val (d->read.access, a);
        }
    }

  return r;
}

DsResult *
ds_test_round_trip (const DsResult *r)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = ds_result_to_data (r, NULL);
  DsResult *back = ds_result_load_data (text, -1, &error);

  if (back == NULL)
    ck_abort_msg ("load failed: %s\n%s", error->message, text);
  ck_assert_int_eq (back->kind, r->kind);

  return back;
}

void
ds_test_assert_settings_kept (const DsResult *r)
{
  g_autoptr (DsResult) back = ds_test_round_trip (r);
  g_autofree char *report_a = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *report_b = ds_report_text (back, DS_UNITS_MB);
  g_autoptr (GError) error = NULL;
  g_autofree char *job_a = ds_fio_job_from_result (r, NULL, &error);
  g_autofree char *job_b = NULL;

  ck_assert_uint_eq (back->spec.block_size_bytes, r->spec.block_size_bytes);
  ck_assert_uint_eq (back->spec.queue_depth, r->spec.queue_depth);
  ck_assert_uint_eq (back->spec.threads, r->spec.threads);
  ck_assert_int_eq (back->spec.pattern, r->spec.pattern);
  ck_assert_uint_eq (back->spec.offset_bytes, r->spec.offset_bytes);
  ck_assert_uint_eq (back->spec.span_bytes, r->spec.span_bytes);
  ck_assert_uint_eq (back->spec.duration_ns, r->spec.duration_ns);
  ck_assert_str_eq (report_b, report_a);
  ck_assert_msg (job_a != NULL, "%s", error ? error->message : "");
  job_b = ds_fio_job_from_result (back, NULL, &error);
  ck_assert_msg (job_b != NULL, "%s", error ? error->message : "");
  ck_assert_str_eq (job_b, job_a);
}
