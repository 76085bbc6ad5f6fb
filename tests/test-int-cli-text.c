/* test-int-cli-text.c: what diskscope-cli says to a new user: each
 * command's help, the file test's rows and errors, report's order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <grp.h>
#include <json-glib/json-glib.h>
#include <pwd.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-faultdisk.h"
#include "ds-test-util.h"

/* Runs diskscope-cli with @args (NULL-terminated); stdout and stderr in
 * *@ret_out and *@ret_err.  As user @uid when it is not 0. */
static int
cli_as (uid_t               uid,
        char              **ret_out,
        char              **ret_err,
        const char *const  *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);

  if (uid != 0)
    {
      /* setpriv (util-linux) drops to the user with no groups: what an
       * unprivileged login without "disk" has. */
      g_ptr_array_add (argv, g_strdup ("setpriv"));
      g_ptr_array_add (argv, g_strdup_printf ("--reuid=%u", (unsigned) uid));
      g_ptr_array_add (argv, g_strdup_printf ("--regid=%u", (unsigned) uid));
      g_ptr_array_add (argv, g_strdup ("--clear-groups"));
    }
  g_ptr_array_add (argv, g_strdup (ds_test_cli_path ()));
  for (unsigned i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, NULL);

  /* Always captured: the command's stdout would break the TAP stream. */
  {
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    int rc = ds_test_run ((const char *const *) argv->pdata, &out, &err);

    if (ret_out != NULL)
      *ret_out = g_steal_pointer (&out);
    if (ret_err != NULL)
      *ret_err = g_steal_pointer (&err);
    return rc;
  }
}

static int
cli (char              **ret_out,
     char              **ret_err,
     const char *const  *args)
{
  return cli_as (0, ret_out, ret_err, args);
}

/* The line of @text that contains @needle, or NULL. */
static char *
line_with (const char *text,
           const char *needle)
{
  const char *hit = strstr (text, needle);
  const char *start, *end;

  if (hit == NULL)
    return NULL;
  for (start = hit; start > text && start[-1] != '\n'; start--)
    ;
  end = strchr (hit, '\n');
  return g_strndup (start, end ? (gsize) (end - start) : strlen (start));
}

/* Every command's --help names the command in its usage line, so the
 * line can be typed as it reads. */
START_TEST (test_help_names_the_command)
{
  static const char *const commands[] = {
    "benchmark", "extra", "random-access", "block-size", "file", "workload",
    "report", "info", "list", "scan", "health",
  };

  for (unsigned i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *args[] = { commands[i], "--help", NULL };
      g_autofree char *out = NULL;
      g_autofree char *usage = g_strdup_printf ("diskscope-cli %s [OPTION", commands[i]);

      ck_assert_int_eq (cli (&out, NULL, args), 0);
      ck_assert_msg (strstr (out, usage) != NULL, "%s --help: no “%s” in\n%s", commands[i], usage, out);
    }
}
END_TEST

/* The table kinds say how long a row takes when --duration is not given;
 * file, which writes only its own file, does not offer --destroy-data. */
START_TEST (test_help_durations_and_options)
{
  static const struct { const char *command; const char *default_text; } kinds[] = {
    { "extra", "default 3s" },
    { "random-access", "default 3s" },
    { "block-size", "default 1s" },
    { "file", "default 3s, 1s per block size" },
    { "workload", "default 10s" },
  };
  const char *file_args[] = { "file", "--help", NULL };
  const char *bench_args[] = { "benchmark", "--help", NULL };
  g_autofree char *file_help = NULL;
  g_autofree char *bench_help = NULL;

  for (unsigned i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      const char *args[] = { kinds[i].command, "--help", NULL };
      g_autofree char *out = NULL;
      g_autofree char *line = NULL;

      ck_assert_int_eq (cli (&out, NULL, args), 0);
      line = line_with (out, "--duration");
      ck_assert_msg (line != NULL, "%s --help has no --duration", kinds[i].command);
      ck_assert_msg (strstr (line, kinds[i].default_text) != NULL,
                     "%s: “%s” does not say “%s”", kinds[i].command, line, kinds[i].default_text);
    }

  ck_assert_int_eq (cli (&file_help, NULL, file_args), 0);
  ck_assert_ptr_null (strstr (file_help, "destroy-data"));
  ck_assert_ptr_null (strstr (file_help, "--write"));
  ck_assert_int_eq (cli (&bench_help, NULL, bench_args), 0);
  ck_assert_ptr_nonnull (strstr (bench_help, "--destroy-data"));
  /* benchmark has no rows: no --duration to explain. */
  ck_assert_ptr_null (strstr (bench_help, "--duration"));
}
END_TEST

/* The file test's random rows name their transfer size; the size typed
 * in powers of 1024 is echoed so. */
START_TEST (test_file_rows_name_the_block)
{
  g_autofree char *dir = g_build_filename (ds_test_scratch_dir (), "files", NULL);
  const char *args[] = { "file", dir, "--accuracy", "1", "--size", "16M", "--no-progress", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc;

  g_mkdir_with_parents (dir, 0700);
  rc = cli (&out, &err, args);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_ptr_nonnull (strstr (out, "\nRandom 4 KB read "));
  ck_assert_ptr_nonnull (strstr (out, "\nRandom 4 KB write "));
  ck_assert_ptr_nonnull (strstr (out, "\nRandom 4 KB read (queue depth = 32) "));
  ck_assert_ptr_nonnull (strstr (out, "File Size: 16 MiB (16.8 MB)"));
  ck_assert_ptr_null (strstr (out, "\nRandom read"));
}
END_TEST

/* An unprivileged user on a folder it cannot write gets the reason alone
 * on stderr, not a table of dashes before it. */
START_TEST (test_file_permission_error_alone)
{
  g_autofree char *dir = g_build_filename (ds_test_scratch_dir (), "not-yours", NULL);
  const char *args[] = { "file", dir, "--accuracy", "1", "--size", "16M", NULL };
  struct passwd *nobody = getpwnam ("nobody");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *setpriv = g_find_program_in_path ("setpriv");
  int rc;

  ck_assert_msg (nobody != NULL, "no user “nobody” to run as");
  ck_assert_msg (setpriv != NULL, "setpriv (util-linux) is missing");
  g_mkdir_with_parents (dir, 0755);
  /* The scratch folder is root's 0700: let nobody reach "not-yours". */
  ck_assert_int_eq (chmod (ds_test_scratch_dir (), 0711), 0);

  rc = cli_as (nobody->pw_uid, &out, &err, args);
  ck_assert_int_eq (rc, 1);
  ck_assert_msg (*out == '\0', "stdout should be empty, is:\n%s", out);
  ck_assert_ptr_nonnull (strstr (err, "Permission denied"));
  ck_assert_ptr_nonnull (strstr (err, dir));
  /* One line: the reason and how to fix it. */
  ck_assert_ptr_eq (strchr (err, '\n'), err + strlen (err) - 1);
}
END_TEST

/* report prints the files in the order they were named (a workload before
 * a benchmark stays first). */
START_TEST (test_report_keeps_the_order)
{
  g_autofree char *image = ds_test_make_file ("disk.img", 32 << 20, 7);
  g_autofree char *bench = g_build_filename (ds_test_scratch_dir (), "b.json", NULL);
  g_autofree char *work = g_build_filename (ds_test_scratch_dir (), "w.json", NULL);
  const char *run_bench[] = { "benchmark", image, "--accuracy", "1", "--no-progress", "-o", bench, NULL };
  const char *run_work[] = { "workload", image, "--pattern", "randread", "--duration", "200ms",
                             "--no-progress", "-o", work, NULL };
  const char *report[] = { "report", work, bench, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *w, *b;

  ck_assert_int_eq (cli (NULL, &err, run_bench), 0);
  ck_assert_int_eq (cli (NULL, NULL, run_work), 0);

  ck_assert_int_eq (cli (&out, NULL, report), 0);
  w = strstr (out, "Workload");
  b = strstr (out, "Transfer Rate Average");
  ck_assert_ptr_nonnull (w);
  ck_assert_ptr_nonnull (b);
  ck_assert_msg (w < b, "the workload named first is printed after the benchmark:\n%s", out);
}
END_TEST

/* The progress line on a terminal (script(1) gives the run one): time
 * elapsed and left; a workload's live MB/s, IOPS and p99 as fio's status
 * line has them.  The line is drawn at most ten times a second, so the
 * runs must last: the workload 2 s, the benchmark on a fault disk whose
 * every I/O takes 2 ms (about 2 s for its 200 points; on a plain loop
 * device it took 0.3 s, and a loaded machine drew no line mid-run). */
static char *
run_on_terminal (const char *command_line)
{
  const char *argv[] = { "script", "-qec", command_line, "/dev/null", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc = ds_test_run (argv, &out, &err);

  ck_assert_msg (rc == 0, "“%s” exit %d: %s", command_line, rc, err);
  return g_steal_pointer (&out);
}

START_TEST (test_progress_lines)
{
  g_autofree char *image = ds_test_make_file ("progress.img", 64 << 20, 3);
  g_autofree char *device = ds_test_loop_attach (image, TRUE);
  const char *slow = NULL;
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_start (64 << 20, 3, &slow);
  g_autofree char *workload = g_strdup_printf ("%s workload %s --pattern randread --queue-depth 4 "
                                               "--duration 2s --json >/dev/null",
                                               ds_test_cli_path (), device);
  g_autofree char *benchmark = g_strdup_printf ("%s benchmark %s --accuracy 1 --json >/dev/null",
                                                ds_test_cli_path (), slow);
  g_autofree char *w = NULL;
  g_autofree char *b = NULL;
  gint64 start;

  ck_assert (ds_faultdisk_control (disk, "delay 2000"));
  w = run_on_terminal (workload);
  start = g_get_monotonic_time ();
  b = run_on_terminal (benchmark);
  ds_test_note ("the benchmark took %.1f s", (double) (g_get_monotonic_time () - start) / 1e6);

  ck_assert_msg (strstr (w, " left)") != NULL, "no time left in:\n%s", w);
  ck_assert_msg (strstr (w, " IOPS") != NULL, "no IOPS in:\n%s", w);
  ck_assert_msg (strstr (w, "MB/s") != NULL, "no MB/s in:\n%s", w);
  ck_assert_msg (strstr (w, "  p99 ") != NULL && strstr (w, " ms") != NULL, "no p99 in:\n%s", w);
  ck_assert_msg (strstr (b, " left)") != NULL, "no time left in:\n%s", b);
  ck_assert_msg (strstr (b, "  point ") != NULL, "no point rate in:\n%s", b);
  ds_test_loop_detach (device);
}
END_TEST

/* info lists the device's features (HD Tune's "Supported features"): a
 * loop device takes discards, has a hardware queue, no SMART, no link. */
START_TEST (test_info_features)
{
  g_autofree char *image = ds_test_make_file ("info.img", 16 << 20, 4);
  g_autofree char *device = ds_test_loop_attach (image, FALSE);
  const char *text_args[] = { "info", device, NULL };
  const char *json_args[] = { "info", device, "--json", NULL };
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *features;

  ck_assert_int_eq (cli (&text, NULL, text_args), 0);
  ck_assert_ptr_nonnull (strstr (text, "\nFeatures\n"));
  ck_assert_ptr_nonnull (strstr (text, "SMART:           Not available (virtual device)"));
  ck_assert_ptr_nonnull (strstr (text, "TRIM/discard:    yes (granularity "));
  ck_assert_ptr_nonnull (strstr (text, "Queues:          1 hardware queue, "));

  ck_assert_int_eq (cli (&json, NULL, json_args), 0);
  ck_assert (json_parser_load_from_data (parser, json, -1, NULL));
  features = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                            "features");
  ck_assert_ptr_nonnull (features);
  ck_assert (json_object_get_boolean_member (features, "discard"));
  ck_assert_int_gt (json_object_get_int_member (features, "discard_granularity"), 0);
  ck_assert_int_ge (json_object_get_int_member (features, "hw_queues"), 1);
  ck_assert_str_eq (json_object_get_string_member (features, "smart"), "none");
  ck_assert (json_node_is_null (json_object_get_member (features, "link_speed")));
  ds_test_loop_detach (device);
}
END_TEST

int
main (void)
{
  Suite *s;
  TCase *tc;

  ds_test_init ("int-cli-text");
  ds_test_require_root ("runs the CLI as another user");
  ds_faultdisk_init ();

  s = suite_create ("int-cli-text");
  tc = tcase_create ("cli-text");
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_help_names_the_command);
  tcase_add_test (tc, test_help_durations_and_options);
  tcase_add_test (tc, test_file_rows_name_the_block);
  tcase_add_test (tc, test_file_permission_error_alone);
  tcase_add_test (tc, test_report_keeps_the_order);
  tcase_add_test (tc, test_progress_lines);
  tcase_add_test (tc, test_info_features);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
