/* test-io-loop.c: the I/O loop (core/io/ds-io-loop.c, ds-io-worker.c),
 * without root or a device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Its random offsets: every offset on the alignment, inside the region,
 * and every place equally likely.  And ds_io_run() itself on a regular
 * file in the suite's scratch folder under /var/tmp (O_DIRECT), opened
 * here as a DsTarget without the safety gate, on every engine and the
 * automatic choice: a sequential plan reads each block of its region once,
 * a random one stays in its region on its alignment (writes too: the rest
 * of the file is untouched), the completions and the series the callbacks
 * see are the loop's own I/O and counts, each I/O is timed, a cancel flag
 * stops the run, a failed or short I/O is the run's error at its offset,
 * a plan that does not fit is refused before any I/O, and without io_uring
 * (ENOSYS) a deep plan runs on the threads engine and says why.  Every
 * 4 KiB block of the file starts with its own offset, so a buffer read
 * says where it was read from.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-clock.h"
#include "ds-error.h"
#include "ds-interval.h"
#include "ds-io-loop.h"
#include "ds-test-util.h"

/* The alignment a plan asks for: the block size unless told otherwise,
 * never below the logical block. */
START_TEST (test_plan_align)
{
  DsIoPlan plan = { .block_bytes = 4096 };

  ck_assert_uint_eq (ds_io_plan_align (&plan, 512), 4096);
  ck_assert_uint_eq (ds_io_plan_align (&plan, 4096), 4096);
  plan.block_bytes = 1 << 20;
  ck_assert_uint_eq (ds_io_plan_align (&plan, 512), 1 << 20);
  /* --align 512 (HD Tune's rule), on 512-byte and 4096-byte sectors. */
  plan.align_bytes = 512;
  ck_assert_uint_eq (ds_io_plan_align (&plan, 512), 512);
  ck_assert_uint_eq (ds_io_plan_align (&plan, 4096), 4096);
  /* A variable size (block_max_bytes): the smallest, as fio's bsrange. */
  plan = (DsIoPlan) { .block_bytes = 512, .block_max_bytes = 65536 };
  ck_assert_uint_eq (ds_io_plan_align (&plan, 512), 512);
}
END_TEST

/* Every offset is the region's start plus a multiple of the alignment and
 * the I/O ends inside the region, with a region whose length is no
 * multiple of the alignment and a start that is not 0. */
START_TEST (test_offsets_aligned_and_inside)
{
  const uint64_t aligns[] = { 512, 4096, 65536, 1 << 20 };
  const uint64_t start = 3 << 20;
  const uint64_t span = (64 << 20) + 3 * 512;
  DsRng rng;

  ds_rng_seed (&rng, 7);
  for (unsigned a = 0; a < G_N_ELEMENTS (aligns); a++)
    for (unsigned i = 0; i < 100000; i++)
      {
        uint64_t len = aligns[a] >= 4096 ? aligns[a] : 4096;
        uint64_t off = ds_io_random_offset (&rng, start, span, len, aligns[a]);

        /* Check's assertions report each pass to the test's parent (a write
         * per call); 400 000 of them took 17 s under ASan. Test plainly and
         * assert only on a failure. */
        if (off < start || off + len > start + span || (off - start) % aligns[a] != 0)
          ck_abort_msg ("offset %" G_GUINT64_FORMAT " (length %" G_GUINT64_FORMAT
                        ") outside [%" G_GUINT64_FORMAT ", +%" G_GUINT64_FORMAT
                        ") or not on %" G_GUINT64_FORMAT,
                        off, len, start, span, aligns[a]);
      }
}
END_TEST

/* Uniform over the places: a chi-square over every place of a small region
 * (fixed seed, so the test is exact; the bound is the 0.1 % tail), and
 * both ends reached, the last place included. */
START_TEST (test_offsets_uniform)
{
  enum { PLACES = 256, DRAWS = PLACES * 400 };
  const uint64_t align = 4096;
  const uint64_t len = 4096;
  /* PLACES places, and a tail shorter than one more block. */
  const uint64_t span = (PLACES - 1) * align + len + 2048;
  unsigned hits[PLACES] = { 0 };
  double expected = (double) DRAWS / PLACES;
  double chi2 = 0;
  DsRng rng;

  ds_rng_seed (&rng, 11);
  for (unsigned i = 0; i < DRAWS; i++)
    {
      uint64_t off = ds_io_random_offset (&rng, 0, span, len, align);

      if (off / align >= PLACES)
        ck_abort_msg ("offset %" G_GUINT64_FORMAT " past the last place", off);
      hits[off / align]++;
    }
  for (unsigned k = 0; k < PLACES; k++)
    {
      ck_assert_msg (hits[k] > 0, "place %u never drawn", k);
      chi2 += (hits[k] - expected) * (hits[k] - expected) / expected;
    }
  /* 255 degrees of freedom: P(chi2 > 330.5) = 0.001. */
  ck_assert_msg (chi2 < 330.5, "chi-square %.1f over %d places", chi2, PLACES);
}
END_TEST

/* One place only (the region is one block and a bit): always the start. */
START_TEST (test_offsets_one_place)
{
  DsRng rng;

  ds_rng_seed (&rng, 13);
  for (unsigned i = 0; i < 1000; i++)
    ck_assert_uint_eq (ds_io_random_offset (&rng, 8192, 4096 + 1024, 4096, 4096), 8192);
}
END_TEST

/* ---- ds_io_run() on a regular file ---- */

#define FILE_BYTES   (UINT64_C (8) << 20)
#define STAMP_BYTES  4096
#define KiB          (UINT64_C (1) << 10)
#define MiB          (UINT64_C (1) << 20)

static char *file_path;
static gboolean uring_ok;
static int uring_errno;

/* The engines a plan may name, each at the depth it runs well at; NULL is
 * the automatic choice (io_uring at depth > 1, else sync). */
static const struct {
  const DsEngineOps *engine;
  unsigned           depth;
} engines[] = {
  { &ds_engine_sync, 1 },
  { &ds_engine_uring, 8 },
  { &ds_engine_threads, 4 },
  { NULL, 4 },
};

/* Every STAMP_BYTES block of the file starts with its offset. */
static void
make_file (const char *path)
{
  g_autofree uint8_t *data = g_malloc (FILE_BYTES);
  DsRng rng;
  int fd;

  ds_rng_seed (&rng, 20261207);
  ds_buffer_fill (data, FILE_BYTES, &rng);
  for (uint64_t at = 0; at < FILE_BYTES; at += STAMP_BYTES)
    memcpy (data + at, &at, sizeof at);
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  g_assert (fd >= 0);
  g_assert_cmpint (pwrite (fd, data, FILE_BYTES, 0), ==, (ssize_t) FILE_BYTES);
  g_assert_cmpint (fsync (fd), ==, 0);
  close (fd);
}

static uint8_t *
read_file (const char *path)
{
  uint8_t *data = g_malloc (FILE_BYTES);
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (pread (fd, data, FILE_BYTES, 0), (ssize_t) FILE_BYTES);
  close (fd);

  return data;
}

/* @path as the run layer's target would be, without the safety gate:
 * O_DIRECT, 4 KiB logical blocks (the filesystem's). */
static DsTarget *
file_target (const char *path,
             gboolean    writable)
{
  DsTarget *target = g_new0 (DsTarget, 1);
  struct stat st;

  target->path = g_strdup (path);
  target->fd = open (path, (writable ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
  ck_assert_msg (target->fd >= 0, "open %s with O_DIRECT: %s (the scratch folder must be on a "
                 "filesystem that takes O_DIRECT)", path, g_strerror (errno));
  ck_assert_int_eq (fstat (target->fd, &st), 0);
  target->kind = DS_TARGET_FILE;
  target->writable = writable;
  target->direct = TRUE;
  target->size_bytes = (uint64_t) st.st_size;
  target->logical_block_size = STAMP_BYTES;
  target->physical_block_size = STAMP_BYTES;
  target->mem_align = STAMP_BYTES;

  return target;
}

/* A private copy of the stamped file, for a case that writes. */
static char *
scratch_copy (const char *name)
{
  g_autofree char *base = g_strdup_printf ("%s-%d.img", name, (int) getpid ());
  char *path = ds_test_scratch_path (base);

  make_file (path);
  return path;
}

/* FALSE, with the reason in the output, when engine @i cannot run here. */
static gboolean
engine_runs_here (unsigned i)
{
  if (engines[i].engine != &ds_engine_uring || uring_ok)
    return TRUE;

  ds_test_note ("SKIP io_uring case: io_uring is not available here (%s)",
                g_strerror (uring_errno));
  return FALSE;
}

/* What on_complete saw, from any I/O thread. */
typedef struct {
  uint64_t  start;
  uint64_t  span;
  uint64_t  align;          /* offsets are start + k * align */
  gint     *places;         /* completions per place k (atomic) */
  guint     n_places;
  gboolean  check_data;     /* reads hold the stamps of their offsets */
  gint      outside;        /* off the region or the alignment */
  gint      wrong_data;
  gint      untimed;        /* end_ns <= start_ns */
  gint      n;
  gint64    bytes;
  gint     *cancel;         /* set at the cancel_at-th completion */
  gint      cancel_at;
} Seen;

static void
seen_init (Seen     *seen,
           uint64_t  start,
           uint64_t  span,
           uint64_t  align,
           uint64_t  len)
{
  *seen = (Seen) { .start = start, .span = span, .align = align, .check_data = TRUE };
  seen->n_places = (guint) ((span - len) / align + 1);
  seen->places = g_new0 (gint, seen->n_places);
}

static void
on_complete (gpointer    user,
             const DsIo *io)
{
  Seen *seen = user;
  int n = g_atomic_int_add (&seen->n, 1) + 1;

  __atomic_fetch_add (&seen->bytes, (gint64) io->len_bytes, __ATOMIC_RELAXED);
  if (io->end_ns <= io->start_ns || io->start_ns == 0)
    g_atomic_int_inc (&seen->untimed);
  if (io->offset_bytes < seen->start ||
      io->offset_bytes + io->len_bytes > seen->start + seen->span ||
      (io->offset_bytes - seen->start) % seen->align != 0 ||
      (io->offset_bytes - seen->start) / seen->align >= seen->n_places)
    g_atomic_int_inc (&seen->outside);
  else
    g_atomic_int_inc (&seen->places[(io->offset_bytes - seen->start) / seen->align]);
  if (seen->check_data && !io->write)
    for (uint32_t at = 0; at < io->len_bytes; at += STAMP_BYTES)
      {
        uint64_t stamp;

        memcpy (&stamp, io->buf + at, sizeof stamp);
        if (stamp != io->offset_bytes + at)
          g_atomic_int_inc (&seen->wrong_data);
      }
  if (seen->cancel != NULL && n == seen->cancel_at)
    g_atomic_int_set (seen->cancel, 1);
}

/* The run went through, counted @ios I/Os of @block bytes, each timed,
 * and the callbacks saw every one of them. */
static void
assert_counted (const DsIoStats *stats,
                const Seen      *seen,
                uint64_t         ios,
                uint64_t         block)
{
  const DsIoDirStats *read = &stats->read;
  const DsIoDirStats *write = &stats->write;

  ck_assert_uint_eq (read->ios + write->ios, ios);
  ck_assert_uint_eq (read->bytes + write->bytes, ios * block);
  ck_assert_uint_eq ((uint64_t) seen->n, ios);
  ck_assert_uint_eq ((uint64_t) seen->bytes, ios * block);
  ck_assert_int_eq (seen->outside, 0);
  ck_assert_int_eq (seen->wrong_data, 0);
  ck_assert_int_eq (seen->untimed, 0);
  ck_assert_uint_eq (read->latency_ns.n, read->ios);
  ck_assert_uint_eq (write->latency_ns.n, write->ios);
  if (read->ios > 0)
    ck_assert_uint_gt (read->latency_ns.min, 0);
  if (write->ios > 0)
    ck_assert_uint_gt (write->latency_ns.min, 0);
  ck_assert_uint_gt (stats->elapsed_ns, 0);
  ck_assert_uint_eq (stats->watch.read_bytes, read->bytes);
  ck_assert_uint_eq (stats->watch.written_bytes, write->bytes);
  ck_assert_int_eq (stats->error_errno, 0);
  ck_assert_int_eq (stats->error_offset_bytes, -1);
  ck_assert (!stats->cancelled);
}

/* A sequential read of a region that is not a whole number of blocks (and
 * does not start at 0) reads each of its whole blocks exactly once, each
 * buffer holding its own block, and stops there. */
START_TEST (test_run_sequential_every_block_once)
{
  const uint64_t block = 64 * KiB;
  const uint64_t start = 1 * MiB;
  const uint64_t span = 4 * MiB + 8 * KiB;
  const uint64_t n_blocks = span / block;
  g_autoptr (DsTarget) target = file_target (file_path, FALSE);
  g_autoptr (GError) error = NULL;
  DsIoContext ctx = { .target = target, .engine = engines[_i].engine };
  DsIoPlan plan = {
    .read_percent = 100, .start_bytes = start, .span_bytes = span, .block_bytes = block,
    .depth = engines[_i].depth, .threads = 1, .on_complete = on_complete,
  };
  DsIoStats stats;
  Seen seen;
  int ret;

  if (!engine_runs_here (_i))
    return;
  seen_init (&seen, start, span, block, block);
  plan.user = &seen;

  ret = ds_io_run (&ctx, &plan, &stats, &error);
  ck_assert_msg (ret == 0, "%s", error != NULL ? error->message : "");
  ck_assert_ptr_nonnull (stats.engine);
  if (engines[_i].engine != NULL)
    ck_assert_ptr_eq (stats.engine, engines[_i].engine);
  assert_counted (&stats, &seen, n_blocks, block);
  ck_assert_uint_eq (stats.read.ios, n_blocks);
  for (guint k = 0; k < seen.n_places; k++)
    ck_assert_msg (seen.places[k] == (k < n_blocks ? 1 : 0), "%s: block %u of the region read "
                   "%d times", stats.engine->name, k, seen.places[k]);

  g_free (seen.places);
  ds_io_stats_clear (&stats);
}
END_TEST

/* Random reads stay inside [start, start + span) on the block, from a
 * start that is not on the block; over 250 of them every one of the 16
 * places is read, the first and the last included (a place missed: 16 ×
 * (15/16)^250, under 10^-5, and the seed is fixed).  Few I/Os: at queue
 * depth 1 each waits for the disk under /var/tmp, 4 ms on a busy one. */
START_TEST (test_run_random_inside_region)
{
  const uint64_t block = 16 * KiB;
  const uint64_t start = 1 * MiB + 4 * KiB;
  const uint64_t span = 256 * KiB + 8 * KiB;
  const uint64_t ios = 250;
  g_autoptr (DsTarget) target = file_target (file_path, FALSE);
  g_autoptr (GError) error = NULL;
  DsRng rng;
  DsIoContext ctx = { .target = target, .engine = engines[_i].engine, .rng = &rng };
  DsIoPlan plan = {
    .random = TRUE, .read_percent = 100, .start_bytes = start, .span_bytes = span,
    .block_bytes = block, .depth = engines[_i].depth, .threads = 1, .max_ios = ios,
    .on_complete = on_complete,
  };
  DsIoStats stats;
  Seen seen;
  int ret;

  if (!engine_runs_here (_i))
    return;
  ds_rng_seed (&rng, 5);
  seen_init (&seen, start, span, block, block);
  plan.user = &seen;

  ret = ds_io_run (&ctx, &plan, &stats, &error);
  ck_assert_msg (ret == 0, "%s", error != NULL ? error->message : "");
  assert_counted (&stats, &seen, ios, block);
  for (guint k = 0; k < seen.n_places; k++)
    ck_assert_msg (seen.places[k] > 0, "%s: place %u of %u never read", stats.engine->name,
                   k, seen.n_places);

  g_free (seen.places);
  ds_io_stats_clear (&stats);
}
END_TEST

/* Random writes mixed with reads (50 %) land only in their region: the
 * file outside it is as it was, and inside only whole blocks on the
 * alignment changed. */
START_TEST (test_run_random_writes_stay_inside)
{
  const uint64_t block = 8 * KiB;
  const uint64_t start = 2 * MiB + 4 * KiB;
  const uint64_t span = 1 * MiB;
  const uint64_t ios = 200;
  g_autofree char *path = scratch_copy ("io-loop-write");
  g_autofree uint8_t *before = read_file (path);
  g_autofree uint8_t *after = NULL;
  g_autoptr (DsTarget) target = file_target (path, TRUE);
  g_autoptr (GError) error = NULL;
  DsIoContext ctx = { .target = target, .engine = engines[_i].engine };
  DsIoPlan plan = {
    .random = TRUE, .read_percent = 50, .start_bytes = start, .span_bytes = span,
    .block_bytes = block, .depth = engines[_i].depth, .threads = 1, .max_ios = ios,
    .on_complete = on_complete,
  };
  DsIoStats stats;
  Seen seen;
  int ret;

  if (!engine_runs_here (_i))
    return;
  seen_init (&seen, start, span, block, block);
  seen.check_data = FALSE;
  plan.user = &seen;

  ret = ds_io_run (&ctx, &plan, &stats, &error);
  ck_assert_msg (ret == 0, "%s", error != NULL ? error->message : "");
  assert_counted (&stats, &seen, ios, block);
  /* Both directions, near half each (binomial: 100, sigma 7). */
  ck_assert_uint_gt (stats.read.ios, 50);
  ck_assert_uint_gt (stats.write.ios, 50);

  after = read_file (path);
  ck_assert_msg (memcmp (before, after, start) == 0, "%s: a write landed before the region",
                 stats.engine->name);
  ck_assert_msg (memcmp (before + start + span, after + start + span,
                         FILE_BYTES - start - span) == 0,
                 "%s: a write landed after the region", stats.engine->name);
  {
    guint changed = 0;

    for (uint64_t at = start; at < start + span; at += block)
      if (memcmp (before + at, after + at, block) != 0)
        changed++;
    ck_assert_msg (changed > 0, "%s: %" G_GUINT64_FORMAT " writes changed nothing",
                   stats.engine->name, stats.write.ios);
  }

  g_free (seen.places);
  ds_io_stats_clear (&stats);
  unlink (path);
}
END_TEST

/* The cancel flag stops an endless plan (sequential, wrapping, no limit):
 * set at the 50th completion, the loop stops issuing, reaps what is in
 * flight and returns -ECANCELED with what it counted; set before the run,
 * no more than one round of the queue is issued. */
START_TEST (test_run_cancel)
{
  const uint64_t block = 16 * KiB;
  g_autoptr (DsTarget) target = file_target (file_path, FALSE);
  gint cancel = 0;
  DsIoContext ctx = { .target = target, .engine = engines[_i].engine, .cancel = &cancel };
  DsIoPlan plan = {
    .wrap = TRUE, .read_percent = 100, .start_bytes = 0, .span_bytes = FILE_BYTES,
    .block_bytes = block, .depth = engines[_i].depth, .threads = 1,
    .on_complete = on_complete,
  };
  unsigned in_flight = engines[_i].depth;
  DsIoStats stats;
  Seen seen;
  int ret;

  if (!engine_runs_here (_i))
    return;

  for (unsigned round = 0; round < 2; round++)
    {
      g_autoptr (GError) error = NULL;
      uint64_t t0 = ds_clock_ns ();

      seen_init (&seen, 0, FILE_BYTES, block, block);
      seen.cancel = &cancel;
      seen.cancel_at = round == 0 ? 50 : 0;
      g_atomic_int_set (&cancel, round == 0 ? 0 : 1);
      plan.user = &seen;

      ret = ds_io_run (&ctx, &plan, &stats, &error);
      ck_assert_int_eq (ret, -ECANCELED);
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CANCELLED));
      ck_assert (stats.cancelled);
      ck_assert_int_eq (seen.outside, 0);
      ck_assert_int_eq (seen.wrong_data, 0);
      ck_assert_uint_eq (stats.read.ios, (uint64_t) seen.n);
      if (round == 0)
        ck_assert_msg (stats.read.ios >= 50 && stats.read.ios <= 50 + in_flight,
                       "%s: %" G_GUINT64_FORMAT " I/Os counted for a stop at the 50th",
                       stats.engine->name, stats.read.ios);
      else
        ck_assert_msg (stats.read.ios <= in_flight, "%s: %" G_GUINT64_FORMAT " I/Os after a "
                       "stop before the start", stats.engine->name, stats.read.ios);
      ck_assert_msg (ds_clock_ns () - t0 < 5 * DS_NS_PER_SEC, "the stop took %.1f s",
                     (ds_clock_ns () - t0) / 1e9);
      g_free (seen.places);
      ds_io_stats_clear (&stats);
    }
}
END_TEST

typedef struct {
  GThread  *caller;
  guint     n;
  guint     off_thread;
  guint     no_interval;
  int       last_index;
  gboolean  out_of_order;
  uint64_t  last_ios;        /* the cumulative histogram of the last sample */
  uint64_t  last_bytes;
} Sunk;

static void
sink (const DsSample *sample,
      gpointer        user_data)
{
  Sunk *sunk = user_data;

  if (sample->kind != DS_SAMPLE_INTERVAL)
    return;
  sunk->n++;
  if (g_thread_self () != sunk->caller)
    sunk->off_thread++;
  if (sample->interval == NULL || sample->histogram == NULL)
    {
      sunk->no_interval++;
      return;
    }
  /* A point may come again, changed, at the end: never an earlier one. */
  if ((int) sample->index < sunk->last_index)
    sunk->out_of_order = TRUE;
  sunk->last_index = (int) sample->index;
  sunk->last_ios = sample->histogram->ios;
  sunk->last_bytes = sample->histogram->bytes;
}

/* A timed plan with a series: the sink gets its intervals as they are
 * collected, on the caller's thread, and the last one's running totals
 * are the run's; the series covers the run time, and its points add up
 * to the I/Os counted; the histogram holds every I/O. */
START_TEST (test_run_series_and_sink)
{
  const uint64_t block = 4 * KiB;
  const uint64_t interval_ns = 100 * DS_NS_PER_MSEC;
  const uint64_t duration_ns = 350 * DS_NS_PER_MSEC;
  g_autoptr (DsTarget) target = file_target (file_path, FALSE);
  g_autoptr (GError) error = NULL;
  Sunk sunk = { .caller = g_thread_self (), .last_index = -1 };
  DsIoContext ctx = { .target = target, .engine = engines[_i].engine, .sink = sink,
                      .sink_data = &sunk };
  DsIoPlan plan = {
    .random = TRUE, .read_percent = 100, .start_bytes = 0, .span_bytes = FILE_BYTES,
    .block_bytes = block, .depth = engines[_i].depth, .threads = 1,
    .duration_ns = duration_ns, .interval_ns = interval_ns, .histogram = TRUE,
    .on_complete = on_complete,
  };
  DsIoStats stats;
  Seen seen;
  double iops_s = 0;
  int ret;

  if (!engine_runs_here (_i))
    return;
  seen_init (&seen, 0, FILE_BYTES, block, block);
  plan.user = &seen;

  ret = ds_io_run (&ctx, &plan, &stats, &error);
  ck_assert_msg (ret == 0, "%s", error != NULL ? error->message : "");
  assert_counted (&stats, &seen, stats.read.ios, block);
  ck_assert_uint_gt (stats.read.ios, 0);
  /* The run time, give or take the last I/O. */
  ck_assert_msg (stats.elapsed_ns >= duration_ns - interval_ns &&
                 stats.elapsed_ns < duration_ns + DS_NS_PER_SEC,
                 "%s: ran %.3f s for 0.35", stats.engine->name, stats.elapsed_ns / 1e9);

  /* One point per interval of the time measured, the last one shorter. */
  ck_assert_ptr_nonnull (stats.series);
  ck_assert_uint_ge (stats.series->len, 3);
  ck_assert_uint_le (stats.series->len, stats.elapsed_ns / interval_ns + 2);
  ck_assert_uint_gt (sunk.n, 0);
  ck_assert_uint_eq (sunk.off_thread, 0);
  ck_assert_uint_eq (sunk.no_interval, 0);
  ck_assert (!sunk.out_of_order);
  ck_assert_int_eq (sunk.last_index, (int) stats.series->len - 1);
  ck_assert_uint_eq (sunk.last_ios, stats.read.ios);
  ck_assert_uint_eq (sunk.last_bytes, stats.read.bytes);

  /* IOPS × each point's length, summed: the I/Os counted. */
  for (guint i = 0; i < stats.series->len; i++)
    {
      const DsIntervalPoint *p = &g_array_index (stats.series, DsIntervalPoint, i);
      double prev_t = i > 0 ? g_array_index (stats.series, DsIntervalPoint, i - 1).t_s : 0;

      ck_assert_msg (p->t_s > prev_t, "point %u at %.3f s, after %.3f s", i, p->t_s, prev_t);
      ck_assert (p->write.iops == 0);
      iops_s += p->read.iops * (p->t_s - prev_t);
    }
  ck_assert_msg (iops_s > stats.read.ios * 0.98 && iops_s < stats.read.ios * 1.02,
                 "%s: the series adds up to %.1f I/Os, the run counted %" G_GUINT64_FORMAT,
                 stats.engine->name, iops_s, stats.read.ios);

  ck_assert_ptr_nonnull (stats.read.histogram);
  ck_assert_uint_eq (stats.read.histogram->count, stats.read.ios);

  g_free (seen.places);
  ds_io_stats_clear (&stats);
}
END_TEST

/* A read that comes back short (the target says it is longer than the
 * file: the kernel answers 0 bytes at the file's end) fails the run at
 * that offset, with the I/O before it counted; a write the kernel refuses
 * (-EBADF on a read-only descriptor) fails it with its errno.  One I/O at
 * a time, so the failed offset is exact. */
START_TEST (test_run_failed_io)
{
  const uint64_t block = 64 * KiB;
  g_autoptr (DsTarget) target = file_target (file_path, FALSE);
  DsIoContext ctx = { .target = target, .engine = &ds_engine_sync };
  DsIoPlan plan = {
    .read_percent = 100, .start_bytes = FILE_BYTES - 1 * MiB, .span_bytes = 2 * MiB,
    .block_bytes = block, .depth = 1, .threads = 1,
  };
  g_autofree char *at = g_strdup_printf ("read error at offset %" G_GUINT64_FORMAT, FILE_BYTES);
  DsIoStats stats;
  int ret;

  target->size_bytes = FILE_BYTES + 1 * MiB;
  {
    g_autoptr (GError) error = NULL;

    ret = ds_io_run (&ctx, &plan, &stats, &error);
    ck_assert_int_eq (ret, -EIO);
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_IO));
    ck_assert_msg (strstr (error->message, at) != NULL && strstr (error->message, file_path) != NULL,
                   "%s", error->message);
    ck_assert_int_eq (stats.error_errno, EIO);
    ck_assert_int_eq (stats.error_offset_bytes, (int64_t) FILE_BYTES);
    ck_assert_uint_eq (stats.read.ios, 1 * MiB / block);
    ck_assert (!stats.cancelled);
    ds_io_stats_clear (&stats);
  }

  target->size_bytes = FILE_BYTES;
  plan.read_percent = 0;
  plan.start_bytes = 0;
  plan.span_bytes = 1 * MiB;
  {
    g_autoptr (GError) error = NULL;

    ret = ds_io_run (&ctx, &plan, &stats, &error);
    ck_assert_int_eq (ret, -EBADF);
    ck_assert_msg (strstr (error->message, "write error at offset 0 ") != NULL &&
                   strstr (error->message, g_strerror (EBADF)) != NULL, "%s", error->message);
    ck_assert_int_eq (stats.error_errno, EBADF);
    ck_assert_int_eq (stats.error_offset_bytes, 0);
    ck_assert_uint_eq (stats.write.ios, 0);
    ds_io_stats_clear (&stats);
  }
}
END_TEST

/* A plan that does not fit its target is refused before any I/O, saying
 * so, and names no engine (nothing ran): a region past the end, a block
 * off the logical block, a start off it; and the sync engine refuses a
 * queue depth above 1. */
START_TEST (test_run_plan_refused)
{
  g_autoptr (DsTarget) target = file_target (file_path, FALSE);
  DsIoContext ctx = { .target = target };
  const DsIoPlan good = {
    .read_percent = 100, .start_bytes = 0, .span_bytes = 1 * MiB, .block_bytes = 64 * KiB,
    .depth = 1, .threads = 1, .max_ios = 1,
  };
  DsIoPlan bad[4];
  DsIoStats stats;

  for (unsigned i = 0; i < G_N_ELEMENTS (bad); i++)
    bad[i] = good;
  bad[0].start_bytes = FILE_BYTES - 512 * KiB;        /* runs past the end */
  bad[1].block_bytes = 6000;                          /* off the 4 KiB block */
  bad[2].start_bytes = 512;                           /* off the 4 KiB block */
  bad[3].span_bytes = 32 * KiB;                       /* smaller than a block */
  for (unsigned i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;

      ck_assert_int_eq (ds_io_run (&ctx, &bad[i], &stats, &error), -EINVAL);
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
      ck_assert_msg (strstr (error->message, "does not fit the device") != NULL, "%s",
                     error->message);
      ck_assert_ptr_null (stats.engine);
      ck_assert_uint_eq (stats.read.ios, 0);
      ds_io_stats_clear (&stats);
    }

  {
    g_autoptr (GError) error = NULL;
    DsIoPlan deep = good;

    ctx.engine = &ds_engine_sync;
    deep.depth = 4;
    ck_assert_int_eq (ds_io_run (&ctx, &deep, &stats, &error), -EINVAL);
    ck_assert_msg (strstr (error->message, "the sync engine runs at queue depth 1 at most; use "
                           "io_uring or threads for queue depth 4") != NULL, "%s", error->message);
    ck_assert_uint_eq (stats.read.ios, 0);
    ds_io_stats_clear (&stats);
  }

  {
    g_autoptr (GError) error = NULL;

    ctx.engine = NULL;
    ck_assert_int_eq (ds_io_run (&ctx, &good, &stats, &error), 0);
    ck_assert_uint_eq (stats.read.ios, 1);
    ds_io_stats_clear (&stats);
  }
}
END_TEST

/* The automatic engine: sync at depth 1; at depth 4 io_uring, or where the
 * kernel has none (ENOSYS, by a seccomp filter here) the threads engine,
 * with the reason in the stats (the run notes it in the result), and every
 * I/O done. */
START_TEST (test_run_auto_engine)
{
  g_autoptr (DsTarget) target = file_target (file_path, FALSE);
  DsIoContext ctx = { .target = target };
  DsIoPlan plan = {
    .random = TRUE, .read_percent = 100, .start_bytes = 0, .span_bytes = FILE_BYTES,
    .block_bytes = 4 * KiB, .depth = 1, .threads = 1, .max_ios = 100,
    .on_complete = on_complete,
  };
  DsIoStats stats;
  Seen seen;

  for (unsigned step = 0; step < 3; step++)
    {
      g_autoptr (GError) error = NULL;

      if (step == 2 && !ds_test_deny_io_uring ())
        {
          ds_test_note ("SKIP io_uring cannot be taken away here: %s", g_strerror (errno));
          return;
        }
      seen_init (&seen, 0, FILE_BYTES, 4 * KiB, 4 * KiB);
      plan.user = &seen;
      plan.depth = step == 0 ? 1 : 4;

      ck_assert_int_eq (ds_io_run (&ctx, &plan, &stats, &error), 0);
      assert_counted (&stats, &seen, 100, 4 * KiB);
      if (step == 0)
        {
          ck_assert_ptr_eq (stats.engine, &ds_engine_sync);
          ck_assert_int_eq (stats.engine_fallback_errno, 0);
        }
      else if (step == 1 && uring_ok)
        {
          ck_assert_ptr_eq (stats.engine, &ds_engine_uring);
          ck_assert_int_eq (stats.engine_fallback_errno, 0);
        }
      else
        {
          ck_assert_ptr_eq (stats.engine, &ds_engine_threads);
          ck_assert_int_eq (stats.engine_fallback_errno, step == 2 ? ENOSYS : uring_errno);
        }
      g_free (seen.places);
      ds_io_stats_clear (&stats);
    }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("io-loop");
  TCase *tc = tcase_create ("offsets");
  TCase *run = tcase_create ("run");

  ds_test_init ("io-loop");
  file_path = ds_test_scratch_path ("io-loop.img");
  make_file (file_path);
  uring_ok = ds_engine_uring_available (&uring_errno);
  if (!uring_ok)
    ds_test_note ("io_uring is not available here (%s): its cases skip", g_strerror (uring_errno));

  tcase_add_test (tc, test_plan_align);
  tcase_add_test (tc, test_offsets_aligned_and_inside);
  tcase_add_test (tc, test_offsets_uniform);
  tcase_add_test (tc, test_offsets_one_place);
  suite_add_tcase (s, tc);

  tcase_set_timeout (run, 30);
  tcase_add_loop_test (run, test_run_sequential_every_block_once, 0, G_N_ELEMENTS (engines));
  tcase_add_loop_test (run, test_run_random_inside_region, 0, G_N_ELEMENTS (engines));
  tcase_add_loop_test (run, test_run_random_writes_stay_inside, 0, G_N_ELEMENTS (engines));
  tcase_add_loop_test (run, test_run_cancel, 0, G_N_ELEMENTS (engines));
  tcase_add_loop_test (run, test_run_series_and_sink, 0, G_N_ELEMENTS (engines));
  tcase_add_test (run, test_run_failed_io);
  tcase_add_test (run, test_run_plan_refused);
  tcase_add_test (run, test_run_auto_engine);
  suite_add_tcase (s, run);

  return ds_test_run_suite (s);
}
