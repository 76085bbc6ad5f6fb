/* test-int-fault.c: the CLI on a disk that fails on purpose (issue 5)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Root only: each test starts a faultdisk (tests/faultdisk/), attaches it to
 * a loop device with direct I/O and makes it fail while diskscope-cli runs.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ds-buffer.h"
#include "ds-faultdisk.h"
#include "ds-test-util.h"

#define MiB (1024 * 1024)
#define DISK_SIZE (32 * MiB)

/* --------------------------------------------------------------------- */
/* Small helpers */

/* A TAP comment, flushed at once (a failing forked test ends with _exit). */
#define note ds_test_note

static DsFaultDisk *
start_disk (uint64_t seed)
{
  DsFaultDisk *disk = ds_faultdisk_new (DISK_SIZE, seed);

  ds_faultdisk_attach (disk, FALSE);
  return disk;
}

static gboolean
contains_ci (const char *haystack,
             const char *needle)
{
  g_autofree char *h = g_ascii_strdown (haystack ? haystack : "", -1);
  g_autofree char *n = g_ascii_strdown (needle, -1);

  return strstr (h, n) != NULL;
}

/* Whether @text shows @offset in one of the forms a report may use: plain
 * bytes, or MiB / MB / GiB / GB with 0 to 3 decimals. */
static gboolean
mentions_offset (const char *text,
                 uint64_t    offset)
{
  g_autofree char *bytes = g_strdup_printf ("%" PRIu64, offset);
  const double units[] = { 1024.0 * 1024, 1e6, 1024.0 * 1024 * 1024, 1e9, 1024.0, 1e3 };

  if (text == NULL)
    return FALSE;
  if (strstr (text, bytes) != NULL)
    return TRUE;
  for (guint u = 0; u < G_N_ELEMENTS (units); u++)
    for (int decimals = 0; decimals <= 3; decimals++)
      {
        g_autofree char *s = g_strdup_printf ("%.*f", decimals, offset / units[u]);

        /* "0" or "0.0" would match anything */
        if (offset / units[u] >= 0.5 && strstr (text, s) != NULL)
          return TRUE;
      }
  return FALSE;
}

static gboolean
cli_is_sanitized (void)
{
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (ds_test_cli_path (), &contents, &len, NULL))
    return FALSE;
  /* Linked with the shared runtime (meson's b_sanitize): its name is in
   * the binary's needed libraries; a static runtime names itself. */
  return memmem (contents, len, "libasan.so", strlen ("libasan.so")) != NULL ||
         memmem (contents, len, "AddressSanitizer", strlen ("AddressSanitizer")) != NULL;
}

static int64_t
json_int (JsonNode   *root,
          const char *path,
          int64_t     fallback)
{
  JsonNode *node = ds_fault_json_get (root, path);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return fallback;
  return (int64_t) json_node_get_double (node);
}

static double
json_double (JsonNode   *root,
             const char *path,
             double      fallback)
{
  JsonNode *node = ds_fault_json_get (root, path);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return fallback;
  return json_node_get_double (node);
}

static const char *
json_string (JsonNode   *root,
             const char *path)
{
  JsonNode *node = ds_fault_json_get (root, path);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* A transfer point marked as failed: "error" (an errno or a message or an
 * object) or "errno" that is neither null, false, 0 nor "". */
static gboolean
point_failed (JsonObject *point)
{
  const char *keys[] = { "error", "errno" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      JsonNode *node = json_object_get_member (point, keys[i]);

      if (node == NULL || JSON_NODE_HOLDS_NULL (node))
        continue;
      if (JSON_NODE_HOLDS_OBJECT (node) || JSON_NODE_HOLDS_ARRAY (node))
        return TRUE;
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        return json_node_get_string (node)[0] != '\0';
      if (json_node_get_value_type (node) == G_TYPE_BOOLEAN)
        return json_node_get_boolean (node);
      if (json_node_get_double (node) != 0)
        return TRUE;
    }
  return FALSE;
}

/* The whole run's common checks on a JSON result from stdout. */
static JsonNode *
parse_result (const char *out)
{
  JsonNode *root = ds_fault_json_parse (out);

  ck_assert_msg (root != NULL, "stdout is not one JSON document: %.300s", out);
  ck_assert_str_eq (json_string (root, "schema"), "diskscope-result/1");
  return root;
}

/* --------------------------------------------------------------------- */
/* The fixture itself: errors where asked, nowhere else; delays overlap. */

START_TEST (test_faultdisk_works)
{
  g_autoptr (DsFaultDisk) disk = start_disk (11);
  const char *dev = ds_faultdisk_get_device (disk);
  uint8_t *buf = ds_buffer_alloc (MiB, 4096);
  int fd;

  if (!ds_faultdisk_is_direct_io (disk))
    note ("note: the loop device over the FUSE file does not do direct I/O");

  ck_assert (ds_faultdisk_control (disk, "read-error %d %d", 4 * MiB, 64 * 1024));
  ck_assert (!ds_faultdisk_control (disk, "no-such-command"));

  fd = open (dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (pread (fd, buf, 4096, 4 * MiB - 4096), 4096);
  errno = 0;
  ck_assert_int_eq (pread (fd, buf, 4096, 4 * MiB + 8192), -1);
  ck_assert_int_eq (errno, EIO);
  ck_assert_int_eq (pread (fd, buf, 4096, 4 * MiB + 64 * 1024), 4096);
  ck_assert_uint_ge (ds_faultdisk_counter (disk, "read_errors"), 1);

  /* Each I/O at least 10 ms. */
  ck_assert (ds_faultdisk_control (disk, "clear"));
  ck_assert (ds_faultdisk_control (disk, "delay 10000"));
  {
    int64_t t0 = g_get_monotonic_time ();

    ck_assert_int_eq (pread (fd, buf, 4096, 0), 4096);
    ck_assert_int_ge (g_get_monotonic_time () - t0, 9000);
  }

  /* Vanish: everything fails from now on. */
  ck_assert (ds_faultdisk_control (disk, "clear"));
  ck_assert (ds_faultdisk_control (disk, "vanish"));
  ck_assert_int_eq (pread (fd, buf, 4096, 0), -1);
  ck_assert_int_eq (errno, EIO);

  close (fd);
  ds_buffer_free (buf);
}
END_TEST

/* --------------------------------------------------------------------- */
/* benchmark over a bad range: every point outside is measured, those
 * inside are errors with their offsets, the run goes on past them, and the
 * JSON and the text report list the error positions. */

START_TEST (test_benchmark_bad_range)
{
  g_autoptr (DsFaultDisk) disk = start_disk (12);
  const char *dev = ds_faultdisk_get_device (disk);
  g_autofree char *saved = g_build_filename (ds_test_scratch_dir (), "bad-range.json", NULL);
  const char *argv[] = {
    ds_test_cli_path (), "benchmark", dev, "--accuracy", "1", "--json",
    "--output", saved, NULL,
  };
  const uint64_t bad_start = 20 * MiB;
  const uint64_t bad_len = 512 * 1024;
  /* A point reads a slice of about span / 200 after its offset. */
  const uint64_t slice = DISK_SIZE / 200 + 64 * 1024;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GArray) error_offsets = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  JsonNode *points_node;
  JsonArray *points;
  uint64_t last_offset = 0;
  int rc;

  ck_assert (ds_faultdisk_control (disk, "read-error %" PRIu64 " %" PRIu64, bad_start, bad_len));
  rc = ds_test_run (argv, &out, &err);
  note ("benchmark over a bad range: exit %d; stderr: %.300s", rc, err);

  /* A bad range is a finding, not a crash: the run still prints its result. */
  ck_assert_msg (rc == 0 || rc == 1, "exit %d, stderr: %s", rc, err);
  root = parse_result (out);

  points_node = ds_fault_json_get (root, "results.read.transfer.points");
  ck_assert_msg (points_node != NULL && JSON_NODE_HOLDS_ARRAY (points_node),
                 "no results.read.transfer.points");
  points = json_node_get_array (points_node);
  ck_assert_uint_eq (json_array_get_length (points), 200);

  for (guint i = 0; i < json_array_get_length (points); i++)
    {
      JsonObject *point = json_array_get_object_element (points, i);
      uint64_t offset = (uint64_t) json_object_get_double_member (point, "offset_bytes");
      double rate = json_object_get_double_member (point, "bytes_per_s");
      gboolean near_bad = offset + slice > bad_start && offset < bad_start + bad_len;

      ck_assert_uint_ge (offset, last_offset);
      last_offset = offset;

      if (point_failed (point))
        {
          ck_assert_msg (near_bad, "point %u at %" PRIu64 " failed outside the bad range", i, offset);
          g_array_append_val (error_offsets, offset);
        }
      else
        {
          ck_assert_msg (offset < bad_start || offset >= bad_start + bad_len,
                         "point %u at %" PRIu64 " inside the bad range did not fail", i, offset);
          ck_assert_msg (rate > 0, "point %u at %" PRIu64 " has no rate", i, offset);
        }
    }
  ck_assert_msg (error_offsets->len >= 1, "no point marked as an error");
  /* It went on past the range: the last point is near the end. */
  ck_assert_uint_ge (last_offset, DISK_SIZE - 2 * (DISK_SIZE / 200) - 64 * 1024);
  ck_assert_uint_ge (ds_faultdisk_counter (disk, "read_errors"), 1);

  /* The text report of the saved result names the error positions. */
  {
    const char *report_argv[] = { ds_test_cli_path (), "report", saved, NULL };
    g_autofree char *text = NULL;
    g_autofree char *report_err = NULL;
    int report_rc = ds_test_run (report_argv, &text, &report_err);

    ck_assert_msg (g_file_test (saved, G_FILE_TEST_EXISTS), "--output did not save %s", saved);
    ck_assert_msg (report_rc == 0 || report_rc == 1, "report exit %d: %s", report_rc, report_err);
    ck_assert_msg (contains_ci (text, "error"), "the report does not mention errors:\n%s", text);
    for (guint i = 0; i < error_offsets->len; i++)
      ck_assert_msg (mentions_offset (text, g_array_index (error_offsets, uint64_t, i)),
                     "the report does not show the error at %" PRIu64 ":\n%s",
                     g_array_index (error_offsets, uint64_t, i), text);
  }
}
END_TEST

/* --------------------------------------------------------------------- */
/* workload hitting EIO: stops with the offset in the message, a partial
 * result (complete: false), exit 1. */

START_TEST (test_workload_eio)
{
  g_autoptr (DsFaultDisk) disk = start_disk (13);
  const char *dev = ds_faultdisk_get_device (disk);
  const char *argv[] = {
    ds_test_cli_path (), "workload", dev, "--pattern", "randread",
    "--duration", "5s", "--json", NULL,
  };
  const uint64_t bad_start = 8 * MiB;
  const uint64_t bad_len = 4 * MiB;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  const char *message;
  int64_t offset;
  int64_t t0;
  int rc;

  ck_assert (ds_faultdisk_control (disk, "read-error %" PRIu64 " %" PRIu64, bad_start, bad_len));
  t0 = g_get_monotonic_time ();
  rc = ds_test_run (argv, &out, &err);
  note ("workload hitting EIO: exit %d after %.2f s; stderr: %.300s",
          rc, (g_get_monotonic_time () - t0) / 1e6, err);

  ck_assert_int_eq (rc, 1);
  /* 1 in 8 random reads hits the range: it stops long before 5 s. */
  ck_assert_int_lt (g_get_monotonic_time () - t0, 4 * G_USEC_PER_SEC);
  root = parse_result (out);
  ck_assert_msg (ds_fault_json_get (root, "complete") != NULL
                 && !json_node_get_boolean (ds_fault_json_get (root, "complete")),
                 "complete is not false");
  ck_assert_msg (ds_fault_json_get (root, "results") != NULL, "no partial results");

  message = json_string (root, "error.message");
  ck_assert_msg (message != NULL, "no error.message");
  ck_assert_int_eq (json_int (root, "error.errno", 0), EIO);
  offset = json_int (root, "error.offset_bytes", -1);
  ck_assert_msg (offset >= (int64_t) bad_start && offset < (int64_t) (bad_start + bad_len),
                 "error.offset_bytes %" PRId64 " is not in the bad range", offset);
  ck_assert_msg (mentions_offset (message, (uint64_t) offset),
                 "the message does not give the offset %" PRId64 ": %s", offset, message);
  ck_assert_msg (mentions_offset (err, (uint64_t) offset),
                 "stderr does not give the offset %" PRId64 ": %s", offset, err);
}
END_TEST

/* --------------------------------------------------------------------- */
/* A device that vanishes mid-run. */

typedef enum {
  VANISH_CONTROL,       /* every I/O fails from now on (EIO) */
  VANISH_DETACH_KILL,   /* losetup -d, then the disk's server dies (ENOTCONN) */
} VanishHow;

static void
check_vanish (const char *command,
              VanishHow   how)
{
  g_autoptr (DsFaultDisk) disk = start_disk (14);
  g_autofree char *dev = g_strdup (ds_faultdisk_get_device (disk));
  const char *workload[] = {
    ds_test_cli_path (), "workload", dev, "--pattern", "randread",
    "--queue-depth", "4", "--duration", "20s", "--json", NULL,
  };
  const char *benchmark[] = {
    ds_test_cli_path (), "benchmark", dev, "--accuracy", "1", "--json", NULL,
  };
  g_autoptr (DsFaultProc) proc = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *message;
  int64_t vanished_us;
  int rc;

  /* Slow enough that the run is surely going when it vanishes: a benchmark
   * point reads only its slice (span / 200), a few I/Os. */
  ck_assert (ds_faultdisk_control (disk, "delay %d",
                                   strcmp (command, "workload") == 0 ? 200 : 5000));
  proc = ds_fault_proc_spawn (strcmp (command, "workload") == 0 ? workload : benchmark);
  g_usleep (1500 * 1000);
  ck_assert_msg (ds_fault_proc_end_time (proc) == 0, "the run ended before the device vanished");

  if (how == VANISH_CONTROL)
    ck_assert (ds_faultdisk_control (disk, "vanish"));
  else
    {
      /* The kernel only detaches at the last close: on its own this changes
       * nothing for the open device.  Then the backing disk goes away. */
      ck_assert (ds_faultdisk_detach (disk));
      g_usleep (200 * 1000);
      ds_faultdisk_kill (disk);
    }
  vanished_us = g_get_monotonic_time ();

  rc = ds_fault_proc_wait (proc, 10000);
  out = ds_fault_proc_stdout (proc);
  err = ds_fault_proc_stderr (proc);
  note ("%s, device vanished: exit %d after %.3f s; stderr: %.300s", command, rc,
          (ds_fault_proc_end_time (proc) - vanished_us) / 1e6, err);

  ck_assert_int_eq (rc, 1);
  ck_assert_msg (ds_fault_proc_end_time (proc) - vanished_us <= G_USEC_PER_SEC,
                 "the run took %.3f s to end after the device vanished",
                 (ds_fault_proc_end_time (proc) - vanished_us) / 1e6);

  root = parse_result (out);
  ck_assert (!json_node_get_boolean (ds_fault_json_get (root, "complete")));
  message = json_string (root, "error.message");
  ck_assert_msg (message != NULL, "no error.message");
  ck_assert_msg (strstr (message, dev) != NULL, "the message does not name %s: %s", dev, message);
  ck_assert_msg (strstr (err, dev) != NULL, "stderr does not name %s: %s", dev, err);

  /* The samples taken before are kept. */
  if (strcmp (command, "workload") == 0)
    ck_assert_int_gt (json_int (root, "results.read.ios", 0), 0);
  else
    {
      JsonNode *points = ds_fault_json_get (root, "results.read.transfer.points");
      guint measured = 0;

      ck_assert (points != NULL && JSON_NODE_HOLDS_ARRAY (points));
      for (guint i = 0; i < json_array_get_length (json_node_get_array (points)); i++)
        {
          JsonObject *p = json_array_get_object_element (json_node_get_array (points), i);

          if (!point_failed (p) && json_object_get_double_member (p, "bytes_per_s") > 0)
            measured++;
        }
      ck_assert_uint_ge (measured, 5);
    }
}

START_TEST (test_workload_vanish)
{
  check_vanish ("workload", VANISH_CONTROL);
}
END_TEST

START_TEST (test_workload_detach)
{
  check_vanish ("workload", VANISH_DETACH_KILL);
}
END_TEST

START_TEST (test_benchmark_vanish)
{
  check_vanish ("benchmark", VANISH_CONTROL);
}
END_TEST

/* --------------------------------------------------------------------- */
/* SIGINT at queue depth 32 on a disk that takes 10 ms per I/O: back within
 * 200 ms, exit 130, the partial result printed. */

START_TEST (test_sigint_qd32)
{
  g_autoptr (DsFaultDisk) disk = start_disk (15);
  const char *dev = ds_faultdisk_get_device (disk);
  const char *argv[] = {
    ds_test_cli_path (), "workload", dev, "--pattern", "randread",
    "--queue-depth", "32", "--duration", "30s", "--json", NULL,
  };
  /* A sanitizer's exit (leak check) takes time of its own. */
  const int64_t limit_us = cli_is_sanitized () ? 1000 * 1000 : 200 * 1000;
  g_autoptr (DsFaultProc) proc = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  uint64_t inflight_max;
  int64_t sent_us;
  int rc;

  ck_assert (ds_faultdisk_control (disk, "delay 10000"));
  proc = ds_fault_proc_spawn (argv);
  g_usleep (1500 * 1000);
  ck_assert_msg (ds_fault_proc_end_time (proc) == 0, "the run ended on its own");
  inflight_max = ds_faultdisk_counter (disk, "inflight_max");

  sent_us = g_get_monotonic_time ();
  ds_fault_proc_signal (proc, SIGINT);
  rc = ds_fault_proc_wait (proc, 10000);
  out = ds_fault_proc_stdout (proc);
  err = ds_fault_proc_stderr (proc);
  note ("SIGINT at QD32, 10 ms per I/O: exit %d after %.1f ms (limit %.0f ms); "
          "%" PRIu64 " I/Os were in flight at once\n", rc,
          (ds_fault_proc_end_time (proc) - sent_us) / 1e3, limit_us / 1e3, inflight_max);

  ck_assert_msg (rc == 130, "exit %d, stderr: %s", rc, err);
  ck_assert_msg (ds_fault_proc_end_time (proc) - sent_us <= limit_us,
                 "took %.1f ms to stop", (ds_fault_proc_end_time (proc) - sent_us) / 1e3);
  /* The queue really was 32 deep (else this tested nothing). */
  ck_assert_uint_ge (inflight_max, 16);

  root = parse_result (out);
  ck_assert (!json_node_get_boolean (ds_fault_json_get (root, "complete")));
  ck_assert_int_gt (json_int (root, "results.read.ios", 0), 0);
  ck_assert (json_double (root, "results.read.bytes_per_s", 0) > 0);

  /* Nothing left in flight on the disk once the CLI is gone. */
  g_usleep (50 * 1000);
  ck_assert_uint_eq (ds_faultdisk_counter (disk, "inflight"), 0);
}
END_TEST

static Suite *
fault_suite (void)
{
  Suite *suite = suite_create ("int-fault");
  TCase *fixture = tcase_create ("faultdisk");
  TCase *cli = tcase_create ("cli");

  tcase_set_timeout (fixture, 60);
  tcase_add_test (fixture, test_faultdisk_works);
  suite_add_tcase (suite, fixture);

  tcase_set_timeout (cli, 120);
  tcase_add_test (cli, test_benchmark_bad_range);
  tcase_add_test (cli, test_workload_eio);
  tcase_add_test (cli, test_workload_vanish);
  tcase_add_test (cli, test_workload_detach);
  tcase_add_test (cli, test_benchmark_vanish);
  tcase_add_test (cli, test_sigint_qd32);
  suite_add_tcase (suite, cli);

  return suite;
}

int
main (void)
{
  g_autofree char *reason = NULL;

  ds_test_init ("int-fault");
  ds_test_require_root ("fault injection attaches loop devices over a FUSE file");
  if (!ds_faultdisk_available (&reason))
    {
      printf ("1..0 # SKIP %s\n", reason);
      return 0;
    }
  ds_faultdisk_init ();

  return ds_test_run_suite (fault_suite ());
}
