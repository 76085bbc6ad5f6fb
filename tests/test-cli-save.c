/* test-cli-save.c: where diskscope-cli puts its result, what it refuses to
 * replace, and that a failed save or print is a failed run; signals keep
 * the partial result; a refused thread fails cleanly (no root, no device)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The targets are regular files in the scratch folder (read tests: they
 * take no confirmation).  Where root is needed to lose privileges
 * (an unwritable folder, a thread limit) the CLI runs as `nobody` through
 * setpriv; without root it runs as the user, whom the same limits bind.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "ds-test-util.h"

#define MiB (UINT64_C (1) << 20)

#define note ds_test_note

static char *target;      /* a 16 MiB file to read */

static void
setup (void)
{
  target = ds_test_make_file ("target.bin", 16 * MiB, 1);
}

static void
teardown (void)
{
  unlink (target);
  g_clear_pointer (&target, g_free);
}

static gboolean
contains (const char *haystack,
          const char *needle)
{
  return haystack != NULL && strstr (haystack, needle) != NULL;
}

static gboolean
is_json_result (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();

  return text != NULL && json_parser_load_from_data (parser, text, -1, NULL) &&
         JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) &&
         json_object_has_member (json_node_get_object (json_parser_get_root (parser)), "schema");
}

/* A quick read test on the target, saved with -o @output; returns the exit
 * status, with stdout/stderr.  `timeout` guards against a hang (a FIFO). */
static int
save_to (const char  *output,
         const char  *redirect,
         char       **ret_out,
         char       **ret_err)
{
  g_autofree char *script = g_strdup_printf ("exec \"$0\" \"$@\" %s", redirect ? redirect : "");
  const char *argv[] = { "timeout", "30", "sh", "-c", script, ds_test_cli_path (),
                         "workload", target, "--pattern", "randread", "--duration", "100ms",
                         "--no-progress", "-o", output, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc = ds_test_run (argv, &out, &err);

  note ("-o “%s”%s%s: exit %d: %s", output, redirect ? " " : "", redirect ? redirect : "", rc,
        err ? g_strstrip (err) : "");
  if (ret_out != NULL)
    *ret_out = g_steal_pointer (&out);
  if (ret_err != NULL)
    *ret_err = g_steal_pointer (&err);

  return rc;
}

/* -o @output is refused, exit 1, the message names it, and nothing was
 * run (the refusal comes before the run). */
static void
expect_refused (const char *output,
                const char *why)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc = save_to (output, NULL, &out, &err);

  ck_assert_msg (rc == 1, "-o %s: exit %d, want 1: %s", output, rc, err);
  ck_assert_msg (contains (err, output[0] ? output : "--output"), "-o %s: not named: %s", output, err);
  ck_assert_msg (why == NULL || contains (err, why), "-o %s: “%s” not in: %s", output, why, err);
  ck_assert_msg (out == NULL || out[0] == '\0', "-o %s: the run went ahead: %s", output, out);
}

/* ---- class 2: only regular files are (re)placed ------------------------ */

START_TEST (test_refuse_what_is_not_a_file)
{
  g_autofree char *fifo = ds_test_scratch_path ("out.fifo");
  g_autofree char *sock = ds_test_scratch_path ("out.sock");
  g_autofree char *dir = ds_test_scratch_path ("out-dir");
  g_autofree char *to_stdout = ds_test_scratch_path ("link-to-stdout");
  g_autofree char *to_null = ds_test_scratch_path ("link-to-null");
  g_autofree char *dangling = ds_test_scratch_path ("link-to-nothing");
  g_autofree char *to_dir = ds_test_scratch_path ("link-to-dir");
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  struct stat st;
  int fd;

  ck_assert_int_eq (mkfifo (fifo, 0600), 0);
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_strlcpy (addr.sun_path, sock, sizeof addr.sun_path);
  ck_assert_int_eq (bind (fd, (struct sockaddr *) &addr, sizeof addr), 0);
  ck_assert_int_eq (g_mkdir_with_parents (dir, 0700), 0);
  ck_assert_int_eq (symlink ("/proc/self/fd/1", to_stdout), 0);
  ck_assert_int_eq (symlink ("/dev/null", to_null), 0);
  ck_assert_int_eq (symlink ("/nonexistent/x.json", dangling), 0);
  ck_assert_int_eq (symlink (dir, to_dir), 0);

  expect_refused (fifo, "FIFO");
  expect_refused (sock, "socket");
  expect_refused (dir, "folder");
  expect_refused ("/dev/null", "character device");
  expect_refused (to_stdout, NULL);
  expect_refused (to_null, "character device");
  expect_refused (dangling, NULL);
  expect_refused (to_dir, "folder");
  close (fd);

  /* Each is what it was. */
  ck_assert_int_eq (lstat (fifo, &st), 0);
  ck_assert (S_ISFIFO (st.st_mode));
  ck_assert_int_eq (lstat (sock, &st), 0);
  ck_assert (S_ISSOCK (st.st_mode));
  ck_assert_int_eq (lstat (to_stdout, &st), 0);
  ck_assert (S_ISLNK (st.st_mode));
  ck_assert_int_eq (lstat (to_null, &st), 0);
  ck_assert (S_ISLNK (st.st_mode));
  ck_assert_int_eq (stat ("/dev/null", &st), 0);
  ck_assert (S_ISCHR (st.st_mode));
}
END_TEST

START_TEST (test_refuse_own_target)
{
  g_autofree char *before = ds_test_checksum (target);
  g_autofree char *after = NULL;
  g_autofree char *link = ds_test_scratch_path ("link-to-target");

  expect_refused (target, "target");
  ck_assert_int_eq (symlink (target, link), 0);
  expect_refused (link, "target");

  after = ds_test_checksum (target);
  ck_assert_str_eq (before, after);
}
END_TEST

START_TEST (test_regular_files_atomically)
{
  g_autofree char *path = ds_test_scratch_path ("result.json");
  g_autofree char *link = ds_test_scratch_path ("link-to-result");
  g_autofree char *data = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  struct stat before, after;
  int rc;

  /* A new file. */
  rc = save_to (path, NULL, NULL, &err);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert (g_file_get_contents (path, &data, NULL, NULL));
  ck_assert (is_json_result (data));

  /* Replaced by rename: a new inode, the old mode kept, no temp left. */
  ck_assert_int_eq (chmod (path, 0640), 0);
  ck_assert_int_eq (stat (path, &before), 0);
  g_clear_pointer (&err, g_free);
  rc = save_to (path, NULL, NULL, &err);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_int_eq (stat (path, &after), 0);
  ck_assert_uint_ne (before.st_ino, after.st_ino);
  ck_assert_uint_eq (after.st_mode & 07777, 0640);

  /* Through a symlink to a regular file: the file is replaced, the link
   * stays a link. */
  ck_assert_int_eq (symlink (path, link), 0);
  g_clear_pointer (&err, g_free);
  rc = save_to (link, NULL, NULL, &err);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_int_eq (lstat (link, &after), 0);
  ck_assert (S_ISLNK (after.st_mode));
  ck_assert_int_eq (stat (path, &after), 0);
  ck_assert (S_ISREG (after.st_mode));

  /* "-": stdout. */
  g_clear_pointer (&err, g_free);
  rc = save_to ("-", NULL, &out, &err);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg (is_json_result (out), "-o - did not print JSON: %.200s", out);
  ck_assert (!g_file_test ("-", G_FILE_TEST_EXISTS));

  {
    g_autofree char *listing = NULL;
    g_autoptr (GDir) dir = g_dir_open (ds_test_scratch_dir (), 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (dir)) != NULL)
      ck_assert_msg (!g_str_has_prefix (name, ".result.json"), "a temporary file was left: %s", name);
  }
}
END_TEST

/* The other job commands (scan, erase, health) save through the same
 * path: a FIFO is refused before the scan starts. */
START_TEST (test_scan_output_refused)
{
  g_autofree char *fifo = ds_test_scratch_path ("scan.fifo");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { "timeout", "30", ds_test_cli_path (), "scan", target, "-o", fifo, NULL };
  int rc;

  ck_assert_int_eq (mkfifo (fifo, 0600), 0);
  rc = ds_test_run (argv, &out, &err);
  note ("scan -o FIFO: exit %d: %s", rc, err ? g_strstrip (err) : "");
  ck_assert_msg (rc == 1, "exit %d: %s", rc, err);
  ck_assert_msg (contains (err, fifo) && contains (err, "FIFO") && contains (err, "nothing was run"),
                 "%s", err);
  ck_assert (out == NULL || out[0] == '\0');
}
END_TEST

/* ---- class 8: a failed save or print is a failed run ------------------- */

START_TEST (test_failed_save_fails_the_run)
{
  g_autofree char *dir = ds_test_scratch_path ("a-folder");

  ck_assert_int_eq (g_mkdir_with_parents (dir, 0700), 0);
  expect_refused ("/nonexistent/x.json", "/nonexistent");
  expect_refused (dir, "folder");
  expect_refused ("", NULL);
}
END_TEST

START_TEST (test_unwritable_folder)
{
  g_autofree char *dir = ds_test_scratch_path ("locked-folder");
  g_autofree char *path = ds_test_scratch_path ("locked-folder/r.json");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *args[] = { "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                         ds_test_cli_path (), "workload", target, "--pattern", "randread",
                         "--duration", "100ms", "-o", path, NULL };
  int rc;

  ck_assert_int_eq (g_mkdir_with_parents (dir, 0755), 0);
  /* The scratch folder and the target are readable by all; the folder is
   * not writable by the user that runs the CLI. */
  ck_assert_int_eq (chmod (ds_test_scratch_dir (), 0755), 0);
  ck_assert_int_eq (chmod (target, 0644), 0);
  if (ds_test_is_root ())
    rc = ds_test_run (args, &out, &err);
  else
    {
      ck_assert_int_eq (chmod (dir, 0555), 0);
      rc = ds_test_run (args + 4, &out, &err);
    }
  note ("unwritable folder: exit %d: %s", rc, err);
  ck_assert_msg (rc == 1, "exit %d: %s", rc, err);
  ck_assert_msg (contains (err, path), "the path is not named: %s", err);
  ck_assert_msg (contains (err, "ermission"), "no reason: %s", err);
  ck_assert (!g_file_test (path, G_FILE_TEST_EXISTS));
}
END_TEST

START_TEST (test_stdout_failures)
{
  const char *json[] = { "workload", target, "--pattern", "randread", "--duration", "100ms",
                         "--json", NULL };
  const char *text[] = { "workload", target, "--pattern", "randread", "--duration", "100ms", NULL };
  const char *dash[] = { "workload", target, "--pattern", "randread", "--duration", "100ms",
                         "-o", "-", NULL };
  const char *scan[] = { "scan", target, "--json", NULL };
  const char *list[] = { "list", NULL };
  const char *list_json[] = { "list", "--json", NULL };
  struct { const char *const *args; const char *redirect; const char *why; } cases[] = {
    { list, ">/dev/full", "No space" },
    { scan, ">/dev/full", "No space" },
    { list_json, ">&-", "stdout" },
    { json, ">/dev/full", "No space" },
    { text, ">/dev/full", "No space" },
    { dash, ">/dev/full", "No space" },
    { json, ">&-", "stdout" },
    { text, ">&-", "stdout" },
    { json, "| true", "stdout" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      const char *redirect = cases[i].redirect;
      int rc;

      if (g_str_has_prefix (redirect, "|"))
        {
          /* A reader that is gone before the result is written: EPIPE. */
          const char *argv[16] = { "bash", "-c", "set -o pipefail; \"$0\" \"$@\" | true",
                                   ds_test_cli_path () };
          for (guint a = 0; cases[i].args[a] != NULL; a++)
            argv[4 + a] = cases[i].args[a];
          rc = ds_test_run (argv, &out, &err);
        }
      else
        rc = ds_test_cli_argv (cases[i].args, redirect, NULL, &err);
      note ("%s %s: exit %d: %s", cases[i].args[0], redirect, rc, err ? g_strstrip (err) : "");
      ck_assert_msg (rc == 1, "%s: exit %d, want 1: %s", redirect, rc, err);
      ck_assert_msg (contains (err, cases[i].why), "%s: “%s” not in: %s", redirect, cases[i].why, err);
    }
}
END_TEST

/* ---- class 6: SIGINT, SIGTERM and SIGHUP keep the partial result ------- */

START_TEST (test_signals_keep_partial_result)
{
  const int signals[] = { SIGINT, SIGTERM, SIGHUP };

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      g_autofree char *output = g_strdup_printf ("%s/stopped-%d.json", ds_test_scratch_dir (),
                                                 signals[i]);
      const char *argv[] = { ds_test_cli_path (), "benchmark", target, "--accuracy", "5",
                             "--block-size", "4K", "--json", "--output", output, NULL };
      g_autoptr (GError) error = NULL;
      g_autofree char *out = NULL;
      g_autofree char *saved = NULL;
      GString *buf = g_string_new (NULL);
      char chunk[65536];
      ssize_t n;
      GPid pid;
      int out_fd;
      int status;

      ck_assert (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, &pid, NULL, &out_fd, NULL, &error));
      g_usleep (1000 * 1000);
      kill (pid, signals[i]);
      while ((n = read (out_fd, chunk, sizeof chunk)) > 0)
        g_string_append_len (buf, chunk, n);
      ck_assert_int_eq (waitpid (pid, &status, 0), pid);
      close (out_fd);
      out = g_string_free (buf, FALSE);

      note ("%s: %s %d", strsignal (signals[i]),
            WIFEXITED (status) ? "exit" : "killed by signal",
            WIFEXITED (status) ? WEXITSTATUS (status) : WTERMSIG (status));
      ck_assert_msg (WIFEXITED (status), "%s killed the CLI", strsignal (signals[i]));
      ck_assert_int_eq (WEXITSTATUS (status), 130);
      ck_assert_msg (is_json_result (out), "%s: no result printed: %.200s", strsignal (signals[i]), out);
      ck_assert_msg (contains (out, "\"cancelled\" : true"), "%s: not marked stopped", strsignal (signals[i]));
      ck_assert_msg (g_file_get_contents (output, &saved, NULL, NULL), "%s: --output not saved",
                     strsignal (signals[i]));
      ck_assert_str_eq (saved, out);
    }
}
END_TEST

/* ---- class 3: a refused thread fails the run, it does not abort -------- */

START_TEST (test_thread_limit)
{
  const char *args[] = { "prlimit", "--nproc=4:4", "--",
                         "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                         ds_test_cli_path (), "workload", target, "--pattern", "randread",
                         "--engine", "threads", "--queue-depth", "64", "--duration", "200ms",
                         "--json", NULL };
  const char *const *argv = args;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc;

  ck_assert_int_eq (chmod (ds_test_scratch_dir (), 0755), 0);
  ck_assert_int_eq (chmod (target, 0644), 0);
  if (!ds_test_is_root ())
    {
      /* prlimit alone: the limit binds the user who runs the test. */
      static const char *user[20];

      memcpy (user, args, 3 * sizeof *args);
      memcpy (user + 3, args + 7, (G_N_ELEMENTS (args) - 7) * sizeof *args);
      argv = user;
    }

  rc = ds_test_run (argv, &out, &err);
  note ("64 threads under ulimit -u 4: exit %d: %s", rc, err ? g_strstrip (err) : "");
  ck_assert_msg (rc == 1, "exit %d (133 is the abort), want 1: %s", rc, err);
  ck_assert_msg (contains (err, "ulimit -u"), "the limit is not named: %s", err);
  ck_assert_msg (is_json_result (out), "no result: %.300s", out);
  ck_assert_msg (contains (out, "ulimit -u"), "the result does not hold the error: %.300s", out);
}
END_TEST

static Suite *
cli_save_suite (void)
{
  Suite *suite = suite_create ("cli-save");
  TCase *save = tcase_create ("save");
  TCase *run = tcase_create ("run");

  tcase_set_timeout (save, 120);
  tcase_add_checked_fixture (save, setup, teardown);
  tcase_add_test (save, test_refuse_what_is_not_a_file);
  tcase_add_test (save, test_refuse_own_target);
  tcase_add_test (save, test_scan_output_refused);
  tcase_add_test (save, test_regular_files_atomically);
  tcase_add_test (save, test_failed_save_fails_the_run);
  tcase_add_test (save, test_unwritable_folder);
  tcase_add_test (save, test_stdout_failures);
  suite_add_tcase (suite, save);

  tcase_set_timeout (run, 120);
  tcase_add_checked_fixture (run, setup, teardown);
  tcase_add_test (run, test_signals_keep_partial_result);
  tcase_add_test (run, test_thread_limit);
  suite_add_tcase (suite, run);

  return suite;
}

int
main (void)
{
  ds_test_init ("cli-save");

  return ds_test_run_suite (cli_save_suite ());
}
