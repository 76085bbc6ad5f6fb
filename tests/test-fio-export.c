/* test-fio-export.c: a result exported as an fio job
 * (core/fio/ds-fio-export.c): the whole job of a real run, line by line;
 * where the file to run on comes from and how a ':' in it is escaped; each
 * refusal with its message; the command line that runs the job
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-error.h"
#include "ds-fio.h"
#include "ds-result-json.h"
#include "ds-test-kind.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

static DsResult *
load_fixture (const char *name)
{
  g_autofree char *path = g_build_filename (DS_TEST_FIXTURES_DIR, "results", name, NULL);
  g_autoptr (GError) error = NULL;
  DsResult *result = ds_result_load (path, &error);

  ck_assert_msg (result != NULL, "%s: %s", name, error ? error->message : "");
  return result;
}

/* The workload of tests/fixtures/results/workload.json (randrw 4 KiB, 70 %
 * reads, QD 1, our sync engine, 1 s, a 32 MiB file, written to) as the
 * job that reproduces it. */
START_TEST (test_workload_fixture)
{
  g_autoptr (DsResult) r = load_fixture ("workload.json");
  g_autoptr (GError) error = NULL;
  g_autofree char *job = ds_fio_job_from_result (r, NULL, &error);
  const char *want[] = {
    "; fio job reproducing a Diskscope workload run (Workload)",
    "; the run: /srv/diskscope-test/w.dat on Virtio block device, started 2026-12-02T00:02:26.634280Z on vm",
    "; WARNING: this job WRITES to /srv/diskscope-test/w.dat and DESTROYS ALL DATA on it",
    "; run it: fio --output-format=json --output=fio.json THIS_FILE",
    "; then:   diskscope-cli import-fio fio.json; diskscope-cli compare ...",
    "",
    "[global]",
    "filename=/srv/diskscope-test/w.dat",
    "direct=1",
    "ioengine=psync",
    "thread=1",
    "group_reporting=1",
    "refill_buffers=1",
    "norandommap=1",
    "randrepeat=0",
    "randseed=4049484813617",
    "lat_percentiles=1",
    /* The file predates random_align_bytes: its run drew offsets on the
     * logical block (512 bytes), as the job does. */
    "; random offsets: multiples of the run's --align",
    "blockalign=512",
    "",
    "[diskscope-randrw]",
    "rw=randrw",
    "rwmixread=70",
    "bs=4096",
    "iodepth=1",
    "numjobs=1",
    "offset=0",
    "size=33554432",
    "time_based=1",
    "runtime=1000ms",
    "",
    NULL,
  };

  ck_assert_msg (job != NULL, "%s", error ? error->message : "");
  ds_test_assert_lines (job, want);
}
END_TEST

/* --filename replaces the result's target everywhere it is named as the
 * file to run on; the run's own path stays in the comment about the run. */
START_TEST (test_filename_given)
{
  g_autoptr (DsResult) r = load_fixture ("workload.json");
  g_autoptr (GError) error = NULL;
  g_autofree char *job = ds_fio_job_from_result (r, "/dev/loop7", &error);

  ck_assert_msg (job != NULL, "%s", error ? error->message : "");
  ck_assert_msg (strstr (job, "\nfilename=/dev/loop7\n") != NULL, "%s", job);
  ck_assert_msg (strstr (job, "; WARNING: this job WRITES to /dev/loop7 and DESTROYS ALL DATA on it\n") != NULL,
                 "%s", job);
  ck_assert_msg (strstr (job, "; the run: /srv/diskscope-test/w.dat on ") != NULL, "%s", job);
  ck_assert_msg (strstr (job, "filename=/srv") == NULL, "%s", job);

  /* A result whose own path fio could not carry: a given name is enough. */
  g_free (r->target.path);
  r->target.path = g_strdup ("/dev/a;exec_prerun=x");
  g_clear_pointer (&job, g_free);
  job = ds_fio_job_from_result (r, "/dev/null", &error);
  ck_assert_msg (job != NULL, "%s", error ? error->message : "");
  ck_assert (strstr (job, "\nfilename=/dev/null\n") != NULL);
  ck_assert (strstr (job, "; the run: /dev/a;exec_prerun=x on Virtio block device") != NULL);
  ck_assert (strstr (job, "\nexec_prerun") == NULL);
}
END_TEST

/* fio splits filename= at ':': every ':' is escaped, from the result or
 * given. */
START_TEST (test_colon_escaped)
{
  g_autoptr (DsResult) r = load_fixture ("workload.json");
  g_autoptr (GError) error = NULL;
  g_autofree char *job = NULL;

  g_free (r->target.path);
  r->target.path = g_strdup ("/dev/disk/by-path/pci-0000:00:1f.2-ata-1");
  job = ds_fio_job_from_result (r, NULL, &error);
  ck_assert_msg (job != NULL, "%s", error ? error->message : "");
  ck_assert_msg (strstr (job, "\nfilename=/dev/disk/by-path/pci-0000\\:00\\:1f.2-ata-1\n") != NULL, "%s", job);
  ck_assert_msg (strstr (job, "WRITES to /dev/disk/by-path/pci-0000\\:00\\:1f.2-ata-1 and") != NULL, "%s", job);

  g_clear_pointer (&job, g_free);
  job = ds_fio_job_from_result (r, "/dev/a:", &error);
  ck_assert_msg (job != NULL, "%s", error ? error->message : "");
  ck_assert_msg (strstr (job, "\nfilename=/dev/a\\:\n") != NULL, "%s", job);
}
END_TEST

/* No file to run on: said so, with what to do. */
START_TEST (test_no_target)
{
  g_autoptr (DsResult) r = load_fixture ("workload.json");
  g_autoptr (GError) error = NULL;
  const char *want = "the result names no device or file to run on: give one (--filename)";

  g_clear_pointer (&r->target.path, g_free);
  ck_assert_ptr_null (ds_fio_job_from_result (r, NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_str_eq (error->message, want);
  g_clear_error (&error);

  r->target.path = g_strdup ("");
  ck_assert_ptr_null (ds_fio_job_from_result (r, NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_str_eq (error->message, want);
  g_clear_error (&error);

  /* An empty --filename is no file either, whatever the result says. */
  g_free (r->target.path);
  r->target.path = g_strdup ("/dev/sdb");
  ck_assert_ptr_null (ds_fio_job_from_result (r, "", &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_str_eq (error->message, want);
}
END_TEST

/* A name fio would misread: refused, the message saying whose name it is
 * (the result's or --filename), what in it, and what to do; the name
 * quoted escaped and cut short. */
START_TEST (test_unsafe_refused)
{
  g_autoptr (DsResult) r = load_fixture ("workload.json");
  g_autoptr (GError) error = NULL;
  g_autofree char *long_name = NULL;

  g_free (r->target.path);
  r->target.path = g_strdup ("/dev/sdb;exec_prerun=x");
  ck_assert_ptr_null (ds_fio_job_from_result (r, NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_str_eq (error->message,
                    "the result's device or file “/dev/sdb;exec_prerun=x” holds “;”, which an fio job "
                    "file cannot carry safely (fio would read it as more options): give the device or "
                    "file to run on with --filename");
  g_clear_error (&error);

  ck_assert_ptr_null (ds_fio_job_from_result (r, "/tmp/x#y", &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_str_eq (error->message,
                    "--filename “/tmp/x#y” holds “#”, which an fio job file cannot carry safely: "
                    "use a path without it (a symlink to the device, for one)");
  g_clear_error (&error);

  /* The name in the message is escaped: its newline does not end it. */
  g_free (r->target.path);
  r->target.path = g_strdup ("/dev/a\nrw=write");
  ck_assert_ptr_null (ds_fio_job_from_result (r, NULL, &error));
  ck_assert_msg (g_str_has_prefix (error->message, "the result's device or file “/dev/a\\nrw=write” holds a line break,"),
                 "%s", error->message);
  ck_assert (strchr (error->message, '\n') == NULL);
  g_clear_error (&error);

  /* ... and cut to 80 characters. */
  long_name = g_strnfill (2001, 'a');
  long_name[0] = '/';
  ck_assert_ptr_null (ds_fio_job_from_result (r, long_name, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_msg (strstr (error->message, "holds 2001 bytes (fio reads a line of at most about 1000)") != NULL,
                 "%s", error->message);
  ck_assert_uint_lt (g_utf8_strlen (error->message, -1), 300);
}
END_TEST

/* A kind fio has no test of says why, in the kind's words; one that is
 * no kind at all, in ours. */
START_TEST (test_unsupported)
{
  g_autoptr (DsResult) health = ds_test_result_new (DS_BENCH_HEALTH, "/dev/sdb", FALSE);
  g_autoptr (DsResult) erase = ds_test_result_new (DS_BENCH_ERASE, "/dev/sdb", TRUE);
  g_autoptr (DsResult) r = load_fixture ("workload.json");
  g_autoptr (GError) error = NULL;
  DsBenchKind kind = r->kind;

  ck_assert_ptr_null (ds_fio_job_from_result (health, NULL, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
  ck_assert_str_eq (error->message, "a Health result cannot be expressed as a fio job, because it is what "
                    "the drive's SMART data said (smartctl), not a test that moves data");
  g_clear_error (&error);

  ck_assert_ptr_null (ds_fio_job_from_result (erase, "/dev/sdb", &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
  ck_assert_msg (g_str_has_prefix (error->message, "an Erase cannot be expressed as a fio job, because fio "
                                   "neither discards"), "%s", error->message);
  g_clear_error (&error);

  r->kind = DS_BENCH_N_KINDS;
  ck_assert_ptr_null (ds_fio_job_from_result (r, "/dev/sdb", &error));
  r->kind = kind;
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
  ck_assert_str_eq (error->message,
                    "a ? result cannot be expressed as a fio job, because fio has no test of its kind");
}
END_TEST

/* Every fixture of a kind fio runs exports a job that names its file;
 * the ones that cannot, say so. */
START_TEST (test_fixtures)
{
  const char *names[] = { "workload.json", "mark.json", "sweep.json", "sustain.json", "cache.json",
                          "scan.json", "erase.json" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (DsResult) r = load_fixture (names[i]);
      g_autoptr (GError) error = NULL;
      g_autofree char *job = ds_fio_job_from_result (r, "/dev/loop7", &error);

      if (job == NULL)
        {
          ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED), "%s: %s", names[i],
                         error->message);
          ds_test_note ("%s: %s", names[i], error->message);
          continue;
        }
      ck_assert_msg (g_str_has_prefix (job, "; fio job reproducing a Diskscope "), "%s:\n%s", names[i], job);
      ck_assert_msg (strstr (job, "\n[global]\n") != NULL, "%s:\n%s", names[i], job);
      ck_assert_msg (strstr (job, "/dev/loop7") != NULL, "%s:\n%s", names[i], job);
    }
}
END_TEST

START_TEST (test_command_line)
{
  g_autofree char *plain = ds_fio_command_line ("job.fio", "out.json");
  g_autofree char *fallback = ds_fio_command_line ("job.fio", NULL);
  g_autofree char *quoted = ds_fio_command_line ("it's a job.fio", "$(rm -rf ~).json");

  ck_assert_str_eq (plain, "fio --output-format=json --output='out.json' 'job.fio'");
  ck_assert_str_eq (fallback, "fio --output-format=json --output='fio.json' 'job.fio'");
  ck_assert_str_eq (quoted, "fio --output-format=json --output='$(rm -rf ~).json' 'it'\\''s a job.fio'");
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("fio-export");
  TCase *tc = tcase_create ("export");

  tcase_add_test (tc, test_workload_fixture);
  tcase_add_test (tc, test_filename_given);
  tcase_add_test (tc, test_colon_escaped);
  tcase_add_test (tc, test_no_target);
  tcase_add_test (tc, test_unsafe_refused);
  tcase_add_test (tc, test_unsupported);
  tcase_add_test (tc, test_fixtures);
  tcase_add_test (tc, test_command_line);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
