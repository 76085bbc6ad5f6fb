/* test-kind-block-size.c: the block-size table's comparison rows and fio
 * job (core/kinds/block-size/ds-block-size-compare.c and -fio.c), also
 * the File Benchmark's
 *
 * Unit suite: no root, no device.  The comparison: a figure per size
 * measured, every read then every write, keyed "read.4096" after the
 * caller's prefix, named as HD Tune's table ("0.5 KiB", "8 MiB") in the
 * caller's sections; a size not measured (< 0) left out.  The fio job: a
 * time-based sequential section per size from the start of the span
 * tested, reads then (for a write run) writes, the sizes under the
 * logical block or over the span left out, each region in whole blocks
 * of its size; the default time when the run gave none.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-bench-block-size.h"
#include "ds-fio-job.h"
#include "ds-test-kind.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

static const char *const size_names[DS_BLOCK_SIZE_N_SIZES] = {
  "0.5 KiB", "1 KiB", "2 KiB", "4 KiB", "8 KiB", "16 KiB", "32 KiB", "64 KiB", "128 KiB", "256 KiB",
  "512 KiB", "1 MiB", "2 MiB", "4 MiB", "8 MiB",
};

/* The line of size @i in direction @d, from ds_test_block_size_result(). */
static char *
want_line (const char *d, guint i)
{
  double v = (g_str_equal (d, "read") ? 3.101e6 : 2.841e6) * (1u << i);

  return g_strdup_printf ("%s.%u|%s||rate|+|%.15g", d, 512u << i, size_names[i], v);
}

/* A write run: 15 reads then 15 writes, in size order; a read-only run
 * (writes < 0): the reads alone. */
START_TEST (test_compare_rows)
{
  for (int write = 0; write < 2; write++)
    {
      g_autoptr (DsResult) r = ds_test_block_size_result (write);
      g_autofree char *got = ds_test_compare_text (r, FALSE);
      g_auto (GStrv) lines = g_strsplit (got, "\n", -1);

      /* each direction's 15 after its "[section]" */
      ck_assert_uint_eq (g_strv_length (lines), (write ? 32 : 16) + 1);
      for (guint i = 0; i < (write ? 30u : 15u); i++)
        {
          const char *d = i < 15 ? "read" : "write";
          g_autofree char *want = want_line (d, i % 15);
          g_autofree char *head = g_strdup_printf ("[Block Size, %s speed]", d);

          if (i % 15 == 0)
            ck_assert_str_eq (lines[i + i / 15], head);
          ck_assert_str_eq (lines[i + i / 15 + 1], want);
        }
      ck_assert_str_eq (lines[write ? 32 : 16], "");
    }
  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_BLOCK_SIZE)->compare_rows, ds_block_size_compare_rows);
  ck_assert_ptr_null (ds_bench_get (DS_BENCH_BLOCK_SIZE)->compare_curves);
}
END_TEST

/* The table as the File Benchmark shares it: the prefix and sections it
 * gives; a size not measured in one direction left out there alone, 0 a
 * figure, NAN handed on (the comparison leaves it empty); no rows or an
 * empty table, nothing. */
START_TEST (test_compare_table)
{
  g_autoptr (GArray) rows = g_array_new (FALSE, TRUE, sizeof (DsBlockSizeRow));
  DsTestSink sink;
  g_autofree char *got = NULL;

  ds_test_sink_init (&sink);
  ds_block_size_compare_table (&sink.figures, NULL, "file.", "File");
  ds_block_size_compare_table (&sink.figures, rows, "file.", "File");
  ck_assert_uint_eq (sink.rows->len, 0);

  ds_block_size_rows_init (rows);
  g_array_index (rows, DsBlockSizeRow, 0).read_bytes_per_s = 0;
  g_array_index (rows, DsBlockSizeRow, 3).read_bytes_per_s = 1e9;
  g_array_index (rows, DsBlockSizeRow, 3).write_bytes_per_s = NAN;
  g_array_index (rows, DsBlockSizeRow, 14).write_bytes_per_s = 2.5e9;
  g_array_index (rows, DsBlockSizeRow, 14).read_bytes_per_s = -0.5;
  ds_block_size_compare_table (&sink.figures, rows, "file.", "File Benchmark, block size");
  got = ds_test_join_lines (sink.rows);
  ds_test_sink_clear (&sink);
  ds_test_assert_text (got,
                       "[File Benchmark, block size, read speed]\n"
                       "file.read.512|0.5 KiB||rate|+|0\n"
                       "file.read.4096|4 KiB||rate|+|1000000000\n"
                       "[File Benchmark, block size, write speed]\n"
                       "file.write.4096|4 KiB||rate|+|-\n"
                       "file.write.8388608|8 MiB||rate|+|2500000000\n");
}
END_TEST

/* The File Benchmark's result, through its own table row: its block
 * sizes keyed and named as it asks, its 8 MiB write (not measured) left
 * out. */
START_TEST (test_compare_file_result)
{
  g_autoptr (DsResult) r = ds_test_file_result (FALSE);
  g_autofree char *got = ds_test_compare_text (r, FALSE);
  g_autofree char *reads = ds_test_rows_in (got, "File Benchmark block size, read speed");
  g_autofree char *writes = ds_test_rows_in (got, "File Benchmark block size, write speed");

  ck_assert_uint_eq (ds_test_count (reads, "\n"), 15);
  ck_assert_uint_eq (ds_test_count (writes, "\n"), 14);
  ck_assert (strstr (reads, "block_size.read.512|0.5 KiB||rate|+|3101000\n"));
  ck_assert (strstr (writes, "block_size.write.4194304|4 MiB||rate|+|23273472000\n"));
  ck_assert_ptr_null (strstr (got, "write.8388608|"));
}
END_TEST

/* ---- the fio job ---- */

/* Section "block-size-@d-@bs" of @job: @d at @bs over [0, @size), for
 * @ms. */
static void
assert_row (const char *job, const char *d, uint64_t bs, uint64_t size, const char *ms)
{
  g_autofree char *name = g_strdup_printf ("block-size-%s-%" G_GUINT64_FORMAT, d, bs);
  g_autofree char *want = g_strdup_printf ("stonewall=1\nrw=%s\nbs=%" G_GUINT64_FORMAT "\noffset=0\nsize=%"
                                           G_GUINT64_FORMAT "\ntime_based=1\nruntime=%s\n", d, bs, size, ms);

  ds_test_assert_fio_section (job, name, want);
}

/* A read run: the 15 sizes read over the whole 500 GB, each region in
 * whole blocks of its size, 200 ms each. */
START_TEST (test_fio_job)
{
  g_autoptr (DsResult) r = ds_test_block_size_result (FALSE);
  g_autofree char *job = ds_test_fio_job (r, "/dev/sdz");
  const uint64_t span = UINT64_C (500000000000);

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_BLOCK_SIZE)->fio_job, ds_block_size_fio_job);
  ck_assert (strstr (job, "; reads only\n") != NULL);
  ck_assert (strstr (job, "\n[global]\nfilename=/dev/sdz\ndirect=1\nioengine=psync\n") != NULL);
  ck_assert (strstr (job, "\niodepth=1\n\n[block-size-read-512]\n") != NULL);
  ck_assert_uint_eq (ds_test_count (job, "\n["), 16);
  ck_assert_uint_eq (ds_test_count (job, "\n[block-size-read-"), 15);
  for (guint i = 0; i < DS_BLOCK_SIZE_N_SIZES; i++)
    assert_row (job, "read", 512u << i, span - span % (512u << i), "200ms");
  ck_assert_uint_eq (span - span % (8 << 20), UINT64_C (499994591232));
  ck_assert (g_str_has_suffix (job, "\n[block-size-read-8388608]\nstonewall=1\nrw=read\nbs=8388608\noffset=0\n"
                               "size=499994591232\ntime_based=1\nruntime=200ms\n"));
}
END_TEST

/* A write run: every read, then every write, with the warning; no time
 * given: 1 s a size; 4 KiB logical blocks: from 4 KiB, the span in whole
 * 4 KiB; --capacity of 100 000 bytes (99 840 in whole sectors): the sizes
 * up to 64 KiB. */
START_TEST (test_fio_job_edges)
{
  g_autoptr (DsResult) r = ds_test_block_size_result (TRUE);
  g_autofree char *job = NULL;
  g_autofree char *small = NULL;

  r->spec.duration_ns = 0;
  r->target.logical_block_size = 4096;
  job = ds_test_fio_job (r, "/dev/sdz");
  ck_assert (strstr (job, "; WARNING: this job WRITES to /dev/sdz and DESTROYS ALL DATA on it\n") != NULL);
  ck_assert_uint_eq (ds_test_count (job, "\n[block-size-read-"), 12);
  ck_assert_uint_eq (ds_test_count (job, "\n[block-size-write-"), 12);
  ck_assert_ptr_null (strstr (job, "-2048]"));
  ck_assert (strstr (job, "\nruntime=1000ms\n\n[block-size-write-4096]\n") != NULL);
  assert_row (job, "read", 4096, UINT64_C (499999997952), "1000ms");
  assert_row (job, "write", 4096, UINT64_C (499999997952), "1000ms");
  assert_row (job, "write", 8 << 20, UINT64_C (499994591232), "1000ms");

  r->target.logical_block_size = 512;
  r->spec.capacity_bytes = 100000;
  small = ds_test_fio_job (r, "/dev/sdz");
  ck_assert_uint_eq (ds_test_count (small, "\n[block-size-read-"), 8);
  ck_assert_uint_eq (ds_test_count (small, "\n[block-size-write-"), 8);
  ck_assert_ptr_null (strstr (small, "-131072]"));
  assert_row (small, "read", 512, 99840, "1000ms");
  assert_row (small, "read", 4096, 98304, "1000ms");
  assert_row (small, "write", 65536, 65536, "1000ms");
}
END_TEST

/* The sections the File Benchmark asks for: reads, writes, both or
 * neither; a span exactly one size, and one under the smallest. */
START_TEST (test_fio_sections)
{
  for (guint mode = 0; mode < 4; mode++)
    {
      GString *out = g_string_new (NULL);
      DsFioJobFile job = { out, "/tmp/f" };
      g_autofree char *text = NULL;

      ds_block_size_fio_sections (&job, 8 << 20, 3 * G_GUINT64_CONSTANT (1000000000), mode & 1, mode & 2, 512);
      text = g_string_free (out, FALSE);
      ck_assert_uint_eq (ds_test_count (text, "\n[block-size-read-"), (mode & 1) ? 15 : 0);
      ck_assert_uint_eq (ds_test_count (text, "\n[block-size-write-"), (mode & 2) ? 15 : 0);
      if (mode == 3)
        {
          ck_assert (g_str_has_prefix (text, "\n[block-size-read-512]\n"));
          assert_row (text, "write", 8 << 20, 8 << 20, "3000ms");
          ck_assert (strstr (text, "runtime=3000ms\n\n[block-size-write-512]\n") != NULL);
        }
    }
  {
    GString *out = g_string_new (NULL);
    DsFioJobFile job = { out, "/tmp/f" };

    ds_block_size_fio_sections (&job, 511, 1, TRUE, TRUE, 512);
    ck_assert_str_eq (out->str, "");
    g_string_free (out, TRUE);
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("kind-block-size");
  TCase *tc = tcase_create ("kind-block-size");

  tcase_add_test (tc, test_compare_rows);
  tcase_add_test (tc, test_compare_table);
  tcase_add_test (tc, test_compare_file_result);
  tcase_add_test (tc, test_fio_job);
  tcase_add_test (tc, test_fio_job_edges);
  tcase_add_test (tc, test_fio_sections);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
