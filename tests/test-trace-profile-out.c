/* test-trace-profile-out.c: the profile's headline figures, text and JSON
 * (core/trace/ds-trace-profile-out.c)
 *
 * Unit suite: no root, no device.  Profiles are built here figure by
 * figure (ds-trace-profile-private.h), so that what this module makes of
 * them is checked apart from how ds-trace-profile.c counts (test-trace.c
 * profiles a file end to end).  What docs/trace-format.md "Profile"
 * promises: IOPS and MB/s over the active span with n I/Os making n - 1
 * gaps, reads and writes only; the read share, mode, sequential share over
 * n - 1 pairs, mean depth over the span, latency percentiles from the
 * histogram; no rates without issue times, none from one I/O or a span of
 * 0; the source's name; every JSON member the document lists, with its
 * value, 64 block sizes and 64 processes at most (busiest first, ties by
 * pid, the table's name or ""), per interval; the text's lines, the
 * LOST and errors lines only when there is something to say, the four
 * hottest bands, and no time section without issue times.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ds-test-kind.h"
#include "ds-test-util.h"
#include "ds-trace-profile-private.h"

#define SEC UINT64_C (1000000000)

static DsTraceProfile *
blank (gboolean has_times,
       gboolean has_latency)
{
  DsTraceProfile *p = g_new0 (DsTraceProfile, 1);

  p->header.source = DS_TRACE_SOURCE_CAPTURE;
  p->header.version = DS_TRACE_VERSION;
  g_strlcpy (p->header.device, "/dev/sdb", sizeof p->header.device);
  p->interval_ns = SEC;
  p->intervals = g_array_new (FALSE, TRUE, sizeof (DsTraceInterval));
  p->sizes = g_array_new (FALSE, TRUE, sizeof (DsTraceSize));
  p->pid_counts = g_hash_table_new (NULL, NULL);
  p->processes = g_array_new (FALSE, TRUE, sizeof (DsTraceProcess));
  p->first_issue = DS_TRACE_NO_TIME;
  p->has_times = has_times;
  p->has_latency = has_latency;
  for (unsigned i = 0; i < 3; i++)
    ds_histogram_init (&p->latency[i]);
  return p;
}

static DsTraceInterval *
add_interval (DsTraceProfile *p)
{
  DsTraceInterval iv = { 0 };

  g_array_append_val (p->intervals, iv);
  return &g_array_index (p->intervals, DsTraceInterval, p->intervals->len - 1);
}

static void
add_size (DsTraceProfile *p,
          uint32_t        bytes,
          uint64_t        reads,
          uint64_t        writes)
{
  DsTraceSize z = { .bytes = bytes, .reads = reads, .writes = writes };

  g_array_append_val (p->sizes, z);
}

static void
add_process (DsTraceProfile *p,
             uint32_t        pid,
             const char     *comm,
             gsize           requests)
{
  if (comm != NULL)
    {
      DsTraceProcess proc = { .pid = pid };

      g_strlcpy (proc.comm, comm, sizeof proc.comm);
      g_array_append_val (p->processes, proc);
    }
  g_hash_table_insert (p->pid_counts, GUINT_TO_POINTER (pid), GSIZE_TO_POINTER (requests));
}

/* Two seconds of a small workload: 4 reads of 4 KiB and a write of 8 KiB,
 * 2 flushes, a discard and an "other"; latencies 100 µs and one 5 ms. */
static DsTraceProfile *
workload (void)
{
  DsTraceProfile *p = blank (TRUE, TRUE);
  DsTraceInterval *iv = add_interval (p);

  iv->ops[DS_TRACE_OP_READ] = 3;
  iv->ops[DS_TRACE_OP_WRITE] = 1;
  iv->ops[DS_TRACE_OP_FLUSH] = 2;
  iv->ops[DS_TRACE_OP_DISCARD] = 1;
  iv->ops[DS_TRACE_OP_OTHER] = 1;
  iv->bytes[DS_TRACE_OP_READ] = 3 * 4096;
  iv->bytes[DS_TRACE_OP_WRITE] = 8192;
  iv->bytes[DS_TRACE_OP_DISCARD] = 1 << 20;     /* not data moved */
  iv->depth_ns = 0.5e9;
  iv->max_depth = 3;
  iv->p50 = 100000;
  iv->p99 = 5000000;
  iv->p999 = 5000000;
  iv->heat[0] = iv->heat[12] = iv->heat[20] = iv->heat[31] = 1;
  iv = add_interval (p);
  iv->ops[DS_TRACE_OP_READ] = 1;
  iv->bytes[DS_TRACE_OP_READ] = 4096;
  iv->depth_ns = 0.25e9;
  iv->max_depth = 1;
  iv->p50 = iv->p99 = iv->p999 = 100000;
  iv->heat[5] = 1;
  add_size (p, 4096, 4, 0);
  add_size (p, 8192, 0, 1);
  p->data_ios = 5;
  p->sequential = 2;
  p->runs[0] = 1;
  p->runs[1] = 1;
  p->seeks[0] = 2;
  p->seeks[13] = 2;
  p->fua = 1;
  p->preflush = 2;
  p->first_issue = 0;
  p->last_issue = 2 * SEC;
  p->span_bytes = 32 * 1000000;
  p->gaps = 8;
  p->gap_mean = 0.25e9;
  p->gap_m2 = 7 * 0.0625e18;        /* variance 0.0625 s²: CV 1 */
  p->peak_window = 3;
  p->depth_ns = 0.75e9;
  p->depth_end = 3 * SEC;
  p->max_depth = 3;
  for (unsigned i = 0; i < 4; i++)
    ds_histogram_add (&p->latency[0], 100000);
  ds_histogram_add (&p->latency[0], 5000000);
  add_process (p, 10, "postgres", 6);
  add_process (p, 20, "rsync", 3);
  ds_trace_profile_summarise (p);
  return p;
}

/* The middle of the histogram's bucket that holds @ns. */
static uint64_t
hist_value (uint64_t ns)
{
  return ds_histogram_bucket_value (ds_histogram_bucket_index (ns));
}

START_TEST (test_summary)
{
  g_autoptr (DsTraceProfile) p = workload ();
  const DsTraceSummary *s = ds_trace_profile_summary (p);

  ck_assert_uint_eq (s->ios, 9);
  ck_assert_uint_eq (s->reads, 4);
  ck_assert_uint_eq (s->writes, 1);
  ck_assert_uint_eq (s->flushes, 2);
  ck_assert_uint_eq (s->discards, 1);
  ck_assert_double_eq (s->duration_s, 2.0);
  ck_assert_double_eq (s->iops, 2.0);                 /* (5 - 1) / 2 s */
  ck_assert_double_eq (s->bytes_per_s, 12288.0);      /* 24576 B / 2 s */
  ck_assert_double_eq (s->read_share, 0.8);
  ck_assert_uint_eq (s->mode_bytes, 4096);
  ck_assert_double_eq (s->sequential_share, 0.5);     /* 2 of 4 pairs */
  ck_assert_double_eq (s->mean_depth, 0.25);          /* 0.75 s / 3 s */
  ck_assert_uint_eq (s->p50_ns, hist_value (100000));
  ck_assert_uint_eq (s->p99_ns, hist_value (5000000));
  ck_assert_uint_eq (s->p999_ns, hist_value (5000000));
  ck_assert_uint_ne (s->p50_ns, s->p99_ns);
}
END_TEST

/* Nothing to divide by: zeros, never NaN or infinity. */
START_TEST (test_summary_edges)
{
  g_autoptr (DsTraceProfile) empty = blank (TRUE, TRUE);
  g_autoptr (DsTraceProfile) untimed = workload ();
  g_autoptr (DsTraceProfile) one = workload ();
  g_autoptr (DsTraceProfile) instant = workload ();
  const DsTraceSummary *s;

  ds_trace_profile_summarise (empty);
  s = ds_trace_profile_summary (empty);
  ck_assert (s->ios == 0 && s->duration_s == 0 && s->iops == 0 && s->bytes_per_s == 0);
  ck_assert (s->read_share == 0 && s->mode_bytes == 0 && s->sequential_share == 0);
  ck_assert (s->mean_depth == 0 && s->p50_ns == 0 && s->p99_ns == 0 && s->p999_ns == 0);

  /* A fio iolog v2: counts, no rates, no depth. */
  untimed->has_times = untimed->has_latency = FALSE;
  ds_trace_profile_summarise (untimed);
  s = ds_trace_profile_summary (untimed);
  ck_assert_uint_eq (s->ios, 9);
  ck_assert_double_eq (s->read_share, 0.8);
  ck_assert (s->duration_s == 0 && s->iops == 0 && s->bytes_per_s == 0 && s->mean_depth == 0);

  /* One read and one write: a pair, one gap... one read alone: none. */
  g_array_set_size (one->intervals, 1);
  memset (g_array_index (one->intervals, DsTraceInterval, 0).ops, 0, sizeof (uint64_t) * DS_TRACE_N_OPS);
  g_array_index (one->intervals, DsTraceInterval, 0).ops[DS_TRACE_OP_READ] = 1;
  one->data_ios = 1;
  ds_trace_profile_summarise (one);
  s = ds_trace_profile_summary (one);
  ck_assert_double_eq (s->duration_s, 2.0);
  ck_assert (s->iops == 0 && s->bytes_per_s == 0 && s->sequential_share == 0);
  ck_assert_double_eq (s->read_share, 1.0);

  /* All issued at one instant: no span. */
  instant->last_issue = instant->first_issue = 5 * SEC;
  instant->depth_end = 5 * SEC;
  ds_trace_profile_summarise (instant);
  s = ds_trace_profile_summary (instant);
  ck_assert (s->duration_s == 0 && s->iops == 0 && s->mean_depth == 0);
  ck_assert (isfinite (s->read_share) && isfinite (s->sequential_share));
}
END_TEST

static JsonObject *
object (JsonNode *node)
{
  ck_assert (JSON_NODE_HOLDS_OBJECT (node));
  return json_node_get_object (node);
}

START_TEST (test_json_members)
{
  static const char *const members[] = {
    "source", "device", "lost_events", "requests", "reads", "writes", "flushes", "discards",
    "fua", "preflush", "errors", "incomplete", "active_s", "iops", "bytes_per_s", "read_share",
    "mode_bytes", "sequential_share", "interarrival_cv", "peak_10ms_iops", "mean_depth",
    "max_depth", "p50_ns", "p99_ns", "p99_9_ns", "interval_ns", "block_sizes",
    "sequential_runs_log2", "seek_distance_log2", "heat_band_bytes", "processes", "intervals",
  };
  g_autoptr (DsTraceProfile) p = workload ();
  g_autoptr (JsonNode) node = NULL;
  JsonObject *o;

  p->header.lost_events = 7;
  p->errors = 2;
  p->incomplete = 1;
  node = ds_trace_profile_to_json (p);
  o = object (node);
  ck_assert_uint_eq (json_object_get_size (o), G_N_ELEMENTS (members));
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    ck_assert_msg (json_object_has_member (o, members[i]), "no “%s”", members[i]);
  ck_assert_str_eq (json_object_get_string_member (o, "source"), "capture");
  ck_assert_str_eq (json_object_get_string_member (o, "device"), "/dev/sdb");
#define INT(name) json_object_get_int_member (o, name)
#define DBL(name) json_object_get_double_member (o, name)
  ck_assert_int_eq (INT ("lost_events"), 7);
  ck_assert_int_eq (INT ("requests"), 9);
  ck_assert_int_eq (INT ("reads"), 4);
  ck_assert_int_eq (INT ("writes"), 1);
  ck_assert_int_eq (INT ("flushes"), 2);
  ck_assert_int_eq (INT ("discards"), 1);
  ck_assert_int_eq (INT ("fua"), 1);
  ck_assert_int_eq (INT ("preflush"), 2);
  ck_assert_int_eq (INT ("errors"), 2);
  ck_assert_int_eq (INT ("incomplete"), 1);
  ck_assert_double_eq (DBL ("active_s"), 2.0);
  ck_assert_double_eq (DBL ("iops"), 2.0);
  ck_assert_double_eq (DBL ("bytes_per_s"), 12288.0);
  ck_assert_double_eq (DBL ("read_share"), 0.8);
  ck_assert_int_eq (INT ("mode_bytes"), 4096);
  ck_assert_double_eq (DBL ("sequential_share"), 0.5);
  ck_assert_double_eq_tol (DBL ("interarrival_cv"), 1.0, 1e-12);
  ck_assert_double_eq (DBL ("peak_10ms_iops"), 300.0);
  ck_assert_double_eq (DBL ("mean_depth"), 0.25);
  ck_assert_int_eq (INT ("max_depth"), 3);
  ck_assert_int_eq (INT ("p50_ns"), (gint64) hist_value (100000));
  ck_assert_int_eq (INT ("p99_ns"), (gint64) hist_value (5000000));
  ck_assert_int_eq (INT ("p99_9_ns"), (gint64) hist_value (5000000));
  ck_assert_int_eq (INT ("interval_ns"), 1000000000);
  ck_assert_int_eq (INT ("heat_band_bytes"), 1000000);
#undef INT
#undef DBL
  {
    JsonArray *runs = json_object_get_array_member (o, "sequential_runs_log2");
    JsonArray *seeks = json_object_get_array_member (o, "seek_distance_log2");
    JsonArray *sizes = json_object_get_array_member (o, "block_sizes");
    JsonObject *z;

    ck_assert_uint_eq (json_array_get_length (runs), RUN_BUCKETS);
    ck_assert_int_eq (json_array_get_int_element (runs, 0), 1);
    ck_assert_int_eq (json_array_get_int_element (runs, 1), 1);
    ck_assert_int_eq (json_array_get_int_element (runs, 20), 0);
    ck_assert_uint_eq (json_array_get_length (seeks), SEEK_BUCKETS);
    ck_assert_int_eq (json_array_get_int_element (seeks, 0), 2);
    ck_assert_int_eq (json_array_get_int_element (seeks, 13), 2);
    ck_assert_uint_eq (json_array_get_length (sizes), 2);
    z = json_array_get_object_element (sizes, 1);
    ck_assert_int_eq (json_object_get_int_member (z, "bytes"), 8192);
    ck_assert_int_eq (json_object_get_int_member (z, "reads"), 0);
    ck_assert_int_eq (json_object_get_int_member (z, "writes"), 1);
  }
}
END_TEST

START_TEST (test_json_intervals)
{
  g_autoptr (DsTraceProfile) p = workload ();
  g_autoptr (JsonNode) node = NULL;
  JsonArray *list, *heat;
  JsonObject *iv;

  p->interval_ns = 500000000;                 /* as if --interval 0.5s */
  node = ds_trace_profile_to_json (p);
  list = json_object_get_array_member (object (node), "intervals");
  ck_assert_uint_eq (json_array_get_length (list), 2);
  iv = json_array_get_object_element (list, 0);
  ck_assert_uint_eq (json_object_get_size (iv), 13);
  ck_assert_int_eq (json_object_get_int_member (iv, "start_ns"), 0);
  ck_assert_int_eq (json_object_get_int_member (iv, "reads"), 3);
  ck_assert_int_eq (json_object_get_int_member (iv, "writes"), 1);
  ck_assert_int_eq (json_object_get_int_member (iv, "flushes"), 2);
  ck_assert_int_eq (json_object_get_int_member (iv, "discards"), 1);
  ck_assert_int_eq (json_object_get_int_member (iv, "read_bytes"), 12288);
  ck_assert_int_eq (json_object_get_int_member (iv, "write_bytes"), 8192);
  ck_assert_double_eq (json_object_get_double_member (iv, "mean_depth"), 1.0);
  ck_assert_int_eq (json_object_get_int_member (iv, "max_depth"), 3);
  ck_assert_int_eq (json_object_get_int_member (iv, "p50_ns"), 100000);
  ck_assert_int_eq (json_object_get_int_member (iv, "p99_ns"), 5000000);
  ck_assert_int_eq (json_object_get_int_member (iv, "p99_9_ns"), 5000000);
  heat = json_object_get_array_member (iv, "heat");
  ck_assert_uint_eq (json_array_get_length (heat), HEAT_ROWS);
  ck_assert_int_eq (json_array_get_int_element (heat, 0), 1);
  ck_assert_int_eq (json_array_get_int_element (heat, 1), 0);
  ck_assert_int_eq (json_array_get_int_element (heat, 31), 1);
  iv = json_array_get_object_element (list, 1);
  ck_assert_int_eq (json_object_get_int_member (iv, "start_ns"), 500000000);
  ck_assert_double_eq (json_object_get_double_member (iv, "mean_depth"), 0.5);
  ck_assert_int_eq (json_array_get_int_element (json_object_get_array_member (iv, "heat"), 5), 1);
}
END_TEST

/* Busiest first, ties by pid, 64 at most; a pid not in the table: "". */
START_TEST (test_json_processes)
{
  g_autoptr (DsTraceProfile) p = blank (TRUE, FALSE);
  g_autoptr (JsonNode) node = NULL;
  JsonArray *list;

  add_process (p, 30, "tar", 5);
  add_process (p, 20, "rsync", 7);
  add_process (p, 10, NULL, 5);
  for (uint32_t pid = 1000; pid < 1100; pid++)
    add_process (p, pid, "worker", 1);
  for (uint32_t i = 0; i < 70; i++)
    add_size (p, 512 * (i + 1), 70 - i, 0);
  p->gaps = 1;
  p->gap_mean = 5000;
  ds_trace_profile_summarise (p);
  node = ds_trace_profile_to_json (p);
  list = json_object_get_array_member (object (node), "processes");
  ck_assert_uint_eq (json_array_get_length (list), 64);
#define PID(i) json_object_get_int_member (json_array_get_object_element (list, i), "pid")
#define NAME(i) json_object_get_string_member (json_array_get_object_element (list, i), "name")
#define REQS(i) json_object_get_int_member (json_array_get_object_element (list, i), "requests")
  ck_assert_int_eq (PID (0), 20);
  ck_assert_str_eq (NAME (0), "rsync");
  ck_assert_int_eq (REQS (0), 7);
  ck_assert_int_eq (PID (1), 10);
  ck_assert_str_eq (NAME (1), "");
  ck_assert_int_eq (REQS (1), 5);
  ck_assert_int_eq (PID (2), 30);
  ck_assert_str_eq (NAME (2), "tar");
  ck_assert_int_eq (PID (3), 1000);
  ck_assert_int_eq (PID (63), 1060);
  ck_assert_str_eq (NAME (63), "worker");
  ck_assert_int_eq (REQS (63), 1);
#undef PID
#undef NAME
#undef REQS
  list = json_object_get_array_member (object (node), "block_sizes");
  ck_assert_uint_eq (json_array_get_length (list), 64);
  ck_assert_int_eq (json_object_get_int_member (json_array_get_object_element (list, 63), "bytes"),
                    64 * 512);
  ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (object (node), "intervals")), 0);
  /* One gap has no variance: a CV of 0, not NaN. */
  ck_assert_double_eq (json_object_get_double_member (object (node), "interarrival_cv"), 0);
}
END_TEST

START_TEST (test_source_names)
{
  static const struct { uint32_t source; const char *name; } cases[] = {
    { DS_TRACE_SOURCE_CAPTURE, "capture" }, { DS_TRACE_SOURCE_BLKTRACE, "blktrace" },
    { DS_TRACE_SOURCE_FIO_V2, "fio-iolog-v2" }, { DS_TRACE_SOURCE_FIO_V3, "fio-iolog-v3" },
    { 0, "unknown" }, { 5, "unknown" }, { G_MAXUINT32, "unknown" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DsTraceProfile) p = blank (FALSE, FALSE);
      g_autoptr (JsonNode) node = NULL;

      p->header.source = cases[i].source;
      ds_trace_profile_summarise (p);
      node = ds_trace_profile_to_json (p);
      ck_assert_str_eq (json_object_get_string_member (object (node), "source"), cases[i].name);
    }
}
END_TEST

static char *
print_text (const DsTraceProfile *p)
{
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&text, &len);

  ck_assert (out != NULL);
  ds_trace_profile_print (p, out);
  ck_assert (fclose (out) == 0);
  return text;
}

START_TEST (test_text)
{
  const char *want[] = {
    "Trace: /dev/sdb (capture), 9 requests",
    "  LOST: the kernel dropped 12 events: figures below miss them",
    "  active 2.000 s: 2.0 IOPS (reads and writes), 0.01 MB/s",
    "  mix: 80.0 % reads, 20.0 % writes (4 reads, 1 writes)",
    "  flushes: 2 (1.00/s), FUA writes: 1, preflushes: 2, discards: 1",
    "  errors: 0, not completed within the trace: 4",
    "Block sizes (most common first):",
    "      4096 B   80.00 %  (4 reads, 0 writes)",
    "      8192 B   20.00 %  (0 reads, 1 writes)",
    "Randomness: 50.0 % sequential (each I/O where the previous ended)",
    "  sequential runs: 1x1 1x>=2",
    "  seek distances: <1B:2 <8192B:2",
    "Hot regions (of 32 bands of 1.0 MB):",
    "  0.0-1.0 MB: 20.0 %",
    "  5.0-6.0 MB: 20.0 %",
    "  12.0-13.0 MB: 20.0 %",
    "  20.0-21.0 MB: 20.0 %",     /* four: not the fifth, 31-32 MB */
    "Burstiness: inter-arrival CV 1.00 (1: random arrivals, 0: paced), peak 10 ms 300 IOPS",
    "In flight: mean 0.25, max 3",
    NULL,   /* the latency line: below */
    "  time s      IOPS     MB/s  read%  flush   depth    p50 µs    p99 µs  p99.9 µs",
    "     0.0       4.0     0.02   75.0      2    0.50     100.0    5000.0    5000.0",
    "     1.0       1.0     0.00  100.0      0    0.25     100.0     100.0     100.0",
    "(A trace holds no data: offsets, sizes, times and operations only.)",
    "", NULL   /* a newline at the end */
  };
  g_autoptr (DsTraceProfile) p = workload ();
  g_autofree char *text = NULL;
  /* The histogram's values: the middles of their buckets. */
  g_autofree char *latency = g_strdup_printf ("Latency (production): p50 %.1f µs, p99 %.1f µs, "
                                              "p99.9 %.1f µs", hist_value (100000) / 1e3,
                                              hist_value (5000000) / 1e3, hist_value (5000000) / 1e3);

  want[19] = latency;
  p->header.lost_events = 12;
  p->incomplete = 4;
  text = print_text (p);
  ds_test_assert_lines (text, want);
}
END_TEST

/* No issue times (fio iolog v2): no rates, no time section; nothing lost,
 * no errors: those lines are not there. */
START_TEST (test_text_untimed)
{
  static const char *const want[] = {
    "Trace: job.iolog (fio-iolog-v2), 2 requests",
    "  no issue times in this trace: no rates, depth or latency",
    "  mix: 50.0 % reads, 50.0 % writes (1 reads, 1 writes)",
    "  flushes: 0 (0.00/s), FUA writes: 0, preflushes: 0, discards: 0",
    "Block sizes (most common first):",
    "     65536 B  100.00 %  (1 reads, 1 writes)",
    "Randomness: 100.0 % sequential (each I/O where the previous ended)",
    "  sequential runs: 1x>=2",
    "  seek distances: <1B:1",
    "Hot regions (of 32 bands of 2.0 MB):",
    "  0.0-2.0 MB: 50.0 %",
    "  2.0-4.0 MB: 50.0 %",
    "(A trace holds no data: offsets, sizes, times and operations only.)",
    "", NULL   /* a newline at the end */
  };
  g_autoptr (DsTraceProfile) p = blank (FALSE, FALSE);
  DsTraceInterval *iv = add_interval (p);
  g_autofree char *text = NULL;

  p->header.source = DS_TRACE_SOURCE_FIO_V2;
  g_strlcpy (p->header.device, "job.iolog", sizeof p->header.device);
  iv->ops[DS_TRACE_OP_READ] = iv->ops[DS_TRACE_OP_WRITE] = 1;
  iv->bytes[DS_TRACE_OP_READ] = iv->bytes[DS_TRACE_OP_WRITE] = 65536;
  iv->heat[0] = iv->heat[1] = 1;
  add_size (p, 65536, 1, 1);
  p->data_ios = 2;
  p->sequential = 1;
  p->runs[1] = 1;
  p->seeks[0] = 1;
  p->span_bytes = 64000000;
  p->first_issue = p->last_issue = 0;
  ds_trace_profile_summarise (p);
  text = print_text (p);
  ds_test_assert_lines (text, want);
}
END_TEST

/* An empty trace prints, without a division by zero. */
START_TEST (test_text_empty)
{
  static const char *const want[] = {
    "Trace: /dev/sdb (capture), 0 requests",
    "  no issue times in this trace: no rates, depth or latency",
    "  mix: 0.0 % reads, 0.0 % writes (0 reads, 0 writes)",
    "  flushes: 0 (0.00/s), FUA writes: 0, preflushes: 0, discards: 0",
    "Block sizes (most common first):",
    "Randomness: 0.0 % sequential (each I/O where the previous ended)",
    "  sequential runs:",
    "  seek distances:",
    "Hot regions (of 32 bands of 0.0 MB):",
    "Burstiness: inter-arrival CV 0.00 (1: random arrivals, 0: paced), peak 10 ms 0 IOPS",
    "In flight: mean 0.00, max 0",
    "Latency (production): p50 0.0 µs, p99 0.0 µs, p99.9 0.0 µs",
    "  time s      IOPS     MB/s  read%  flush   depth    p50 µs    p99 µs  p99.9 µs",
    "(A trace holds no data: offsets, sizes, times and operations only.)",
    "", NULL   /* a newline at the end */
  };
  g_autoptr (DsTraceProfile) p = blank (TRUE, TRUE);
  g_autofree char *text = NULL;

  ds_trace_profile_summarise (p);
  text = print_text (p);
  ds_test_assert_lines (text, want);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("trace-profile-out");
  TCase *tc = tcase_create ("core");

  ds_test_init ("trace-profile-out");
  tcase_add_test (tc, test_summary);
  tcase_add_test (tc, test_summary_edges);
  tcase_add_test (tc, test_json_members);
  tcase_add_test (tc, test_json_intervals);
  tcase_add_test (tc, test_json_processes);
  tcase_add_test (tc, test_source_names);
  tcase_add_test (tc, test_text);
  tcase_add_test (tc, test_text_untimed);
  tcase_add_test (tc, test_text_empty);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}
