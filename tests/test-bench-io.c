/* test-bench-io.c: the I/O patterns several kinds share
 * (core/kinds/common/ds-bench-io.c), on a regular file, without root
 *
 * Unit suite: no root, no device.  A run context made by hand over a
 * temporary file (test-run-io.c's way, on the sync engine, without
 * O_DIRECT: the file is in g_get_tmp_dir()).  What ds-bench-io.h
 * promises: the tested span is the target or --capacity, whichever is
 * smaller, in whole logical blocks; pieces of a row add up (counts,
 * bytes, latencies, histograms, times, CPU), the first error wins and a
 * stop is kept; a segment is one untimed positioning read of its first
 * block (a read even in a write test) then its timed I/O from the next
 * block to its end, never past it, a one-block segment timing that block;
 * a burst is one untimed pass over its region then its timed plan; a
 * failed untimed I/O leaves nothing timed but its error and CPU time; a
 * recorded run delivers its first completions in order, in slices, and
 * runs the rest whole, its random offsets one stream however many slices
 * it took.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-bench-io.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-test-util.h"

#define KiB        (UINT64_C (1) << 10)
#define MiB        (UINT64_C (1) << 20)
#define BLOCK      (4 * KiB)
#define FILE_BYTES (1 * MiB)

static char *file_path;

/* ---- a run by hand ------------------------------------------------------ */

typedef struct {
  DsRun     run;
  DsResult *result;
  gint      cancel;
} Run;

static void
ignore_sample (const DsSample *sample,
               gpointer        user_data)
{
}

static void
run_init (Run      *r,
          int       open_flags,
          uint64_t  seed)
{
  DsTarget *target = g_new0 (DsTarget, 1);

  memset (r, 0, sizeof *r);
  r->result = ds_result_new_blank (DS_BENCH_TRANSFER);
  r->run.spec = &r->result->spec;
  r->run.result = r->result;
  target->path = g_strdup (file_path);
  target->fd = open (file_path, open_flags | O_CLOEXEC);
  ck_assert_msg (target->fd >= 0, "open %s: %s", file_path, g_strerror (errno));
  target->kind = DS_TARGET_FILE;
  target->writable = (open_flags & O_ACCMODE) != O_RDONLY;
  target->size_bytes = FILE_BYTES;
  target->logical_block_size = 4096;
  target->physical_block_size = 4096;
  target->mem_align = 4096;
  r->run.target = target;
  r->run.engine = ds_engine_lookup ("sync");
  ck_assert_ptr_nonnull (r->run.engine);
  r->run.sink = ignore_sample;
  r->run.cancel = &r->cancel;
  r->run.error_offset_bytes = -1;
  ds_rng_seed (&r->run.rng, seed);
}

static void
run_clear (Run *r)
{
  g_clear_pointer (&r->run.target, ds_target_free);
  g_clear_pointer (&r->result, ds_result_free);
}

/* What on_complete saw: each I/O's offset and direction, in order. */
typedef struct {
  GArray *offsets;   /* uint64_t */
  GArray *writes;    /* gboolean */
} Seen;

static void
seen_io (gpointer    user,
         const DsIo *io)
{
  Seen *seen = user;
  uint64_t offset = io->offset_bytes;
  gboolean write = io->write;

  g_array_append_val (seen->offsets, offset);
  g_array_append_val (seen->writes, write);
}

static void
seen_init (Seen *seen)
{
  seen->offsets = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  seen->writes = g_array_new (FALSE, FALSE, sizeof (gboolean));
}

static void
seen_clear (Seen *seen)
{
  g_array_unref (seen->offsets);
  g_array_unref (seen->writes);
}

#define SEEN_AT(seen, i) g_array_index ((seen)->offsets, uint64_t, (i))

static DsIoPlan
plan_of (unsigned read_percent,
         Seen    *seen)
{
  return (DsIoPlan) {
    .read_percent = read_percent, .start_bytes = 0, .span_bytes = FILE_BYTES, .block_bytes = BLOCK,
    .depth = 1, .threads = 1, .on_complete = seen != NULL ? seen_io : NULL, .user = seen,
  };
}

/* ---- span and sums ------------------------------------------------------ */

START_TEST (test_span_bytes)
{
  static const struct { uint64_t size, capacity; uint32_t lbs; uint64_t span; } cases[] = {
    { 8 * MiB, 0, 4096, 8 * MiB },
    { 8 * MiB + 100, 0, 512, 8 * MiB },
    { 8 * MiB + 4095, 0, 4096, 8 * MiB },
    { 8 * MiB + 4096, 0, 4096, 8 * MiB + 4096 },
    { 8 * MiB, MiB + 1, 4096, MiB },
    { 8 * MiB, MiB + 512, 512, MiB + 512 },
    { 8 * MiB, 8 * MiB, 4096, 8 * MiB },
    { 8 * MiB, 9 * MiB, 4096, 8 * MiB },         /* a capacity past the end is the end */
    { 8 * MiB, 4095, 4096, 0 },
    { 0, 0, 512, 0 },
    { G_MAXUINT64, 0, 4096, G_MAXUINT64 - 4095 },
    { G_MAXUINT64, G_MAXUINT64 - 1, 512, G_MAXUINT64 - 511 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DsTarget target = { .size_bytes = cases[i].size, .logical_block_size = cases[i].lbs };
      DsBenchSpec spec = { .capacity_bytes = cases[i].capacity };
      DsRun run = { .spec = &spec, .target = &target };

      ck_assert_msg (ds_bench_span_bytes (&run) == cases[i].span, "case %u: %" G_GUINT64_FORMAT, i,
                     ds_bench_span_bytes (&run));
    }
}
END_TEST

static void
dir_fill (DsIoDirStats *dir,
          uint64_t      ios,
          uint64_t      first_ns,
          gboolean      histogram)
{
  dir->ios = ios;
  dir->bytes = ios * BLOCK;
  for (uint64_t i = 0; i < ios; i++)
    ds_stats_add (&dir->latency_ns, first_ns + i * 1000);
  if (histogram)
    {
      dir->histogram = g_new0 (DsHistogram, 1);
      ds_histogram_init (dir->histogram);
      for (uint64_t i = 0; i < ios; i++)
        ds_histogram_add (dir->histogram, first_ns + i * 1000);
    }
}

START_TEST (test_stats_add)
{
  DsIoStats sum, a, b, c;

  ds_io_stats_init (&sum);
  ds_io_stats_init (&a);
  ds_io_stats_init (&b);
  ds_io_stats_init (&c);

  dir_fill (&a.read, 3, 10000, FALSE);
  a.elapsed_ns = 1000000;
  a.cpu_user_ns = 10;
  a.cpu_system_ns = 20;
  dir_fill (&b.read, 2, 50000, TRUE);
  dir_fill (&b.write, 4, 7000, TRUE);
  b.elapsed_ns = 2000000;
  b.cpu_user_ns = 1;
  b.error_errno = EIO;
  b.error_offset_bytes = 8192;
  c.elapsed_ns = 5;
  c.error_errno = EINVAL;
  c.error_offset_bytes = 4096;
  c.cancelled = TRUE;

  /* Nothing but a's: no histogram made, no error. */
  ds_bench_io_stats_add (&sum, &a);
  ck_assert_uint_eq (sum.read.ios, 3);
  ck_assert_ptr_null (sum.read.histogram);
  ck_assert_int_eq (sum.error_errno, 0);
  ck_assert (!sum.cancelled);

  ds_bench_io_stats_add (&sum, &b);
  ds_bench_io_stats_add (&sum, &c);
  ck_assert_uint_eq (sum.read.ios, 5);
  ck_assert_uint_eq (sum.read.bytes, 5 * BLOCK);
  ck_assert_uint_eq (sum.write.ios, 4);
  ck_assert_uint_eq (sum.write.bytes, 4 * BLOCK);
  ck_assert_uint_eq (sum.read.latency_ns.n, 5);
  ck_assert_uint_eq (sum.read.latency_ns.min, 10000);
  ck_assert_uint_eq (sum.read.latency_ns.max, 51000);
  ck_assert_double_eq_tol (sum.read.latency_ns.mean, (10000 + 11000 + 12000 + 50000 + 51000) / 5.0, 1e-6);
  ck_assert_uint_eq (sum.write.latency_ns.min, 7000);
  ck_assert_uint_eq (sum.write.latency_ns.max, 10000);
  ck_assert_ptr_nonnull (sum.read.histogram);
  ck_assert_uint_eq (sum.read.histogram->count, 2);
  ck_assert_uint_eq (sum.write.histogram->count, 4);
  ck_assert_ptr_ne (sum.write.histogram, b.write.histogram);
  ck_assert_uint_eq (sum.elapsed_ns, 3000005);
  ck_assert_uint_eq (sum.cpu_user_ns, 11);
  ck_assert_uint_eq (sum.cpu_system_ns, 20);
  /* The first error, and its offset, not a later one's. */
  ck_assert_int_eq (sum.error_errno, EIO);
  ck_assert_int_eq (sum.error_offset_bytes, 8192);
  ck_assert (sum.cancelled);

  /* Once more: histograms merge into the sum's. */
  ds_bench_io_stats_add (&sum, &b);
  ck_assert_uint_eq (sum.write.histogram->count, 8);
  ck_assert_uint_eq (sum.write.ios, 8);
  ck_assert (sum.cancelled);

  ds_io_stats_clear (&sum);
  ds_io_stats_clear (&a);
  ds_io_stats_clear (&b);
  ds_io_stats_clear (&c);
}
END_TEST

/* ---- segments and bursts ------------------------------------------------ */

START_TEST (test_segment)
{
  static const struct { uint64_t offset, bytes, max_ios; guint n_timed; } cases[] = {
    { 64 * KiB, 64 * KiB, 0, 15 },       /* the rest of the segment */
    { 0, FILE_BYTES, 0, 255 },           /* the whole file */
    { 64 * KiB, 64 * KiB, 5, 5 },        /* the plan's own limit */
    { 128 * KiB, 2 * BLOCK, 0, 1 },      /* one block after the positioning */
    { 128 * KiB, BLOCK, 0, 1 },          /* one block: itself */
    { FILE_BYTES - BLOCK, BLOCK, 0, 1 }, /* the file's last */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      Run r;
      Seen seen;
      DsIoPlan plan;
      DsIoStats stats;

      seen_init (&seen);
      plan = plan_of (100, &seen);
      /* What a segment never does: random, wrapped or the plan's own order. */
      plan.random = TRUE;
      plan.wrap = TRUE;
      plan.max_ios = cases[i].max_ios;
      run_init (&r, O_RDONLY, 1);
      ck_assert_msg (ds_bench_run_segment (&r.run, &plan, cases[i].offset, cases[i].bytes, &stats, &error) == 0,
                     "case %u: %s", i, error ? error->message : "");
      /* The positioning read, then the timed I/O in order. */
      ck_assert_uint_eq (seen.offsets->len, cases[i].n_timed + 1);
      ck_assert_uint_eq (SEEN_AT (&seen, 0), cases[i].offset);
      for (guint k = 1; k < seen.offsets->len; k++)
        {
          uint64_t expected = cases[i].bytes == BLOCK ? cases[i].offset : cases[i].offset + k * BLOCK;

          ck_assert_msg (SEEN_AT (&seen, k) == expected, "case %u, I/O %u at %" G_GUINT64_FORMAT, i, k,
                         SEEN_AT (&seen, k));
          ck_assert (SEEN_AT (&seen, k) + BLOCK <= cases[i].offset + cases[i].bytes);
        }
      ck_assert_uint_eq (stats.read.ios, cases[i].n_timed);
      ck_assert_uint_eq (stats.read.bytes, cases[i].n_timed * BLOCK);
      ck_assert_uint_eq (stats.read.latency_ns.n, cases[i].n_timed);
      ck_assert_uint_eq (stats.write.ios, 0);
      ck_assert_int_eq (stats.error_errno, 0);
      ck_assert_str_eq (r.result->engine, "sync");
      ds_io_stats_clear (&stats);
      seen_clear (&seen);
      run_clear (&r);
    }
}
END_TEST

/* A write test's segment positions with a read; a failed positioning
 * read leaves nothing timed, only its error. */
START_TEST (test_segment_write_and_error)
{
  {
    g_autoptr (GError) error = NULL;
    Run r;
    Seen seen;
    DsIoPlan plan;
    DsIoStats stats;

    seen_init (&seen);
    plan = plan_of (0, &seen);
    run_init (&r, O_RDWR, 1);
    ck_assert_int_eq (ds_bench_run_segment (&r.run, &plan, 256 * KiB, 4 * BLOCK, &stats, &error), 0);
    ck_assert_uint_eq (seen.offsets->len, 4);
    ck_assert (!g_array_index (seen.writes, gboolean, 0));
    for (guint k = 1; k < 4; k++)
      ck_assert (g_array_index (seen.writes, gboolean, k));
    ck_assert_uint_eq (stats.write.ios, 3);
    ck_assert_uint_eq (stats.read.ios, 0);
    ds_io_stats_clear (&stats);
    seen_clear (&seen);
    run_clear (&r);
  }
  {
    /* Reads of a target opened only to write fail (EBADF). */
    g_autoptr (GError) error = NULL;
    Run r;
    Seen seen;
    DsIoPlan plan;
    DsIoStats stats;
    int ret;

    seen_init (&seen);
    plan = plan_of (0, &seen);
    run_init (&r, O_WRONLY, 1);
    ret = ds_bench_run_segment (&r.run, &plan, 0, 4 * BLOCK, &stats, &error);
    ck_assert_int_eq (ret, -EBADF);
    ck_assert_ptr_nonnull (error);
    ck_assert_int_eq (stats.error_errno, EBADF);
    ck_assert_int_eq (stats.error_offset_bytes, 0);
    ck_assert_uint_eq (stats.read.ios + stats.write.ios, 0);
    ck_assert_uint_eq (stats.elapsed_ns, 0);
    ck_assert (!stats.cancelled);
    /* No timed write ran. */
    for (guint k = 0; k < seen.writes->len; k++)
      ck_assert (!g_array_index (seen.writes, gboolean, k));
    ck_assert_int_eq (r.run.error_errno, EBADF);
    ds_io_stats_clear (&stats);
    seen_clear (&seen);
    run_clear (&r);
  }
}
END_TEST

START_TEST (test_cached)
{
  g_autoptr (GError) error = NULL;
  Run r;
  Seen seen;
  DsIoPlan plan;
  DsIoStats stats;

  seen_init (&seen);
  plan = plan_of (100, &seen);
  plan.start_bytes = 128 * KiB;
  plan.span_bytes = 64 * KiB;
  plan.wrap = TRUE;
  plan.max_ios = 20;
  run_init (&r, O_RDONLY, 1);
  ck_assert_int_eq (ds_bench_run_cached (&r.run, &plan, &stats, &error), 0);
  /* One pass of 16 blocks, then 20 timed, wrapping after 16. */
  ck_assert_uint_eq (seen.offsets->len, 16 + 20);
  for (guint k = 0; k < 16; k++)
    ck_assert_uint_eq (SEEN_AT (&seen, k), 128 * KiB + k * BLOCK);
  for (guint k = 0; k < 20; k++)
    ck_assert_uint_eq (SEEN_AT (&seen, 16 + k), 128 * KiB + (k % 16) * BLOCK);
  ck_assert_uint_eq (stats.read.ios, 20);
  ck_assert_uint_eq (stats.read.bytes, 20 * BLOCK);
  ds_io_stats_clear (&stats);
  seen_clear (&seen);
  run_clear (&r);

  {
    /* The pass fails: nothing timed. */
    g_autoptr (GError) failed = NULL;

    run_init (&r, O_WRONLY, 1);
    plan = plan_of (100, NULL);
    plan.max_ios = 4;
    ck_assert_int_eq (ds_bench_run_cached (&r.run, &plan, &stats, &failed), -EBADF);
    ck_assert_int_eq (stats.error_errno, EBADF);
    ck_assert_uint_eq (stats.read.ios, 0);
    ds_io_stats_clear (&stats);
    run_clear (&r);
  }
}
END_TEST

/* ---- recorded runs ------------------------------------------------------ */

typedef struct {
  guint   calls;
  GArray *offsets;   /* uint64_t, every I/O delivered */
} Delivered;

static void
deliver (gpointer    user,
         const DsIo *ios,
         guint       n_ios)
{
  Delivered *d = user;

  ck_assert_uint_gt (n_ios, 0);
  d->calls++;
  for (guint i = 0; i < n_ios; i++)
    g_array_append_val (d->offsets, ios[i].offset_bytes);
}

static void
record (uint64_t   seed,
        DsIoPlan  *plan,
        guint      keep,
        Delivered *d,
        DsIoStats *stats)
{
  g_autoptr (GError) error = NULL;
  Run r;

  d->calls = 0;
  d->offsets = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  run_init (&r, O_RDONLY, seed);
  ck_assert_msg (ds_bench_run_recorded (&r.run, plan, keep, deliver, d, stats, &error) == 0, "%s",
                 error ? error->message : "");
  run_clear (&r);
}

START_TEST (test_recorded)
{
  static const struct { guint keep; uint64_t max_ios; guint delivered; } cases[] = {
    { 10, 40, 10 }, { 0, 40, 0 }, { 40, 40, 40 }, { 100, 40, 40 }, { 1, 1, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DsIoPlan plan = plan_of (100, NULL);
      Delivered d;
      DsIoStats stats;

      plan.wrap = TRUE;
      plan.max_ios = cases[i].max_ios;
      record (1, &plan, cases[i].keep, &d, &stats);
      ck_assert_uint_eq (d.offsets->len, cases[i].delivered);
      ck_assert_uint_eq (d.calls, cases[i].delivered > 0 ? 1 : 0);
      for (guint k = 0; k < d.offsets->len; k++)
        ck_assert_uint_eq (g_array_index (d.offsets, uint64_t, k), k * BLOCK);
      /* All of it counted, however much was recorded. */
      ck_assert_uint_eq (stats.read.ios, cases[i].max_ios);
      ck_assert_uint_eq (stats.read.latency_ns.n, cases[i].max_ios);
      ds_io_stats_clear (&stats);
      g_array_unref (d.offsets);
    }
}
END_TEST

/* Random offsets: the run's seed gives them, one stream over every slice
 * (a run in many 100 ms slices draws what one whole slice would). */
START_TEST (test_recorded_random)
{
  DsIoPlan plan = plan_of (100, NULL);
  Delivered sliced, whole, again, other;
  DsIoStats stats;
  guint n;

  plan.random = TRUE;
  plan.duration_ns = 250 * DS_NS_PER_MSEC;
  record (42, &plan, 400000, &sliced, &stats);
  ds_io_stats_clear (&stats);
  n = sliced.offsets->len;
  ck_assert_uint_gt (n, 0);
  if (sliced.calls < 2)
    ds_test_note ("only %u slice(s) recorded: the stream across slices is not tested", sliced.calls);

  plan.duration_ns = 0;
  plan.max_ios = n;
  record (42, &plan, n, &whole, &stats);
  ds_io_stats_clear (&stats);
  record (42, &plan, n, &again, &stats);
  ds_io_stats_clear (&stats);
  record (43, &plan, n, &other, &stats);
  ds_io_stats_clear (&stats);

  ck_assert_uint_eq (whole.calls, 1);
  ck_assert_uint_eq (whole.offsets->len, n);
  ck_assert_uint_eq (again.offsets->len, n);
  ck_assert (memcmp (whole.offsets->data, again.offsets->data, n * sizeof (uint64_t)) == 0);
  ck_assert (memcmp (sliced.offsets->data, whole.offsets->data, n * sizeof (uint64_t)) == 0);
  ck_assert (n < 8 || memcmp (other.offsets->data, whole.offsets->data, n * sizeof (uint64_t)) != 0);
  for (guint k = 0; k < n; k++)
    {
      uint64_t at = g_array_index (whole.offsets, uint64_t, k);

      ck_assert (at % BLOCK == 0 && at + BLOCK <= FILE_BYTES);
    }
  g_array_unref (sliced.offsets);
  g_array_unref (whole.offsets);
  g_array_unref (again.offsets);
  g_array_unref (other.offsets);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("bench-io");
  TCase *tc = tcase_create ("bench-io");
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *data = g_malloc (FILE_BYTES);
  int fd;
  int ret;

  for (guint i = 0; i < FILE_BYTES; i++)
    data[i] = (guint8) (i * 7 + 1);
  fd = g_file_open_tmp ("ds-bench-io-XXXXXX.img", &file_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (write (fd, data, FILE_BYTES), ==, (gssize) FILE_BYTES);
  close (fd);

  tcase_set_timeout (tc, 30);
  tcase_add_test (tc, test_span_bytes);
  tcase_add_test (tc, test_stats_add);
  tcase_add_test (tc, test_segment);
  tcase_add_test (tc, test_segment_write_and_error);
  tcase_add_test (tc, test_cached);
  tcase_add_test (tc, test_recorded);
  tcase_add_test (tc, test_recorded_random);
  suite_add_tcase (s, tc);

  /* Each test runs in a child: the file goes once they all have. */
  ret = ds_test_run_suite (s);
  g_unlink (file_path);
  g_free (file_path);
  return ret;
}
