/* test-int-chain.c: write tests chained back to back on one device, as a
 * script runs them (root)
 *
 * A write test opens its block device O_EXCL.  After one test closed the
 * device, the next was refused at random ("in use by another program"):
 * io_uring's deferred ring teardown kept a registered file, and with it
 * the exclusive claim, for ~30 ms after the process had gone, and udev's
 * watch rule probes a device its writer closed.  Twenty write tests of
 * every kind run here one right after the other and each must succeed;
 * a device that another program really holds is waited for (a notice on
 * stderr and a note in the result) and, when it stays held, the program
 * is named.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ds-faultdisk.h"
#include "ds-test-util.h"

#define note ds_test_note
#define MIB (UINT64_C (1) << 20)

static char *device;

static void
setup (void)
{
  device = ds_test_loop_new (128 * MIB, FALSE);
}

static void
teardown (void)
{
  if (device != NULL)
    ds_test_loop_detach (device);
  g_clear_pointer (&device, g_free);
}

/* A write command of each kind, short; DEV is the device. */
static const char *const chain[] = {
  "sustain DEV --size 25% --block-size 1M",
  "benchmark DEV --write --capacity 32M --accuracy 1",
  "workload DEV --pattern randwrite --duration 300ms --span 32M",
  "erase DEV --zeros",
  "cache DEV --write --max 16M --set-time 200ms",
  "sweep DEV --pattern randwrite --levels 1,2 --step-time 200ms --span 32M",
  "mark DEV --row randwrite,4k,qd8,t1,300ms",
};

static int
run_write (const char *line,
           char      **ret_out,
           char      **ret_err)
{
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", device);
  g_auto (GStrv) words = g_strsplit (line, " ", -1);
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_auto (GStrv) args = NULL;

  for (unsigned i = 0; words[i] != NULL; i++)
    g_strv_builder_add (b, g_str_equal (words[i], "DEV") ? device : words[i]);
  g_strv_builder_add_many (b, confirm, "--no-progress", "--json", NULL);
  args = g_strv_builder_end (b);

  return ds_test_cli_argv ((const char *const *) args, NULL, ret_out, ret_err);
}

START_TEST (test_twenty_writes)
{
  unsigned failed = 0;

  for (unsigned i = 0; i < 20; i++)
    {
      const char *line = chain[i % G_N_ELEMENTS (chain)];
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int rc = run_write (line, &out, &err);

      if (rc != 0)
        {
          note ("%2u: %s: exit %d: %s", i + 1, line, rc, err);
          failed++;
        }
      /* Nothing of ours holds the device once the run is over: the next
       * program (a mkfs, fio) may claim it at once. */
      if (rc == 0)
        {
          int fd = open (device, O_RDONLY | O_EXCL | O_CLOEXEC);

          if (fd < 0)
            {
              note ("%2u: %s: %s still claimed after the run: %s", i + 1, line, device,
                    g_strerror (errno));
              failed++;
            }
          else
            close (fd);
        }
      ck_assert_msg (err == NULL || strstr (err, "Waiting for") == NULL,
                     "%s waited for the device: %s", line, err);
    }
  note ("20 write tests back to back on %s: %u refused", device, failed);
  ck_assert_uint_eq (failed, 0);
}
END_TEST

/* A child holds @path exclusively for @hold_ms, then exits. */
static pid_t
hold_exclusively (const char *path,
                  unsigned    hold_ms)
{
  int ready[2];
  pid_t pid;
  char c;

  ck_assert_int_eq (pipe (ready), 0);
  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0)
    {
      int fd = open (path, O_RDONLY | O_EXCL | O_CLOEXEC);

      if (write (ready[1], fd >= 0 ? "y" : "n", 1) != 1)
        _exit (1);
      g_usleep ((gulong) hold_ms * 1000);
      _exit (0);
    }
  close (ready[1]);
  ck_assert_int_eq (read (ready[0], &c, 1), 1);
  close (ready[0]);
  ck_assert_msg (c == 'y', "could not open %s exclusively", path);

  return pid;
}

START_TEST (test_waits_for_a_short_hold)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonNode *notes;
  pid_t holder = hold_exclusively (device, 1500);
  int rc;

  rc = run_write (chain[1], &out, &err);
  note ("held for 1.5 s: exit %d; stderr: %s", rc, err);
  ck_assert_int_eq (rc, 0);
  ck_assert_ptr_nonnull (strstr (err, "Waiting for"));
  root = ds_fault_json_parse (out);
  ck_assert (root != NULL);
  notes = ds_fault_json_get (root, "notes");
  ck_assert (notes != NULL && JSON_NODE_HOLDS_ARRAY (notes));
  ck_assert (strstr (json_array_get_string_element (json_node_get_array (notes), 0), "Waited") != NULL);
  ck_assert_int_eq (waitpid (holder, NULL, 0), holder);
}
END_TEST

START_TEST (test_names_a_holder_that_stays)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *pid_text = NULL;
  pid_t holder = hold_exclusively (device, 14000);
  gint64 start = g_get_monotonic_time ();
  double seconds;
  int rc;

  rc = run_write (chain[1], &out, &err);
  seconds = (double) (g_get_monotonic_time () - start) / 1e6;
  note ("held for 14 s: exit %d after %.1f s; stderr: %s", rc, seconds, err);
  kill (holder, SIGKILL);
  ck_assert_int_eq (waitpid (holder, NULL, 0), holder);
  ck_assert_int_eq (rc, 3);
  pid_text = g_strdup_printf ("(pid %d)", (int) holder);
  ck_assert_msg (strstr (err, pid_text) != NULL, "the holder %s is not named", pid_text);
  ck_assert_msg (strstr (err, "in use by another program") != NULL, "%s", err);
  /* Bounded: the wait, plus the run's start and the scan of /proc. */
  ck_assert_double_lt (seconds, 13.0);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("chain");
  TCase *tc = tcase_create ("chain");

  ds_test_init ("test-int-chain");
  ds_test_require_root ("loop devices need root");
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_twenty_writes);
  tcase_add_test (tc, test_waits_for_a_short_hold);
  tcase_add_test (tc, test_names_a_holder_that_stays);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
