/* test-int-cli.c: diskscope-cli benchmark and workload on real loop devices
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds-test-util.h"

static char *device;

static void
setup (void)
{
  device = ds_test_loop_new (64 << 20, FALSE);
}

static void
teardown (void)
{
  ds_test_loop_detach (device);
  g_clear_pointer (&device, g_free);
}

/* Runs the CLI; returns its exit status, parsed JSON stdout in *ret_root
 * (when asked) and stderr in *ret_err. */
static int
cli (JsonNode         **ret_root,
     char             **ret_err,
     const char        *first,
     ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *arg;
  va_list ap;
  int rc;

  g_ptr_array_add (argv, (gpointer) ds_test_cli_path ());
  va_start (ap, first);
  for (arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);

  rc = ds_test_run ((const char *const *) argv->pdata, &out, &err);
  if (ret_root != NULL)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;

      ck_assert_msg (json_parser_load_from_data (parser, out, -1, &error),
                     "stdout is not JSON (%s): %.200s / stderr %.300s",
                     error ? error->message : "", out, err);
      *ret_root = json_node_copy (json_parser_get_root (parser));
    }
  if (ret_err != NULL)
    *ret_err = g_steal_pointer (&err);

  return rc;
}

static JsonObject *
obj (JsonNode *root, const char *path)
{
  g_auto (GStrv) parts = g_strsplit (path, ".", -1);
  JsonObject *o = json_node_get_object (root);

  for (unsigned i = 0; parts[i] != NULL; i++)
    {
      ck_assert_msg (json_object_has_member (o, parts[i]), "%s: no %s", path, parts[i]);
      o = json_object_get_object_member (o, parts[i]);
    }
  return o;
}

/* Sectors the kernel saw read and written on a block device. */
static void
device_sectors (const char *dev,
                uint64_t   *ret_read,
                uint64_t   *ret_written)
{
  g_autofree char *path = g_strdup_printf ("/sys/block/%s/stat", dev + strlen ("/dev/"));
  g_autofree char *text = NULL;
  unsigned long long f[11] = { 0 };

  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  ck_assert_int_ge (sscanf (text, "%llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3],
                            &f[4], &f[5], &f[6]), 7);
  *ret_read = f[2];
  *ret_written = f[6];
}

START_TEST (test_workload_counts_exactly)
{
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *err = NULL;
  JsonObject *read;
  uint64_t r0, w0, r1, w1, ios, bytes;
  int rc;

  /* The kernel's count includes any other reader of the device: another
   * process listing devices probes every one for signatures (libblkid
   * reads about 1 MiB of it, buffered), as the display tests and a
   * desktop's udev do.  Such a probe is rare and lands in one run; a drop
   * in our counting would show in every run.  So: up to three runs, the
   * last one compared. */
  for (int attempt = 0; attempt < 3; attempt++)
    {
      g_clear_pointer (&root, json_node_unref);
      g_clear_pointer (&err, g_free);
      device_sectors (device, &r0, &w0);
      rc = cli (&root, &err, "workload", device, "--pattern", "randread", "--block-size", "4K",
                "--queue-depth", "8", "--duration", "1s", "--json", NULL);
      ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
      device_sectors (device, &r1, &w1);
      read = obj (root, "results.read");
      if ((r1 - r0) * 512 == (uint64_t) json_object_get_int_member (read, "io_bytes"))
        break;
    }

  ck_assert_str_eq (json_object_get_string_member (json_node_get_object (root), "test"), "workload");
  ck_assert (json_object_get_boolean_member (json_node_get_object (root), "complete"));
  read = obj (root, "results.read");
  ios = (uint64_t) json_object_get_int_member (read, "ios");
  bytes = (uint64_t) json_object_get_int_member (read, "io_bytes");
  ck_assert_uint_gt (ios, 100);
  ck_assert_uint_eq (bytes, ios * 4096);
  /* What the kernel counted is what we counted: every I/O went to the
   * device (O_DIRECT, no page cache), none was dropped. */
  ck_assert_uint_eq ((r1 - r0) * 512, bytes);
  ck_assert_uint_eq (w1, w0);
  ck_assert (json_object_get_double_member (read, "iops") > 0);
  ck_assert_double_eq_tol (json_object_get_double_member (read, "bytes_per_s"),
                           json_object_get_double_member (read, "iops") * 4096, 1);
  {
    JsonObject *lat = json_object_get_object_member (read, "latency_s");
    double min = json_object_get_double_member (lat, "min");
    double mean = json_object_get_double_member (lat, "mean");
    double p50 = json_object_get_double_member (lat, "p50");
    double p99 = json_object_get_double_member (lat, "p99");
    double max = json_object_get_double_member (lat, "max");

    ck_assert (min > 0 && min <= mean && mean <= max);
    ck_assert (p50 <= p99 * 1.01 && p99 <= max * 1.01);
    ck_assert (json_object_has_member (lat, "p90") && json_object_has_member (lat, "p99_9"));
  }
  ck_assert (json_object_has_member (obj (root, "results"), "cpu"));
  ck_assert_str_eq (json_object_get_string_member (obj (root, "results"), "engine"), "io_uring");
}
END_TEST

START_TEST (test_workload_mixed_threads)
{
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *err = NULL;
  JsonObject *read, *write;
  uint64_t r0, w0, r1, w1;
  int64_t rios, wios;
  int rc;

  device_sectors (device, &r0, &w0);
  rc = cli (&root, &err, "workload", device, "--pattern", "randrw", "--read-mix", "70",
            "--block-size", "8K", "--threads", "2", "--queue-depth", "4", "--engine", "threads",
            "--duration", "1s", "--destroy-data", device, "--json", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  device_sectors (device, &r1, &w1);

  read = obj (root, "results.read");
  write = obj (root, "results.write");
  rios = json_object_get_int_member (read, "ios");
  wios = json_object_get_int_member (write, "ios");
  ck_assert_int_eq (json_object_get_int_member (read, "io_bytes"), rios * 8192);
  ck_assert_int_eq (json_object_get_int_member (write, "io_bytes"), wios * 8192);
  /* Writes exactly; reads too, but for the write gate's signature probe
   * (libblkid reads the device once before the run, buffered: with readahead, a few MB). */
  ck_assert_uint_ge ((r1 - r0) * 512, (uint64_t) rios * 8192);
  ck_assert_uint_le ((r1 - r0) * 512, (uint64_t) rios * 8192 + (8 << 20));
  ck_assert_uint_eq ((w1 - w0) * 512, (uint64_t) wios * 8192);
  /* 70/30 within a few percent over thousands of I/Os. */
  ck_assert_msg (rios > 0 && wios > 0 && fabs ((double) rios / (rios + wios) - 0.7) < 0.05,
                 "%ld reads, %ld writes", (long) rios, (long) wios);
  ck_assert_str_eq (json_object_get_string_member (obj (root, "results"), "engine"), "threads");
}
END_TEST

START_TEST (test_workload_sequential_ramp)
{
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *err = NULL;
  JsonObject *read;
  int rc;

  rc = cli (&root, &err, "workload", device, "--pattern", "read", "--block-size", "1M",
            "--duration", "500ms", "--ramp", "200ms", "--offset", "1M", "--span", "32M",
            "--json", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  read = obj (root, "results.read");
  ck_assert_int_eq (json_object_get_int_member (read, "io_bytes"),
                    json_object_get_int_member (read, "ios") * (1 << 20));
  /* The ramp is not in the run time. */
  ck_assert (json_object_get_double_member (obj (root, "results"), "runtime_s") < 0.7);
  ck_assert_str_eq (json_object_get_string_member (obj (root, "results"), "engine"), "sync");
}
END_TEST

START_TEST (test_benchmark_200_points)
{
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *err = NULL;
  g_autofree char *before = ds_test_checksum (device);
  g_autofree char *after = NULL;
  JsonObject *read, *transfer, *target;
  JsonArray *points;
  int64_t prev = -1;
  int rc;

  rc = cli (&root, &err, "benchmark", device, "--accuracy", "1", "--json", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);

  target = obj (root, "target");
  ck_assert_str_eq (json_object_get_string_member (target, "path"), device);
  ck_assert_str_eq (json_object_get_string_member (target, "kind"), "block");
  ck_assert_int_eq (json_object_get_int_member (target, "size_bytes"), 64 << 20);
  ck_assert_int_eq (json_object_get_int_member (target, "logical_block_size"), 512);

  read = obj (root, "results.read");
  transfer = json_object_get_object_member (read, "transfer");
  points = json_object_get_array_member (transfer, "points");
  ck_assert_uint_eq (json_array_get_length (points), 200);
  for (guint i = 0; i < 200; i++)
    {
      JsonObject *p = json_array_get_object_element (points, i);
      int64_t off = json_object_get_int_member (p, "offset_bytes");

      ck_assert_int_gt (off, prev);
      ck_assert_int_lt (off, 64 << 20);
      ck_assert (json_object_get_double_member (p, "bytes_per_s") > 0);
      ck_assert (json_object_get_null_member (p, "error"));
      prev = off;
    }
  ck_assert (json_object_get_double_member (transfer, "min_bytes_per_s") <=
             json_object_get_double_member (transfer, "avg_bytes_per_s"));
  ck_assert (json_object_get_double_member (transfer, "avg_bytes_per_s") <=
             json_object_get_double_member (transfer, "max_bytes_per_s"));
  ck_assert (json_object_get_double_member (read, "access_time_s") > 0);
  ck_assert (json_object_get_double_member (read, "burst_bytes_per_s") > 0);
  ck_assert (json_object_get_double_member (read, "cpu_percent") >= 0);
  ck_assert (!json_object_has_member (obj (root, "results"), "write"));

  /* A read test changes nothing. */
  after = ds_test_checksum (device);
  ck_assert_str_eq (before, after);
}
END_TEST

START_TEST (test_benchmark_capacity_and_report)
{
  g_autofree char *dir = g_build_filename (ds_test_scratch_dir (), "out", NULL);
  g_autofree char *json = g_build_filename (dir, "r.json", NULL);
  const char *argv_bench[] = { ds_test_cli_path (), "benchmark", device, "--accuracy", "1",
                               "--capacity", "16M", "--block-size", "128K", "--output", json, NULL };
  const char *argv_report[] = { ds_test_cli_path (), "report", json, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *report = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *points;

  g_mkdir_with_parents (dir, 0700);
  ck_assert_int_eq (ds_test_run (argv_bench, &out, &err), 0);
  /* Human output: HD Tune's layout. */
  ck_assert_ptr_nonnull (strstr (out, "Read transfer rate"));
  ck_assert_ptr_nonnull (strstr (out, "Transfer Rate Average : "));
  ck_assert_ptr_nonnull (strstr (out, "Test capacity: 16 MiB (16.8 MB)"));
  ck_assert_ptr_nonnull (strstr (out, "Burst Rate"));

  ck_assert (json_parser_load_from_file (parser, json, NULL));
  points = json_object_get_array_member (
    json_object_get_object_member (
      json_object_get_object_member (
        json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "results"),
        "read"),
      "transfer"),
    "points");
  ck_assert_uint_eq (json_array_get_length (points), 200);
  for (guint i = 0; i < 200; i++)
    ck_assert_int_lt (json_object_get_int_member (json_array_get_object_element (points, i), "offset_bytes"),
                      16 << 20);

  ck_assert_int_eq (ds_test_run (argv_report, &report, NULL), 0);
  ck_assert_ptr_nonnull (strstr (report, "Transfer Rate Average : "));
}
END_TEST

START_TEST (test_write_needs_confirmation)
{
  g_autofree char *before = ds_test_checksum (device);
  g_autofree char *after = NULL;
  g_autofree char *err = NULL;
  g_autofree char *wrong = g_strdup_printf ("--destroy-data=%s", "/dev/loop-nope");
  g_autofree char *right = g_strdup_printf ("--destroy-data=%s", device);
  int rc;

  rc = cli (NULL, &err, "benchmark", device, "--write", "--accuracy", "1", NULL);
  ck_assert_int_eq (rc, 3);
  ck_assert_ptr_nonnull (strstr (err, device));
  g_clear_pointer (&err, g_free);
  rc = cli (NULL, &err, "benchmark", device, "--write", wrong, "--accuracy", "1", NULL);
  ck_assert_int_eq (rc, 3);
  g_clear_pointer (&err, g_free);
  rc = cli (NULL, &err, "workload", device, "--pattern", "randwrite", "--duration", "200ms", NULL);
  ck_assert_int_eq (rc, 3);
  after = ds_test_checksum (device);
  ck_assert_str_eq (before, after);

  /* Confirmed: it writes (the content changes). */
  g_clear_pointer (&err, g_free);
  rc = cli (NULL, &err, "benchmark", device, "--write", right, "--accuracy", "1", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  g_free (after);
  after = ds_test_checksum (device);
  ck_assert_str_ne (before, after);
}
END_TEST

START_TEST (test_errors_and_usage)
{
  g_autofree char *err = NULL;
  int rc;

  rc = cli (NULL, &err, "benchmark", "/dev/does-not-exist", "--accuracy", "1", NULL);
  ck_assert_int_eq (rc, 1);
  ck_assert_ptr_nonnull (strstr (err, "/dev/does-not-exist"));
  g_clear_pointer (&err, g_free);

  /* Permission denied, to root and to a plain user: test-int-target.c
   * (on every machine, not only where /dev/vda happens to refuse). */

  ck_assert_int_eq (cli (NULL, NULL, "workload", device, NULL), 2);
  ck_assert_int_eq (cli (NULL, NULL, "workload", device, "--pattern", "sideways", NULL), 2);
  ck_assert_int_eq (cli (NULL, NULL, "benchmark", device, "--block-size", "3X", NULL), 2);
  ck_assert_int_eq (cli (NULL, NULL, "benchmark", device, "--accuracy", "9", NULL), 2);
  ck_assert_int_eq (cli (NULL, NULL, "benchmark", NULL), 2);
  ck_assert_int_eq (cli (NULL, NULL, "frobnicate", NULL), 2);
  /* A block size that is not a multiple of the sector: clear, exit 2. */
  rc = cli (NULL, &err, "workload", device, "--pattern", "randread", "--block-size", "100", "--duration", "100ms", NULL);
  ck_assert_int_eq (rc, 2);
  ck_assert_ptr_nonnull (strstr (err, "512"));
}
END_TEST

/* The I/O threads of a run yield to the program's own (DS_IO_NICE,
 * DS_IO_SCHED_IDLE): while a four-thread workload runs, /proc shows all its
 * "ds-io" threads at nice 10 in the idle class (SCHED_IDLE, 5) and the
 * CLI's main thread at 0 in the normal one, and the result says so. */
START_TEST (test_io_threads_niced)
{
  const char *argv[] = { ds_test_cli_path (), "workload", device, "--pattern", "randread",
                         "--block-size", "4K", "--threads", "4", "--queue-depth", "2",
                         "--engine", "threads", "--duration", "2s", "--json", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  g_autofree char *task_dir = NULL;
  GString *buf = g_string_new (NULL);
  char chunk[65536];
  ssize_t n;
  GPid pid;
  int out_fd, status;
  guint io_threads = 0, io_niced = 0;
  int main_nice = -100, main_policy = -1;

  ck_assert (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                       NULL, NULL, &pid, NULL, &out_fd, NULL, &error));
  task_dir = g_strdup_printf ("/proc/%d/task", (int) pid);
  /* Look until the threads are seen (they start after the device checks)
   * and each has lowered itself (its first act: a thread just started has
   * its creator's nice for a moment), for at most the run's 2 s. */
  for (int tries = 0; tries < 150 && (io_threads < 4 || io_niced != io_threads); tries++)
    {
      g_autoptr (GDir) dir = NULL;
      const char *name;

      g_usleep (10 * 1000);
      io_threads = io_niced = 0;
      dir = g_dir_open (task_dir, 0, NULL);
      if (dir == NULL)
        break;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_strdup_printf ("%s/%s/stat", task_dir, name);
          g_autofree char *text = NULL;
          const char *close_paren;
          int nice = 0;
          char comm[32] = "";
          const char *field;
          int policy = -1;

          if (!g_file_get_contents (path, &text, NULL, NULL) ||
              (close_paren = strrchr (text, ')')) == NULL)
            continue;
          g_strlcpy (comm, strchr (text, '(') + 1, MIN (sizeof comm, (gsize) (close_paren - strchr (text, '('))));
          /* After "(comm) ": state, then fields 4..19; nice is field 19. */
          if (sscanf (close_paren + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %d",
                      &nice) != 1)
            continue;
          /* The policy is field 41: the 39th after the state's. */
          field = close_paren + 2;
          for (int k = 3; k < 41 && field != NULL; k++)
            if ((field = strchr (field, ' ')) != NULL)
              field++;
          if (field != NULL)
            policy = atoi (field);
          if (atoi (name) == (int) pid)
            {
              main_nice = nice;
              main_policy = policy;
            }
          if (strcmp (comm, "ds-io") == 0)
            {
              io_threads++;
              if (nice == 10 && policy == SCHED_IDLE)
                io_niced++;
            }
        }
    }
  while ((n = read (out_fd, chunk, sizeof chunk)) > 0)
    g_string_append_len (buf, chunk, n);
  close (out_fd);
  out = g_string_free (buf, FALSE);
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  ck_assert (WIFEXITED (status) && WEXITSTATUS (status) == 0);

  ds_test_note ("during the run: %u ds-io threads, %u at nice 10 in the idle class; "
                "the main thread at nice %d, policy %d", io_threads, io_niced, main_nice, main_policy);
  /* Four workers, and the threads engine's own threads they start (which
   * inherit their nice). */
  ck_assert_uint_ge (io_threads, 4);
  ck_assert_uint_eq (io_niced, io_threads);
  ck_assert_int_eq (main_nice, 0);
  ck_assert_int_eq (main_policy, SCHED_OTHER);
  ck_assert_msg (json_parser_load_from_data (parser, out, -1, NULL), "not JSON: %.200s", out);
  {
    JsonObject *env = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                                     "environment");

    ck_assert_int_eq (json_object_get_int_member (env, "io_threads_nice"), 10);
    ck_assert_str_eq (json_object_get_string_member (env, "io_threads_policy"), "idle");
  }
}
END_TEST

/* Ctrl-C: the run stops within 100 ms, exit 130, the partial result is
 * printed (complete: false, the points measured so far). */
START_TEST (test_sigint_keeps_partial_result)
{
  const char *argv[] = { ds_test_cli_path (), "benchmark", device, "--accuracy", "5",
                         "--block-size", "4K", "--json", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  GPid pid;
  int out_fd;
  int status;
  uint64_t t0, printed_ns = 0, exited_ns;
  GString *buf = g_string_new (NULL);
  char chunk[65536];
  ssize_t n;
  JsonObject *root;
  JsonArray *points;

  ck_assert (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                       NULL, NULL, &pid, NULL, &out_fd, NULL, &error));
  g_usleep (1500 * 1000);
  t0 = g_get_monotonic_time ();
  kill (pid, SIGINT);
  while ((n = read (out_fd, chunk, sizeof chunk)) > 0)
    {
      if (printed_ns == 0)
        printed_ns = (uint64_t) (g_get_monotonic_time () - t0) * 1000;
      g_string_append_len (buf, chunk, n);
    }
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  exited_ns = (uint64_t) (g_get_monotonic_time () - t0) * 1000;
  close (out_fd);
  out = g_string_free (buf, FALSE);

  ck_assert (WIFEXITED (status));
  ck_assert_int_eq (WEXITSTATUS (status), 130);
  /* The run stops within 100 ms: its result starts to come out within
   * 150 ms (the stop plus building 200 points' worth of JSON).  Leaving the
   * process takes what the C library (and a sanitizer's leak check at
   * exit) takes on top, which is not the run's. */
  ds_test_note ("SIGINT: result printed after %.1f ms, exited after %.1f ms",
                printed_ns / 1e6, exited_ns / 1e6);
  ck_assert_msg (printed_ns > 0, "nothing printed");
  ck_assert_msg (printed_ns < 150 * 1000000ull, "took %.1f ms to print its result", printed_ns / 1e6);
  ck_assert_msg (exited_ns < 5000 * 1000000ull, "took %.1f ms to exit", exited_ns / 1e6);

  ck_assert_msg (json_parser_load_from_data (parser, out, -1, NULL), "not JSON: %.200s", out);
  root = json_node_get_object (json_parser_get_root (parser));
  ck_assert (!json_object_get_boolean_member (root, "complete"));
  ck_assert (json_object_get_boolean_member (root, "cancelled"));
  points = json_object_get_array_member (
    json_object_get_object_member (json_object_get_object_member (
      json_object_get_object_member (root, "results"), "read"), "transfer"), "points");
  /* What was measured before the stop is there (a fast loop device may
   * have finished the scan and be in the burst phase by then). */
  ck_assert_uint_ge (json_array_get_length (points), 1);
}
END_TEST

int
main (void)
{
  Suite *s;
  TCase *tc;

  ds_test_init ("int-cli");
  ds_test_require_root ("creates loop devices");

  s = suite_create ("int-cli");
  tc = tcase_create ("cli");
  tcase_set_timeout (tc, 120);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_workload_counts_exactly);
  tcase_add_test (tc, test_workload_mixed_threads);
  tcase_add_test (tc, test_workload_sequential_ramp);
  tcase_add_test (tc, test_benchmark_200_points);
  tcase_add_test (tc, test_benchmark_capacity_and_report);
  tcase_add_test (tc, test_write_needs_confirmation);
  tcase_add_test (tc, test_errors_and_usage);
  tcase_add_test (tc, test_sigint_keeps_partial_result);
  tcase_add_test (tc, test_io_threads_niced);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
