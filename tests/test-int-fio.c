/* test-int-fio.c: fio and Diskscope on the same devices
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Root only.  export-fio: a run and fio running the exported job on the
 * same disk measure the same throughput (within 5 %).  The disk is a
 * faultdisk with a fixed delay per I/O, so its throughput is set by the
 * delay, not by how busy the test machine is; the two tools run
 * interleaved and the medians are compared.  import-fio: two real
 * `fio --server` instances on localhost, driven by `fio --client`,
 * imported as one result per host and job plus fio's sum, and compared;
 * a job fio reports an error for.  The test stops only the servers it
 * started (by the pids in their pid files).
 */
#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-faultdisk.h"
#include "ds-test-util.h"

#define MiB (1024 * 1024)

/* @argv (not NULL-terminated yet) run; *@ret_out and *@ret_err replaced. */
static int
run_argv (GPtrArray  *argv,
          char      **ret_out,
          char      **ret_err)
{
  if (ret_out != NULL)
    g_clear_pointer (ret_out, g_free);
  if (ret_err != NULL)
    g_clear_pointer (ret_err, g_free);
  g_ptr_array_add (argv, NULL);
  return ds_test_run ((const char *const *) argv->pdata, ret_out, ret_err);
}

static JsonNode *
parse_file (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;

  ck_assert_msg (g_file_get_contents (path, &text, NULL, &error), "%s", error ? error->message : "");
  ck_assert_msg (json_parser_load_from_data (parser, strchr (text, '{'), -1, &error),
                 "%s is not JSON: %s", path, error->message);
  return json_node_copy (json_parser_get_root (parser));
}

static double
get_double (JsonNode   *root,
            const char *path)
{
  JsonNode *n = ds_fault_json_get (root, path);

  ck_assert_msg (n != NULL, "no %s", path);
  return json_node_get_double (n);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  if (values->len % 2 == 1)
    return g_array_index (values, double, values->len / 2);
  return (g_array_index (values, double, values->len / 2 - 1) +
          g_array_index (values, double, values->len / 2)) / 2;
}

static void
require_fio (void)
{
  g_autofree char *fio = g_find_program_in_path ("fio");

  ck_assert_msg (fio != NULL, "fio is not installed (tools/install-deps installs it)");
}

/* ---- export-fio: the same throughput ------------------------------------ */

typedef struct {
  const char *pattern;
  const char *block;
  const char *depth;
  gboolean    write;
} Case;

static void
check_reproduced (const char *dev,
                  const Case *c)
{
  g_autoptr (GArray) ours = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) theirs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) ratios = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *result = g_strdup_printf ("%s/%s-qd%s.json", ds_test_scratch_dir (), c->pattern, c->depth);
  g_autofree char *job = g_strdup_printf ("%s/%s-qd%s.fio", ds_test_scratch_dir (), c->pattern, c->depth);
  g_autofree char *fio_out = g_strdup_printf ("%s/%s-qd%s-fio.json", ds_test_scratch_dir (), c->pattern, c->depth);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  const char *dir = c->write ? "write" : "read";
  char *key_ours = g_strdup_printf ("results.%s.bytes_per_s", dir);
  char *key_fio = g_strdup_printf ("%s.bw_bytes", dir);
  double a, b, ratio;
  /* The bar is 5 %.  Under ASan our side pays the sanitizer on every I/O
   * and fio does not: there the test checks that the job is the same run,
   * within 10 %, and the plain build holds the 5 %. */
#if defined(__SANITIZE_ADDRESS__)
  const double tolerance = 0.10;
#else
  const double tolerance = 0.05;
#endif

  /* The first run is exported; then three rounds of one run each, one
   * tool after the other, ours first in even rounds and fio first in odd
   * ones, and the median of the rounds' ratios: a burst of load on the
   * machine (this test runs beside others' suites on 2 cores) spoils a
   * round, not the test.  Running both at once was tried: when their I/O
   * completes in lock-step one of the two is always woken second, which
   * cost ours 5 to 10 % at QD1. */
  for (int round = 0; round < 4; round++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *output = g_strdup_printf ("--output=%s", fio_out);
      g_autoptr (JsonNode) r2 = NULL;
      const char *fio_argv[] = { "fio", "--output-format=json", output, job, NULL };
      int rc;

      for (int turn = 0; turn < 2; turn++)
        {
          gboolean fio_turn = round > 0 && (turn == 0) == (round % 2 == 1);

          if (fio_turn)
            {
              /* ds_test_run() fills err afresh: what our turn left goes. */
              g_clear_pointer (&err, g_free);
              rc = ds_test_run (fio_argv, NULL, &err);
              ck_assert_msg (rc == 0, "fio: exit %d: %s", rc, err);
              g_clear_pointer (&err, g_free);
              r2 = parse_file (fio_out);
              {
                JsonArray *jobs = json_object_get_array_member (json_node_get_object (r2), "jobs");
                g_autoptr (JsonNode) first = json_node_copy (json_array_get_element (jobs, 0));

                ck_assert_uint_eq (json_array_get_length (jobs), 1);
                b = get_double (first, key_fio);
              }
            }
          else if (turn == 0 || round > 0)
            {
              g_autoptr (JsonNode) r1 = NULL;

              rc = ds_test_cli (&out, &err, "workload", dev, "--pattern", c->pattern, "--block-size", c->block,
                                "--queue-depth", c->depth, "--duration", "2500ms", "--no-library",
                                "--output", result, c->write ? confirm : NULL, NULL);
              ck_assert_msg (rc == 0, "workload: exit %d: %s", rc, err);
              r1 = parse_file (result);
              a = get_double (r1, key_ours);
            }
        }

      if (round == 0)
        {
          rc = ds_test_cli (&out, &err, "export-fio", result, "-o", job, NULL);
          ck_assert_msg (rc == 0, "export-fio: exit %d: %s", rc, err);
          ck_assert_msg (g_str_has_prefix (out, "fio --output-format=json"), "%s", out);
          continue;
        }
      g_array_append_val (ours, a);
      g_array_append_val (theirs, b);
      ratio = b / a;
      g_array_append_val (ratios, ratio);
    }

  a = median (ours);
  b = median (theirs);
  ratio = median (ratios);
  ds_test_note ("%s %s QD%s: Diskscope %.3f MB/s, fio (exported job) %.3f MB/s (medians of 3 "
                "rounds), fio/ours %.3f (median of the rounds' ratios)",
                c->pattern, c->block, c->depth, a / 1e6, b / 1e6, ratio);
  {
    g_autofree char *text = NULL;
    ck_assert (g_file_get_contents (job, &text, NULL, NULL));
    if (ratio < 1 - tolerance || ratio > 1 + tolerance)
      ds_test_note ("the job:\n%s", text);
  }
  ck_assert_msg (ratio >= 1 - tolerance && ratio <= 1 + tolerance,
                 "%s QD%s: fio ran the exported job at %.3f of our throughput (bar: within %.0f %%)",
                 c->pattern, c->depth, ratio, tolerance * 100);
  g_free (key_ours);
  g_free (key_fio);
}

START_TEST (test_export_reproduces_throughput)
{
  static const Case cases[] = {
    { "randread", "4K", "1", FALSE },      /* our sync engine: fio psync */
    { "randread", "4K", "8", FALSE },      /* io_uring, registered buffers */
    { "randwrite", "16K", "4", TRUE },     /* writes: fresh data each time */
  };
  g_autoptr (DsFaultDisk) disk = NULL;
  const char *dev;

  require_fio ();
  disk = ds_faultdisk_new (64 * MiB, 11);
  dev = ds_faultdisk_attach (disk, FALSE);
  /* 50 ms per I/O: the disk's throughput is the delay's, whatever else
   * the machine is doing (on a test machine with a load of 20 on 2 cores,
   * waking the loop and FUSE threads adds 2 to 5 ms to each I/O, for both
   * tools but not always alike: at 2 ms per I/O that moved the ratio by
   * 10 %, at 20 ms by up to 13 % in a bad round). */
  ck_assert (ds_faultdisk_control (disk, "delay 50000"));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_reproduced (dev, &cases[i]);
}
END_TEST

/* ---- import-fio: fio --client across two fio --server ------------------- */

static int
free_port (void)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof addr;
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int port;

  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (bind (fd, (struct sockaddr *) &addr, sizeof addr), 0);
  ck_assert_int_eq (getsockname (fd, (struct sockaddr *) &addr, &len), 0);
  port = ntohs (addr.sin_port);
  close (fd);
  return port;
}

static gboolean
port_open (int port)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port),
                              .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  gboolean ok = connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0;

  close (fd);
  return ok;
}

static pid_t
read_pid (const char *pidfile)
{
  g_autofree char *text = NULL;
  gint64 pid;

  if (!g_file_get_contents (pidfile, &text, NULL, NULL))
    return 0;
  pid = g_ascii_strtoll (text, NULL, 10);
  return pid > 1 ? (pid_t) pid : 0;
}

/* Stops the fio servers this test started: those whose pid files are in
 * the scratch folder (fio-server-*.pid), nothing else. */
static void
stop_our_servers (void)
{
  const char *scratch = ds_test_scratch_dir ();
  g_autoptr (GDir) d = scratch ? g_dir_open (scratch, 0, NULL) : NULL;
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      pid_t pid;

      if (!g_str_has_prefix (name, "fio-server-") || !g_str_has_suffix (name, ".pid"))
        continue;
      path = g_build_filename (scratch, name, NULL);
      pid = read_pid (path);
      if (pid > 0 && kill (pid, SIGTERM) == 0)
        {
          for (int i = 0; i < 50 && kill (pid, 0) == 0; i++)
            g_usleep (100 * 1000);
          if (kill (pid, 0) == 0)
            kill (pid, SIGKILL);
        }
      g_unlink (path);
    }
}

static int
start_server (void)
{
  int port = free_port ();
  g_autofree char *pidfile = g_strdup_printf ("%s/fio-server-%d.pid", ds_test_scratch_dir (), port);
  g_autofree char *server = g_strdup_printf ("--server=ip:127.0.0.1,%d", port);
  g_autofree char *daemonize = g_strdup_printf ("--daemonize=%s", pidfile);
  const char *argv[] = { "fio", server, daemonize, NULL };
  g_autofree char *err = NULL;
  int rc = ds_test_run (argv, NULL, &err);

  ck_assert_msg (rc == 0, "fio %s: exit %d: %s", server, rc, err);
  for (int i = 0; i < 100 && !port_open (port); i++)
    g_usleep (100 * 1000);
  ck_assert_msg (port_open (port), "fio --server did not listen on %d", port);
  ck_assert_int_gt (read_pid (pidfile), 1);

  return port;
}

START_TEST (test_import_fio_clients)
{
  g_autofree char *dev = NULL;
  g_autofree char *job = g_build_filename (ds_test_scratch_dir (), "clients.fio", NULL);
  g_autofree char *fio_out = g_build_filename (ds_test_scratch_dir (), "clients.json", NULL);
  g_autofree char *lib = g_build_filename (ds_test_scratch_dir (), "fio-lib", NULL);
  g_autofree char *job_text = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *c1 = NULL;
  g_autofree char *c2 = NULL;
  g_autofree char *output = NULL;
  g_autoptr (JsonNode) fio_doc = NULL;
  g_autoptr (JsonNode) imported = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  JsonArray *list;
  int p1, p2, rc;

  require_fio ();
  dev = ds_test_loop_new (64 * MiB, TRUE);
  job_text = g_strdup_printf ("[global]\nfilename=%s\ndirect=1\nioengine=psync\ntime_based=1\n"
                              "runtime=2\nlat_percentiles=1\n\n"
                              "[rr]\nrw=randread\nbs=4k\n\n"
                              "[seq]\nrw=read\nbs=64k\noffset=16m\nsize=32m\n", dev);
  ck_assert (g_file_set_contents (job, job_text, -1, NULL));

  p1 = start_server ();
  p2 = start_server ();
  c1 = g_strdup_printf ("--client=ip:127.0.0.1,%d", p1);
  c2 = g_strdup_printf ("--client=ip:127.0.0.1,%d", p2);
  output = g_strdup_printf ("--output=%s", fio_out);
  g_ptr_array_add (argv, "fio");
  g_ptr_array_add (argv, c1);
  g_ptr_array_add (argv, job);
  g_ptr_array_add (argv, c2);
  g_ptr_array_add (argv, job);
  g_ptr_array_add (argv, "--output-format=json");
  g_ptr_array_add (argv, output);
  rc = run_argv (argv, &out, &err);
  stop_our_servers ();
  ck_assert_msg (rc == 0, "fio --client: exit %d: %s\n%s", rc, err, out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  rc = ds_test_cli (&out, &err, "import-fio", fio_out, "--results-dir", lib, "--json", NULL);
  ck_assert_msg (rc == 0, "import-fio: exit %d: %s", rc, err);
  {
    g_autoptr (JsonParser) parser = json_parser_new ();
    ck_assert (json_parser_load_from_data (parser, out, -1, NULL));
    imported = json_node_copy (json_parser_get_root (parser));
  }
  list = json_node_get_array (imported);
  /* Two hosts × two jobs, and fio's sum. */
  ck_assert_uint_eq (json_array_get_length (list), 5);

  fio_doc = parse_file (fio_out);
  {
    JsonArray *stats = json_object_get_array_member (json_node_get_object (fio_doc), "client_stats");
    double sum = 0, all = 0;

    ck_assert_uint_eq (json_array_get_length (stats), 5);
    for (guint i = 0; i < 5; i++)
      {
        JsonObject *s = json_array_get_object_element (stats, i);
        JsonObject *mine = json_array_get_object_element (list, i);
        const char *jobname = json_object_get_string_member (s, "jobname");
        g_autoptr (JsonNode) saved = parse_file (json_object_get_string_member (mine, "path"));
        double fio_bw = json_object_get_double_member (json_object_get_object_member (s, "read"), "bw_bytes");

        /* Each result holds exactly what fio reported for it. */
        ck_assert_double_eq (get_double (saved, "results.read.bytes_per_s"), fio_bw);
        if (strcmp (jobname, "All clients") == 0)
          {
            all = fio_bw;
            ck_assert_str_eq (json_object_get_string_member (mine, "label"), "All clients");
            ck_assert (g_str_has_suffix (json_object_get_string_member (mine, "id"), "fio-all-clients"));
          }
        else
          {
            g_autofree char *label = g_strdup_printf ("%s on 127.0.0.1:%" G_GINT64_FORMAT, jobname,
                                                      json_object_get_int_member (s, "port"));
            sum += fio_bw;
            ck_assert_str_eq (json_object_get_string_member (mine, "label"), label);
          }
      }
    /* fio's sum is the sum of the hosts' jobs. */
    ck_assert_msg (fabs (all - sum) <= 0.01 * sum, "All clients %.0f, sum %.0f", all, sum);
    ds_test_note ("fio --client on two local servers: 4 host-jobs summing %.1f MB/s, All clients %.1f MB/s",
          sum / 1e6, all / 1e6);
  }

  /* Compare the two hosts' random reads with the sum, by library id. */
  {
    g_autofree char *a = g_strdup_printf ("fio-127.0.0.1-%d-rr", p1);
    g_autofree char *b = g_strdup_printf ("fio-127.0.0.1-%d-rr", p2);

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    rc = ds_test_cli (&out, &err, "compare", a, b, "fio-all-clients", "--results-dir", lib, NULL);
    ck_assert_msg (rc == 0, "compare: exit %d: %s", rc, err);
    ds_test_note ("%s", out);
    ck_assert_msg (strstr (out, "B/A   C/A") != NULL, "%s", out);
    ck_assert_msg (strstr (out, "Workload, read") != NULL, "%s", out);
    ck_assert_msg (strstr (out, "fio's sum over every client") != NULL, "%s", out);
  }

  ds_test_loop_detach (dev);
}
END_TEST

START_TEST (test_import_fio_job_error)
{
  g_autoptr (DsFaultDisk) disk = NULL;
  g_autofree char *fio_out = g_build_filename (ds_test_scratch_dir (), "eio.json", NULL);
  g_autofree char *lib = g_build_filename (ds_test_scratch_dir (), "eio-lib", NULL);
  g_autofree char *filename = NULL;
  g_autofree char *output = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  int rc;

  require_fio ();
  disk = ds_faultdisk_new (32 * MiB, 5);
  ds_faultdisk_attach (disk, TRUE);
  ck_assert (ds_faultdisk_control (disk, "read-error %d %d", 4 * MiB, 64 * 1024));

  filename = g_strdup_printf ("--filename=%s", ds_faultdisk_get_device (disk));
  output = g_strdup_printf ("--output=%s", fio_out);
  g_ptr_array_add (argv, "fio");
  g_ptr_array_add (argv, "--name=eio");
  g_ptr_array_add (argv, filename);
  g_ptr_array_add (argv, "--rw=read");
  g_ptr_array_add (argv, "--bs=64k");
  g_ptr_array_add (argv, "--direct=1");
  g_ptr_array_add (argv, "--size=16m");
  g_ptr_array_add (argv, "--output-format=json");
  g_ptr_array_add (argv, output);
  rc = run_argv (argv, NULL, NULL);
  ck_assert_int_ne (rc, 0);   /* fio failed the job... */

  rc = ds_test_cli (&out, &err, "import-fio", fio_out, "--results-dir", lib, NULL);
  /* ...and so does the import: said, naming the file and the job, and
   * what fio measured is kept as a failed result. */
  ck_assert_int_eq (rc, 1);
  ck_assert_msg (strstr (err, fio_out) && strstr (err, "fio reported error 5") && strstr (err, "“eio”"),
                 "%s", err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "results", "list", "--results-dir", lib, NULL);
  ck_assert_int_eq (rc, 0);
  ck_assert_msg (strstr (out, "fio-eio") && strstr (out, "failed"), "%s", out);
}
END_TEST

int
main (void)
{
  g_autofree char *reason = NULL;
  Suite *s;
  TCase *tc;

  ds_test_init ("int-fio");
  ds_test_require_root ("creates loop devices and fault-injecting disks");
  if (!ds_faultdisk_available (&reason))
    {
      printf ("1..0 # SKIP %s\n", reason);
      return 0;
    }
  ds_faultdisk_init ();
  /* Runs before ds_test_cleanup() removes the pid files. */
  atexit (stop_our_servers);

  s = suite_create ("int-fio");
  tc = tcase_create ("fio");
  tcase_set_timeout (tc, 600);
  tcase_add_test (tc, test_export_reproduces_throughput);
  tcase_add_test (tc, test_import_fio_clients);
  tcase_add_test (tc, test_import_fio_job_error);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
