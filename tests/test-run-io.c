/* test-run-io.c: the I/O loop on behalf of a run (core/run/ds-run-io.c),
 * on a regular file, without root or a device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run context made by hand, as ds_run_full() makes it, over a file in
 * the suite's scratch folder under /var/tmp opened here with O_DIRECT
 * (test-io-loop.c's way, without the safety gate).  What the run keeps of
 * each ds_io_run(): the engine named in the result (the user's, or the
 * automatic choice), io_uring's absence noted once, the first failed I/O
 * and not a later one, samples stamped with the run's progress, the run's
 * own random stream and cancel flag; and what its watch is told: the I/O
 * that ran (all-zero reads warn), not a plan refused before any I/O.
 * The loop itself is test-io-loop.c's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-run.h"
#include "ds-run-watch.h"
#include "ds-test-util.h"
#include "ds-warnings.h"

#define KiB         (UINT64_C (1) << 10)
#define MiB         (UINT64_C (1) << 20)
#define FILE_BYTES  (8 * MiB)

static char *file_path;   /* random data */
static char *zero_path;   /* zeros, written */

/* @path as the run layer's target would be: O_DIRECT, 4 KiB logical
 * blocks (the filesystem's). */
static DsTarget *
file_target (const char *path,
             gboolean    writable)
{
  DsTarget *target = g_new0 (DsTarget, 1);
  struct stat st;

  target->path = g_strdup (path);
  target->fd = open (path, (writable ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
  ck_assert_msg (target->fd >= 0, "open %s with O_DIRECT: %s", path, g_strerror (errno));
  ck_assert_int_eq (fstat (target->fd, &st), 0);
  target->kind = DS_TARGET_FILE;
  target->writable = writable;
  target->direct = TRUE;
  target->size_bytes = (uint64_t) st.st_size;
  target->logical_block_size = 4096;
  target->physical_block_size = 4096;
  target->mem_align = 4096;
  return target;
}

/* What the sink heard. */
typedef struct {
  guint  n;
  guint  n_interval;
  double progress_min;
  double progress_max;
} Heard;

static void
heard_sink (const DsSample *sample,
            gpointer        user_data)
{
  Heard *heard = user_data;

  if (heard->n == 0)
    heard->progress_min = heard->progress_max = sample->progress;
  heard->n++;
  if (sample->kind == DS_SAMPLE_INTERVAL)
    heard->n_interval++;
  heard->progress_min = MIN (heard->progress_min, sample->progress);
  heard->progress_max = MAX (heard->progress_max, sample->progress);
}

/* A run of @kind over @path as ds_run_full() sets one up: the engine
 * @engine ("auto" or NULL: the automatic choice), the run's stream from
 * @seed, no error yet. */
typedef struct {
  DsRun    run;
  DsResult *result;
  Heard     heard;
  gint      cancel;
} Run;

static void
run_init (Run         *r,
          const char  *path,
          const char  *engine,
          uint64_t     seed)
{
  DsBenchSpec spec;

  memset (r, 0, sizeof *r);
  ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
  g_free (spec.target_path);
  spec.target_path = g_strdup (path);
  g_free (spec.engine);
  spec.engine = g_strdup (engine);
  spec.seed = seed;
  r->result = ds_result_new_blank (DS_BENCH_WORKLOAD);
  ds_bench_spec_clear (&r->result->spec);
  ds_bench_spec_copy (&r->result->spec, &spec);
  ds_bench_spec_clear (&spec);

  r->run.spec = &r->result->spec;
  r->run.result = r->result;
  r->run.target = file_target (path, FALSE);
  r->run.engine_auto = engine == NULL || g_str_equal (engine, "auto");
  r->run.engine = r->run.engine_auto ? NULL : ds_engine_lookup (engine);
  r->run.sink = heard_sink;
  r->run.sink_data = &r->heard;
  r->run.cancel = &r->cancel;
  r->run.error_offset_bytes = -1;
  ds_rng_seed (&r->run.rng, seed);
}

static void
run_clear (Run *r)
{
  ds_run_watch_finish (&r->run);
  g_clear_pointer (&r->run.target, ds_target_free);
  g_clear_pointer (&r->result, ds_result_free);
}

/* A read of @n I/Os of 4 KiB at @depth, random or not. */
static DsIoPlan
read_plan (gboolean random,
           unsigned depth,
           uint64_t n)
{
  return (DsIoPlan) {
    .random = random, .read_percent = 100, .start_bytes = 0, .span_bytes = FILE_BYTES,
    .block_bytes = 4 * KiB, .depth = depth, .threads = 1, .max_ios = n,
  };
}

static int
run_io (Run            *r,
        const DsIoPlan *plan,
        GError        **error)
{
  DsIoStats stats;
  int ret = ds_run_io (&r->run, plan, &stats, error);

  ds_io_stats_clear (&stats);
  return ret;
}

static gboolean
has_warning (const DsResult *result,
             const char     *code)
{
  for (guint i = 0; i < result->warnings->len; i++)
    {
      const DsWarning *w = g_ptr_array_index (result->warnings, i);

      if (g_str_equal (w->code, code))
        return TRUE;
    }
  return FALSE;
}

/* ---- the engine ---- */

/* The result names the engine each plan ran on, the last one's: the
 * automatic choice is sync at depth 1 and another engine deeper; an
 * engine the user named is the one used (sync then refuses depth 4), and
 * a run on the automatic choice does not use a stale engine of its
 * context. */
START_TEST (test_engine_named)
{
  Run r;

  run_init (&r, file_path, "auto", 7);
  {
    g_autoptr (GError) error = NULL;
    DsIoPlan plan = read_plan (FALSE, 1, 16);

    ck_assert_int_eq (run_io (&r, &plan, &error), 0);
    ck_assert_str_eq (r.result->engine, "sync");
  }
  {
    g_autoptr (GError) error = NULL;
    DsIoPlan plan = read_plan (TRUE, 4, 64);

    r.run.engine = &ds_engine_sync;    /* stale: the run is automatic */
    ck_assert_msg (run_io (&r, &plan, &error) == 0, "%s", error ? error->message : "");
    ck_assert_msg (g_str_equal (r.result->engine, "io_uring") ||
                   g_str_equal (r.result->engine, "threads"), "%s", r.result->engine);
  }
  run_clear (&r);

  run_init (&r, file_path, "sync", 7);
  {
    g_autoptr (GError) error = NULL;
    DsIoPlan plan = read_plan (TRUE, 4, 64);

    ck_assert_int_eq (run_io (&r, &plan, &error), -EINVAL);
    ck_assert_msg (strstr (error->message, "the sync engine runs at queue depth 1 at most") != NULL,
                   "%s", error->message);
    /* Refused before any I/O: no engine ran, none named. */
    ck_assert_ptr_null (r.result->engine);
  }
  run_clear (&r);

  run_init (&r, file_path, "threads", 7);
  {
    g_autoptr (GError) error = NULL;
    DsIoPlan plan = read_plan (FALSE, 1, 16);

    ck_assert_int_eq (run_io (&r, &plan, &error), 0);
    ck_assert_str_eq (r.result->engine, "threads");
  }
  run_clear (&r);
}
END_TEST

/* A plan refused before any I/O (a region past the target's end) keeps
 * the engine the run named before, and records no failed I/O. */
START_TEST (test_refused_plan_keeps_engine)
{
  Run r;
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) refused = NULL;
  DsIoPlan plan = read_plan (FALSE, 1, 4);
  DsIoPlan past_end = read_plan (FALSE, 1, 4);

  run_init (&r, file_path, "auto", 7);
  ck_assert_int_eq (run_io (&r, &plan, &error), 0);
  past_end.start_bytes = FILE_BYTES - 64 * KiB;
  past_end.span_bytes = 1 * MiB;
  ck_assert_int_eq (run_io (&r, &past_end, &refused), -EINVAL);
  ck_assert (g_error_matches (refused, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_str_eq (r.result->engine, "sync");
  ck_assert_int_eq (r.run.error_errno, 0);
  ck_assert_int_eq (r.run.error_offset_bytes, -1);
  run_clear (&r);
}
END_TEST

/* Without io_uring (ENOSYS, as a kernel without it: a seccomp filter in
 * this forked case), a deep plan on the automatic choice runs on the
 * threads engine, and the result says why, once however many plans fall
 * back. */
START_TEST (test_fallback_noted_once)
{
  Run r;
  g_autofree char *expected = NULL;

  if (!ds_test_deny_io_uring ())
    {
      ds_test_note ("SKIP io_uring cannot be taken away here: %s", g_strerror (errno));
      return;
    }
  run_init (&r, file_path, "auto", 7);
  for (unsigned i = 0; i < 3; i++)
    {
      g_autoptr (GError) error = NULL;
      DsIoPlan plan = read_plan (TRUE, 4 + i, 32);

      ck_assert_int_eq (run_io (&r, &plan, &error), 0);
      ck_assert_str_eq (r.result->engine, "threads");
    }
  ck_assert_uint_eq (r.result->notes->len, 1);
  expected = g_strdup_printf ("io_uring is not available here (%s): queue depth 4 ran on the "
                              "threads engine (one thread per queued I/O)", g_strerror (ENOSYS));
  ck_assert_str_eq (g_ptr_array_index (r.result->notes, 0), expected);
  ck_assert (r.run.noted_fallback);

  /* Depth 1 never asks io_uring: nothing to note. */
  run_clear (&r);
  run_init (&r, file_path, "auto", 7);
  {
    g_autoptr (GError) error = NULL;
    DsIoPlan plan = read_plan (TRUE, 1, 32);

    ck_assert_int_eq (run_io (&r, &plan, &error), 0);
    ck_assert_uint_eq (r.result->notes->len, 0);
  }
  run_clear (&r);
}
END_TEST

/* ---- what the run keeps ---- */

/* The first failed I/O is the run's, for the result's error: a short read
 * at the file's end (the target says it is longer), and not a later write
 * the kernel refuses (EBADF on a read-only descriptor) at offset 0. */
START_TEST (test_first_error_kept)
{
  Run r;
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) later = NULL;
  DsIoPlan past = {
    .read_percent = 100, .start_bytes = FILE_BYTES - 1 * MiB, .span_bytes = 2 * MiB,
    .block_bytes = 64 * KiB, .depth = 1, .threads = 1,
  };
  DsIoPlan write = {
    .read_percent = 0, .start_bytes = 0, .span_bytes = 1 * MiB,
    .block_bytes = 64 * KiB, .depth = 1, .threads = 1,
  };

  run_init (&r, file_path, "sync", 7);
  r.run.target->size_bytes = FILE_BYTES + 1 * MiB;
  ck_assert_int_eq (run_io (&r, &past, &error), -EIO);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_IO));
  ck_assert_int_eq (r.run.error_errno, EIO);
  ck_assert_int_eq (r.run.error_offset_bytes, (int64_t) FILE_BYTES);
  ck_assert_str_eq (r.result->engine, "sync");

  ck_assert_int_eq (run_io (&r, &write, &later), -EBADF);
  ck_assert_int_eq (r.run.error_errno, EIO);
  ck_assert_int_eq (r.run.error_offset_bytes, (int64_t) FILE_BYTES);
  run_clear (&r);

  /* A run whose first failure is the write keeps that one. */
  run_init (&r, file_path, "sync", 7);
  {
    g_autoptr (GError) first = NULL;

    ck_assert_int_eq (run_io (&r, &write, &first), -EBADF);
    ck_assert_int_eq (r.run.error_errno, EBADF);
    ck_assert_int_eq (r.run.error_offset_bytes, 0);
  }
  run_clear (&r);
}
END_TEST

/* The series' intervals reach the run's sink, each stamped with the run's
 * progress as it is then (not the loop's 0). */
START_TEST (test_samples_stamped)
{
  Run r;
  g_autoptr (GError) error = NULL;
  DsIoPlan plan = read_plan (TRUE, 1, 0);

  plan.duration_ns = 300 * G_GUINT64_CONSTANT (1000000);
  plan.interval_ns = 50 * G_GUINT64_CONSTANT (1000000);
  run_init (&r, file_path, "auto", 7);
  ds_run_set_progress (&r.run, 0.25);
  ck_assert_int_eq (run_io (&r, &plan, &error), 0);
  ck_assert_uint_gt (r.heard.n_interval, 0);
  ck_assert_uint_eq (r.heard.n, r.heard.n_interval);
  ck_assert_double_eq (r.heard.progress_min, 0.25);
  ck_assert_double_eq (r.heard.progress_max, 0.25);
  run_clear (&r);
}
END_TEST

/* The run's cancel flag stops its I/O: DS_ERROR_CANCELLED. */
START_TEST (test_cancel)
{
  Run r;
  g_autoptr (GError) error = NULL;
  DsIoPlan plan = read_plan (TRUE, 1, 0);

  plan.duration_ns = 5 * G_GUINT64_CONSTANT (1000000000);
  run_init (&r, file_path, "auto", 7);
  g_atomic_int_set (&r.cancel, 1);
  ck_assert_int_eq (run_io (&r, &plan, &error), -ECANCELED);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CANCELLED));
  run_clear (&r);
}
END_TEST

/* Offsets of a random plan, in order. */
typedef struct {
  GArray *offsets;
} Offsets;

static void
record_offset (gpointer    user,
               const DsIo *io)
{
  Offsets *o = user;

  g_array_append_val (o->offsets, io->offset_bytes);
}

static GArray *
random_offsets (Run *r)
{
  g_autoptr (GError) error = NULL;
  Offsets o = { g_array_new (FALSE, FALSE, sizeof (uint64_t)) };
  DsIoPlan plan = read_plan (TRUE, 1, 64);

  plan.on_complete = record_offset;
  plan.user = &o;
  ck_assert_int_eq (run_io (r, &plan, &error), 0);
  ck_assert_uint_eq (o.offsets->len, 64);
  return o.offsets;
}

static gboolean
same_offsets (GArray *a,
              GArray *b)
{
  return a->len == b->len && memcmp (a->data, b->data, a->len * sizeof (uint64_t)) == 0;
}

/* The I/O draws from the run's random stream: the same seed repeats a
 * plan's offsets (--seed), another seed does not, and the stream goes on
 * from one plan to the next (the second plan of a run is not the
 * first again). */
START_TEST (test_run_random_stream)
{
  Run a, b, c;
  g_autoptr (GArray) a1 = NULL;
  g_autoptr (GArray) a2 = NULL;
  g_autoptr (GArray) b1 = NULL;
  g_autoptr (GArray) b2 = NULL;
  g_autoptr (GArray) c1 = NULL;

  run_init (&a, file_path, "sync", 1234);
  run_init (&b, file_path, "sync", 1234);
  run_init (&c, file_path, "sync", 98765);
  a1 = random_offsets (&a);
  a2 = random_offsets (&a);
  b1 = random_offsets (&b);
  b2 = random_offsets (&b);
  c1 = random_offsets (&c);
  ck_assert (same_offsets (a1, b1));
  ck_assert (same_offsets (a2, b2));
  ck_assert (!same_offsets (a1, a2));
  ck_assert (!same_offsets (a1, c1));
  run_clear (&a);
  run_clear (&b);
  run_clear (&c);
}
END_TEST

/* ---- what the watch is told ---- */

/* The watch hears the I/O that ran: all-zero reads (a written file of
 * zeros) are the result's warning, naming the plan.  A plan refused
 * before any I/O tells it nothing: a buffered file run whose only plan
 * was refused has no "smaller than the memory" warning, which one plan
 * that ran gives it. */
START_TEST (test_watch_told)
{
  Run r;
  DsIoPlan refused = read_plan (FALSE, 1, 4);
  DsIoPlan plan = read_plan (FALSE, 1, 64);

  refused.start_bytes = FILE_BYTES - 64 * KiB;
  refused.span_bytes = 1 * MiB;

  /* Zeros: warned, with where. */
  run_init (&r, zero_path, "sync", 7);
  ds_run_watch_start (&r.run);
  {
    g_autoptr (GError) error = NULL;

    ck_assert_int_eq (run_io (&r, &plan, &error), 0);
  }
  ds_run_watch_finish (&r.run);
  ck_assert (has_warning (r.result, "zero_reads"));
  run_clear (&r);

  /* Buffered, only a refused plan: nothing of its region. */
  run_init (&r, file_path, "sync", 7);
  r.result->spec.buffered = TRUE;
  ds_run_watch_start (&r.run);
  {
    g_autoptr (GError) error = NULL;

    ck_assert_int_eq (run_io (&r, &refused, &error), -EINVAL);
  }
  ds_run_watch_finish (&r.run);
  ck_assert (!has_warning (r.result, "file_below_ram"));
  ck_assert (!has_warning (r.result, "zero_reads"));
  run_clear (&r);

  /* ... and with a plan that ran, its region is judged. */
  run_init (&r, file_path, "sync", 7);
  r.result->spec.buffered = TRUE;
  ds_run_watch_start (&r.run);
  {
    g_autoptr (GError) error = NULL;

    ck_assert_int_eq (run_io (&r, &plan, &error), 0);
  }
  ds_run_watch_finish (&r.run);
  ck_assert (has_warning (r.result, "file_below_ram"));
  ck_assert (!has_warning (r.result, "zero_reads"));
  run_clear (&r);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("run-io");
  TCase *tc = tcase_create ("run-io");
  int fd;

  ds_test_init ("run-io");
  file_path = ds_test_make_file ("run-io.img", FILE_BYTES, 20261207);
  zero_path = ds_test_scratch_path ("run-io-zeros.img");
  {
    g_autofree uint8_t *zeros = g_malloc0 (FILE_BYTES);

    fd = open (zero_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    g_assert (fd >= 0);
    g_assert_cmpint (pwrite (fd, zeros, FILE_BYTES, 0), ==, (ssize_t) FILE_BYTES);
    g_assert_cmpint (fsync (fd), ==, 0);
    close (fd);
  }

  tcase_set_timeout (tc, 30);
  tcase_add_test (tc, test_engine_named);
  tcase_add_test (tc, test_refused_plan_keeps_engine);
  tcase_add_test (tc, test_fallback_noted_once);
  tcase_add_test (tc, test_first_error_kept);
  tcase_add_test (tc, test_samples_stamped);
  tcase_add_test (tc, test_cancel);
  tcase_add_test (tc, test_run_random_stream);
  tcase_add_test (tc, test_watch_told);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
