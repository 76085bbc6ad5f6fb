/* test-fio-job.c: the fio job builder every kind's -fio.c writes with
 * (core/results/ds-fio-job.c)
 *
 * Unit suite: no root, no device.  What ds-fio-job.h promises: the header
 * (the kind's name and title, the run quoted in escaped, shortened
 * comments, a warning for a job that writes, reads only or its own file);
 * the engine that ran, in fio's words; [global] with its seed and random
 * alignment; "key=value" options, sizes in bytes and times in whole
 * milliseconds (at least 1); a section's options (bs or bsrange,
 * time_based, runtime); the depth and jobs of each engine; rw= of every
 * pattern; the tested span and a workload's region in whole blocks;
 * align_down; the refusal's domain, code and message.  The exporter that
 * checks and escapes the file name (core/fio/) is test-fio-export.c's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-error.h"
#include "ds-fio-job.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

typedef struct {
  GString      *out;
  DsFioJobFile  job;
} Job;

static void
job_init (Job *j)
{
  j->out = g_string_new (NULL);
  j->job.out = j->out;
  j->job.filename = "/dev/sdz";
}

/* The text written so far, and the builder emptied. */
static char *
job_take (Job *j)
{
  char *text = g_strdup (j->out->str);

  g_string_truncate (j->out, 0);
  return text;
}

static void
job_clear (Job *j)
{
  g_string_free (j->out, TRUE);
}

static void
set_str (char       **field,
         const char  *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

#define ASSERT_JOB(j, want) \
  G_STMT_START { \
    g_autofree char *got_ = job_take (j); \
    ck_assert_str_eq (got_, want); \
  } G_STMT_END

static const char *const run_it =
  "; run it: fio --output-format=json --output=fio.json THIS_FILE\n"
  "; then:   diskscope-cli import-fio fio.json; diskscope-cli compare ...\n\n";

START_TEST (test_header_writes)
{
  g_autoptr (DsResult) r = ds_test_result_new (DS_BENCH_WORKLOAD, "/dev/sdz", TRUE);
  g_autofree char *reads = NULL, *writes = NULL, *own = NULL;
  Job j;

  job_init (&j);
  /* No started_at: no line about the run. */
  g_clear_pointer (&r->started_at, g_free);
  ds_fio_job_header (&j.job, r, "/dev/sdz", DS_FIO_JOB_READS);
  reads = g_strconcat ("; fio job reproducing a Diskscope workload run (Workload)\n"
                       "; reads only\n", run_it, NULL);
  ASSERT_JOB (&j, reads);

  ds_fio_job_header (&j.job, r, "/dev/sdz", DS_FIO_JOB_WRITES);
  writes = g_strconcat ("; fio job reproducing a Diskscope workload run (Workload)\n"
                        "; WARNING: this job WRITES to /dev/sdz and DESTROYS ALL DATA on it\n",
                        run_it, NULL);
  ASSERT_JOB (&j, writes);

  r->kind = DS_BENCH_FILE;
  ds_fio_job_header (&j.job, r, "/mnt/x/diskscope.tmp", DS_FIO_JOB_OWN_FILE);
  own = g_strconcat ("; fio job reproducing a Diskscope file run (File Benchmark)\n"
                     "; writes only its own test file, /mnt/x/diskscope.tmp (removed at the end)\n",
                     run_it, NULL);
  ASSERT_JOB (&j, own);

  /* A kind the table does not know: "?" for its name and title. */
  r->kind = DS_BENCH_N_KINDS;
  ds_fio_job_header (&j.job, r, "/dev/sdz", DS_FIO_JOB_READS);
  {
    g_autofree char *got = job_take (&j);

    ck_assert (g_str_has_prefix (got, "; fio job reproducing a Diskscope ? run (?)\n; reads only\n"));
  }
  job_clear (&j);
  /* Its own kind again: the result frees its workload data. */
  r->kind = DS_BENCH_WORKLOAD;
}
END_TEST

/* The run's line: path, model, start and host from the result file,
 * each on one line, escaped and cut to 120 characters. */
START_TEST (test_header_run_line)
{
  g_autoptr (DsResult) r = ds_test_result_new (DS_BENCH_EXTRA, "/dev/sdz", FALSE);
  g_autofree char *long_host = g_strnfill (300, 'h');
  const char *cut_host = "; the run: ? on ?, started 2026-01-02T03:04:05Z on ";
  Job j;

  job_init (&j);
  set_str (&r->started_at, "2026-01-02T03:04:05Z");
  set_str (&r->hostname, "lab");
  ds_fio_job_header (&j.job, r, "/dev/sdz", DS_FIO_JOB_READS);
  {
    g_autofree char *got = job_take (&j);
    g_auto (GStrv) lines = g_strsplit (got, "\n", -1);

    ck_assert_str_eq (lines[0], "; fio job reproducing a Diskscope extra run (Extra Tests)");
    ck_assert_str_eq (lines[1], "; the run: /dev/sdz on FUJITSU ETERNUS_DX400, started 2026-01-02T03:04:05Z on lab");
    ck_assert_str_eq (lines[2], "; reads only");
  }

  /* No host: no " on ". A model with a newline and an escape stays one
   * comment line, the newline shown as "\n". */
  g_clear_pointer (&r->hostname, g_free);
  g_free (r->target.model);
  r->target.model = g_strdup ("evil\n[global]\nexec_prerun=x\x1b[2J");
  ds_fio_job_header (&j.job, r, "/dev/sdz", DS_FIO_JOB_READS);
  {
    g_autofree char *got = job_take (&j);
    g_auto (GStrv) lines = g_strsplit (got, "\n", -1);

    ck_assert_str_eq (lines[1], "; the run: /dev/sdz on evil\\n[global]\\nexec_prerun=x\\x1B[2J, "
                      "started 2026-01-02T03:04:05Z");
    ck_assert_str_eq (lines[2], "; reads only");
  }

  /* NULL strings are "?"; a long host is cut to 119 characters and "…". */
  g_clear_pointer (&r->target.model, g_free);
  g_clear_pointer (&r->target.path, g_free);
  set_str (&r->hostname, long_host);
  ds_fio_job_header (&j.job, r, "/dev/sdz", DS_FIO_JOB_READS);
  {
    g_autofree char *got = job_take (&j);
    g_auto (GStrv) lines = g_strsplit (got, "\n", -1);
    const char *host = lines[1] + strlen (cut_host);

    ck_assert (g_str_has_prefix (lines[1], cut_host));
    ck_assert_uint_eq (g_utf8_strlen (host, -1), 120);
    ck_assert (g_str_has_suffix (host, "h…"));
    ck_assert_uint_eq (strspn (host, "h"), 119);
  }
  job_clear (&j);
}
END_TEST

START_TEST (test_comment_text)
{
  g_autofree char *null = ds_fio_job_comment_text (NULL);
  g_autofree char *plain = ds_fio_job_comment_text ("WDC WD40EFRX");
  g_autofree char *ctl = ds_fio_job_comment_text ("a\tb\rc\nd\x7f");
  g_autofree char *exact = g_strnfill (120, 'x');
  g_autofree char *over = g_strnfill (121, 'x');
  g_autofree char *exact_out = ds_fio_job_comment_text (exact);
  g_autofree char *over_out = ds_fio_job_comment_text (over);
  g_autofree char *empty = ds_fio_job_comment_text ("");

  ck_assert_str_eq (null, "?");
  ck_assert_str_eq (plain, "WDC WD40EFRX");
  ck_assert_str_eq (ctl, "a\\tb\\rc\\nd\\x7F");
  ck_assert_str_eq (empty, "");
  ck_assert_str_eq (exact_out, exact);
  ck_assert_uint_eq (g_utf8_strlen (over_out, -1), 120);
  ck_assert (g_str_has_suffix (over_out, "x…"));
}
END_TEST

START_TEST (test_engine)
{
  g_autoptr (DsResult) r = ds_test_result_new (DS_BENCH_WORKLOAD, "/dev/sdz", FALSE);
  static const struct {
    const char *ran, *spec;
    unsigned    depth;
    const char *fio;
    gboolean    uring, pool;
  } cases[] = {
    { "io_uring", NULL, 1, "io_uring", TRUE, FALSE },
    { "io_uring", NULL, 32, "io_uring", TRUE, FALSE },
    { "threads", NULL, 1, "psync", FALSE, FALSE },
    { "threads", NULL, 4, "psync", FALSE, TRUE },
    { "sync", NULL, 32, "psync", FALSE, FALSE },
    /* What ran wins over what was asked. */
    { "sync", "io_uring", 32, "psync", FALSE, FALSE },
    /* Nothing ran (yet): what was asked. */
    { NULL, "threads", 8, "psync", FALSE, TRUE },
    { NULL, "io_uring", 1, "io_uring", TRUE, FALSE },
    /* Unknown or none: what auto would pick. */
    { "fio-libaio", NULL, 1, "psync", FALSE, FALSE },
    { "fio-libaio", NULL, 2, "io_uring", TRUE, FALSE },
    { NULL, NULL, 1, "psync", FALSE, FALSE },
    { NULL, NULL, 0, "psync", FALSE, FALSE },
    { NULL, NULL, 64, "io_uring", TRUE, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DsFioEngine e;

      g_free (r->engine);
      r->engine = g_strdup (cases[i].ran);
      g_free (r->spec.engine);
      r->spec.engine = g_strdup (cases[i].spec);
      e = ds_fio_job_engine (r, cases[i].depth);
      ck_assert_msg (strcmp (e.fio_engine, cases[i].fio) == 0, "case %u: %s", i, e.fio_engine);
      ck_assert_msg (e.uring == cases[i].uring && e.pool == cases[i].pool, "case %u", i);
    }
}
END_TEST

START_TEST (test_global)
{
  g_autoptr (DsResult) r = ds_test_result_new (DS_BENCH_WORKLOAD, "/dev/sdz", FALSE);
  const DsFioEngine uring = { "io_uring", TRUE, FALSE };
  const DsFioEngine psync = { "psync", FALSE, FALSE };
  const char *head = "[global]\nfilename=/dev/sdz\ndirect=1\n";
  const char *common = "thread=1\ngroup_reporting=1\nrefill_buffers=1\nnorandommap=1\nrandrepeat=0\n";
  const char *fio_default = "; random offsets: multiples of each job's (smallest) block size, "
                            "fio's default blockalign, as the run's\n";
  const char *aligned = "; random offsets: multiples of the run's --align\n";
  g_autofree char *want1 = NULL, *want2 = NULL, *want3 = NULL, *want4 = NULL;
  Job j;

  job_init (&j);
  r->spec.seed = 0;
  r->spec.random_align_bytes = 0;
  ds_fio_job_global (&j.job, r, "/dev/sdz", psync);
  want1 = g_strconcat (head, "ioengine=psync\n", common, "lat_percentiles=1\n", fio_default, NULL);
  ASSERT_JOB (&j, want1);

  r->spec.seed = G_MAXUINT64;
  r->spec.random_align_bytes = 512;
  ds_fio_job_global (&j.job, r, "/dev/sdz", uring);
  want2 = g_strconcat (head, "ioengine=io_uring\nfixedbufs=1\nregisterfiles=1\n", common,
                       "randseed=18446744073709551615\nlat_percentiles=1\n", aligned,
                       "blockalign=512\n", NULL);
  ASSERT_JOB (&j, want2);

  /* --align below the logical block: the block. */
  r->spec.seed = 42;
  r->spec.random_align_bytes = 512;
  r->target.logical_block_size = 4096;
  ds_fio_job_global (&j.job, r, "/dev/sdz", psync);
  want3 = g_strconcat (head, "ioengine=psync\n", common, "randseed=42\nlat_percentiles=1\n", aligned,
                       "blockalign=4096\n", NULL);
  ASSERT_JOB (&j, want3);

  /* An unknown logical block counts as 512 bytes. */
  r->spec.random_align_bytes = 1;
  r->target.logical_block_size = 0;
  ds_fio_job_global (&j.job, r, "/dev/sdz", psync);
  want4 = g_strconcat (head, "ioengine=psync\n", common, "randseed=42\nlat_percentiles=1\n", aligned,
                       "blockalign=512\n", NULL);
  ASSERT_JOB (&j, want4);
  job_clear (&j);
}
END_TEST

START_TEST (test_options)
{
  Job j;

  job_init (&j);
  ds_fio_job_kv (&j.job, "rwmixread", "%d", 70);
  ds_fio_job_kv (&j.job, "name", "%s", "");
  ds_fio_job_bytes (&j.job, "size", 0);
  ds_fio_job_bytes (&j.job, "offset", G_MAXUINT64);
  ds_fio_job_comment (&j.job, "%u x %s", 3u, "io");
  ds_fio_job_comment (&j.job, "%s", "");
  ASSERT_JOB (&j, "rwmixread=70\nname=\nsize=0\noffset=18446744073709551615\n; 3 x io\n; \n");

  /* Times: rounded to the nearest millisecond, at least one. */
  {
    static const struct { uint64_t ns; const char *want; } cases[] = {
      { 0, "t=1ms\n" }, { 1, "t=1ms\n" }, { 1499999, "t=1ms\n" }, { 1500000, "t=2ms\n" },
      { 1000000, "t=1ms\n" }, { UINT64_C (60000000000), "t=60000ms\n" },
      { UINT64_C (3600) * 1000000000 + 499999, "t=3600000ms\n" },
      { G_MAXUINT64, "t=18446744073710ms\n" },
      { G_MAXUINT64 - 500000, "t=18446744073709ms\n" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *got = NULL;

        ds_fio_job_time (&j.job, "t", cases[i].ns);
        got = job_take (&j);
        ck_assert_msg (strcmp (got, cases[i].want) == 0, "%" G_GUINT64_FORMAT " ns: %s", cases[i].ns, got);
      }
  }
  job_clear (&j);
}
END_TEST

START_TEST (test_row)
{
  Job j;

  job_init (&j);
  ds_fio_job_row (&j.job, "seq_read", "read", 1048576, 0, 0, 4096 * 1024, 0, FALSE);
  ASSERT_JOB (&j, "\n[seq_read]\nstonewall=1\nrw=read\nbs=1048576\noffset=0\nsize=4194304\n");

  /* A range when bs_max is larger; time_based and runtime when asked. */
  ds_fio_job_row (&j.job, "mixed", "randrw", 512, 65536, 8192, 1 << 20, 2500000000, TRUE);
  ASSERT_JOB (&j, "\n[mixed]\nstonewall=1\nrw=randrw\nbsrange=512-65536\noffset=8192\nsize=1048576\n"
              "time_based=1\nruntime=2500ms\n");

  /* bs_max equal or smaller: one size. */
  ds_fio_job_row (&j.job, "a", "write", 4096, 4096, 0, 4096, 1, FALSE);
  ASSERT_JOB (&j, "\n[a]\nstonewall=1\nrw=write\nbs=4096\noffset=0\nsize=4096\nruntime=1ms\n");
  ds_fio_job_row (&j.job, "b", "write", 4096, 512, 0, 4096, 0, TRUE);
  ASSERT_JOB (&j, "\n[b]\nstonewall=1\nrw=write\nbs=4096\noffset=0\nsize=4096\ntime_based=1\n");
  job_clear (&j);
}
END_TEST

START_TEST (test_depth)
{
  const DsFioEngine uring = { "io_uring", TRUE, FALSE };
  const DsFioEngine psync = { "psync", FALSE, FALSE };
  const DsFioEngine pool = { "psync", FALSE, TRUE };
  Job j;

  job_init (&j);
  ds_fio_job_depth (&j.job, uring, 32, 4);
  ASSERT_JOB (&j, "iodepth=32\nnumjobs=4\n");
  ds_fio_job_depth (&j.job, psync, 32, 4);
  ASSERT_JOB (&j, "iodepth=1\nnumjobs=4\n");
  ds_fio_job_depth (&j.job, pool, 8, 2);
  ASSERT_JOB (&j, "; our thread pool ran 2 x 8 synchronous I/Os in flight\niodepth=1\nnumjobs=16\n");
  /* Zeros count as one. */
  ds_fio_job_depth (&j.job, uring, 0, 0);
  ASSERT_JOB (&j, "iodepth=1\nnumjobs=1\n");
  ds_fio_job_depth (&j.job, pool, 0, 0);
  ASSERT_JOB (&j, "; our thread pool ran 1 x 1 synchronous I/Os in flight\niodepth=1\nnumjobs=1\n");
  job_clear (&j);
}
END_TEST

START_TEST (test_rw)
{
  ck_assert_str_eq (ds_fio_job_rw (DS_PATTERN_READ), "read");
  ck_assert_str_eq (ds_fio_job_rw (DS_PATTERN_WRITE), "write");
  ck_assert_str_eq (ds_fio_job_rw (DS_PATTERN_RANDREAD), "randread");
  ck_assert_str_eq (ds_fio_job_rw (DS_PATTERN_RANDWRITE), "randwrite");
  ck_assert_str_eq (ds_fio_job_rw (DS_PATTERN_RANDRW), "randrw");
  ck_assert_str_eq (ds_fio_job_rw (DS_PATTERN_RW), "rw");
  ck_assert_str_eq (ds_fio_job_rw ((DsPattern) 99), "randrw");
}
END_TEST

START_TEST (test_align_span_region)
{
  g_autoptr (DsResult) r = ds_test_result_new (DS_BENCH_WORKLOAD, "/dev/sdz", FALSE);

  ck_assert_uint_eq (ds_fio_job_align_down (4097, 4096), 4096);
  ck_assert_uint_eq (ds_fio_job_align_down (4096, 4096), 4096);
  ck_assert_uint_eq (ds_fio_job_align_down (4095, 4096), 0);
  ck_assert_uint_eq (ds_fio_job_align_down (12345, 0), 12345);
  ck_assert_uint_eq (ds_fio_job_align_down (G_MAXUINT64, 512), G_MAXUINT64 - 511);
  ck_assert_uint_eq (ds_fio_job_align_down (1000, 3), 999);

  /* Tested span: the device, or --capacity when smaller, in whole sectors. */
  r->target.size_bytes = 1000000;
  r->spec.capacity_bytes = 0;
  ck_assert_uint_eq (ds_fio_job_tested_span (r), 999936);
  r->spec.capacity_bytes = 10000;
  ck_assert_uint_eq (ds_fio_job_tested_span (r), 9728);
  r->spec.capacity_bytes = 2000000;
  ck_assert_uint_eq (ds_fio_job_tested_span (r), 999936);
  r->target.logical_block_size = 4096;
  ck_assert_uint_eq (ds_fio_job_tested_span (r), 999424);
  r->target.logical_block_size = 0;
  ck_assert_uint_eq (ds_fio_job_tested_span (r), 999936);
  r->target.size_bytes = 0;
  ck_assert_uint_eq (ds_fio_job_tested_span (r), 0);

  /* Region: from offset to the end, or span, in whole blocks. */
  r->target.size_bytes = 1 << 20;
  r->spec.offset_bytes = 0;
  r->spec.span_bytes = 0;
  ck_assert_uint_eq (ds_fio_job_region (r, 4096), 1 << 20);
  r->spec.offset_bytes = 1000;
  ck_assert_uint_eq (ds_fio_job_region (r, 4096), 1044480);
  r->spec.span_bytes = 10000;
  ck_assert_uint_eq (ds_fio_job_region (r, 4096), 8192);
  r->spec.span_bytes = 2 << 20;
  ck_assert_uint_eq (ds_fio_job_region (r, 4096), 1044480);
  /* Offset past the end: span alone, or nothing. */
  r->spec.offset_bytes = 2 << 20;
  ck_assert_uint_eq (ds_fio_job_region (r, 4096), 2 << 20);
  r->spec.span_bytes = 0;
  ck_assert_uint_eq (ds_fio_job_region (r, 4096), 0);
  r->spec.offset_bytes = 1 << 20;
  ck_assert_uint_eq (ds_fio_job_region (r, 4096), 0);
  /* No block: unaligned. */
  r->spec.offset_bytes = 1;
  ck_assert_uint_eq (ds_fio_job_region (r, 0), (1 << 20) - 1);
}
END_TEST

START_TEST (test_refuse)
{
  g_autoptr (GError) error = NULL;

  ck_assert (!ds_fio_job_refuse (&error, "A health check", "it reads SMART, not the disk"));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
  ck_assert_str_eq (error->message,
                    "A health check cannot be expressed as a fio job, because it reads SMART, not the disk");
  /* No error wanted: still FALSE. */
  ck_assert (!ds_fio_job_refuse (NULL, "x", "y"));
}
END_TEST

/* A whole job as a kind writes it: header, [global], two sections. */
START_TEST (test_whole_job)
{
  g_autoptr (DsResult) r = ds_test_result_new (DS_BENCH_RANDOM_ACCESS, "/dev/sdz", FALSE);
  DsFioEngine e;
  Job j;

  job_init (&j);
  set_str (&r->started_at, "2026-03-04T05:06:07Z");
  g_clear_pointer (&r->hostname, g_free);
  r->spec.seed = 7;
  r->spec.random_align_bytes = 0;
  e = ds_fio_job_engine (r, 4);
  ds_fio_job_header (&j.job, r, j.job.filename, DS_FIO_JOB_READS);
  ds_fio_job_global (&j.job, r, j.job.filename, e);
  ds_fio_job_comment (&j.job, "%s", "row 1 of 2");
  ds_fio_job_row (&j.job, "r512", ds_fio_job_rw (DS_PATTERN_RANDREAD), 512, 0, 0,
                  ds_fio_job_tested_span (r), 1000000000, TRUE);
  ds_fio_job_depth (&j.job, e, 4, 1);
  ds_fio_job_row (&j.job, "r4k", ds_fio_job_rw (DS_PATTERN_RANDREAD), 4096, 0, 0,
                  ds_fio_job_align_down (ds_fio_job_tested_span (r), 4096), 1000000000, TRUE);
  ds_fio_job_depth (&j.job, e, 4, 1);
  ASSERT_JOB (&j,
              "; fio job reproducing a Diskscope random-access run (Random Access)\n"
              "; the run: /dev/sdz on FUJITSU ETERNUS_DX400, started 2026-03-04T05:06:07Z\n"
              "; reads only\n"
              "; run it: fio --output-format=json --output=fio.json THIS_FILE\n"
              "; then:   diskscope-cli import-fio fio.json; diskscope-cli compare ...\n"
              "\n"
              "[global]\nfilename=/dev/sdz\ndirect=1\nioengine=psync\nthread=1\ngroup_reporting=1\n"
              "refill_buffers=1\nnorandommap=1\nrandrepeat=0\nrandseed=7\nlat_percentiles=1\n"
              "; random offsets: multiples of each job's (smallest) block size, fio's default "
              "blockalign, as the run's\n"
              "; row 1 of 2\n"
              "\n[r512]\nstonewall=1\nrw=randread\nbs=512\noffset=0\nsize=500000000000\n"
              "time_based=1\nruntime=1000ms\n"
              "iodepth=1\nnumjobs=1\n"
              "\n[r4k]\nstonewall=1\nrw=randread\nbs=4096\noffset=0\nsize=499999997952\n"
              "time_based=1\nruntime=1000ms\n"
              "iodepth=1\nnumjobs=1\n");
  job_clear (&j);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("fio-job");
  TCase *tc = tcase_create ("fio-job");

  tcase_add_test (tc, test_header_writes);
  tcase_add_test (tc, test_header_run_line);
  tcase_add_test (tc, test_comment_text);
  tcase_add_test (tc, test_engine);
  tcase_add_test (tc, test_global);
  tcase_add_test (tc, test_options);
  tcase_add_test (tc, test_row);
  tcase_add_test (tc, test_depth);
  tcase_add_test (tc, test_rw);
  tcase_add_test (tc, test_align_span_region);
  tcase_add_test (tc, test_refuse);
  tcase_add_test (tc, test_whole_job);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
