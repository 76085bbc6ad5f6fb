/* test-trace-replay.c: a trace replayed open loop
 * (core/trace/ds-trace-replay.c), on a regular file
 *
 * Unit suite: no root, no device (a 1 MiB file in the scratch folder,
 * O_DIRECT).  What docs/trace-format.md "Replay" and ds-trace.h promise:
 * a missing trace, one without issue times, and writes without the
 * target named are refused with their messages, the target untouched;
 * --reads-only replays the reads only (the rest counted as skipped) and
 * needs no confirmation; writes land where the trace says, aligned to
 * the target's blocks, one past the end wrapped onto it (counted), and
 * nowhere else; flushes are replayed (fsync), discards and other
 * operations skipped, as is an I/O larger than the target; the recorded
 * IOPS over n - 1 gaps scaled by the speed, and the replay's span near
 * the trace's divided by the speed; the slots asked for; a stop before
 * the start replays nothing and says so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "ds-error.h"
#include "ds-target.h"
#include "ds-test-util.h"
#include "ds-trace.h"

#define MS UINT64_C (1000000)
#define KiB 1024u
#define TARGET_BYTES (1024 * 1024)

typedef struct {
  uint64_t issue_ms;
  uint8_t  op;
  uint64_t offset;
  uint32_t bytes;
} Io;

static char *
write_trace (const char *name,
             const Io   *ios,
             guint       n,
             uint32_t    flags)
{
  char *path = ds_test_scratch_path (name);
  g_autoptr (GError) error = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE, .flags = flags };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, &error);

  ck_assert_msg (w != NULL, "%s", error ? error->message : "");
  for (guint i = 0; i < n; i++)
    {
      DsTraceRecord r = { .issue_ns = ios[i].issue_ms * MS, .complete_ns = DS_TRACE_NO_TIME,
                          .queue_ns = DS_TRACE_NO_TIME, .offset = ios[i].offset,
                          .bytes = ios[i].bytes, .op = ios[i].op };

      ck_assert (ds_trace_writer_add (w, &r, &error));
    }
  ck_assert (ds_trace_writer_finish (w, &h, &error));
  return path;
}

static GBytes *
contents (const char *path)
{
  char *data = NULL;
  gsize len = 0;

  ck_assert (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

static uint32_t
block_size (const char *target)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTarget) t = ds_target_open (target, DS_TARGET_OPEN_READ, NULL, &error);

  ck_assert_msg (t != NULL, "%s", error ? error->message : "");
  ck_assert_uint_ge (t->logical_block_size, 512);
  ck_assert_uint_le (t->logical_block_size, 4096);
  return t->logical_block_size;
}

/* The ranges [start, end) where @before and @after differ, as "start-end ",
 * by 512-byte sectors (what is written is random: a byte may match the old
 * one by chance, a sector does not). */
static char *
changed (GBytes *before,
         GBytes *after)
{
  gsize len, len2;
  const guint8 *a = g_bytes_get_data (before, &len), *b = g_bytes_get_data (after, &len2);
  GString *out = g_string_new ("");
  gsize i = 0;

  ck_assert_uint_eq (len, len2);
  ck_assert_uint_eq (len % 512, 0);
  while (i < len)
    {
      gsize start = i;

      while (i < len && memcmp (a + i, b + i, 512) != 0)
        i += 512;
      if (i > start)
        g_string_append_printf (out, "%" G_GSIZE_FORMAT "-%" G_GSIZE_FORMAT " ", start, i);
      else
        i += 512;
    }
  return g_string_free (out, FALSE);
}

static const Io mixed[] = {
  { 0, DS_TRACE_OP_READ, 0, 4096 },
  { 2, DS_TRACE_OP_WRITE, 8192, 4096 },
  { 4, DS_TRACE_OP_READ, 65536, 8192 },
  { 6, DS_TRACE_OP_FLUSH, 0, 0 },
  { 8, DS_TRACE_OP_DISCARD, 0, 65536 },
  { 10, DS_TRACE_OP_OTHER, 0, 4096 },
  { 12, DS_TRACE_OP_WRITE, 16384, 4096 },
  { 14, DS_TRACE_OP_READ, 131072, 4096 },
};

START_TEST (test_refusals)
{
  g_autofree char *target = ds_test_make_file ("target.img", TARGET_BYTES, 1);
  g_autofree char *missing = ds_test_scratch_path ("missing.dstrace");
  g_autofree char *untimed = write_trace ("untimed.dstrace", mixed, 3, 0);
  g_autofree char *writes = write_trace ("writes.dstrace", mixed, G_N_ELEMENTS (mixed), DS_TRACE_HAS_TIMES);
  g_autofree char *message = NULL;
  g_autoptr (GBytes) before = contents (target), after = NULL;
  g_autoptr (GError) error = NULL;
  DsTraceReplayResult res;
  DsTraceReplaySpec spec = { .trace = missing, .target = target, .speed = 1 };

  memset (&res, 0x5A, sizeof res);
  ck_assert (!ds_trace_replay (&spec, &res, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  message = g_strdup_printf ("%s: No such file or directory", missing);
  ck_assert_str_eq (error->message, message);
  g_clear_error (&error);
  g_free (message);

  /* A fio iolog v2 has no times: nothing to replay on time. */
  spec.trace = untimed;
  ck_assert (!ds_trace_replay (&spec, &res, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  message = g_strdup_printf ("%s has no issue times (a fio iolog of version 2): nothing to replay on time",
                             untimed);
  ck_assert_str_eq (error->message, message);
  g_clear_error (&error);

  /* Writes: the target must be named; a wrong name is no name. */
  spec.trace = writes;
  ck_assert (!ds_trace_replay (&spec, &res, &error));
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED), "%s", error->message);
  ck_assert_ptr_nonnull (strstr (error->message, "--destroy-data="));
  g_clear_error (&error);
  spec.confirm = missing;
  ck_assert (!ds_trace_replay (&spec, &res, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
  g_clear_error (&error);

  /* A target that is not there. */
  spec.confirm = NULL;
  spec.reads_only = TRUE;
  spec.target = missing;
  ck_assert (!ds_trace_replay (&spec, &res, &error));
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND), "%s", error->message);
  ck_assert_ptr_nonnull (strstr (error->message, missing));

  /* On failure the result is left alone, and the target is as it was. */
  for (gsize i = 0; i < sizeof res; i++)
    ck_assert_uint_eq (((guint8 *) &res)[i], 0x5A);
  after = contents (target);
  ck_assert (g_bytes_equal (before, after));
}
END_TEST

START_TEST (test_reads_only)
{
  g_autofree char *target = ds_test_make_file ("target.img", TARGET_BYTES, 2);
  g_autofree char *trace = write_trace ("mixed.dstrace", mixed, G_N_ELEMENTS (mixed), DS_TRACE_HAS_TIMES);
  g_autoptr (GBytes) before = contents (target), after = NULL;
  g_autoptr (GError) error = NULL;
  DsTraceReplayResult res = { 0 };
  DsTraceReplaySpec spec = { .trace = trace, .target = target, .reads_only = TRUE, .speed = 1 };

  ck_assert_msg (ds_trace_replay (&spec, &res, &error), "%s", error ? error->message : "");
  ck_assert_uint_eq (res.ios, 3);
  ck_assert_uint_eq (res.reads, 3);
  ck_assert_uint_eq (res.writes, 0);
  ck_assert_uint_eq (res.flushes, 0);
  ck_assert_uint_eq (res.skipped, 5);       /* 2 writes, the flush, discard, other */
  ck_assert_uint_eq (res.wrapped, 0);
  ck_assert_uint_eq (res.errors, 0);
  ck_assert_uint_eq (res.bytes, 4096 + 8192 + 4096);
  ck_assert_uint_eq (res.max_in_flight, 256);
  ck_assert_uint_eq (res.target_bytes, TARGET_BYTES);
  ck_assert_uint_eq (res.trace_span_bytes, 131072 + 4096);
  /* The reads' times: 3 over 14 ms, 2 gaps. */
  ck_assert_double_eq_tol (res.recorded_iops, 2 / 0.014, 1e-6);
  ck_assert (!res.cancelled);
  ck_assert (res.within_100us >= 0 && res.within_100us <= res.within_1ms && res.within_1ms <= 1);
  ck_assert_uint_gt (res.p50_ns, 0);
  ck_assert_uint_gt (res.read_p50_ns, 0);
  ck_assert_uint_eq (res.write_p50_ns, 0);
  ck_assert_uint_eq (res.write_p99_ns, 0);
  ck_assert_uint_ge (res.late_max_ns, res.late_p50_ns);
  after = contents (target);
  ck_assert (g_bytes_equal (before, after));
}
END_TEST

/* Confirmed: writes where the trace says, one wrapped, nothing else. */
START_TEST (test_writes)
{
  g_autofree char *target = ds_test_make_file ("target.img", TARGET_BYTES, 3);
  uint32_t lbs = block_size (target);
  /* 5 MiB + 100: aligned down, then past the end: onto the room left. */
  uint64_t far = 5 * 1024 * 1024 + 100, room = TARGET_BYTES - ((1000 + lbs - 1) / lbs * lbs) + 1;
  uint64_t wrapped_at = (far / lbs * lbs) % room / lbs * lbs;
  uint32_t wrapped_len = (1000 + lbs - 1) / lbs * lbs;
  const Io ios[] = {
    { 0, DS_TRACE_OP_WRITE, 8192, 4096 },
    { 1, DS_TRACE_OP_READ, 0, 4096 },
    { 2, DS_TRACE_OP_WRITE, far, 1000 },
    { 3, DS_TRACE_OP_FLUSH, 0, 0 },
    { 4, DS_TRACE_OP_DISCARD, 0, 4096 },
    { 5, DS_TRACE_OP_READ, 2 * TARGET_BYTES, 2 * TARGET_BYTES },  /* larger than the target */
  };
  g_autofree char *trace = write_trace ("writes.dstrace", ios, G_N_ELEMENTS (ios), DS_TRACE_HAS_TIMES);
  g_autofree char *diff = NULL, *want = NULL;
  g_autoptr (GBytes) before = contents (target), after = NULL;
  g_autoptr (GError) error = NULL;
  DsTraceReplayResult res = { 0 };
  DsTraceReplaySpec spec = { .trace = trace, .target = target, .confirm = target, .speed = 1,
                             .max_in_flight = 4 };

  ck_assert_msg (ds_trace_replay (&spec, &res, &error), "%s", error ? error->message : "");
  ck_assert_uint_eq (res.ios, 4);
  ck_assert_uint_eq (res.reads, 1);
  ck_assert_uint_eq (res.writes, 2);
  ck_assert_uint_eq (res.flushes, 1);
  ck_assert_uint_eq (res.skipped, 2);
  ck_assert_uint_eq (res.wrapped, 1);
  ck_assert_uint_eq (res.errors, 0);
  ck_assert_uint_eq (res.bytes, 4096 + 4096 + wrapped_len);
  ck_assert_uint_eq (res.max_in_flight, 4);
  ck_assert_uint_eq (res.trace_span_bytes, far + 1000);     /* the farthest end */
  ck_assert_uint_gt (res.write_p50_ns, 0);
  after = contents (target);
  diff = changed (before, after);
  want = wrapped_at < 8192
         ? g_strdup_printf ("%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT " 8192-12288 ", wrapped_at,
                            wrapped_at + wrapped_len)
         : g_strdup_printf ("8192-12288 %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT " ", wrapped_at,
                            wrapped_at + wrapped_len);
  ck_assert_str_eq (diff, want);
}
END_TEST

/* Flushes alone change nothing: no confirmation. */
START_TEST (test_flushes_only)
{
  g_autofree char *target = ds_test_make_file ("target.img", TARGET_BYTES, 4);
  const Io ios[] = { { 0, DS_TRACE_OP_FLUSH, 0, 0 }, { 3, DS_TRACE_OP_FLUSH, 0, 0 },
                     { 5, DS_TRACE_OP_OTHER, 0, 512 } };
  g_autofree char *trace = write_trace ("flushes.dstrace", ios, G_N_ELEMENTS (ios), DS_TRACE_HAS_TIMES);
  g_autoptr (GError) error = NULL;
  DsTraceReplayResult res = { 0 };
  DsTraceReplaySpec spec = { .trace = trace, .target = target };

  ck_assert_msg (ds_trace_replay (&spec, &res, &error), "%s", error ? error->message : "");
  ck_assert_uint_eq (res.ios, 2);
  ck_assert_uint_eq (res.flushes, 2);
  ck_assert_uint_eq (res.skipped, 1);
  ck_assert_uint_eq (res.bytes, 0);
  ck_assert_double_eq (res.recorded_iops, 0);
  ck_assert_double_eq (res.achieved_iops, 0);
  ck_assert_uint_eq (res.p50_ns, 0);        /* latency: reads and writes only */
  ck_assert_uint_eq (res.trace_span_bytes, 0);
}
END_TEST

/* Twice as fast: the recorded rate doubled, the replay's span halved. */
START_TEST (test_speed)
{
  g_autofree char *target = ds_test_make_file ("target.img", TARGET_BYTES, 5);
  Io ios[11];
  g_autofree char *trace = NULL;
  g_autoptr (GError) error = NULL;
  DsTraceReplayResult res = { 0 };
  DsTraceReplaySpec spec = { .reads_only = TRUE, .speed = 2, .target = target };
  double late_s;

  for (guint i = 0; i < G_N_ELEMENTS (ios); i++)
    ios[i] = (Io) { 1000 + 10 * i, DS_TRACE_OP_READ, (uint64_t) i * 4096, 4096 };
  trace = write_trace ("paced.dstrace", ios, G_N_ELEMENTS (ios), DS_TRACE_HAS_TIMES);
  spec.trace = trace;
  ck_assert_msg (ds_trace_replay (&spec, &res, &error), "%s", error ? error->message : "");
  ck_assert_uint_eq (res.ios, 11);
  ck_assert_double_eq_tol (res.recorded_iops, 200, 1e-6);    /* 10 gaps in 100 ms, × 2 */
  /* The first I/O at the start (not 1 s in); the last 50 ms after it, give
   * or take how late an issue was (a busy machine). */
  late_s = (double) res.late_max_ns / 1e9;
  ck_assert_msg (res.duration_s >= 0.05 - late_s - 1e-6 && res.duration_s <= 0.05 + late_s + 1e-6,
                 "span %.6f s, late by up to %.6f s", res.duration_s, late_s);
  ck_assert (res.achieved_iops > 0);
  ck_assert_double_eq_tol (res.achieved_iops, 10 / res.duration_s, 1e-6);
}
END_TEST

/* Stopped before the start: nothing replayed, said so; not an error. */
START_TEST (test_cancel)
{
  g_autofree char *target = ds_test_make_file ("target.img", TARGET_BYTES, 6);
  g_autofree char *trace = write_trace ("mixed.dstrace", mixed, G_N_ELEMENTS (mixed), DS_TRACE_HAS_TIMES);
  g_autoptr (GError) error = NULL;
  gint stop = 1;
  DsTraceReplayResult res = { 0 };
  DsTraceReplaySpec spec = { .trace = trace, .target = target, .reads_only = TRUE, .cancel = &stop };

  ck_assert_msg (ds_trace_replay (&spec, &res, &error), "%s", error ? error->message : "");
  ck_assert (res.cancelled);
  ck_assert_uint_eq (res.ios, 0);
  ck_assert_uint_eq (res.skipped, 0);
  ck_assert_double_eq (res.duration_s, 0);
  ck_assert_double_eq (res.within_100us, 0);
  ck_assert_uint_eq (res.target_bytes, TARGET_BYTES);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("trace-replay");
  TCase *tc = tcase_create ("core");

  ds_test_init ("trace-replay");
  tcase_set_timeout (tc, 30);
  tcase_add_test (tc, test_refusals);
  tcase_add_test (tc, test_reads_only);
  tcase_add_test (tc, test_writes);
  tcase_add_test (tc, test_flushes_only);
  tcase_add_test (tc, test_speed);
  tcase_add_test (tc, test_cancel);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}
