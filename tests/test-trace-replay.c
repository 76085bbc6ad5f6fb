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
 * Closed loop (ds-trace-replay.c) and what a trace recorded of itself
 * (ds-trace-headroom.c): the recorded depth of each request and its mean
 * over time from issue and completion times; a trace without completions
 * refused without a depth, replayed with one (also one without times);
 * the window (the trace's first N ns); the trace's own latency CDF; when
 * a step of the headroom search held.
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
  uint64_t latency_ms;      /* 0: no completion */
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
      DsTraceRecord r = { .issue_ns = ios[i].issue_ms * MS,
                          .complete_ns = ios[i].latency_ms ? (ios[i].issue_ms + ios[i].latency_ms) * MS
                                                           : DS_TRACE_NO_TIME,
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

/* The recorded depth: requests in flight at each issue, itself among
 * them; one without a completion counts only at its own issue. */
START_TEST (test_depth)
{
  static const uint64_t times[][2] = { { 0, 10 }, { 2, 5 }, { 3, UINT64_MAX }, { 6, 8 }, { 12, 20 } };
  static const unsigned want[] = { 1, 2, 3, 2, 1 };
  DsTraceDepth d;

  ds_trace_depth_init (&d);
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      DsTraceRecord r = { .issue_ns = times[i][0],
                          .complete_ns = times[i][1] == UINT64_MAX ? DS_TRACE_NO_TIME : times[i][1] };

      ck_assert_uint_eq (ds_trace_depth_add (&d, &r), want[i]);
    }
  /* 0-2: 1, 2-5: 2, 5-6: 1, 6-8: 2, 8-10: 1, 10-12: 0, 12-20: 1; over 20. */
  ck_assert_double_eq_tol (ds_trace_depth_finish (&d), 23.0 / 20, 1e-12);
  ck_assert_ptr_null (d.heap);
}
END_TEST

/* Closed loop: without completions a depth is needed; with one, every
 * I/O in order, none late or waiting (no schedule), the depth given as
 * the recorded one; a trace without times (fio iolog v2) too. */
START_TEST (test_closed)
{
  g_autofree char *target = ds_test_make_file ("target.img", TARGET_BYTES, 7);
  g_autofree char *untimed = write_trace ("untimed.dstrace", mixed, G_N_ELEMENTS (mixed), 0);
  g_autofree char *timed = write_trace ("timed.dstrace", mixed, G_N_ELEMENTS (mixed), DS_TRACE_HAS_TIMES);
  g_autoptr (GError) error = NULL;
  g_autofree char *message = NULL;
  DsTraceReplayResult res = { 0 };
  DsTraceReplaySpec spec = { .trace = timed, .target = target, .reads_only = TRUE,
                             .loop = DS_TRACE_LOOP_CLOSED };

  ck_assert (!ds_trace_replay (&spec, &res, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  message = g_strdup_printf ("%s has no completion times (a fio iolog): its depth is not known; "
                             "give the closed loop a depth (--depth N)", timed);
  ck_assert_str_eq (error->message, message);
  g_clear_error (&error);
  for (int k = 0; k < 2; k++)
    {
      spec.trace = k == 0 ? timed : untimed;
      spec.depth = 2;
      memset (&res, 0, sizeof res);
      ck_assert_msg (ds_trace_replay (&spec, &res, &error), "%s", error ? error->message : "");
      ck_assert_int_eq (res.loop, DS_TRACE_LOOP_CLOSED);
      ck_assert_uint_eq (res.ios, 3);
      ck_assert_uint_eq (res.reads, 3);
      ck_assert_uint_eq (res.skipped, 5);
      ck_assert_uint_eq (res.waited, 0);
      ck_assert_double_eq (res.within_100us, 0);
      ck_assert_uint_eq (res.late_max_ns, 0);
      ck_assert_double_eq (res.recorded_mean_depth, 2);
      ck_assert (res.mean_depth > 0 && res.mean_depth <= 2);
      /* The reads' times: 3 over 14 ms; none without times. */
      ck_assert_double_eq_tol (res.recorded_iops, (k == 0 ? 2 / 0.014 : 0), 1e-6);
      ck_assert_uint_gt (res.read_p50_ns, 0);
    }
}
END_TEST

/* Closed loop at the recorded depth: 3 requests overlapping, then one alone. */
START_TEST (test_closed_recorded)
{
  g_autofree char *target = ds_test_make_file ("target.img", TARGET_BYTES, 8);
  const Io ios[] = {
    { 0, DS_TRACE_OP_READ, 0, 4096, 10 }, { 1, DS_TRACE_OP_READ, 4096, 4096, 10 },
    { 2, DS_TRACE_OP_READ, 8192, 4096, 10 }, { 20, DS_TRACE_OP_READ, 12288, 4096, 10 },
  };
  g_autofree char *trace = write_trace ("depth.dstrace", ios, G_N_ELEMENTS (ios),
                                        DS_TRACE_HAS_TIMES | DS_TRACE_HAS_COMPLETIONS);
  g_autoptr (GError) error = NULL;
  DsTraceReplayResult res = { 0 };
  DsTraceReplaySpec spec = { .trace = trace, .target = target, .reads_only = TRUE,
                             .loop = DS_TRACE_LOOP_CLOSED, .max_in_flight = 2 };

  ck_assert_msg (ds_trace_replay (&spec, &res, &error), "%s", error ? error->message : "");
  ck_assert_uint_eq (res.ios, 4);
  ck_assert_uint_eq (res.max_in_flight, 2);
  /* In flight: 1 (0-1 ms), 2 (1-2), 3 (2-10), 2 (10-11), 1 (11-12), 0 (12-20),
   * 1 (20-30): 40 ms x I/O over 30 ms. */
  ck_assert_double_eq_tol (res.recorded_mean_depth, 40.0 / 30, 1e-9);
  /* Capped by the 2 slots: never more than 2 in flight. */
  ck_assert (res.mean_depth > 0 && res.mean_depth <= 2);
  ck_assert_uint_ge (res.max_depth, 1);
  ck_assert_uint_le (res.max_depth, 2);
}
END_TEST

/* A trace of one request at a time (each completes before the next):
 * closed loop never has two in flight. */
START_TEST (test_closed_serial)
{
  g_autofree char *target = ds_test_make_file ("target.img", TARGET_BYTES, 10);
  Io ios[64];
  g_autofree char *trace = NULL;
  g_autoptr (GError) error = NULL;
  DsTraceReplayResult res = { 0 };
  DsTraceReplaySpec spec = { .reads_only = TRUE, .target = target, .loop = DS_TRACE_LOOP_CLOSED };

  for (guint i = 0; i < G_N_ELEMENTS (ios); i++)
    ios[i] = (Io) { 2 * i, DS_TRACE_OP_READ, (uint64_t) i * 4096, 4096, 1 };
  trace = write_trace ("serial.dstrace", ios, G_N_ELEMENTS (ios), DS_TRACE_HAS_TIMES | DS_TRACE_HAS_COMPLETIONS);
  spec.trace = trace;
  ck_assert_msg (ds_trace_replay (&spec, &res, &error), "%s", error ? error->message : "");
  ck_assert_uint_eq (res.ios, 64);
  ck_assert_double_eq_tol (res.recorded_mean_depth, 64.0 / 127, 1e-9);   /* 64 ms busy of 127 */
  ck_assert_uint_eq (res.max_depth, 1);
  ck_assert (res.mean_depth > 0 && res.mean_depth <= 1);
}
END_TEST

/* The window: the trace's first 5 ms from its first replayed I/O. */
START_TEST (test_window)
{
  g_autofree char *target = ds_test_make_file ("target.img", TARGET_BYTES, 9);
  Io ios[20];
  g_autofree char *trace = NULL;
  g_autoptr (GError) error = NULL;
  DsTraceReplayResult res = { 0 };
  DsTraceReplaySpec spec = { .reads_only = TRUE, .speed = 1, .target = target, .window_ns = 5 * MS };

  for (guint i = 0; i < G_N_ELEMENTS (ios); i++)
    ios[i] = (Io) { 100 + i, DS_TRACE_OP_READ, (uint64_t) i * 4096, 4096, 0 };
  trace = write_trace ("window.dstrace", ios, G_N_ELEMENTS (ios), DS_TRACE_HAS_TIMES);
  spec.trace = trace;
  ck_assert_msg (ds_trace_replay (&spec, &res, &error), "%s", error ? error->message : "");
  ck_assert_uint_eq (res.ios, 6);       /* 100..105 ms */
  ck_assert_double_eq_tol (res.recorded_iops, 1000, 1e-6);
  ck_assert_uint_eq (res.trace_span_bytes, 6 * 4096);
}
END_TEST

/* The trace's own latency: its CDF, per operation, over a window. */
START_TEST (test_recorded_latency)
{
  Io ios[100];
  g_autofree char *trace = NULL, *untimed = NULL;
  g_autoptr (GError) error = NULL;
  DsTraceLatency lat;

  /* Reads of 1..50 ms, writes of 100 ms, one every 2 ms... */
  for (guint i = 0; i < G_N_ELEMENTS (ios); i++)
    ios[i] = i % 2 == 0 ? (Io) { 2 * i, DS_TRACE_OP_READ, 0, 4096, 1 + i / 2 }
                        : (Io) { 2 * i, DS_TRACE_OP_WRITE, 0, 4096, 100 };
  trace = write_trace ("latency.dstrace", ios, G_N_ELEMENTS (ios),
                       DS_TRACE_HAS_TIMES | DS_TRACE_HAS_COMPLETIONS);
  ck_assert (ds_trace_recorded_latency (trace, 0, FALSE, &lat, &error));
  ck_assert (lat.has_latency);
  ck_assert_uint_eq (lat.ios, 100);
  ck_assert_double_eq_tol (lat.iops, 99 / 0.198, 1e-6);
  /* Nearest rank, within the histogram's 0.8 %. */
  ck_assert_double_eq_tol ((double) lat.p50_ns, 50 * MS, 0.008 * 50 * MS);
  ck_assert_double_eq_tol ((double) lat.p99_ns, 100 * MS, 0.008 * 100 * MS);
  ck_assert_double_eq_tol ((double) lat.read_p99_ns, 50 * MS, 0.008 * 50 * MS);
  ck_assert_double_eq_tol ((double) lat.cdf_ns[0], 1 * MS, 0.008 * MS);     /* 1 % */
  ck_assert_uint_eq (lat.cdf_ns[4], lat.p50_ns);
  for (guint i = 1; i < DS_TRACE_N_CDF; i++)
    ck_assert_uint_ge (lat.cdf_ns[i], lat.cdf_ns[i - 1]);
  /* Reads only, the first 10 ms: reads at 0, 4 and 8 ms, of 1, 2, 3 ms. */
  ck_assert (ds_trace_recorded_latency (trace, 10 * MS, TRUE, &lat, &error));
  ck_assert_uint_eq (lat.ios, 3);
  ck_assert_double_eq_tol ((double) lat.p99_ns, 3 * MS, 0.008 * 3 * MS);
  ck_assert_uint_eq (lat.write_p99_ns, 0);
  /* No completions: nothing to say, not an error. */
  untimed = write_trace ("nolat.dstrace", mixed, G_N_ELEMENTS (mixed), DS_TRACE_HAS_TIMES);
  ck_assert (ds_trace_recorded_latency (untimed, 0, FALSE, &lat, &error));
  ck_assert (!lat.has_latency);
  ck_assert_uint_eq (lat.p99_ns, 0);
}
END_TEST

/* A step holds: p99 within the target, 95 % of the IOPS asked, no waits. */
START_TEST (test_held)
{
  DsTraceReplayResult r = { .recorded_iops = 1000, .achieved_iops = 950, .p99_ns = 5 * MS };

  ck_assert (ds_trace_replay_held (&r, 5 * MS));
  ck_assert (!ds_trace_replay_held (&r, 5 * MS - 1));
  r.achieved_iops = 949.9;
  ck_assert (!ds_trace_replay_held (&r, 5 * MS));
  r.achieved_iops = 1000;
  r.waited = 1;
  ck_assert (!ds_trace_replay_held (&r, 5 * MS));
  r.waited = 0;
  r.recorded_iops = 0;
  ck_assert (!ds_trace_replay_held (&r, 5 * MS));
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
  tcase_add_test (tc, test_depth);
  tcase_add_test (tc, test_closed);
  tcase_add_test (tc, test_closed_recorded);
  tcase_add_test (tc, test_closed_serial);
  tcase_add_test (tc, test_window);
  tcase_add_test (tc, test_recorded_latency);
  tcase_add_test (tc, test_held);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}
