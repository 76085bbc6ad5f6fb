/* test-kind-transfer.c: the Benchmark kind's comparison, fio job and run
 * (core/kinds/transfer/ds-transfer-compare.c, -fio.c and -run.c)
 *
 * Unit suite: no root, no device.  The comparison: six figures and five
 * bands of the span per direction, read first, word for word; a band the
 * mean of its points that did not fail (at or past the end: the last),
 * NAN when none; the span the data's, else the capacity tested; a rate
 * line (failed points gaps) and access dots per direction.  The fio job:
 * 200 point sections where the run reads, access time and burst, word for
 * word.  The run, on a file through the sync engine: its refusals before
 * any I/O, points, dots, figures and samples, a bad range (a file shorter
 * than the target says) marked point by point with the first error, a Stop.
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

#include "ds-bench-transfer.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-run.h"
#include "ds-test-kind.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

#define KiB (UINT64_C (1) << 10)
#define MiB (UINT64_C (1) << 20)

/* ---- the comparison ---- */

/* A direction over a span of 1000 bytes: bands [0,200) 10 and 30, [200,
 * 400) a failed point and 40, [400,600) nothing, [600,800) 50 at 799,
 * [800,1000] 60, and 70 at the span's end and 80 past it; 3 dots. */
static void
fill_dir (DsTransferDir *dir, double scale)
{
  const DsTransferPoint points[] = {
    { 0, 10, 0 }, { 150, 30, 0 }, { 250, 0, EIO }, { 300, 40, 0 }, { 799, 50, 0 },
    { 800, 60, 0 }, { 1000, 70, 0 }, { 5000, 80, 0 },
  };
  const DsAccessPoint dots[] = { { 0, 2000000 }, { 100, 4000000 }, { 200, 6000000 } };

  g_array_append_vals (dir->points, points, G_N_ELEMENTS (points));
  for (guint i = 0; i < dir->points->len; i++)
    g_array_index (dir->points, DsTransferPoint, i).bytes_per_s *= scale;
  g_array_append_vals (dir->access, dots, G_N_ELEMENTS (dots));
  *dir = (DsTransferDir) { TRUE, dir->points, dir->access, 10 * scale, 80 * scale, 45 * scale, 0.004, 2e8, 12.5 };
}

static DsResult *
compare_result (gboolean read, gboolean write, uint64_t span)
{
  DsResult *r = ds_test_result_new (DS_BENCH_TRANSFER, "/dev/sdz", write);
  DsTransferData *d = r->data;

  d->span_bytes = span;
  if (read)
    fill_dir (&d->read, 1);
  if (write)
    fill_dir (&d->write, 2);
  return r;
}

/* A direction's figures as fill_dir() set them, the bands 2 (40-60 %) empty. */
#define WANT(d, D, min, max, avg, b0, b1, b3, b4) \
  "[" D "]\n" d ".transfer_min|Transfer Rate Minimum||rate|+|" min "\n" \
  d ".transfer_max|Transfer Rate Maximum||rate|+|" max "\n" \
  d ".transfer_avg|Transfer Rate Average||rate|+|" avg "\n" \
  d ".access_time|Access Time||time|-|0.004\n" \
  d ".burst_rate|Burst Rate||rate|+|200000000\n" \
  d ".cpu_usage|CPU Usage||percent|-|12.5\n" \
  d ".band_0_20|Transfer Rate at 0–20 %||rate|+|" b0 "\n" \
  d ".band_20_40|Transfer Rate at 20–40 %||rate|+|" b1 "\n" \
  d ".band_40_60|Transfer Rate at 40–60 %||rate|+|-\n" \
  d ".band_60_80|Transfer Rate at 60–80 %||rate|+|" b3 "\n" \
  d ".band_80_100|Transfer Rate at 80–100 %||rate|+|" b4 "\n"
#define R "Read transfer rate"
static const char want_read[] = WANT ("read", R, "10", "80", "45", "20", "40", "50", "70");
static const char want_write[] = WANT ("write", "Write transfer rate", "20", "160", "90", "40", "80", "100", "140");

/* Six figures and five bands a direction, read first; a band the mean
 * of its points that did not fail, those at or past the end in the last. */
START_TEST (test_compare_rows)
{
  g_autoptr (DsResult) read = compare_result (TRUE, FALSE, 1000);
  g_autoptr (DsResult) write = compare_result (FALSE, TRUE, 1000);
  g_autoptr (DsResult) both = compare_result (TRUE, TRUE, 1000);
  g_autofree char *got_read = ds_test_compare_text (read, FALSE);
  g_autofree char *got_write = ds_test_compare_text (write, FALSE);
  g_autofree char *got_both = ds_test_compare_text (both, FALSE);
  g_autofree char *want_both = g_strconcat (want_read, want_write, NULL);

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_TRANSFER)->compare_rows, ds_transfer_compare_rows);
  ds_test_assert_text (got_read, want_read);
  ds_test_assert_text (got_write, want_write);
  ds_test_assert_text (got_both, want_both);
}
END_TEST

/* No span known: every band empty, the figures kept; no direction run:
 * nothing; figures not measured (< 0) handed on for the comparison to
 * leave empty; ds_test_transfer_result()'s 200 points in the first band. */
START_TEST (test_compare_rows_edges)
{
  g_autoptr (DsResult) r = compare_result (TRUE, FALSE, 0);
  g_autoptr (DsResult) none = compare_result (FALSE, FALSE, 1000);
  g_autoptr (DsResult) failed = ds_test_result_new (DS_BENCH_TRANSFER, "/dev/sdz", FALSE);
  g_autoptr (DsResult) hd = ds_test_transfer_result ();
  g_autofree char *got = ds_test_compare_text (r, FALSE);
  g_autofree char *got_none = ds_test_compare_text (none, FALSE);
  g_autofree char *got_failed = NULL;
  g_autofree char *got_hd = ds_test_compare_text (hd, FALSE);
  DsTransferData *d = failed->data;
  g_auto (GStrv) lines = NULL;

  ck_assert_uint_eq (ds_test_count (got, "\n"), 12);
  ck_assert_uint_eq (ds_test_count (got, "||rate|+|-\n"), 5);
  ck_assert (g_str_has_prefix (got, "[" R "]\nread.transfer_min|Transfer Rate Minimum||rate|+|10\n"));
  ck_assert_str_eq (got_none, "");

  d->span_bytes = 1000;
  d->read.present = TRUE;
  g_array_append_val (d->read.points, ((DsTransferPoint) { 10, 0, EIO }));
  got_failed = ds_test_compare_text (failed, FALSE);
  ck_assert_uint_eq (ds_test_count (got_failed, "|-1\n"), 6);
  ck_assert_uint_eq (ds_test_count (got_failed, "|-\n"), 5);

  lines = g_strsplit (got_hd, "\n", -1);
  ck_assert_uint_eq (g_strv_length (lines), 13);
  ck_assert_str_eq (lines[0], "[" R "]");
  ck_assert_str_eq (lines[7], "read.band_0_20|Transfer Rate at 0–20 %||rate|+|100000099.914573");
  ck_assert_str_eq (lines[8], "read.band_20_40|Transfer Rate at 20–40 %||rate|+|-");
}
END_TEST
#undef R

/* The span compared: the data's own, else --capacity when smaller than
 * the target, else the target's size; a result without data the same. */
START_TEST (test_compare_span)
{
  g_autoptr (DsResult) r = compare_result (TRUE, FALSE, 1000);
  DsTransferData *d = r->data;

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_TRANSFER)->compare_span, ds_transfer_compare_span);
  ck_assert_uint_eq (ds_transfer_compare_span (r), 1000);
  d->span_bytes = 0;
  ck_assert_uint_eq (ds_transfer_compare_span (r), UINT64_C (500000000000));
  r->spec.capacity_bytes = 10 * MiB;
  ck_assert_uint_eq (ds_transfer_compare_span (r), 10 * MiB);
  r->data = NULL;
  ck_assert_uint_eq (ds_transfer_compare_span (r), 10 * MiB);
  r->data = d;
}
END_TEST

#define RATE(d, D) d "|" D " transfer rate|position|bytes|0|transfer rate|rate|0|- (null)|"
#define ACCESS(d) d ".access|Access time|position|bytes|0|access time|time|1|- (null)|"
/* Per direction run: the rate at each point's offset (a failed point a
 * gap), then the access times in seconds as dots; read first; no mark.
 * A direction not run draws nothing; one without points, empty curves. */
START_TEST (test_compare_curves)
{
  g_autoptr (DsResult) both = compare_result (TRUE, TRUE, 1000);
  g_autoptr (DsResult) empty = ds_test_result_new (DS_BENCH_TRANSFER, "/dev/sdz", TRUE);
  g_autofree char *got = ds_test_compare_text (both, TRUE);
  g_autofree char *got_none = ds_test_compare_text (empty, TRUE);
  g_autofree char *got_empty = NULL;

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_TRANSFER)->compare_curves, ds_transfer_compare_curves);
  ds_test_assert_text (got,
               RATE ("read", "Read") "(0,10) (150,30) (250,-) (300,40) (799,50) (800,60) (1000,70) (5000,80)\n"
               ACCESS ("read") "(0,0.002) (100,0.004) (200,0.006)\n"
               RATE ("write", "Write") "(0,20) (150,60) (250,-) (300,80) (799,100) (800,120) (1000,140) (5000,160)\n"
               ACCESS ("write") "(0,0.002) (100,0.004) (200,0.006)\n");
  ck_assert_str_eq (got_none, "");
  ((DsTransferData *) empty->data)->write.present = TRUE;
  got_empty = ds_test_compare_text (empty, TRUE);
  ds_test_assert_text (got_empty, RATE ("write", "Write") "\n" ACCESS ("write") "\n");
}
END_TEST

/* ---- the fio job ---- */

/* ds_test_transfer_result(): reads, 64 KiB, accuracy 2 (125 ms a point),
 * --capacity 1 GiB of 2 GiB: segments of 81 blocks, each timed after
 * its first block; then 500 random 512-byte reads for 1 s at most, and
 * the burst on the first block for 250 ms. */
START_TEST (test_fio_job)
{
  g_autoptr (DsResult) r = ds_test_transfer_result ();
  g_autofree char *job = ds_test_fio_job (r, "/dev/sdz");
  g_autofree char *exported = NULL;
  const char *const offsets[][2] = {
    { "point-000", "65536" }, { "point-001", "5373952" }, { "point-100", "536936448" },
    { "point-199", "1068498944" },
  };

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_TRANSFER)->fio_job, ds_transfer_fio_job);
  ck_assert (strstr (job, "; reads only\n") != NULL);
  ck_assert (strstr (job, "\n[global]\nfilename=/dev/sdz\ndirect=1\nioengine=psync\n") != NULL);
  ck_assert (strstr (job, "\niodepth=1\n; 200 points across 1073741824 bytes: each reads its segment "
                     "sequentially for 125 ms at most\n\n[point-000]\n") != NULL);
  ck_assert_uint_eq (ds_test_count (job, "\n[point-"), 200);
  ck_assert_uint_eq (ds_test_count (job, "\n["), 203);
  ck_assert_ptr_null (strstr (job, "[point-200]"));
  for (guint i = 0; i < G_N_ELEMENTS (offsets); i++)
    {
      g_autofree char *want = g_strdup_printf ("stonewall=1\nrw=read\nbs=65536\noffset=%s\nsize=5242880\n"
                                               "runtime=125ms\n", offsets[i][1]);

      ds_test_assert_fio_section (job, offsets[i][0], want);
    }
  ds_test_assert_fio_section (job, "access-time", "stonewall=1\nrw=randread\nbs=512\noffset=0\n"
                              "size=1073741824\nruntime=1000ms\nnumber_ios=500\n");
  ck_assert (g_str_has_suffix (job, "\n[burst-rate]\nstonewall=1\nrw=read\nbs=65536\noffset=0\nsize=65536\n"
                               "time_based=1\nruntime=250ms\n"));

  /* Exported through the table, for the file given. */
  exported = ds_fio_job_from_result (r, "/dev/loop7", NULL);
  ck_assert (exported != NULL && strstr (exported, "\nfilename=/dev/loop7\n") != NULL);
  ck_assert_uint_eq (ds_test_count (exported, "\n[point-"), 200);
}
END_TEST

/* Writes: the warning and rw=write/randwrite; a device of 100 blocks:
 * one-block segments timed whole, several points on one block; the
 * accuracy's ends, 0 as 1; 4 KiB logical blocks; a device smaller than a
 * block: no point at all. */
START_TEST (test_fio_job_edges)
{
  g_autoptr (DsResult) r = ds_test_result_new (DS_BENCH_TRANSFER, "/dev/sdz", TRUE);
  g_autofree char *job = NULL, *job5 = NULL, *tiny = NULL;

  r->target.size_bytes = 100 * 64 * KiB;
  r->spec.accuracy = 0;
  r->target.logical_block_size = 4096;
  job = ds_test_fio_job (r, "/dev/sdz");
  r->spec.accuracy = 5;
  job5 = ds_test_fio_job (r, "/dev/sdz");
  r->target.size_bytes = 32 * KiB;
  tiny = ds_test_fio_job (r, "/dev/sdz");

  ck_assert (strstr (job, "; WARNING: this job WRITES to /dev/sdz and DESTROYS ALL DATA on it\n") != NULL);
  ck_assert_uint_eq (ds_test_count (job, "\n[point-"), 200);
#define POINT(o) "stonewall=1\nrw=write\nbs=65536\noffset=" o "\nsize=65536\nruntime=63ms\n"
  ds_test_assert_fio_section (job, "point-002", POINT ("0"));
  ds_test_assert_fio_section (job, "point-003", POINT ("65536"));
  ds_test_assert_fio_section (job, "point-199", POINT ("6488064"));
#undef POINT
  ds_test_assert_fio_section (job, "access-time", "stonewall=1\nrw=randwrite\nbs=4096\noffset=0\n"
                              "size=6553600\nruntime=500ms\nnumber_ios=250\n");
  ds_test_assert_fio_section (job, "burst-rate", "stonewall=1\nrw=write\nbs=65536\noffset=0\nsize=65536\n"
                              "time_based=1\nruntime=125ms\n");
  ck_assert (strstr (job5, "sequentially for 1000 ms at most\n") != NULL);
  ds_test_assert_fio_section (job5, "access-time", "stonewall=1\nrw=randwrite\nbs=4096\noffset=0\n"
                              "size=6553600\nruntime=8000ms\nnumber_ios=4000\n");
  ck_assert_uint_eq (ds_test_count (tiny, "\n[point-"), 0);
  ck_assert_uint_eq (ds_test_count (tiny, "\n["), 3);
}
END_TEST

/* ---- the run ---- */

static char *run_path;   /* 8 MiB of random data */
static char *odd_path;   /* 8 MiB and 60 KiB */

/* @name under /dev/shm where tmpfs takes O_DIRECT (Linux 6.6 on: no
 * disk queue in the timed phases), else under /var/tmp. */
static char *
make_file (const char *name, uint64_t size, uint64_t seed)
{
  char *path = ds_test_make_ram_file (name, size, seed);
  int fd = open (path, O_RDONLY | O_DIRECT | O_CLOEXEC);

  if (fd >= 0 && close (fd) == 0)
    return path;
  unlink (path);
  g_free (path);
  return ds_test_make_file (name, size, seed);
}

typedef struct {
  DsRun     run;
  DsResult *result;
  gint      cancel;
  GArray   *samples;     /* DsSample, as sent */
  int       stop_after;  /* the point after which the user stops, or -1 */
} Run;

static void
run_sink (const DsSample *sample, gpointer user_data)
{
  Run *r = user_data;

  g_array_append_val (r->samples, *sample);
  if (sample->kind == DS_SAMPLE_POINT && (int) sample->index == r->stop_after)
    g_atomic_int_set (&r->cancel, 1);
}

/* A run as ds_run_full() sets one up, over @path opened here with
 * O_DIRECT (4 KiB logical blocks), the engine chosen (sync at depth 1),
 * accuracy 1. */
static DsTransferData *
run_init (Run *r, const char *path, gboolean write, uint64_t block, uint64_t capacity)
{
  DsBenchSpec spec;
  DsTarget *t = g_new0 (DsTarget, 1);
  int fd = open (path, (write ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
  struct stat st;

  ck_assert_msg (fd >= 0 && fstat (fd, &st) == 0, "open %s with O_DIRECT: %s", path, g_strerror (errno));
  ds_bench_spec_init (&spec, DS_BENCH_TRANSFER);
  spec.target_path = g_strdup (path);
  spec.write = write;
  spec.block_size_bytes = block;
  spec.capacity_bytes = capacity;
  spec.accuracy = 1;
  *r = (Run) { .result = ds_result_new (&spec), .stop_after = -1 };
  ds_bench_spec_clear (&spec);
  *t = (DsTarget) { .path = g_strdup (path), .fd = fd, .kind = DS_TARGET_FILE, .writable = write,
                    .direct = TRUE, .size_bytes = (uint64_t) st.st_size, .logical_block_size = 4096,
                    .physical_block_size = 4096, .mem_align = 4096 };
  r->run = (DsRun) { .spec = &r->result->spec, .target = t, .result = r->result, .engine_auto = TRUE,
                     .sink = run_sink, .sink_data = r, .cancel = &r->cancel, .error_offset_bytes = -1 };
  ds_rng_seed (&r->run.rng, 7);
  r->samples = g_array_new (FALSE, FALSE, sizeof (DsSample));
  return r->result->data;
}

static void
run_clear (Run *r)
{
  g_clear_pointer (&r->run.target, ds_target_free);
  g_clear_pointer (&r->result, ds_result_free);
  g_clear_pointer (&r->samples, g_array_unref);
}

static const DsSample *
sample_at (Run *r, guint i)
{
  ck_assert_msg (i < r->samples->len, "sample %u of %u", i, r->samples->len);
  return &g_array_index (r->samples, DsSample, i);
}

static void
assert_phase (Run *r, guint i, const char *name, double progress)
{
  const DsSample *s = sample_at (r, i);

  ck_assert_msg (s->kind == DS_SAMPLE_PHASE && g_str_equal (s->name, name) && !s->write &&
                 s->progress == progress, "sample %u: kind %d, progress %g, not %s", i, s->kind,
                 s->progress, name);
}

/* Point @i's offset as the run spreads them over @span in @segment. */
static uint64_t
point_offset (uint64_t span, uint64_t segment, uint64_t block, unsigned i)
{
  uint64_t o = (span - segment) * i / (DS_BENCH_TRANSFER_POINTS - 1);

  return o - o % block;
}

/* Refused before any I/O, the data untouched: a block that is no
 * multiple of the logical block, a capacity or a target under two blocks
 * (once rounded down to whole blocks). */
START_TEST (test_run_refused)
{
  const struct { uint64_t block, capacity; const char *message; } cases[] = {
    { 6 * KiB, 0, "the block size (6144 bytes) must be a multiple of PATH's logical block size (4096 bytes)" },
    { 64 * KiB, 128 * KiB - 1, "PATH: the test capacity (65536 bytes) is smaller than two blocks" },
    { 4 * MiB, 0, "PATH: the test capacity (4194304 bytes) is smaller than two blocks" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_auto (GStrv) parts = g_strsplit (cases[i].message, "PATH", -1);
      g_autofree char *want = g_strjoinv (run_path, parts);
      Run r;
      DsTransferData *d = run_init (&r, run_path, FALSE, cases[i].block, cases[i].capacity);

      if (i == 2)
        r.run.target->size_bytes = 8 * MiB - 4 * KiB;
      ck_assert (!ds_transfer_run (&r.run, &error));
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
      ck_assert_str_eq (error->message, want);
      ck_assert (!d->read.present && !d->write.present && d->span_bytes == 0 && r.samples->len == 0);
      run_clear (&r);
    }
}
END_TEST

/* Reads of 4 KiB over 8 MiB: 200 points in segments of 10 blocks, their
 * figures; every access-time read a dot (250 at accuracy 1, fewer if its
 * half second ran out), the burst; the samples in order, each with its
 * share of the progress. */
START_TEST (test_run_read)
{
  g_autoptr (GError) error = NULL;
  double min = INFINITY, max = 0;
  guint n = 0;
  Run r;
  DsTransferData *d = run_init (&r, run_path, FALSE, 4 * KiB, 0);

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_TRANSFER)->run, ds_transfer_run);
  ck_assert_msg (ds_transfer_run (&r.run, &error), "%s", error->message);
  ck_assert_uint_eq (d->span_bytes, 8 * MiB);
  ck_assert_uint_eq (d->block_bytes, 4 * KiB);
  ck_assert (d->read.present && !d->write.present && d->write.points->len == 0);
  ck_assert_str_eq (r.result->engine, "sync");

  assert_phase (&r, n++, "transfer", 0);
  ck_assert_uint_eq (d->read.points->len, DS_BENCH_TRANSFER_POINTS);
  for (guint i = 0; i < DS_BENCH_TRANSFER_POINTS; i++, n++)
    {
      const DsTransferPoint *p = &g_array_index (d->read.points, DsTransferPoint, i);
      const DsSample *s = sample_at (&r, n);

      ck_assert_uint_eq (p->offset_bytes, point_offset (8 * MiB, 40 * KiB, 4 * KiB, i));
      ck_assert (p->error == 0 && p->bytes_per_s > 0);
      min = MIN (min, p->bytes_per_s);
      max = MAX (max, p->bytes_per_s);
      ck_assert_msg (s->kind == DS_SAMPLE_POINT && s->index == i && !s->write && s->error == 0 &&
                     s->offset_bytes == p->offset_bytes && s->value == p->bytes_per_s &&
                     s->bytes == 4 * KiB && s->progress == 0.85 * (i + 1) / DS_BENCH_TRANSFER_POINTS,
                     "point %u's sample", i);
    }
  ck_assert (d->read.min_bytes_per_s == min && d->read.max_bytes_per_s == max);
  ck_assert (d->read.avg_bytes_per_s >= min && d->read.avg_bytes_per_s <= max);
  ck_assert (d->read.cpu_percent >= 0);

  assert_phase (&r, n++, "access", 0.85);
  ck_assert_msg (d->read.access->len >= 1 && d->read.access->len <= 250, "%u dots", d->read.access->len);
  for (guint i = 0; i < d->read.access->len; i++, n++)
    {
      const DsAccessPoint *a = &g_array_index (d->read.access, DsAccessPoint, i);
      const DsSample *s = sample_at (&r, n);

      ck_assert (a->offset_bytes % (4 * KiB) == 0 && a->offset_bytes < 8 * MiB);
      ck_assert (s->kind == DS_SAMPLE_ACCESS && s->offset_bytes == a->offset_bytes &&
                 s->elapsed_ns == a->access_ns && s->bytes == 4 * KiB);
    }
  ck_assert (d->read.access_time_s > 0);
  assert_phase (&r, n++, "burst", 0.85 + 0.10);
  ck_assert_uint_eq (r.samples->len, n);
  ck_assert (d->read.burst_bytes_per_s > 0);
  ck_assert_double_eq (r.run.progress, 1.0);
  run_clear (&r);
}
END_TEST

/* The target says 16 MiB, the file has 8: the points from 8 MiB on (in
 * segments of 80 KiB, from point 100) fail, a short read being EIO, each
 * marked and sent so, and the scan goes on; the figures are the good
 * points'; access time and burst still run; the run fails with the
 * first error. */
START_TEST (test_run_bad_range)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *want = NULL;
  Run r;
  DsTransferData *d = run_init (&r, run_path, FALSE, 4 * KiB, 0);

  r.run.target->size_bytes = 16 * MiB;
  ck_assert (!ds_transfer_run (&r.run, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_IO));
  want = g_strdup_printf ("%s: read error at offset 8388608 (0.008 GB): %s", run_path, g_strerror (EIO));
  ck_assert_str_eq (error->message, want);
  ck_assert (r.run.error_errno == EIO && r.run.error_offset_bytes == (int64_t) (8 * MiB));

  ck_assert_uint_eq (d->read.points->len, DS_BENCH_TRANSFER_POINTS);
  for (guint i = 0; i < DS_BENCH_TRANSFER_POINTS; i++)
    {
      const DsTransferPoint *p = &g_array_index (d->read.points, DsTransferPoint, i);
      const DsSample *s = sample_at (&r, 1 + i);

      ck_assert_uint_eq (p->offset_bytes, point_offset (16 * MiB, 80 * KiB, 4 * KiB, i));
      ck_assert_msg (i < 100 ? p->error == 0 && p->bytes_per_s >= d->read.min_bytes_per_s &&
                               p->bytes_per_s <= d->read.max_bytes_per_s
                             : p->error == EIO && p->bytes_per_s == 0, "point %u: %d", i, p->error);
      ck_assert (s->error == p->error && s->value == p->bytes_per_s);
    }
  ck_assert (d->read.min_bytes_per_s > 0);
  for (guint i = 0; i < d->read.access->len; i++)
    ck_assert_uint_lt (g_array_index (d->read.access, DsAccessPoint, i).offset_bytes, 8 * MiB);
  ck_assert (d->read.burst_bytes_per_s > 0);
  run_clear (&r);
}
END_TEST

/* A Stop after point 5: six points kept, nothing after the scan; a Stop
 * before the first: none. */
START_TEST (test_run_stop)
{
  for (int stop = 5; stop >= -1; stop -= 6)
    {
      g_autoptr (GError) error = NULL;
      Run r;
      DsTransferData *d = run_init (&r, run_path, FALSE, 4 * KiB, 0);

      r.stop_after = stop;
      r.cancel = stop < 0;
      ck_assert (!ds_transfer_run (&r.run, &error));
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CANCELLED));
      ck_assert_uint_eq (d->read.points->len, stop + 1);
      ck_assert_uint_eq (r.samples->len, 1 + stop + 1);
      ck_assert (d->read.present && d->span_bytes == 8 * MiB && d->read.access->len == 0);
      ck_assert (d->read.access_time_s == -1 && d->read.burst_bytes_per_s == -1 && d->read.cpu_percent == -1);
      run_clear (&r);
    }
}
END_TEST

/* Writes on --capacity of exactly two 64 KiB blocks: one-block segments,
 * all points but the last on the first block; the write direction's. */
START_TEST (test_run_write_two_blocks)
{
  g_autoptr (GError) error = NULL;
  Run r;
  DsTransferData *d = run_init (&r, run_path, TRUE, 64 * KiB, 128 * KiB);

  ck_assert_msg (ds_transfer_run (&r.run, &error), "%s", error->message);
  ck_assert (!d->read.present && d->write.present && d->span_bytes == 128 * KiB);
  ck_assert_uint_eq (d->write.points->len, DS_BENCH_TRANSFER_POINTS);
  for (guint i = 0; i < DS_BENCH_TRANSFER_POINTS; i++)
    ck_assert_uint_eq (g_array_index (d->write.points, DsTransferPoint, i).offset_bytes, i == 199 ? 64 * KiB : 0);
  for (guint i = 0; i < d->write.access->len; i++)
    ck_assert_uint_lt (g_array_index (d->write.access, DsAccessPoint, i).offset_bytes, 128 * KiB);
  for (guint i = 0; i < r.samples->len; i++)
    ck_assert (sample_at (&r, i)->write);
  ck_assert (d->write.burst_bytes_per_s > 0 && d->write.access_time_s > 0);
  run_clear (&r);
}
END_TEST

/* The fio job of a run reads where the run read, on a target that is no
 * whole number of blocks (64 KiB blocks, 8 MiB and 60 KiB). */
START_TEST (test_run_fio_same_points)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *job = NULL;
  Run r;
  DsTransferData *d = run_init (&r, odd_path, FALSE, 64 * KiB, 0);

  ck_assert_msg (ds_transfer_run (&r.run, &error), "%s", error->message);
  ds_run_describe_target (&r.run, r.run.target);
  ck_assert_uint_eq (d->span_bytes, 8 * MiB);
  job = ds_test_fio_job (r.result, "/dev/sdz");
  for (guint i = 0; i < DS_BENCH_TRANSFER_POINTS; i++)
    {
      g_autofree char *name = g_strdup_printf ("point-%03u", i);
      g_autofree char *want = g_strdup_printf ("stonewall=1\nrw=read\nbs=65536\noffset=%" G_GUINT64_FORMAT
                                               "\nsize=65536\nruntime=63ms\n",
                                               g_array_index (d->read.points, DsTransferPoint, i).offset_bytes);

      ds_test_assert_fio_section (job, name, want);
    }
  ds_test_assert_fio_section (job, "access-time", "stonewall=1\nrw=randread\nbs=4096\noffset=0\n"
                              "size=8388608\nruntime=500ms\nnumber_ios=250\n");
  run_clear (&r);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("kind-transfer");
  TCase *tc = tcase_create ("compare-fio");
  TCase *tc_run = tcase_create ("run");

  ds_test_init ("kind-transfer");
  run_path = make_file ("transfer.img", 8 * MiB, 20261208);
  odd_path = make_file ("transfer-odd.img", 8 * MiB + 60 * KiB, 20261209);

  tcase_add_test (tc, test_compare_rows);
  tcase_add_test (tc, test_compare_rows_edges);
  tcase_add_test (tc, test_compare_span);
  tcase_add_test (tc, test_compare_curves);
  tcase_add_test (tc, test_fio_job);
  tcase_add_test (tc, test_fio_job_edges);
  suite_add_tcase (s, tc);
  tcase_set_timeout (tc_run, 30);
  tcase_add_test (tc_run, test_run_refused);
  tcase_add_test (tc_run, test_run_read);
  tcase_add_test (tc_run, test_run_bad_range);
  tcase_add_test (tc_run, test_run_stop);
  tcase_add_test (tc_run, test_run_write_two_blocks);
  tcase_add_test (tc_run, test_run_fio_same_points);
  suite_add_tcase (s, tc_run);

  return ds_test_run_suite (s);
}
