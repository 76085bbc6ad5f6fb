/* test-fio-job-text.c: what of a result may go into an fio job file, and
 * the job read back as fio reads it (core/fio/ds-fio-job-text.c): each
 * reason a file name is refused, word for word; every kind of line the
 * last guard lets through and each it stops; the job handed on or freed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-error.h"
#include "ds-fio-private.h"
#include "ds-test-util.h"

/* Why @file is unsafe, or "" when it is safe. */
static char *
why (const char *file)
{
  char *reason = ds_fio_unsafe_in_filename (file);

  return reason != NULL ? reason : g_strdup ("");
}

static void
assert_why (const char *file,
            const char *want)
{
  g_autofree char *got = why (file);

  ck_assert_msg (strcmp (got, want) == 0, "“%s”: got “%s”, want “%s”", file, got, want);
}

/* ---- the file to run on ------------------------------------------------- */

/* Names fio reads as they are: a ':' inside (the exporter escapes it),
 * blanks inside, any printable Unicode. */
START_TEST (test_filename_safe)
{
  const char *safe[] = {
    "/dev/sdb", "/dev/disk/by-id/ata-X_Y:1", "/tmp/a b/c", "/srv/é/日本", "x",
    "/dev/a:", "/tmp/100%", "/tmp/a,b'c\"d", "/tmp/{}()", "/tmp/\xe2\x81\xb0", /* U+2070 */
    "/tmp/\xe2\x81\xaa",                                                     /* U+206A */
  };

  for (guint i = 0; i < G_N_ELEMENTS (safe); i++)
    assert_why (safe[i], "");
}
END_TEST

/* Each reason, as the message says it. */
START_TEST (test_filename_reasons)
{
  assert_why ("", "nothing (an empty name)");
  assert_why ("/dev/\xff", "bytes that are not UTF-8");
  assert_why ("/dev/\xc3", "bytes that are not UTF-8");
  assert_why (" /dev/sdb", "a blank at its start or end (fio strips it)");
  assert_why ("/dev/sdb ", "a blank at its start or end (fio strips it)");
  assert_why ("/dev/sdb\t", "a blank at its start or end (fio strips it)");
  assert_why ("\n/dev/sdb", "a blank at its start or end (fio strips it)");
  assert_why (":/dev/sdb", "a “:” first (fio skips it)");
  assert_why ("/dev/a\nb", "a line break");
  assert_why ("/dev/a\rb", "a line break");
  assert_why ("/dev/a\x01" "b", "a control character (U+0001)");
  assert_why ("/dev/a\x1b[2J", "a control character (U+001B)");
  assert_why ("/dev/a\x7f", "a control character (U+007F)");
  assert_why ("/dev/a\xc2\x85", "a control character (U+0085)");
  /* Bidirectional overrides and isolates, line and paragraph separators:
   * a name that reads otherwise than it is. */
  assert_why ("/dev/a\xe2\x80\xaa", "a control character (U+202A)");
  assert_why ("/dev/a\xe2\x80\xae", "a control character (U+202E)");
  assert_why ("/dev/a\xe2\x81\xa6", "a control character (U+2066)");
  assert_why ("/dev/a\xe2\x81\xa9", "a control character (U+2069)");
  assert_why ("/dev/a\xe2\x80\xa8", "a control character (U+2028)");
  assert_why ("/dev/a\xe2\x80\xa9", "a control character (U+2029)");
  /* What fio cuts at, expands, or opens a section with. */
  assert_why ("/dev/a;b", "“;”");
  assert_why ("/dev/a#b", "“#”");
  assert_why ("/dev/${HOME}", "“$”");
  assert_why ("/dev/a=b", "“=”");
  assert_why ("/dev/a[b", "“[”");
  assert_why ("/dev/a]b", "“]”");
  assert_why ("/dev/a\\:b", "“\\”");
  /* The first reason from the left. */
  assert_why ("/dev/a;b#c", "“;”");
}
END_TEST

/* fio reads a line into a buffer of about 1000 bytes: a name of 968 bytes
 * still leaves room for "filename=", one more does not. */
START_TEST (test_filename_length)
{
  g_autofree char *fits = g_strnfill (968, 'a');
  g_autofree char *over = g_strnfill (969, 'a');
  g_autofree char *far = g_strnfill (5000, 'a');

  assert_why (fits, "");
  assert_why (over, "969 bytes (fio reads a line of at most about 1000)");
  assert_why (far, "5000 bytes (fio reads a line of at most about 1000)");
}
END_TEST

/* ---- the job read back -------------------------------------------------- */

/* What an exporter writes: comments, blank lines, our sections, options
 * whose values are a word, the escaped ':' in filename=. */
START_TEST (test_check_passes)
{
  const char *jobs[] = {
    "",
    "\n\n",
    "; fio job reproducing a Diskscope workload run (Workload)\n"
    "; the run: /dev/a;b $x [y] # on model\n"
    "\n[global]\nfilename=/dev/sdb\ndirect=1\nioengine=io_uring\n"
    "\n[diskscope-randrw]\nrw=randrw\nrwmixread=70\nbs=4096\nbsrange=512-1048576\n"
    "runtime=30000ms\n",
    "[row_0]\nstonewall=1\n",
    "[global]\nfilename=/dev/disk/by-id/a\\:b\\:c\n",
    "[global]\nfilename=/srv/é/a b\n",
    "[global]\nramp_time=1.5s\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    ck_assert_msg (ds_fio_job_check (jobs[i]), "refused:\n%s", jobs[i]);
}
END_TEST

/* Everything fio would read as more than our options. */
START_TEST (test_check_refuses)
{
  const char *jobs[] = {
    /* '#' comments are fio's too, but ours are ';': not written */
    "# a comment\n",
    /* sections */
    "[Global]\n", "[]\n", "[a]x\n", "[a\n", "[a b]\n", "[a.b]\n", " [a]\n",
    /* keys */
    "rw\n", "=read\n", "Rw=read\n", "r w=read\n", "rw =read\n", "rw2=read\n", " rw=read\n",
    "exec_prerun=x\n", "exec_postrun=x\n", "include=x\n", "include x\n",
    /* values */
    "rw=\n", "rw= read\n", "rw=read \n", "rw=re ad\n", "rw=read;x\n", "rw=read#x\n",
    "bs=$pagesize\n", "bs=${BS}\n", "rw=a=b\n", "rw=re\rad\n", "rw=[x]\n", "rw=a,b\n",
    "rw=a/b\n", "rw=a:b\n", "rw=r\xc3\xa9\n",
    /* filename= holds what a name may not */
    "filename=\n", "filename= /dev/sdb\n", "filename=/dev/sdb;x\n", "filename=/dev/sdb#x\n",
    "filename=${HOME}/x\n", "filename=/dev/a\\b\n", "filename=/dev/a\x01\n",
    "filename=/dev/\xff\n",
    /* a ':' not escaped: fio would read two files */
    "filename=/dev/a:b\n", "filename=:/dev/sdb\n", "filename=/dev/a\\:b:c\n",
    /* An escaped ':' lets its own backslash through, nothing more. */
    "filename=/dev/a\\:b;exec_prerun=x\n", "filename=/dev/a\\:b$x\n", "filename=/dev/a\\:b\\x\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_autofree char *job = g_strdup_printf ("[global]\nrw=read\n%s", jobs[i]);

      g_autofree char *shown = g_strescape (job, NULL);

      ck_assert_msg (!ds_fio_job_check (job), "passed: %s", shown);
    }
}
END_TEST

/* A line of 999 bytes is read whole; 1000 is refused, a comment too. */
START_TEST (test_check_line_length)
{
  g_autofree char *fill = g_strnfill (999 - 3, 'a');
  g_autofree char *fits = g_strdup_printf ("rw=%s\n", fill);
  g_autofree char *over = g_strdup_printf ("rw=%sa\n", fill);
  g_autofree char *comment = g_strdup_printf ("; %saa\n", fill);
  g_autofree char *comment_fits = g_strdup_printf ("; %sa\n", fill);

  ck_assert_uint_eq (strlen (fits), 1000);      /* 999 and the newline */
  ck_assert_uint_eq (strlen (comment), 1001);

  ck_assert (ds_fio_job_check (fits));
  ck_assert (!ds_fio_job_check (over));
  ck_assert (!ds_fio_job_check (comment));
  ck_assert (ds_fio_job_check (comment_fits));
}
END_TEST

/* The job handed on as it is, or freed with an error and never written. */
START_TEST (test_checked)
{
  const char *good = "; a job\n[global]\nfilename=/dev/sdb\n\n[diskscope-read]\nrw=read\n";
  g_autoptr (GError) error = NULL;
  g_autofree char *job = NULL;

  job = ds_fio_job_checked (g_string_new (good), &error);
  ck_assert_ptr_null (error);
  ck_assert_str_eq (job, good);

  ck_assert_ptr_null (ds_fio_job_checked (g_string_new ("[global]\nexec_prerun=rm -rf /\n"), &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_FAILED));
  ck_assert_str_eq (error->message, "the fio job would hold more than Diskscope's options (a bug): not written");

  /* No error asked for: still NULL, nothing leaked. */
  ck_assert_ptr_null (ds_fio_job_checked (g_string_new ("rw=read;x\n"), NULL));
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("fio-job-text");
  TCase *tc = tcase_create ("filename");
  TCase *tc_check = tcase_create ("check");

  tcase_add_test (tc, test_filename_safe);
  tcase_add_test (tc, test_filename_reasons);
  tcase_add_test (tc, test_filename_length);
  suite_add_tcase (s, tc);
  tcase_add_test (tc_check, test_check_passes);
  tcase_add_test (tc_check, test_check_refuses);
  tcase_add_test (tc_check, test_check_line_length);
  tcase_add_test (tc_check, test_checked);
  suite_add_tcase (s, tc_check);

  return ds_test_run_suite (s);
}
