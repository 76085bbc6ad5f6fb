/* test-kind-extra.c: HD Tune's Extra Tests, the parts of the kind beside
 * its table (core/kinds/extra/ds-extra-compare.c, ds-extra-fio.c,
 * ds-extra-run.c)
 *
 * Unit suite: no root, no device.  Its comparison: IOPS, access time and
 * rate per row, keyed "DIRECTION.ROW.FIGURE", read before write, a row of
 * no known kind left out.  Its fio job: a stonewalled section per row but
 * the butterfly (said so), on the region and block the run used.  Its run,
 * on a file under g_get_tmp_dir() through the sync engine: nine rows in
 * HD Tune's order, each where ds-bench-extra.h puts it (the 5 % zones and
 * the burst region to the byte, whole butterfly walks from both edges,
 * blocks of the row's size), a phase and a row sample each; under 1 MiB
 * refused, a stop before the first row keeps nothing.  test-int-extra.c
 * times the rows on a device; test-report.c, test-kinds-json.c the rest.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "ds-bench-extra.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-figures.h"
#include "ds-fio.h"
#include "ds-run.h"
#include "ds-run-watch.h"
#include "ds-test-kind.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

#define KiB (UINT64_C (1) << 10)
#define MiB (UINT64_C (1) << 20)

/* ---- compare ------------------------------------------------------------ */

/* What the kind's table hook gives a comparison for @r. */
static void
rows_of (const DsResult *r,
         DsTestSink     *sink)
{
  ds_test_sink_init (sink);
  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_EXTRA)->compare_rows, ds_extra_compare_rows);
  ds_bench_get (DS_BENCH_EXTRA)->compare_rows (r, &sink->figures);
}

/* A read run: 27 figures in the run's order, each row's IOPS, access
 * time (lower is better) and rate, nothing to note. */
START_TEST (test_compare_read)
{
  g_autoptr (DsResult) r = ds_test_extra_result (FALSE);
  const char *const want[] = {
    "[Extra Tests, read]",
    "read.random_seek.iops|Random seek|IOPS|iops|+|198",
    "read.random_seek.access_time|Random seek|access time|time|-|0.005057",
    "read.random_seek.rate|Random seek|rate|rate|+|97000",
    "read.random_seek_4k.iops|Random seek 4 KB|IOPS|iops|+|190",
    "read.random_seek_4k.access_time|Random seek 4 KB|access time|time|-|0.00525",
    "read.random_seek_4k.rate|Random seek 4 KB|rate|rate|+|744000",
    "read.butterfly_seek.iops|Butterfly seek|IOPS|iops|+|197",
    "read.butterfly_seek.access_time|Butterfly seek|access time|time|-|0.005066",
    "read.butterfly_seek.rate|Butterfly seek|rate|rate|+|96000",
    "read.random_seek_64k.iops|Random seek / size 64 KB|IOPS|iops|+|180",
    "read.random_seek_64k.access_time|Random seek / size 64 KB|access time|time|-|0.005566",
    "read.random_seek_64k.rate|Random seek / size 64 KB|rate|rate|+|2762000",
    "read.random_seek_8m.iops|Random seek / size 8 MB|IOPS|iops|+|54",
    "read.random_seek_8m.access_time|Random seek / size 8 MB|access time|time|-|0.018387",
    "read.random_seek_8m.rate|Random seek / size 8 MB|rate|rate|+|220527000",
    "read.sequential_outer.iops|Sequential outer|IOPS|iops|+|1952",
    "read.sequential_outer.access_time|Sequential outer|access time|time|-|0.000512",
    "read.sequential_outer.rate|Sequential outer|rate|rate|+|121995000",
    "read.sequential_middle.iops|Sequential middle|IOPS|iops|+|2658",
    "read.sequential_middle.access_time|Sequential middle|access time|time|-|0.000376",
    "read.sequential_middle.rate|Sequential middle|rate|rate|+|166132000",
    "read.sequential_inner.iops|Sequential inner|IOPS|iops|+|2339",
    "read.sequential_inner.access_time|Sequential inner|access time|time|-|0.000428",
    "read.sequential_inner.rate|Sequential inner|rate|rate|+|146158000",
    "read.burst_rate.iops|Burst rate|IOPS|iops|+|2679",
    "read.burst_rate.access_time|Burst rate|access time|time|-|0.000373",
    "read.burst_rate.rate|Burst rate|rate|rate|+|167411000",
    NULL,
  };
  DsTestSink sink;

  rows_of (r, &sink);
  ds_test_assert_list (sink.rows, want);
  ck_assert_uint_eq (sink.notes->len, 0);
  ds_test_sink_clear (&sink);
}
END_TEST

/* Read's rows, then write's in their own section; a direction not run
 * adds nothing, even with rows in it; a row of no kind (a corrupt one in
 * memory) is left out; values that are no measurement are passed on as
 * they are (the comparison makes them empty cells). */
START_TEST (test_compare_directions)
{
  g_autoptr (DsResult) r = ds_test_extra_result (TRUE);
  DsExtraData *d = r->data;
  DsExtraRow rows[] = {
    { .row = DS_EXTRA_SEQUENTIAL_INNER, .iops = NAN, .access_time_s = -1, .bytes_per_s = INFINITY },
    { .row = DS_EXTRA_N_ROWS, .iops = 1, .access_time_s = 1, .bytes_per_s = 1 },
    { .row = (DsExtraRowKind) -1, .iops = 1, .access_time_s = 1, .bytes_per_s = 1 },
    { .row = DS_EXTRA_BURST_RATE, .iops = 0, .access_time_s = 1e300, .bytes_per_s = 0 },
  };
  const char *const want[] = {
    "[Extra Tests, read]",
    "read.sequential_inner.iops|Sequential inner|IOPS|iops|+|-",
    "read.sequential_inner.access_time|Sequential inner|access time|time|-|-1",
    "read.sequential_inner.rate|Sequential inner|rate|rate|+|inf",
    "read.burst_rate.iops|Burst rate|IOPS|iops|+|0",
    "read.burst_rate.access_time|Burst rate|access time|time|-|1e+300",
    "read.burst_rate.rate|Burst rate|rate|rate|+|0",
    "[Extra Tests, write]",
    "write.random_seek.iops|Random seek|IOPS|iops|+|6534",
  };
  DsTestSink sink;

  /* Write only (33 times the read's figures). */
  rows_of (r, &sink);
  ck_assert_uint_eq (sink.rows->len, 1 + 3 * DS_EXTRA_N_ROWS);
  ck_assert_str_eq (sink.rows->pdata[0], "[Extra Tests, write]");
  ck_assert_str_eq (sink.rows->pdata[1], "write.random_seek.iops|Random seek|IOPS|iops|+|6534");
  ck_assert_str_eq (sink.rows->pdata[26],
                    "write.burst_rate.access_time|Burst rate|access time|time|-|1.13030303030303e-05");
  ds_test_sink_clear (&sink);

  /* Read present too: it comes first. */
  d->read_present = TRUE;
  g_array_append_vals (d->read, rows, G_N_ELEMENTS (rows));
  rows_of (r, &sink);
  ck_assert_uint_eq (sink.rows->len, 8 + 3 * DS_EXTRA_N_ROWS);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    ck_assert_str_eq (sink.rows->pdata[i], want[i]);
  ds_test_sink_clear (&sink);

  /* Neither direction run, or no rows: no figure. */
  for (guint i = 0; i < 2; i++)
    {
      d->read_present = i == 1;
      d->write_present = FALSE;
      g_array_set_size (d->read, i == 1 ? 0 : d->read->len);
      rows_of (r, &sink);
      ck_assert_uint_eq (sink.rows->len + sink.notes->len, 0);
      ds_test_sink_clear (&sink);
    }
}
END_TEST

/* ---- fio ---------------------------------------------------------------- */

/* The paragraphs of @r's fio job (lines up to a blank one, joined by
 * spaces), for a run on @engine started at a set time. */
static GPtrArray *
paragraphs_of (DsResult   *r,
               const char *engine)
{
  g_autofree char *job = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) p = g_string_new (NULL);

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_EXTRA)->fio_job, ds_extra_fio_job);
  ds_test_fix_run (r, engine);
  job = ds_test_fio_job (r, NULL);
  lines = g_strsplit (job, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] != '\0')
        g_string_append_printf (p, "%s%s", p->len > 0 ? " " : "", lines[i]);
      if ((lines[i][0] == '\0' || lines[i + 1] == NULL) && p->len > 0)
        g_ptr_array_add (out, g_strdup (p->str));
      if (lines[i][0] == '\0')
        g_string_truncate (p, 0);
    }
  return out;
}

/* A section of one row, as one paragraph. */
#define ROW(name, options, runtime) "[" name "] stonewall=1 " options " time_based=1 runtime=" runtime
#define BUTTERFLY_LEFT_OUT \
  "; butterfly_seek (outer and inner edge alternately, closing in) has no fio pattern: left out"

/* A read run on 500 GB, 512-byte blocks, 200 ms a row: the whole job.
 * Zones of 500e9 / 20 in 64 KiB blocks: 24999952384 bytes; the middle one
 * from 250e9 - 12499976192, the inner one from 500e9 - 24999952384. */
START_TEST (test_fio_read)
{
  g_autoptr (DsResult) r = ds_test_extra_result (FALSE);
  g_autoptr (GPtrArray) got = paragraphs_of (r, "sync");
  const char *want[] = {
    "; fio job reproducing a Diskscope extra run (Extra Tests) "
    "; the run: /dev/sdz on FUJITSU ETERNUS_DX400, started 2026-01-02T03:04:05Z on bench ; reads only "
    "; run it: fio --output-format=json --output=fio.json THIS_FILE "
    "; then:   diskscope-cli import-fio fio.json; diskscope-cli compare ...",
    "[global] filename=/dev/sdz direct=1 ioengine=psync thread=1 group_reporting=1 refill_buffers=1 "
    "norandommap=1 randrepeat=0 randseed=42 lat_percentiles=1 ; random offsets: multiples of each job's (smallest) "
    "block size, fio's default blockalign, as the run's iodepth=1",
    ROW ("random_seek", "rw=randread bs=512 offset=0 size=500000000000", "200ms"),
    ROW ("random_seek_4k", "rw=randread bs=4096 offset=0 size=500000000000", "200ms"),
    BUTTERFLY_LEFT_OUT,
    ROW ("random_seek_64k", "rw=randread bsrange=512-65536 offset=0 size=500000000000", "200ms"),
    ROW ("random_seek_8m", "rw=randread bsrange=512-8388608 offset=0 size=500000000000", "200ms"),
    ROW ("sequential_outer", "rw=read bs=65536 offset=0 size=24999952384", "200ms"),
    ROW ("sequential_middle", "rw=read bs=65536 offset=237500023808 size=24999952384", "200ms"),
    ROW ("sequential_inner", "rw=read bs=65536 offset=475000047616 size=24999952384", "200ms"),
    ROW ("burst_rate", "rw=read bs=65536 offset=0 size=1048576", "200ms"),
    NULL,
  };

  ds_test_assert_list (got, want);
}
END_TEST

/* A write run on 4 KiB blocks, a --capacity of 1 MiB and a bit, 3 s a row
 * (none given), io_uring: writes everywhere, the warning, zones of whole
 * blocks (52428 bytes: one 64 KiB block; the middle one from 512 - 32 KiB). */
START_TEST (test_fio_write_capacity)
{
  g_autoptr (DsResult) r = ds_test_extra_result (TRUE);
  g_autoptr (GPtrArray) got = NULL;
  const char *want[] = {
    ROW ("random_seek", "rw=randwrite bs=4096 offset=0 size=1048576", "3000ms"),
    ROW ("random_seek_4k", "rw=randwrite bs=4096 offset=0 size=1048576", "3000ms"),
    BUTTERFLY_LEFT_OUT,
    ROW ("random_seek_64k", "rw=randwrite bsrange=4096-65536 offset=0 size=1048576", "3000ms"),
    ROW ("random_seek_8m", "rw=randwrite bsrange=4096-1048576 offset=0 size=1048576", "3000ms"),
    ROW ("sequential_outer", "rw=write bs=65536 offset=0 size=65536", "3000ms"),
    ROW ("sequential_middle", "rw=write bs=65536 offset=491520 size=65536", "3000ms"),
    ROW ("sequential_inner", "rw=write bs=65536 offset=983040 size=65536", "3000ms"),
    ROW ("burst_rate", "rw=write bs=65536 offset=0 size=1048576", "3000ms"),
    NULL,
  };

  r->target.logical_block_size = 4096;
  r->spec.capacity_bytes = MiB + 100;
  r->spec.duration_ns = 0;
  got = paragraphs_of (r, "io_uring");
  ck_assert_msg (strstr (got->pdata[0], "; WARNING: this job WRITES to /dev/sdz and DESTROYS ALL DATA on it ;") != NULL,
                 "%s", (char *) got->pdata[0]);
  ck_assert_msg (strstr (got->pdata[1], " ioengine=io_uring fixedbufs=1 registerfiles=1 ") != NULL, "%s",
                 (char *) got->pdata[1]);
  g_ptr_array_remove_range (got, 0, 2);
  ds_test_assert_list (got, want);
}
END_TEST

/* ---- the run ------------------------------------------------------------ */

#define FILE_BYTES (16 * MiB)
#define ROW_NS     (20 * DS_NS_PER_MSEC)

/* A folder under g_get_tmp_dir() that main() makes, and empties and
 * removes after the suite (also after a test that failed). */
static char *tmp_dir;

/* A file of @bytes (zeros) in it. */
static char *
make_file (const char *name,
           uint64_t    bytes)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  int fd = open (path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

  ck_assert_msg (fd >= 0, "%s: %s", path, g_strerror (errno));
  ck_assert_int_eq (ftruncate (fd, (off_t) bytes), 0);
  close (fd);
  return path;
}

/* What a page hears of a run: its phase and row samples (names static;
 * the pointers valid during the call only are never read). */
static void
heard_sink (const DsSample *sample,
            gpointer        user_data)
{
  if (sample->kind == DS_SAMPLE_PHASE || sample->kind == DS_SAMPLE_ROW)
    g_array_append_vals ((GArray *) user_data, sample, 1);
}

/* A run of the kind as ds_run_full() sets one up, on @path through the
 * page cache (no O_DIRECT: any filesystem), 512-byte blocks, the sync
 * engine. */
typedef struct {
  DsRun     run;
  DsResult *result;
  GArray   *heard;   /* DsSample, names static */
  gint      cancel;
} Run;

static void
run_init (Run        *r,
          const char *path,
          gboolean    write,
          uint64_t    capacity)
{
  DsBenchSpec spec;
  DsTarget *target = g_new0 (DsTarget, 1);
  struct stat st;

  memset (r, 0, sizeof *r);
  ds_bench_spec_init (&spec, DS_BENCH_EXTRA);
  spec.target_path = g_strdup (path);
  g_free (spec.engine);
  spec.engine = g_strdup ("sync");
  spec.write = write;
  spec.duration_ns = ROW_NS;
  spec.capacity_bytes = capacity;
  r->result = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);

  target->path = g_strdup (path);
  target->fd = open (path, (write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  ck_assert_msg (target->fd >= 0, "open %s: %s", path, g_strerror (errno));
  ck_assert_int_eq (fstat (target->fd, &st), 0);
  target->kind = DS_TARGET_FILE;
  target->writable = write;
  target->size_bytes = (uint64_t) st.st_size;
  target->logical_block_size = 512;
  target->mem_align = 4096;

  r->heard = g_array_new (FALSE, TRUE, sizeof (DsSample));
  r->run.spec = &r->result->spec;
  r->run.result = r->result;
  r->run.target = target;
  r->run.engine = &ds_engine_sync;
  r->run.sink = heard_sink;
  r->run.sink_data = r->heard;
  r->run.cancel = &r->cancel;
  r->run.error_offset_bytes = -1;
  ds_rng_seed (&r->run.rng, 11);
}

static void
run_clear (Run *r)
{
  ds_run_watch_finish (&r->run);
  g_clear_pointer (&r->run.target, ds_target_free);
  g_clear_pointer (&r->result, ds_result_free);
  g_array_unref (r->heard);
}

/* Row @i of @rows (whose length the caller checked). */
#define row_at(rows, i) (&g_array_index ((rows), DsExtraRow, (i)))

/* Every row of @rows where its constants put it, on a span of @span
 * bytes of 512-byte blocks (@notes: the result's).  TRUE when the
 * butterfly ran whole walks. */
static gboolean
assert_rows (GArray    *rows,
             GPtrArray *notes,
             uint64_t   span)
{
  uint64_t zone = MAX (span / 20 / (64 * KiB) * (64 * KiB), 64 * KiB);
  uint64_t middle = (span / 2 - zone / 2) / 512 * 512;
  /* The butterfly's pairs per walk as ds-bench-extra.h writes it out: seek
   * IOPS x row time / (2 x walks), at least 8, at most a step per block. */
  uint64_t most = span / 2 / 512;
  double fit = row_at (rows, 0)->iops * ((double) ROW_NS / DS_NS_PER_SEC) / (2.0 * DS_EXTRA_BUTTERFLY_WALKS);
  uint64_t pairs = CLAMP (fit >= (double) most ? most : (uint64_t) fit, DS_EXTRA_BUTTERFLY_MIN_PAIRS, most);
  const DsExtraRow *b;

  ck_assert_uint_eq (rows->len, DS_EXTRA_N_ROWS);
  for (guint i = 0; i < DS_EXTRA_N_ROWS; i++)
    {
      const DsExtraRow *row = row_at (rows, i);

      ck_assert_int_eq (row->row, (int) i);
      ck_assert_msg (row->ios > 0 && row->iops > 0 && row->bytes_per_s > 0 && row->access_time_s > 0,
                     "row %u: %" G_GUINT64_FORMAT " I/Os", i, row->ios);
      /* Rate and IOPS over one time. */
      ck_assert_double_eq_tol (row->bytes_per_s / row->iops, (double) row->bytes / (double) row->ios,
                               1e-6 * row->bytes / row->ios);
      ck_assert_uint_le (row->max_end_bytes, span);
      ck_assert_uint_lt (row->min_offset_bytes, row->max_end_bytes);
      ck_assert_uint_eq (row->min_offset_bytes % 512, 0);
      if (i != DS_EXTRA_BUTTERFLY_SEEK)
        ck_assert_uint_eq (row->walk_pairs + row->walks, 0);
    }
  ck_assert_uint_eq (row_at (rows, 0)->bytes, row_at (rows, 0)->ios * 512);
  ck_assert_uint_eq (row_at (rows, 1)->bytes, row_at (rows, 1)->ios * 4096);
  ck_assert_uint_eq (row_at (rows, 1)->min_offset_bytes % 4096, 0);
  /* Whole walks from both edges to the middle, one block each. */
  b = row_at (rows, DS_EXTRA_BUTTERFLY_SEEK);
  ck_assert_uint_eq (b->walk_pairs, pairs);
  if (b->walks > 0)
    ck_assert_uint_eq (b->ios, 2 * b->walk_pairs * b->walks);
  else
    {
      /* The first walk did not finish in 4 row times (a host that stalls
       * the test): cut, and said so. */
      g_autofree char *said = g_strdup_printf ("butterfly seek: a walk of %" G_GUINT64_FORMAT " pairs did "
                                               "not finish in 0.1 s", pairs);

      ck_assert_uint_lt (b->ios, 2 * b->walk_pairs);
      ck_assert_msg (notes->len > 0 && g_str_has_prefix (notes->pdata[notes->len - 1], said), "no note");
    }
  ck_assert_uint_eq (b->bytes, b->ios * 512);
  ck_assert_uint_eq (b->min_offset_bytes, 0);
  ck_assert_uint_eq (b->max_end_bytes, span);
  /* Random sizes: at least a block, at most 64 KiB or 8 MiB (the span). */
  ck_assert_uint_ge (row_at (rows, 3)->bytes, row_at (rows, 3)->ios * 512);
  ck_assert_uint_le (row_at (rows, 3)->bytes, row_at (rows, 3)->ios * 64 * KiB);
  ck_assert_uint_le (row_at (rows, 4)->bytes, row_at (rows, 4)->ios * MIN (8 * MiB, span));
  ck_assert_uint_gt (row_at (rows, 4)->bytes, row_at (rows, 4)->ios * 64 * KiB);
  /* The zones: the first, middle and last 5 % to the byte, 64 KiB blocks. */
  for (guint i = DS_EXTRA_SEQUENTIAL_OUTER; i <= DS_EXTRA_BURST_RATE; i++)
    ck_assert_uint_eq (row_at (rows, i)->bytes, row_at (rows, i)->ios * 64 * KiB);
  ck_assert_uint_eq (row_at (rows, 5)->min_offset_bytes, 0);
  ck_assert_uint_eq (row_at (rows, 5)->max_end_bytes, zone);
  ck_assert_uint_eq (row_at (rows, 6)->min_offset_bytes, middle);
  ck_assert_uint_eq (row_at (rows, 6)->max_end_bytes, middle + zone);
  ck_assert_uint_eq (row_at (rows, 7)->min_offset_bytes, span - zone);
  ck_assert_uint_eq (row_at (rows, 7)->max_end_bytes, span);
  /* The burst: the first 1 MiB, again and again. */
  ck_assert_uint_eq (row_at (rows, 8)->min_offset_bytes, 0);
  ck_assert_uint_eq (row_at (rows, 8)->max_end_bytes, MiB);
  ck_assert_uint_gt (row_at (rows, 8)->ios, 16);
  return b->walks > 0;
}

/* What a page heard: a phase then a row per row, in order, named, the
 * row's IOPS and bytes, progress to the end. */
static void
assert_heard (GArray   *heard,
              GArray   *rows,
              gboolean  write)
{
  ck_assert_uint_eq (heard->len, 2 * DS_EXTRA_N_ROWS);
  for (guint i = 0; i < DS_EXTRA_N_ROWS; i++)
    {
      const DsSample *p = &g_array_index (heard, DsSample, 2 * i);
      const DsSample *s = &g_array_index (heard, DsSample, 2 * i + 1);

      ck_assert_int_eq (p->kind, DS_SAMPLE_PHASE);
      ck_assert_int_eq (s->kind, DS_SAMPLE_ROW);
      ck_assert_uint_eq (p->index, i);
      ck_assert_uint_eq (s->index, i);
      ck_assert_str_eq (p->name, ds_extra_row_name (i));
      ck_assert_str_eq (s->name, ds_extra_row_name (i));
      ck_assert (p->write == write && s->write == write);
      ck_assert_double_eq_tol (p->progress, (double) i / DS_EXTRA_N_ROWS, 1e-12);
      ck_assert_double_eq_tol (s->progress, (double) (i + 1) / DS_EXTRA_N_ROWS, 1e-12);
      ck_assert_double_eq (s->value, row_at (rows, i)->iops);
      ck_assert_uint_eq (s->bytes, row_at (rows, i)->bytes);
      ck_assert_uint_gt (s->elapsed_ns, 0);
    }
}

/* A read of the whole file, and of the smallest span the kind takes,
 * 1 MiB: every zone one block (the middle one from 512 KiB - 32 KiB),
 * the 8 MB row's blocks up to the span. */
START_TEST (test_run_read)
{
  g_autofree char *path = make_file ("read.img", FILE_BYTES);
  const uint64_t spans[] = { FILE_BYTES, MiB };
  guint whole = 0;

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_EXTRA)->run, ds_extra_run);
  for (guint i = 0; i < G_N_ELEMENTS (spans); i++)
    {
      g_autoptr (GError) error = NULL;
      DsExtraData *d;
      Run r;

      run_init (&r, path, FALSE, i == 0 ? 0 : spans[i]);
      ck_assert_msg (ds_extra_run (&r.run, &error), "%s", error->message);
      d = r.result->data;
      ck_assert_uint_eq (d->span_bytes, spans[i]);
      ck_assert (d->read_present && !d->write_present);
      ck_assert_uint_eq (d->write->len, 0);
      whole += assert_rows (d->read, r.result->notes, spans[i]);
      assert_heard (r.heard, d->read, FALSE);
      ck_assert_str_eq (r.result->engine, "sync");
      if (i == 1)
        ck_assert_uint_eq (row_at (d->read, 6)->min_offset_bytes, 491520);
      run_clear (&r);
    }
  /* A walk is cut only when the host stalls the test: not twice. */
  ck_assert_uint_gt (whole, 0);
}
END_TEST

/* A write run writes (the burst region is new data), into the write rows;
 * the span is the capacity, not the file, and in whole blocks. */
START_TEST (test_run_write)
{
  g_autofree char *path = make_file ("write.img", FILE_BYTES);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr (GError) error = NULL;
  uint64_t span = 12 * MiB;
  DsExtraData *d;
  Run r;

  ck_assert (g_file_get_contents (path, &before, NULL, NULL));   /* zeros */
  run_init (&r, path, TRUE, span + 300);
  ck_assert_msg (ds_extra_run (&r.run, &error), "%s", error->message);
  d = r.result->data;
  ck_assert_uint_eq (d->span_bytes, span);
  ck_assert (!d->read_present && d->write_present);
  ck_assert_uint_eq (d->read->len, 0);
  assert_rows (d->write, r.result->notes, span);
  assert_heard (r.heard, d->write, TRUE);
  run_clear (&r);

  ck_assert (g_file_get_contents (path, &after, NULL, NULL));
  ck_assert (memcmp (before, after, MiB) != 0);
  /* Nothing past the capacity. */
  ck_assert (memcmp (before + span, after + span, FILE_BYTES - span) == 0);
}
END_TEST

/* Less than 1 MiB to test (the file, or a capacity): refused before any
 * I/O, naming the target; stopped before the first row: cancelled.  The
 * direction is marked run, with no rows, and nothing heard. */
START_TEST (test_run_refused)
{
  g_autofree char *tiny = make_file ("tiny.img", MiB - 512);
  g_autofree char *big = make_file ("big.img", 2 * MiB);
  const char *too_small = ": the test capacity is too small for the extra tests (they need at least 1 MB)";

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *want = g_strconcat (i == 0 ? tiny : big, too_small, NULL);
      DsExtraData *d;
      Run r;

      run_init (&r, i == 0 ? tiny : big, i == 1, i == 1 ? MiB - 1 : 0);
      r.cancel = i == 2;
      ck_assert (!ds_extra_run (&r.run, &error));
      ck_assert (g_error_matches (error, DS_ERROR, i == 2 ? DS_ERROR_CANCELLED : DS_ERROR_INVALID));
      if (i < 2)
        ck_assert_str_eq (error->message, want);
      d = r.result->data;
      ck_assert_uint_eq (d->span_bytes, i == 2 ? 2 * MiB : MiB - 512);
      ck_assert (i == 1 ? d->write_present : d->read_present);
      ck_assert_uint_eq (d->read->len + d->write->len, 0);
      ck_assert_uint_eq (r.heard->len, 0);
      run_clear (&r);
    }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("kind-extra");
  TCase *tc_compare = tcase_create ("compare");
  TCase *tc_fio = tcase_create ("fio");
  TCase *tc_run = tcase_create ("run");
  g_autoptr (GDir) dir = NULL;
  const char *name;
  int ret;

  tcase_add_test (tc_compare, test_compare_read);
  tcase_add_test (tc_compare, test_compare_directions);
  suite_add_tcase (s, tc_compare);
  tcase_add_test (tc_fio, test_fio_read);
  tcase_add_test (tc_fio, test_fio_write_capacity);
  suite_add_tcase (s, tc_fio);
  tcase_add_test (tc_run, test_run_read);
  tcase_add_test (tc_run, test_run_write);
  tcase_add_test (tc_run, test_run_refused);
  suite_add_tcase (s, tc_run);

  tmp_dir = g_dir_make_tmp ("kind-extra-XXXXXX", NULL);
  g_assert (tmp_dir != NULL);
  ret = ds_test_run_suite (s);
  dir = g_dir_open (tmp_dir, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
