/* test-trace-synth.c: a workload synthesized from a trace
 * (core/trace/ds-trace-synth.c, ds-trace-synth-out.c)
 *
 * Unit suite: no root, no device.  A trace made here record by record:
 * a second of random 4 KiB reads and writes, half each, 200 a second,
 * 1 ms each, a flush after every tenth write; then a second of
 * sequential 64 KiB writes, 100 a second, 20 ms each (two in flight).
 * Its two phases and their figures, the fio job's exact text (which fio
 * --parse-only accepts), the rows (which `mark --rows`' parser accepts),
 * the JSON; --phases 1 merges them; refusals: an empty trace, a trace of
 * flushes only, one without issue times, an unknown process.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <string.h>

#include "ds-error.h"
#include "ds-preset.h"
#include "ds-test-util.h"
#include "ds-trace.h"

#define MS UINT64_C (1000000)

static void
add (DsTraceWriter *w,
     uint64_t       t,
     uint64_t       latency,
     unsigned       op,
     uint64_t       offset,
     uint32_t       bytes)
{
  DsTraceRecord r = { .issue_ns = t, .complete_ns = t + latency, .queue_ns = DS_TRACE_NO_TIME,
                      .offset = offset, .bytes = bytes, .op = op, .pid = 42 };

  ck_assert (ds_trace_writer_add (w, &r, NULL));
}

static char *
two_phases (void)
{
  char *path = ds_test_scratch_path ("two.dstrace");
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE, .flags = DS_TRACE_HAS_TIMES | DS_TRACE_HAS_COMPLETIONS };
  DsTraceWriter *w;

  g_strlcpy (h.device, "/dev/sdz", sizeof h.device);
  w = ds_trace_writer_new (path, &h, NULL);
  ck_assert (w != NULL);
  ds_trace_writer_process (w, 42, "db");
  for (unsigned i = 0; i < 200; i++)
    {
      add (w, i * 5 * MS, MS, i % 2 ? DS_TRACE_OP_WRITE : DS_TRACE_OP_READ, (uint64_t) (i * 7919 % 1000) * 4096, 4096);
      if (i % 20 == 19)
        add (w, i * 5 * MS + 1000, 100000, DS_TRACE_OP_FLUSH, 0, 0);
    }
  for (unsigned i = 0; i < 100; i++)
    add (w, 1000 * MS + i * 10 * MS, 20 * MS, DS_TRACE_OP_WRITE, (UINT64_C (1) << 30) + i * UINT64_C (65536), 65536);
  ck_assert (ds_trace_writer_finish (w, &h, NULL));
  return path;
}

#define PHASE(s, i) (&g_array_index ((s)->phases, DsTraceSynthPhase, (i)))

START_TEST (test_phases)
{
  g_autofree char *path = two_phases ();
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceSynth) s = ds_trace_synth_new (path, 0, 0, NULL, &error);
  const DsTraceSynthPhase *a, *b;

  ck_assert_msg (s != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (s->phases->len, 2);
  a = PHASE (s, 0);
  b = PHASE (s, 1);
  ck_assert_str_eq (ds_trace_synth_pattern (a), "randrw");
  ck_assert_str_eq (ds_trace_synth_pattern (b), "write");
  /* Each phase from its first I/O to one mean gap after its last. */
  ck_assert_uint_eq (a->start_ns, 0);
  ck_assert_uint_eq (a->duration_ns, 1000 * MS);
  ck_assert_uint_eq (b->start_ns, 1000 * MS);
  ck_assert_uint_eq (b->duration_ns, 1000 * MS);
  ck_assert_uint_eq (a->reads, 100);
  ck_assert_uint_eq (a->writes, 100);
  ck_assert_uint_eq (a->flushes, 10);
  ck_assert_double_eq_tol (a->read_iops, 100, 1e-9);
  ck_assert_double_eq_tol (a->flushes_per_s, 10, 1e-9);
  ck_assert_double_eq_tol (a->read_share, 0.5, 1e-9);
  ck_assert_double_eq_tol (a->sequential_share, 0, 1e-9);
  /* Little: 200 x 1 ms and 10 x 0.1 ms in a second. */
  ck_assert_double_eq_tol (a->mean_depth, 0.201, 1e-9);
  ck_assert_uint_eq (a->peak_depth, 2);   /* a write and its flush */
  ck_assert_uint_eq (a->mode_bytes, 4096);
  ck_assert_uint_eq (a->offset_start, 0);
  ck_assert_uint_eq (a->offset_end, 988 * 4096);   /* the largest of i × 7919 mod 1000 is 987 */
  ck_assert_uint_eq (b->reads, 0);
  ck_assert_uint_eq (b->writes, 100);
  ck_assert_double_eq_tol (b->sequential_share, 0.99, 1e-9);  /* the first follows phase 1 */
  ck_assert_double_eq_tol (b->write_iops, 100, 1e-9);
  ck_assert_double_eq_tol (b->mean_depth, 2, 1e-9);
  ck_assert_uint_eq (b->peak_depth, 2);
  ck_assert_uint_eq (b->mode_bytes, 65536);
  ck_assert_uint_eq (b->offset_start, UINT64_C (1) << 30);
  ck_assert_uint_eq (b->offset_end, (UINT64_C (1) << 30) + 100 * 65536);
}
END_TEST

static const char expected_job[] =
  "# Synthesized by diskscope-cli synthesize from the trace TRACE (the requests of db),\n"
  "# of /dev/sdz: 2 phases, run in order, each with the trace's figures.\n"
  "# WARNING: this job WRITES to the target: what it holds there is lost.\n"
  "# Not expressed:\n"
  "#   fio spaces each phase's I/Os evenly at its rate: bursts within a phase are not reproduced.\n"
  "#   Offsets are uniform over the phase's region (random) or in order (sequential): hot spots are not reproduced.\n"
  "#   Flushes are an fsync every N writes (a flush of the device): their rate follows the writes'.\n"
  "\n"
  "[global]\n"
  "filename=/dev/sdq\n"
  "ioengine=libaio\n"
  "direct=1\n"
  "refill_buffers\n"
  "randrepeat=0\n"
  "norandommap\n"
  "time_based\n"
  "\n"
  "# Phase 1: 0.000 s to 1.000 s of the trace: 100 reads, 100 writes, 10 flushes;\n"
  "#   100.0 reads/s, 100.0 writes/s (50.0 % reads), 10.0 flushes/s;\n"
  "#   mode 4096 B (100.0 % of the I/Os), 0.0 % sequential;\n"
  "#   in flight 0.20 on average, 2 at most; offsets 0 to 4046848.\n"
  "[phase1]\n"
  "stonewall\n"
  "runtime=1000ms\n"
  "rw=randrw\n"
  "rwmixread=50\n"
  "bs=4k\n"
  "iodepth=2\n"
  "rate_iops=100,100\n"
  "fsync=10\n"
  "offset=0\n"
  "size=4046848\n"
  "\n"
  "# Phase 2: 1.000 s to 2.000 s of the trace: 0 reads, 100 writes, 0 flushes;\n"
  "#   0.0 reads/s, 100.0 writes/s (0.0 % reads), 0.0 flushes/s;\n"
  "#   mode 65536 B (100.0 % of the I/Os), 99.0 % sequential;\n"
  "#   in flight 2.00 on average, 2 at most; offsets 1073741824 to 1080295424.\n"
  "[phase2]\n"
  "stonewall\n"
  "runtime=1000ms\n"
  "rw=write\n"
  "bs=64k\n"
  "iodepth=2\n"
  "rate_iops=100\n"
  "offset=1073741824\n"
  "size=6553600\n"
  "\n";

START_TEST (test_fio_job)
{
  g_autofree char *path = two_phases (), *job = NULL, *want = NULL, *file = ds_test_scratch_path ("two.fio");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceSynth) s = ds_trace_synth_new (path, 0, 0, "db", &error);
  g_autoptr (GString) w = NULL;
  g_autofree char *fio = g_find_program_in_path ("fio");

  ck_assert_msg (s != NULL, "%s", error ? error->message : "");
  job = ds_trace_synth_fio_job (s, "/dev/sdq");
  w = g_string_new (expected_job);
  g_string_replace (w, "TRACE", path, 1);
  ck_assert_str_eq (job, w->str);
  /* Without a target: ${TARGET}, which fio takes from the environment. */
  g_free (job);
  job = ds_trace_synth_fio_job (s, NULL);
  ck_assert (strstr (job, "filename=${TARGET}\n") != NULL);
  ck_assert (strstr (job, "TARGET=/dev/sdX fio FILE") != NULL);
  if (fio == NULL)
    {
      ds_test_note ("fio is not installed: the job's --parse-only check is not run");
      return;
    }
  ck_assert (g_file_set_contents (file, job, -1, NULL));
  g_setenv ("TARGET", "/dev/sdq", TRUE);
  {
    const char *argv[] = { "fio", "--parse-only", file, NULL };
    int rc = ds_test_run (argv, &out, &err);

    ck_assert_msg (rc == 0 && strstr (err, "fio:") == NULL, "fio --parse-only: %d: %s", rc, err);
  }
}
END_TEST

START_TEST (test_rows)
{
  g_autofree char *path = two_phases (), *rows = NULL, *normal = NULL, *caveats = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceSynth) s = ds_trace_synth_new (path, 0, 0, NULL, &error);

  ck_assert_msg (s != NULL, "%s", error ? error->message : "");
  rows = ds_trace_synth_rows (s);
  ck_assert_str_eq (rows, "randrw,4k,qd1,t1,mix50,1s;write,64k,qd2,t1,1s");
  normal = ds_preset_rows_normalize (rows, &error);
  ck_assert_msg (normal != NULL, "%s", error ? error->message : "");
  ck_assert_str_eq (normal, rows);
  caveats = ds_trace_synth_caveats (s, TRUE);
  ck_assert (strstr (caveats, "not limited") != NULL);
  ck_assert (strstr (caveats, "Rows issue no flushes (the trace has 10).") != NULL);
}
END_TEST

/* One phase asked for: the two merge, figures over the whole. */
START_TEST (test_one_phase)
{
  g_autofree char *path = two_phases ();
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceSynth) s = ds_trace_synth_new (path, 0, 1, NULL, &error);
  g_autoptr (JsonNode) node = NULL;
  JsonObject *o;
  const DsTraceSynthPhase *p;

  ck_assert_msg (s != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (s->phases->len, 1);
  p = PHASE (s, 0);
  ck_assert_uint_eq (p->reads, 100);
  ck_assert_uint_eq (p->writes, 200);
  ck_assert_uint_eq (p->n_sizes, 2);
  ck_assert_double_eq_tol (p->size_share[0], 200.0 / 300, 1e-9);
  /* Sizes spread: fio gets them split. */
  {
    g_autofree char *job = ds_trace_synth_fio_job (s, "/dev/sdq");

    ck_assert_msg (strstr (job, "\nbssplit=4k/67:64k/33\n") != NULL, "%s", job);
    ck_assert_msg (strstr (job, "\npercentage_random=67\n") != NULL, "%s", job);
  }
  node = ds_trace_synth_to_json (s);
  o = json_node_get_object (node);
  ck_assert_int_eq (json_array_get_length (json_object_get_array_member (o, "phases")), 1);
  ck_assert_str_eq (json_object_get_string_member (o, "rows"), "randrw,4k,qd1,t1,mix33,2s");
}
END_TEST

/* Reads, two idle seconds, reads: the idle phase runs fio's null engine
 * (nothing reaches the target) and has no row. */
START_TEST (test_idle)
{
  g_autofree char *path = ds_test_scratch_path ("idle.dstrace"), *job = NULL, *rows = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE, .flags = DS_TRACE_HAS_TIMES };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceSynth) s = NULL;

  ck_assert (w != NULL);
  for (unsigned i = 0; i < 100; i++)
    add (w, i * 10 * MS, 0, DS_TRACE_OP_READ, (uint64_t) (i * 37 % 100) * 4096, 4096);
  for (unsigned i = 0; i < 100; i++)
    add (w, 3000 * MS + i * 10 * MS, 0, DS_TRACE_OP_READ, (uint64_t) (i * 37 % 100) * 4096, 4096);
  ck_assert (ds_trace_writer_finish (w, &h, NULL));
  s = ds_trace_synth_new (path, 0, 0, NULL, &error);
  ck_assert_msg (s != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (s->phases->len, 3);
  ck_assert_str_eq (ds_trace_synth_pattern (PHASE (s, 1)), "idle");
  ck_assert_uint_eq (PHASE (s, 1)->duration_ns, 2000 * MS);
  ck_assert_uint_eq (PHASE (s, 0)->peak_depth, 0);      /* no completions: unknown */
  job = ds_trace_synth_fio_job (s, "/dev/sdq");
  ck_assert_msg (strstr (job, "[phase2]\nstonewall\nruntime=2000ms\nioengine=null\nfilename=idle\n") != NULL, "%s", job);
  ck_assert (strstr (job, "in flight: unknown (no completions)") != NULL);
  ck_assert (strstr (job, "WRITES") == NULL);
  rows = ds_trace_synth_rows (s);
  ck_assert_str_eq (rows, "randread,4k,qd1,t1,1s;randread,4k,qd1,t1,1s");
}
END_TEST

/* Reads for 1.5 s, nothing for 0.3 s, writes for 1.5 s: each phase
 * shrinks to its I/Os, the 0.3 s between is idle; in intervals of 250 ms
 * (the pause fills one) and of 1 s (the pause cuts one in two). */
static void
check_trim (uint64_t interval_ns)
{
  g_autofree char *path = ds_test_scratch_path ("trim.dstrace");
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE, .flags = DS_TRACE_HAS_TIMES };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceSynth) s = NULL;

  ck_assert (w != NULL);
  for (unsigned i = 0; i < 1500; i++)
    add (w, i * MS, 0, DS_TRACE_OP_READ, (uint64_t) (i * 37 % 1000) * 4096, 4096);
  for (unsigned i = 0; i < 1500; i++)
    add (w, 1800 * MS + i * MS, 0, DS_TRACE_OP_WRITE, (uint64_t) (i * 37 % 1000) * 4096, 4096);
  ck_assert (ds_trace_writer_finish (w, &h, NULL));
  s = ds_trace_synth_new (path, interval_ns, 0, NULL, &error);
  ck_assert_msg (s != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (s->phases->len, 3);
  ck_assert_str_eq (ds_trace_synth_pattern (PHASE (s, 0)), "randread");
  ck_assert_uint_eq (PHASE (s, 0)->start_ns, 0);
  ck_assert_uint_eq (PHASE (s, 0)->duration_ns, 1500 * MS);
  ck_assert_double_eq_tol (PHASE (s, 0)->read_iops, 1000, 1e-9);
  ck_assert_str_eq (ds_trace_synth_pattern (PHASE (s, 1)), "idle");
  ck_assert_uint_eq (PHASE (s, 1)->start_ns, 1500 * MS);
  ck_assert_uint_eq (PHASE (s, 1)->duration_ns, 300 * MS);
  ck_assert_str_eq (ds_trace_synth_pattern (PHASE (s, 2)), "randwrite");
  ck_assert_uint_eq (PHASE (s, 2)->start_ns, 1800 * MS);
  ck_assert_uint_eq (PHASE (s, 2)->duration_ns, 1500 * MS);
  ck_assert_double_eq_tol (PHASE (s, 2)->write_iops, 1000, 1e-9);
}

START_TEST (test_trim)
{
  check_trim (250 * MS);
  check_trim (1000 * MS);
}
END_TEST

/* 20 s of random arrivals at 50 a second (exponential gaps), 70 % reads,
 * 4 KiB and 8 KiB about half each: one steady workload, one phase, though
 * its seconds differ by chance (rate, mix, the most common size). */
START_TEST (test_noise)
{
  g_autofree char *path = ds_test_scratch_path ("noise.dstrace"), *job = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE, .flags = DS_TRACE_HAS_TIMES };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, NULL);
  g_autoptr (GRand) rand = g_rand_new_with_seed (26);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceSynth) s = NULL;
  double t = 0;

  ck_assert (w != NULL);
  while (t < 20)
    {
      unsigned op = g_rand_double (rand) < 0.7 ? DS_TRACE_OP_READ : DS_TRACE_OP_WRITE;
      uint32_t bytes = g_rand_boolean (rand) ? 4096 : 8192;

      t += -log (1 - g_rand_double (rand)) / 50;
      add (w, (uint64_t) (t * 1e9), 0, op, (uint64_t) g_rand_int_range (rand, 0, 100000) * 8192, bytes);
    }
  ck_assert (ds_trace_writer_finish (w, &h, NULL));
  s = ds_trace_synth_new (path, 0, 0, NULL, &error);
  ck_assert_msg (s != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (s->phases->len, 1);
  ck_assert_double_eq_tol (PHASE (s, 0)->read_iops + PHASE (s, 0)->write_iops, 50, 5);
  job = ds_trace_synth_fio_job (s, "/dev/sdq");
  ck_assert_msg (strstr (job, "\nbssplit=") != NULL, "%s", job);
}
END_TEST

static char *
write_trace (const char *name,
             uint32_t    flags,
             unsigned    op,
             unsigned    count)
{
  char *path = ds_test_scratch_path (name);
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE, .flags = flags };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, NULL);

  ck_assert (w != NULL);
  for (unsigned i = 0; i < count; i++)
    add (w, i * MS, 0, op, 0, op == DS_TRACE_OP_FLUSH ? 0 : 4096);
  ck_assert (ds_trace_writer_finish (w, &h, NULL));
  return path;
}

static void
refused (const char *path,
         const char *process,
         const char *message)
{
  g_autoptr (GError) error = NULL;
  DsTraceSynth *s = ds_trace_synth_new (path, 0, 0, process, &error);

  ck_assert (s == NULL);
  ck_assert (error != NULL);
  ck_assert_msg (strstr (error->message, message) != NULL, "%s", error->message);
}

START_TEST (test_refusals)
{
  g_autofree char *empty = write_trace ("empty.dstrace", DS_TRACE_HAS_TIMES, DS_TRACE_OP_READ, 0);
  g_autofree char *flushes = write_trace ("flushes.dstrace", DS_TRACE_HAS_TIMES, DS_TRACE_OP_FLUSH, 50);
  g_autofree char *v2 = write_trace ("v2.dstrace", 0, DS_TRACE_OP_READ, 50);
  g_autofree char *ok = write_trace ("ok.dstrace", DS_TRACE_HAS_TIMES, DS_TRACE_OP_READ, 50);

  refused (empty, NULL, "the trace holds no reads or writes (0 requests): nothing to synthesize");
  refused (flushes, NULL, "the trace holds no reads or writes (50 requests): nothing to synthesize");
  refused (v2, NULL, "no issue times");
  refused (ok, "nosuch", "no process named “nosuch”");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("trace-synth");
  TCase *tc = tcase_create ("core");

  ds_test_init ("trace-synth");
  tcase_set_timeout (tc, 30);
  tcase_add_test (tc, test_phases);
  tcase_add_test (tc, test_fio_job);
  tcase_add_test (tc, test_rows);
  tcase_add_test (tc, test_one_phase);
  tcase_add_test (tc, test_idle);
  tcase_add_test (tc, test_trim);
  tcase_add_test (tc, test_noise);
  tcase_add_test (tc, test_refusals);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}
