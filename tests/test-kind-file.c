/* test-kind-file.c: HD Tune's File Benchmark, the parts of the kind
 * beside its table (core/kinds/file/ds-file-compare.c, ds-file-fio.c)
 *
 * Unit suite: no root, no device.  What the kind promises a comparison:
 * its six rows (sequential rates, random IOPS at depth 1 and 32) keyed
 * by their JSON names, a row not measured passed on as such, then its
 * block size table, read then write, a size not measured left out.  Its
 * fio job: a file of fio's own in the folder the run used (unlink=1),
 * the size the run tested (else the size asked), the six rows at depth 1
 * but the last two at 32, then every block size from 512 bytes to 8 MiB
 * that fits, both directions, 1 s each unless the run gave a time.
 * test-report.c and test-kinds-json.c cover the report and the JSON,
 * test-int-file.c the run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-bench-block-size.h"
#include "ds-bench-file.h"
#include "ds-error.h"
#include "ds-figures.h"
#include "ds-fio.h"
#include "ds-test-kind.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

#define MiB (UINT64_C (1) << 20)

/* ---- compare ------------------------------------------------------------ */

/* What the kind's table hook gives a comparison for @r. */
static void
rows_of (const DsResult *r,
         DsTestSink     *sink)
{
  ds_test_sink_init (sink);
  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_FILE)->compare_rows, ds_file_compare_rows);
  ds_bench_get (DS_BENCH_FILE)->compare_rows (r, &sink->figures);
}

/* The six rows, then the block size table: 15 read sizes, 14 write sizes
 * (8 MiB's write was not measured); nothing to note. */
START_TEST (test_compare_rows)
{
  g_autoptr (DsResult) r = ds_test_file_result (FALSE);
  const char *const want[] = {
    "[File Benchmark]",
    "sequential_read|Sequential read||rate|+|716064000",
    "sequential_write|Sequential write||rate|+|758425000",
    "random_read|Random read||iops|+|8819", "random_write|Random write||iops|+|5787",
    "random_read_qd32|Random read (queue depth = 32)||iops|+|110548",
    /* not measured: passed on, an empty cell in the comparison */
    "random_write_qd32|Random write (queue depth = 32)||iops|+|-1",
    "[File Benchmark block size, read speed]",
    "block_size.read.512|0.5 KiB||rate|+|3101000",
    "block_size.read.1024|1 KiB||rate|+|6202000",
    "block_size.read.2048|2 KiB||rate|+|12404000",
    "block_size.read.4096|4 KiB||rate|+|24808000",
    "block_size.read.8192|8 KiB||rate|+|49616000",
    "block_size.read.16384|16 KiB||rate|+|99232000",
    "block_size.read.32768|32 KiB||rate|+|198464000",
    "block_size.read.65536|64 KiB||rate|+|396928000",
    "block_size.read.131072|128 KiB||rate|+|793856000",
    "block_size.read.262144|256 KiB||rate|+|1587712000",
    "block_size.read.524288|512 KiB||rate|+|3175424000",
    "block_size.read.1048576|1 MiB||rate|+|6350848000",
    "block_size.read.2097152|2 MiB||rate|+|12701696000",
    "block_size.read.4194304|4 MiB||rate|+|25403392000",
    "block_size.read.8388608|8 MiB||rate|+|50806784000",
    "[File Benchmark block size, write speed]",
    "block_size.write.512|0.5 KiB||rate|+|2841000",
    "block_size.write.1024|1 KiB||rate|+|5682000",
    "block_size.write.2048|2 KiB||rate|+|11364000",
    "block_size.write.4096|4 KiB||rate|+|22728000",
    "block_size.write.8192|8 KiB||rate|+|45456000",
    "block_size.write.16384|16 KiB||rate|+|90912000",
    "block_size.write.32768|32 KiB||rate|+|181824000",
    "block_size.write.65536|64 KiB||rate|+|363648000",
    "block_size.write.131072|128 KiB||rate|+|727296000",
    "block_size.write.262144|256 KiB||rate|+|1454592000",
    "block_size.write.524288|512 KiB||rate|+|2909184000",
    "block_size.write.1048576|1 MiB||rate|+|5818368000",
    "block_size.write.2097152|2 MiB||rate|+|11636736000",
    "block_size.write.4194304|4 MiB||rate|+|23273472000",
    NULL,
  };
  DsTestSink sink;

  ck_assert_uint_eq (DS_BLOCK_SIZE_N_SIZES, 15);
  rows_of (r, &sink);
  ds_test_assert_list (sink.rows, want);
  ck_assert_uint_eq (sink.notes->len, 0);
  ds_test_sink_clear (&sink);
}
END_TEST

/* A run stopped early: its rows not measured go on as they are (empty
 * cells in the comparison), its block sizes not measured are left out;
 * a table of no rows (a corrupt result in memory) adds none. */
START_TEST (test_compare_unmeasured)
{
  g_autoptr (DsResult) r = ds_test_file_result (TRUE);
  DsFileData *d = r->data;
  const char *const want[] = {
    "[File Benchmark]",
    "sequential_read|Sequential read||rate|+|-", "sequential_write|Sequential write||rate|+|0",
    "random_read|Random read||iops|+|-1", "random_write|Random write||iops|+|5787",
    "random_read_qd32|Random read (queue depth = 32)||iops|+|110548",
    "random_write_qd32|Random write (queue depth = 32)||iops|+|-1",
    "[File Benchmark block size, read speed]",
    "block_size.read.4096|4 KiB||rate|+|0",
    NULL,
  };
  DsTestSink sink;

  d->sequential_read_bytes_per_s = NAN;
  d->sequential_write_bytes_per_s = 0;
  d->random_read_iops = -1;
  for (guint i = 0; i < d->block_size->len; i++)
    {
      DsBlockSizeRow *row = &g_array_index (d->block_size, DsBlockSizeRow, i);

      row->read_bytes_per_s = i == 3 ? 0 : -1;
      row->write_bytes_per_s = -1;
    }
  rows_of (r, &sink);
  ds_test_assert_list (sink.rows, want);
  ds_test_sink_clear (&sink);

  g_clear_pointer (&d->block_size, g_array_unref);
  rows_of (r, &sink);
  ck_assert_uint_eq (sink.rows->len, 7);
  ds_test_sink_clear (&sink);
}
END_TEST

/* ---- fio ---------------------------------------------------------------- */

/* The job of @r, run at a set time, on @folder (NULL: the result's). */
static char *
job_of (DsResult   *r,
        const char *folder)
{
  g_autoptr (GError) error = NULL;
  char *job;

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_FILE)->fio_job, ds_file_fio_job);
  ds_test_fix_run (r, "sync");
  job = ds_fio_job_from_result (r, folder, &error);
  ck_assert_msg (job != NULL, "%s", error ? error->message : "");
  return job;
}

/* @job's section @name, up to the blank line after it. */
static char *
section_text (const char *job,
              const char *name)
{
  g_autofree char *head = g_strdup_printf ("\n[%s]\n", name);
  const char *start = strstr (job, head);
  const char *end;

  ck_assert_msg (start != NULL, "no [%s] in\n%s", name, job);
  start += 1;
  end = strstr (start, "\n\n");
  /* The last section ends with the job's last newline. */
  return end != NULL ? g_strndup (start, (gsize) (end - start)) : g_strchomp (g_strdup (start));
}

/* The job of a 5 GB file in /mnt/data, 200 ms a row: the header, the six
 * rows at their depths, the block sizes at 200 ms. */
START_TEST (test_fio_job)
{
  g_autoptr (DsResult) r = ds_test_file_result (FALSE);
  g_autofree char *job = job_of (r, NULL);
  g_autofree char *names = ds_test_lines_with (job, "[");
  g_autofree char *bs = NULL;
  const char *want[] = {
    "; fio job reproducing a Diskscope file run (File Benchmark)",
    "; the run: /mnt/data on FUJITSU ETERNUS_DX400, started 2026-01-02T03:04:05Z on bench",
    "; writes only its own test file, /mnt/data/diskscope-fio.tmp (removed at the end)",
    "; run it: fio --output-format=json --output=fio.json THIS_FILE",
    "; then:   diskscope-cli import-fio fio.json; diskscope-cli compare ...",
    "",
    "[global]", "filename=/mnt/data/diskscope-fio.tmp", "direct=1", "ioengine=io_uring", "fixedbufs=1",
    "registerfiles=1", "thread=1", "group_reporting=1", "refill_buffers=1", "norandommap=1", "randrepeat=0",
    "randseed=42", "lat_percentiles=1",
    "; random offsets: multiples of each job's (smallest) block size, fio's default blockalign, as the run's",
    "unlink=1", "iodepth=1",
    "",
    "[sequential_write]", "stonewall=1", "rw=write", "bs=8388608", "offset=0", "size=5000000000",
    "time_based=1", "runtime=200ms",
    "",
    "[sequential_read]", "stonewall=1", "rw=read", "bs=8388608", "offset=0", "size=5000000000",
    "time_based=1", "runtime=200ms",
    "",
    "[random_read]", "stonewall=1", "rw=randread", "bs=4096", "offset=0", "size=5000000000",
    "time_based=1", "runtime=200ms",
    "",
    "[random_write]", "stonewall=1", "rw=randwrite", "bs=4096", "offset=0", "size=5000000000",
    "time_based=1", "runtime=200ms",
    "",
    "[random_read_qd32]", "stonewall=1", "rw=randread", "bs=4096", "offset=0", "size=5000000000",
    "time_based=1", "runtime=200ms", "iodepth=32",
    "",
    "[random_write_qd32]", "stonewall=1", "rw=randwrite", "bs=4096", "offset=0", "size=5000000000",
    "time_based=1", "runtime=200ms", "iodepth=32",
    "",
    NULL,
  };
  const char *block_8m[] = {
    "[block-size-write-8388608]", "stonewall=1", "rw=write", "bs=8388608", "offset=0",
    "size=4999610368", "time_based=1", "runtime=200ms", NULL,
  };
  g_autofree char *head = g_strndup (job, (gsize) (strstr (job, "\n[block-size-read-512]\n") - job));

  ds_test_assert_lines (head, want);
  ck_assert_str_eq (names,
                    "[global] [sequential_write] [sequential_read] [random_read] [random_write] [random_read_qd32] "
                    "[random_write_qd32] [block-size-read-512] [block-size-read-1024] [block-size-read-2048] "
                    "[block-size-read-4096] [block-size-read-8192] [block-size-read-16384] [block-size-read-32768] "
                    "[block-size-read-65536] [block-size-read-131072] [block-size-read-262144] "
                    "[block-size-read-524288] [block-size-read-1048576] [block-size-read-2097152] "
                    "[block-size-read-4194304] [block-size-read-8388608] [block-size-write-512] "
                    "[block-size-write-1024] [block-size-write-2048] [block-size-write-4096] [block-size-write-8192] "
                    "[block-size-write-16384] [block-size-write-32768] [block-size-write-65536] "
                    "[block-size-write-131072] [block-size-write-262144] [block-size-write-524288] "
                    "[block-size-write-1048576] [block-size-write-2097152] [block-size-write-4194304] "
                    "[block-size-write-8388608]");
  /* In whole blocks of its size; and no section deeper than the two. */
  bs = section_text (job, "block-size-write-8388608");
  ds_test_assert_lines (bs, block_8m);
  g_free (bs);
  bs = section_text (job, "block-size-read-512");
  ck_assert_msg (strstr (bs, "\nsize=5000000000\n") != NULL, "%s", bs);
  ck_assert_ptr_null (strstr (bs, "iodepth"));
  ck_assert_ptr_null (strstr (job, "WARNING"));
}
END_TEST

/* No time given: 3 s a row, 1 s a block size; the file of no size tested
 * yet (a run stopped before it made it) is the size asked; a small one
 * leaves out the block sizes larger than itself. */
START_TEST (test_fio_sizes_and_times)
{
  g_autoptr (DsResult) r = ds_test_file_result (FALSE);
  DsFileData *d = r->data;
  g_autofree char *job = NULL;
  g_autofree char *names = NULL;
  g_autofree char *row = NULL;
  const char *want_row[] = {
    "[random_read]", "stonewall=1", "rw=randread", "bs=4096", "offset=0", "size=33554432",
    "time_based=1", "runtime=3000ms", NULL,
  };

  r->spec.duration_ns = 0;
  d->file_bytes = 0;
  ds_file_options (&r->spec)->size_bytes = 32 * MiB;
  job = job_of (r, NULL);
  row = section_text (job, "random_read");
  ds_test_assert_lines (row, want_row);
  g_free (row);
  row = section_text (job, "block-size-read-8388608");
  ck_assert_msg (strstr (row, "\nsize=33554432\ntime_based=1\nruntime=1000ms") != NULL, "%s", row);

  /* 3 MiB tested (under the smallest size the run makes, but what the
   * result says): no 4 or 8 MiB blocks; 2 MiB blocks over 2 MiB. */
  d->file_bytes = 3 * MiB;
  g_free (job);
  job = job_of (r, NULL);
  names = ds_test_lines_with (job, "[");
  ck_assert_msg (strstr (names, "[block-size-read-2097152] [block-size-write-512] ") != NULL, "%s", names);
  ck_assert_msg (g_str_has_suffix (names, " [block-size-write-1048576] [block-size-write-2097152]"), "%s", names);
  ck_assert_ptr_null (strstr (names, "4194304"));
  g_free (row);
  row = section_text (job, "block-size-write-2097152");
  ck_assert_msg (strstr (row, "\nsize=2097152\n") != NULL, "%s", row);
  g_free (row);
  row = section_text (job, "sequential_read");
  ck_assert_msg (strstr (row, "\nsize=3145728\n") != NULL, "%s", row);
}
END_TEST

/* The folder to run in: the result's, or the one given (where the job
 * puts its own file; a ':' escaped); one fio cannot carry is refused. */
START_TEST (test_fio_folder)
{
  g_autoptr (DsResult) r = ds_test_file_result (TRUE);
  g_autoptr (GError) error = NULL;
  g_autofree char *job = job_of (r, "/srv/fast:disk");

  ck_assert_msg (strstr (job, "\nfilename=/srv/fast\\:disk/diskscope-fio.tmp\n") != NULL, "%s", job);
  ck_assert_msg (strstr (job, "; writes only its own test file, /srv/fast\\:disk/diskscope-fio.tmp "
                         "(removed at the end)\n") != NULL, "%s", job);
  /* The run's own folder only in the comment about the run. */
  ck_assert_uint_eq (ds_test_count_lines (job, "; the run: /mnt/data on FUJITSU ETERNUS_DX400, started "
                                          "2026-01-02T03:04:05Z on bench"), 1);
  ck_assert_ptr_eq (strstr (job, "/mnt/data"), strstr (job, "; the run: /mnt/data") + 11);

  g_free (r->target.path);
  r->target.path = g_strdup ("/mnt/a;b");
  ck_assert_ptr_null (ds_fio_job_from_result (r, NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_msg (g_str_has_prefix (error->message, "the result's device or file “/mnt/a;b” holds "), "%s",
                 error->message);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("kind-file");
  TCase *tc_compare = tcase_create ("compare");
  TCase *tc_fio = tcase_create ("fio");

  tcase_add_test (tc_compare, test_compare_rows);
  tcase_add_test (tc_compare, test_compare_unmeasured);
  suite_add_tcase (s, tc_compare);
  tcase_add_test (tc_fio, test_fio_job);
  tcase_add_test (tc_fio, test_fio_sizes_and_times);
  tcase_add_test (tc_fio, test_fio_folder);
  suite_add_tcase (s, tc_fio);

  return ds_test_run_suite (s);
}
