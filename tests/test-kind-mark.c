/* test-kind-mark.c: the Workloads (mark) kind's comparison, fio job and
 * texts without a run (core/kinds/mark/ds-mark-compare.c, ds-mark-fio.c,
 * ds-mark-text.c); its data, JSON and spec: test-kind-mark-data.c
 *
 * Unit suite: no root, no device.  What they promise: a comparison's four
 * figures per step keyed by what it ran ("randread.4096.q1t1.read.iops"),
 * NAN before a run ended, a mix's p99 the slower direction's; the fio job
 * of a run, one stonewalled section per step with its own time, a folder's
 * own file, and the refusal of a run without rows; and CrystalDiskMark's
 * texts word for word: the meters, the test sizes, the grid, the
 * "Copy" text and the report body.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench-mark.h"
#include "ds-error.h"
#include "ds-figures.h"
#include "ds-fio.h"
#include "ds-fio-job.h"
#include "ds-preset.h"
#include "ds-test-kind.h"
#include "ds-test-util.h"

#define MIB (UINT64_C (1) << 20)
#define GIB (UINT64_C (1) << 30)
#define P99 12   /* ds_workload_percentiles[12] == 99 */
/* The @i-th step of the mark result @r. */
#define step_at(r, i) ((DsMarkStep *) ((DsMarkData *) (r)->data)->steps->pdata[i])

/* A step as a run leaves it; @engine NULL: no run of it ended. */
static DsMarkStep *
step_new (const char *row_id, const char *label, unsigned row, DsMarkDirection direction,
          DsPattern pattern, uint64_t bs, unsigned qd, double bytes_per_s, double lat_mean_s,
          gboolean complete, double runtime_s, const char *engine)
{
  DsMarkStep *step = ds_mark_step_new ();
  DsMarkRun run = { bytes_per_s, bytes_per_s / bs, lat_mean_s };

  step->id = g_strdup_printf ("%s-%s", row_id, ds_mark_direction_to_string (direction));
  step->row_id = g_strdup (row_id);
  step->label = g_strdup (label);
  step->row = row;
  step->direction = direction;
  step->pattern = pattern;
  step->block_size_bytes = bs;
  step->queue_depth = qd;
  step->threads = 1;
  step->read_percent = direction == DS_MARK_READ ? 100 : direction == DS_MARK_WRITE ? 0 : 70;
  step->complete = complete;
  g_array_append_val (step->runs, run);
  step->bytes_per_s = bytes_per_s;
  step->iops = bytes_per_s / bs;
  step->lat_mean_s = lat_mean_s;
  if (engine != NULL)
    {
      step->result = ds_workload_data_new ();
      step->result->runtime_s = runtime_s;
      step->result->engine = g_strdup (engine);
      step->result->read.present = direction != DS_MARK_WRITE;
      step->result->write.present = direction != DS_MARK_READ;
    }
  return step;
}

/* cdm-default on /dev/sdx: SEQ1M Q8T1 read and write (cut short), RND4K
 * Q1T1 read and mix (70 % reads). */
static DsResult *
mark_result (void)
{
  DsBenchSpec spec;
  DsResult *r;
  DsMarkData *d;
  DsMarkStep *step;

  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  spec.target_path = g_strdup ("/dev/sdx");
  spec.write = TRUE;
  spec.seed = 7;
  ds_preset_apply_defaults (&spec, ds_preset_lookup ("cdm-default"));
  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  g_free (r->started_at);
  r->started_at = g_strdup ("2024-06-11T12:34:56Z");
  g_free (r->hostname);
  r->hostname = g_strdup ("box");
  g_free (r->tool_version);
  r->tool_version = g_strdup ("9.9");
  g_free (r->engine);
  r->engine = g_strdup ("io_uring");
  r->target.path = g_strdup ("/dev/sdx");
  r->target.model = g_strdup ("Disk");
  r->target.size_bytes = UINT64_C (2000000000);
  r->target.logical_block_size = 512;
  r->complete = TRUE;

  d = r->data;
  d->preset = g_strdup ("cdm-default");
  d->test_size_bytes = GIB;
  d->count = 3;
  d->duration_s = 5;
  d->warmup_s = 2;
  d->pause_s = 1;
  d->interval_s = 1;
  d->os = g_strdup ("TestOS");
  d->comment = g_strdup ("a comment");
  d->steps_planned = 8;
  step = step_new ("seq1m-q8t1", "SEQ1M Q8T1", 0, DS_MARK_READ, DS_PATTERN_READ, MIB, 8, 1e9, 8e-3,
                   TRUE, 5.0, "io_uring");
  step->result->read.lat_percentile_s[P99] = 0.012;
  g_ptr_array_add (d->steps, step);
  step = step_new ("rnd4k-q1t1", "RND4K Q1T1", 3, DS_MARK_READ, DS_PATTERN_RANDREAD, 4096, 1,
                   40.96e6, 1e-4, TRUE, 5.04, "sync");
  step->result->read.lat_percentile_s[P99] = 2e-4;
  g_ptr_array_add (d->steps, step);
  step = step_new ("seq1m-q8t1", "SEQ1M Q8T1", 0, DS_MARK_WRITE, DS_PATTERN_WRITE, MIB, 8, 5e8, 16e-3,
                   FALSE, 2.46, "io_uring");
  step->result->write.lat_percentile_s[P99] = 0.03;
  g_ptr_array_add (d->steps, step);
  step = step_new ("rnd4k-q1t1", "RND4K Q1T1", 3, DS_MARK_MIX, DS_PATTERN_RANDRW, 4096, 1, 2.048e7,
                   2e-4, TRUE, 5.0, "sync");
  step->result->read.lat_percentile_s[P99] = 3e-4;
  step->result->write.lat_percentile_s[P99] = 5e-4;
  g_ptr_array_add (d->steps, step);
  return r;
}

/* ---- the comparison ----------------------------------------------------- */

/* The rows of @r through the kinds' table, a line each. */
static char *
rows_of (const DsResult *r)
{
  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_MARK)->compare_rows, ds_mark_compare_rows);
  return ds_test_compare_text (r, FALSE);
}

/* @lines among @r's rows under "[@section]". */
static void
assert_rows_have (const DsResult *r,
                  const char     *section,
                  const char     *lines)
{
  g_autofree char *rows = rows_of (r);
  g_autofree char *in = ds_test_rows_in (rows, section);

  ck_assert_msg (strstr (in, lines) != NULL, "“%s” not under [%s] in:\n%s", lines, section, rows);
}

START_TEST (test_compare_rows)
{
  g_autoptr (DsResult) r = mark_result ();
  g_autofree char *rows = rows_of (r);
  g_autofree char *empty = NULL;
  DsMarkStep *mix = step_at (r, 3);

  ds_test_assert_text (rows,
    "[Workloads, read]\n"
    "read.1048576.q8t1.read.bytes_per_s|SEQ1M Q8T1|MB/s|rate|+|1000000000\n"
    "read.1048576.q8t1.read.iops|SEQ1M Q8T1|IOPS|iops|+|953.67431640625\n"
    "read.1048576.q8t1.read.lat_mean|SEQ1M Q8T1|mean latency|time|-|0.008\n"
    "read.1048576.q8t1.read.lat_p99|SEQ1M Q8T1|p99 latency|time|-|0.012\n"
    "randread.4096.q1t1.read.bytes_per_s|RND4K Q1T1|MB/s|rate|+|40960000\n"
    "randread.4096.q1t1.read.iops|RND4K Q1T1|IOPS|iops|+|10000\n"
    "randread.4096.q1t1.read.lat_mean|RND4K Q1T1|mean latency|time|-|0.0001\n"
    "randread.4096.q1t1.read.lat_p99|RND4K Q1T1|p99 latency|time|-|0.0002\n"
    "[Workloads, write]\n"
    "write.1048576.q8t1.write.bytes_per_s|SEQ1M Q8T1|MB/s|rate|+|500000000\n"
    "write.1048576.q8t1.write.iops|SEQ1M Q8T1|IOPS|iops|+|476.837158203125\n"
    "write.1048576.q8t1.write.lat_mean|SEQ1M Q8T1|mean latency|time|-|0.016\n"
    "write.1048576.q8t1.write.lat_p99|SEQ1M Q8T1|p99 latency|time|-|0.03\n"
    "[Workloads, mix]\n"
    "randrw.4096.q1t1.mix.bytes_per_s|RND4K Q1T1|MB/s|rate|+|20480000\n"
    "randrw.4096.q1t1.mix.iops|RND4K Q1T1|IOPS|iops|+|5000\n"
    "randrw.4096.q1t1.mix.lat_mean|RND4K Q1T1|mean latency|time|-|0.0002\n"
    "randrw.4096.q1t1.mix.lat_p99|RND4K Q1T1|p99 latency|time|-|0.0005\n");

  /* A mix's p99: the slower direction, or the one measured; a step no
   * run of which ended: nothing measured, whatever its figures say; a
   * step without a label is "?". */
  mix->result->write.lat_percentile_s[P99] = 1e-4;
  assert_rows_have (r, "Workloads, mix", "randrw.4096.q1t1.mix.lat_p99|RND4K Q1T1|p99 latency|time|-|0.0003\n");
  mix->result->read.present = FALSE;
  assert_rows_have (r, "Workloads, mix", "randrw.4096.q1t1.mix.lat_p99|RND4K Q1T1|p99 latency|time|-|0.0001\n");
  mix->result->write.present = FALSE;
  assert_rows_have (r, "Workloads, mix", "randrw.4096.q1t1.mix.lat_p99|RND4K Q1T1|p99 latency|time|-|-\n");
  g_clear_pointer (&mix->result, ds_workload_data_free);
  g_clear_pointer (&mix->label, g_free);
  assert_rows_have (r, "Workloads, mix",
    "randrw.4096.q1t1.mix.bytes_per_s|?|MB/s|rate|+|-\n"
    "randrw.4096.q1t1.mix.iops|?|IOPS|iops|+|-\n"
    "randrw.4096.q1t1.mix.lat_mean|?|mean latency|time|-|-\n"
    "randrw.4096.q1t1.mix.lat_p99|?|p99 latency|time|-|-\n");

  /* No steps: no rows. */
  g_ptr_array_set_size (((DsMarkData *) r->data)->steps, 0);
  empty = rows_of (r);
  ds_test_assert_text (empty, "");
}
END_TEST

/* ---- the fio job -------------------------------------------------------- */

/* @r's job for @filename, through the kinds' table. */
static char *
job_text (const DsResult *r,
          const char     *filename)
{
  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_MARK)->fio_job, ds_mark_fio_job);
  return ds_test_fio_job (r, filename);
}

/* The header and [global] of @r's job on /dev/loop7 (io_uring, seed 7). */
#define JOB_HEAD(writes) \
  "; fio job reproducing a Diskscope mark run (Workloads)\n" \
  "; the run: /dev/sdx on Disk, started 2024-06-11T12:34:56Z on box\n" writes \
  "; run it: fio --output-format=json --output=fio.json THIS_FILE\n" \
  "; then:   diskscope-cli import-fio fio.json; diskscope-cli compare ...\n\n" \
  "[global]\nfilename=/dev/loop7\ndirect=1\nioengine=io_uring\nfixedbufs=1\nregisterfiles=1\n" \
  "thread=1\ngroup_reporting=1\nrefill_buffers=1\nnorandommap=1\nrandrepeat=0\nrandseed=7\n" \
  "lat_percentiles=1\n; random offsets: multiples of each job's (smallest) block size, fio's " \
  "default blockalign, as the run's\n"

/* One section per step, in the order they ran, each for the time its
 * best run counted (5.04 s is 5000 ms), after the warm-up. */
START_TEST (test_fio_job)
{
  g_autoptr (DsResult) r = mark_result ();
  g_autofree char *job = job_text (r, "/dev/loop7");

  ds_test_assert_text (job, JOB_HEAD ("; WARNING: this job WRITES to /dev/loop7 and DESTROYS ALL DATA on it\n")
    "; 4 steps, each for its time after a 2000 ms warm-up (ours keeps the best of 3 runs)\n"
    "\n[step-00-read-1048576-q8t1]\nstonewall=1\nrw=read\nbs=1048576\niodepth=8\nnumjobs=1\n"
    "offset=0\nsize=1073741824\ntime_based=1\nruntime=5000ms\nramp_time=2000ms\n"
    "\n[step-01-randread-4096-q1t1]\nstonewall=1\nrw=randread\nbs=4096\nblockalign=4096\n"
    "iodepth=1\nnumjobs=1\noffset=0\nsize=1073741824\ntime_based=1\nruntime=5000ms\n"
    "ramp_time=2000ms\n"
    "\n[step-02-write-1048576-q8t1]\nstonewall=1\nrw=write\nbs=1048576\niodepth=8\nnumjobs=1\n"
    "offset=0\nsize=1073741824\ntime_based=1\nruntime=2500ms\nramp_time=2000ms\n"
    "\n[step-03-randrw-4096-q1t1]\nstonewall=1\nrw=randrw\nrwmixread=70\nbs=4096\n"
    "blockalign=4096\niodepth=1\nnumjobs=1\noffset=0\nsize=1073741824\ntime_based=1\n"
    "runtime=5000ms\nramp_time=2000ms\n");

  /* Reads only: said so; no test size: no size=. */
  g_clear_pointer (&job, g_free);
  g_ptr_array_set_size (((DsMarkData *) r->data)->steps, 2);
  ((DsMarkData *) r->data)->test_size_bytes = 0;
  job = job_text (r, "/dev/loop7");
  ck_assert_msg (g_str_has_prefix (job, JOB_HEAD ("; reads only\n")), "%s", job);
  ck_assert_msg (strstr (job, "size=") == NULL, "%s", job);
}
END_TEST

/* In a folder: fio's own file there, removed after; the region in whole
 * blocks of each step; no warm-up, no ramp_time; a step whose counted
 * time rounds to 0 s, or the run without a time, 5 s; our thread pool. */
START_TEST (test_fio_job_folder)
{
  g_autoptr (DsResult) r = mark_result ();
  DsMarkData *d = r->data;
  g_autofree char *job = NULL;

  g_ptr_array_set_size (d->steps, 2);
  d->directory = g_strdup ("/srv/t");
  d->duration_s = 0;
  d->warmup_s = 0;
  d->count = 0;
  d->test_size_bytes = 20000000;
  g_free (r->engine);
  r->engine = g_strdup ("threads");
  step_at (r, 0)->result->runtime_s = 1.04;
  step_at (r, 1)->result->runtime_s = 0.04;
  step_at (r, 1)->threads = 0;
  job = job_text (r, "/mnt/x");
  ds_test_assert_text (job,
    "; fio job reproducing a Diskscope mark run (Workloads)\n"
    "; the run: /dev/sdx on Disk, started 2024-06-11T12:34:56Z on box\n"
    "; writes only its own test file, /mnt/x/diskscope-fio.tmp (removed at the end)\n"
    "; run it: fio --output-format=json --output=fio.json THIS_FILE\n"
    "; then:   diskscope-cli import-fio fio.json; diskscope-cli compare ...\n\n"
    "[global]\nfilename=/mnt/x/diskscope-fio.tmp\ndirect=1\nioengine=psync\nthread=1\n"
    "group_reporting=1\nrefill_buffers=1\nnorandommap=1\nrandrepeat=0\nrandseed=7\n"
    "lat_percentiles=1\n; random offsets: multiples of each job's (smallest) block size, fio's "
    "default blockalign, as the run's\nunlink=1\n"
    "; 2 steps, each for its time after a 0 ms warm-up (ours keeps the best of 1 runs)\n"
    "\n[step-00-read-1048576-q8t1]\nstonewall=1\nrw=read\nbs=1048576\n"
    "; our thread pool ran 1 x 8 synchronous I/Os in flight\niodepth=1\nnumjobs=8\n"
    "offset=0\nsize=19922944\ntime_based=1\nruntime=1000ms\n"
    "\n[step-01-randread-4096-q1t1]\nstonewall=1\nrw=randread\nbs=4096\nblockalign=4096\n"
    "iodepth=1\nnumjobs=1\noffset=0\nsize=19996672\ntime_based=1\nruntime=5000ms\n");

  /* No run of a step ended: the run's time. */
  g_clear_pointer (&job, g_free);
  d->duration_s = 0.25;
  g_clear_pointer (&step_at (r, 0)->result, ds_workload_data_free);
  job = job_text (r, "/mnt/x");
  ck_assert_msg (strstr (job, "q8t1]\n") && strstr (job, "numjobs=8\noffset=0\nsize=19922944\n"
                                                         "time_based=1\nruntime=250ms\n"), "%s", job);
}
END_TEST

START_TEST (test_fio_refused)
{
  g_autoptr (DsResult) r = mark_result ();
  g_autoptr (GError) error = NULL;
  const char *want = "a Workloads result without rows cannot be expressed as a fio job, because it "
                     "holds no row to say what ran";
  gpointer data = r->data;

  g_ptr_array_set_size (((DsMarkData *) r->data)->steps, 0);
  ck_assert_ptr_null (ds_fio_job_from_result (r, "/dev/loop7", &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
  ck_assert_str_eq (error->message, want);
  g_clear_error (&error);

  /* No data at all (a refused run): the same. */
  r->data = NULL;
  ck_assert_ptr_null (ds_fio_job_from_result (r, "/dev/loop7", &error));
  r->data = data;
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
  ck_assert_str_eq (error->message, want);
}
END_TEST

/* ---- the texts ---------------------------------------------------------- */

/* Two decimals (three for GB/s), whole numbers from 10^6 up; "*" after a
 * step cut short; no latency without a rate; no IOPS without a block. */
START_TEST (test_meters)
{
  const struct { double bps; uint64_t bs; double lat; gboolean complete; const char *mb, *gb, *iops, *us; } cases[] = {
    { 1e9, MIB, 8e-3, TRUE, "1000.00", "1.000", "953.67", "8000.00" },
    { 1e9, MIB, 8e-3, FALSE, "1000.00*", "1.000*", "953.67*", "8000.00*" },
    { 2e12, 512, 2.0, TRUE, "2000000", "2000.000", "3906250000", "2000000" },
    { 999999.994e6, 1, 0.999999994, TRUE, "999999.99", "1000.000", "999999994000", "999999.99" },
    { 0, 4096, 1e-3, TRUE, "0.00", "0.000", "0.00", "0.00" },
    { 4096, 0, 1e-3, TRUE, "0.00", "0.000", "0.00", "1000.00" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DsMarkStep step = { .bytes_per_s = cases[i].bps, .block_size_bytes = cases[i].bs,
                          .lat_mean_s = cases[i].lat, .complete = cases[i].complete };
      const char *want[] = { cases[i].mb, cases[i].gb, cases[i].iops, cases[i].us };

      for (DsMarkUnits u = DS_MARK_UNITS_MB_S; u <= DS_MARK_UNITS_US; u++)
        {
          g_autofree char *text = ds_mark_meter_text (&step, u);

          ck_assert_msg (strcmp (text, want[u]) == 0, "case %u, units %d: “%s”, want “%s”", i, u,
                         text, want[u]);
        }
    }
}
END_TEST

START_TEST (test_size_text)
{
  const struct { uint64_t bytes; const char *text; } cases[] = {
    { 0, "0 MiB" }, { 100, "0 MiB" }, { 16 * MIB, "16 MiB" }, { GIB - 1, "1023 MiB" },
    { GIB, "1 GiB" }, { GIB + 1, "1.0 GiB" }, { GIB + GIB / 2, "1.5 GiB" }, { 64 * GIB, "64 GiB" },
    { G_MAXUINT64, "17179869184.0 GiB" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = ds_mark_size_text (cases[i].bytes);

      ds_test_assert_text (text, cases[i].text);
    }
}
END_TEST

/* A line per row in the preset's order, a column per direction that ran,
 * a dash where a row has no step of it. */
START_TEST (test_grid)
{
  g_autoptr (DsResult) r = mark_result ();
  g_autofree char *mb = ds_mark_grid_text (r, DS_MARK_UNITS_MB_S);
  g_autofree char *us = ds_mark_grid_text (r, DS_MARK_UNITS_US);
  g_autofree char *reads = NULL;

  ds_test_assert_text (mb, "                    Read (MB/s)   Write (MB/s)     Mix (MB/s)\n"
                        "SEQ1M Q8T1              1000.00        500.00*              –\n"
                        "RND4K Q1T1                40.96              –          20.48\n");
  ds_test_assert_text (us, "                      Read (µs)     Write (µs)       Mix (µs)\n"
                        "SEQ1M Q8T1              8000.00      16000.00*              –\n"
                        "RND4K Q1T1               100.00              –         200.00\n");
  /* Reads only, RND4K first in the list: still after SEQ1M (row 0). */
  g_ptr_array_remove_index (((DsMarkData *) r->data)->steps, 3);
  g_ptr_array_remove_index (((DsMarkData *) r->data)->steps, 2);
  g_ptr_array_add (((DsMarkData *) r->data)->steps, g_ptr_array_steal_index (((DsMarkData *) r->data)->steps, 0));
  reads = ds_mark_grid_text (r, DS_MARK_UNITS_IOPS);
  ds_test_assert_text (reads, "                    Read (IOPS)\n"
                           "SEQ1M Q8T1               953.67\n"
                           "RND4K Q1T1             10000.00\n");
  g_ptr_array_set_size (((DsMarkData *) r->data)->steps, 0);
  g_clear_pointer (&reads, g_free);
  reads = ds_mark_grid_text (r, DS_MARK_UNITS_GB_S);
  ds_test_assert_text (reads, "                \n");
}
END_TEST

/* CrystalDiskMark's "Copy" text, whole. */
START_TEST (test_cdm_text)
{
  g_autoptr (DsResult) r = mark_result ();
  g_autofree char *text = ds_mark_cdm_text (r);

  ds_test_assert_text (text,
    "------------------------------------------------------------------------------\n"
    "Diskscope 9.9: CrystalDiskMark 8's text layout\n"
    "                         (measured by Diskscope, not by CrystalDiskMark)\n"
    "------------------------------------------------------------------------------\n"
    "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n"
    "* KB = 1000 bytes, KiB = 1024 bytes\n\n"
    "[Read]\n"
    "  SEQ    1MiB (Q=  8, T= 1):  1000.000 MB/s [    953.7 IOPS] <  8000.00 us>\n"
    "  RND    4KiB (Q=  1, T= 1):    40.960 MB/s [  10000.0 IOPS] <   100.00 us>\n\n"
    "[Write]\n"
    "  SEQ    1MiB (Q=  8, T= 1):   500.000 MB/s [    476.8 IOPS] < 16000.00 us> (stopped)\n\n"
    "[Mix] Read 70%/Write 30%\n"
    "  RND    4KiB (Q=  1, T= 1):    20.480 MB/s [   5000.0 IOPS] <   200.00 us>\n\n"
    "Profile: Default\n"
    "   Test: 1 GiB (x3) [/dev/sdx: Disk, 2.0 GB]\n"
    "   Mode: O_DIRECT, io_uring and sync\n"
    "   Time: Measure 5 sec / Interval 1 sec \n"
    "  Count: best of 3 runs per test (highest MB/s; lowest mean latency), each test after an "
    "unmeasured 2 sec run\n"
    "   Date: 2024/06/11 12:34:56\n"
    "     OS: TestOS\n"
    "Comment: a comment\n");

  /* Steps that counted different times (custom rows): the range. */
  step_at (r, 1)->result->runtime_s = 5.34;
  g_free (text);
  text = ds_mark_cdm_text (r);
  ck_assert_msg (strstr (text, "\n   Time: Measure 5–5.3 sec / Interval 1 sec \n"), "%s", text);
}
END_TEST

/* In a folder, buffered, stopped, one run, no warm-up, another preset,
 * nothing known of the engines, the OS or the date. */
START_TEST (test_cdm_text_other)
{
  g_autoptr (DsResult) r = mark_result ();
  g_autoptr (GError) stop = g_error_new_literal (DS_ERROR, DS_ERROR_CANCELLED, "stopped by the user");
  DsMarkData *d = r->data;
  g_autofree char *text = NULL;

  g_ptr_array_set_size (d->steps, 1);
  g_free (step_at (r, 0)->result->engine);
  step_at (r, 0)->result->engine = NULL;
  d->directory = g_strdup ("/srv/t");
  d->fs_size_bytes = 100 * GIB;
  d->fs_free_bytes = 30 * GIB;
  d->buffered = TRUE;
  d->count = 1;
  d->warmup_s = 0;
  d->pause_s = 0.5;
  g_clear_pointer (&d->os, g_free);
  g_clear_pointer (&d->comment, g_free);
  g_free (d->preset);
  d->preset = g_strdup ("iometer-dbms");
  g_clear_pointer (&r->started_at, g_free);
  r->complete = FALSE;
  ds_result_set_error (r, stop, 0, -1);
  text = ds_mark_cdm_text (r);
  ck_assert_msg (g_str_has_suffix (text, "\n[Read]\n"
    "  SEQ    1MiB (Q=  8, T= 1):  1000.000 MB/s [    953.7 IOPS] <  8000.00 us>\n\n"
    "Profile: iometer-dbms (IOMeter's Database pattern, outstanding I/Os cycled 1 to 256)\n"
    "   Test: 1 GiB (x1) [/srv/t: 70% (70/100GiB)]\n"
    "   Mode: buffered (page cache)\n"
    "   Time: Measure 5 sec / Interval 0.5 sec \n"
    "  Count: best of 1 run per test (highest MB/s; lowest mean latency)\n"
    "   Date: ?\n"
    "     OS: ?\n"
    "Stopped: 1 of 8 tests ran: stopped by the user\n"), "%s", text);

  /* A preset not known: its name; no step complete: the run's time. */
  g_free (d->preset);
  d->preset = g_strdup ("mine");
  step_at (r, 0)->complete = FALSE;
  d->duration_s = 0.25;
  g_clear_pointer (&text, g_free);
  text = ds_mark_cdm_text (r);
  ck_assert_msg (strstr (text, "\nProfile: mine\n") && strstr (text, "Measure 0.25 sec /"), "%s", text);
}
END_TEST

/* The report body: the run's settings, a line per step with its p99s,
 * what did not run and what was cut short. */
START_TEST (test_report)
{
  g_autoptr (DsResult) r = mark_result ();
  g_autoptr (GString) out = g_string_new (NULL);
  DsMarkData *d = r->data;

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_MARK)->report, ds_mark_report);
  ds_mark_report (r, DS_UNITS_MB, out);
  ds_test_assert_text (out->str,
    "Preset                : cdm-default (CrystalDiskMark 8, Default profile)\n"
    "Test Region           : the first 1 GiB of /dev/sdx\n"
    "Runs                  : best of 3 × 5 s per test (highest rate, lowest mean latency); 2 s "
    "warm-up, 1 s between tests; series per 1 s\n"
    "Comment               : a comment\n\n"
    "Test                              Rate          IOPS  Mean latency      p99 read / write\n"
    "SEQ1M Q8T1 read            1000.0 MB/s           954      8.000 ms              12.00 ms\n"
    "RND4K Q1T1 read              41.0 MB/s         10000      0.100 ms              0.200 ms\n"
    "SEQ1M Q8T1 write *          500.0 MB/s           477      16.00 ms              30.00 ms\n"
    "RND4K Q1T1 mix               20.5 MB/s          5000      0.200 ms   0.300 ms / 0.500 ms\n\n"
    "4 of 8 tests ran\n"
    "* cut short: the figures are of the part that ran\n");

  /* A folder, buffered, +Mix; no preset, no steps, nothing planned. */
  g_string_truncate (out, 0);
  g_ptr_array_set_size (d->steps, 0);
  d->steps_planned = 0;
  d->directory = g_strdup ("/srv/t");
  d->buffered = TRUE;
  d->mix_percent = 70;
  g_clear_pointer (&d->preset, g_free);
  g_free (d->comment);
  d->comment = g_strdup ("");
  ds_mark_report (r, DS_UNITS_MB, out);
  ds_test_assert_text (out->str,
    "Preset                : –\n"
    "Test Region           : a 1 GiB test file in /srv/t (buffered: the page cache's figures)\n"
    "Runs                  : best of 3 × 5 s per test (highest rate, lowest mean latency); 2 s "
    "warm-up, 1 s between tests; series per 1 s\n"
    "Mix                   : 70 % reads\n\n"
    "Test                              Rate          IOPS  Mean latency      p99 read / write\n\n"
    "0 of 0 tests ran\n");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("kind-mark");
  TCase *tc = tcase_create ("mark");

  /* The "Copy" text's Date line is in local time: UTC here. */
  g_setenv ("TZ", "UTC", TRUE);
  tcase_add_test (tc, test_compare_rows);
  tcase_add_test (tc, test_fio_job);
  tcase_add_test (tc, test_fio_job_folder);
  tcase_add_test (tc, test_fio_refused);
  tcase_add_test (tc, test_meters);
  tcase_add_test (tc, test_size_text);
  tcase_add_test (tc, test_grid);
  tcase_add_test (tc, test_cdm_text);
  tcase_add_test (tc, test_cdm_text_other);
  tcase_add_test (tc, test_report);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
