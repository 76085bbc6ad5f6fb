/* test-int-warnings.c: the warnings on real loop devices (root): a loop
 * without direct I/O, a sparse one, another reader during the run, and a
 * clean one that must raise none; the environment recorded and kept
 * through save and load
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ds-faultdisk.h"
#include "ds-result-json.h"
#include "ds-test-util.h"
#include "ds-warnings.h"

#define note ds_test_note
#define MIB (UINT64_C (1) << 20)

/* A workload run's JSON (saved to @save when not NULL). */
static JsonNode *
run_json (const char *device,
          const char *pattern,
          const char *block,
          const char *duration,
          const char *save)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  JsonNode *root;
  int rc;

  if (save != NULL)
    rc = ds_test_cli (&out, &err, "workload", device, "--pattern", pattern, "--block-size", block,
                      "--duration", duration, "--json", "--no-progress", "--no-library",
                      "-o", save, NULL);
  else
    rc = ds_test_cli (&out, &err, "workload", device, "--pattern", pattern, "--block-size", block,
                      "--duration", duration, "--json", "--no-progress", "--no-library", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  root = ds_fault_json_parse (out);
  ck_assert_msg (root != NULL, "not JSON: %.300s", out);
  return root;
}

/* The message of warning @code, or NULL; notes every warning. */
static const char *
warning (JsonNode   *root,
         const char *code)
{
  JsonArray *a = json_node_get_array (ds_fault_json_get (root, "warnings"));
  const char *found = NULL;

  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *w = json_array_get_object_element (a, i);

      note ("%s: %s", json_object_get_string_member (w, "code"),
            json_object_get_string_member (w, "message"));
      if (strcmp (json_object_get_string_member (w, "code"), code) == 0)
        found = json_object_get_string_member (w, "message");
    }

  return found;
}

/* Member @member of layer @i of the environment's device stack. */
static JsonNode *
stack_member (JsonNode   *root,
              guint       i,
              const char *member)
{
  JsonNode *stack = ds_fault_json_get (root, "environment.stack");
  JsonObject *layer;

  ck_assert (stack != NULL && JSON_NODE_HOLDS_ARRAY (stack));
  ck_assert (json_array_get_length (json_node_get_array (stack)) > i);
  layer = json_array_get_object_element (json_node_get_array (stack), i);
  ck_assert_msg (json_object_has_member (layer, member), "no stack[%u].%s", i, member);
  return json_object_get_member (layer, member);
}

static guint
n_warnings (JsonNode *root)
{
  return json_array_get_length (json_node_get_array (ds_fault_json_get (root, "warnings")));
}

START_TEST (test_loop_without_direct_io)
{
  g_autofree char *file = ds_test_make_file ("nodio.img", 64 * MIB, 11);
  g_autofree char *dev = ds_test_loop_attach_dio (file, FALSE);
  g_autoptr (JsonNode) root = run_json (dev, "randread", "4K", "1s", NULL);
  const char *m = warning (root, "loop_no_direct_io");

  ck_assert_msg (m != NULL, "no loop_no_direct_io warning");
  ck_assert (strstr (m, "page cache") != NULL && strstr (m, file) != NULL);
  /* Written data: not zero reads. */
  ck_assert (warning (root, "zero_reads") == NULL);
  ck_assert (!json_node_get_boolean (stack_member (root, 0, "direct_io")));
  ds_test_loop_detach (dev);
}
END_TEST

START_TEST (test_sparse_zero_reads)
{
  g_autofree char *file = ds_test_scratch_path ("sparse.img");
  g_autofree char *dev = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  const char *m;
  int rc;

  /* Never written: every block a hole. */
  ck_assert (g_file_set_contents (file, "", 0, NULL));
  ck_assert (truncate (file, 64 * MIB) == 0);
  dev = ds_test_loop_attach_dio (file, TRUE);

  /* Random access: rows by transfer size; each must be named. */
  rc = ds_test_cli (&out, &err, "random-access", dev, "--accuracy", "1", "--json",
                    "--no-progress", "--no-library", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  root = ds_fault_json_parse (out);
  ck_assert (root != NULL);
  m = warning (root, "zero_reads");
  ck_assert_msg (m != NULL, "no zero_reads warning");
  ck_assert_msg (strstr (m, "4 KiB random") != NULL && strstr (m, "1 MiB random") != NULL, "%s", m);
  ck_assert (warning (root, "loop_no_direct_io") == NULL);
  ds_test_loop_detach (dev);
}
END_TEST

/* A write benchmark's figures are writes: the untimed reads that position
 * each point on never-written space are no reason for a zero_reads
 * warning ("100 of 200 sampled reads returned only zeros", issue 25). */
START_TEST (test_write_benchmark_no_zero_reads)
{
  g_autofree char *file = ds_test_scratch_path ("sparse-w.img");
  g_autofree char *dev = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *confirm = NULL;
  g_autoptr (JsonNode) root = NULL;
  int rc;

  ck_assert (g_file_set_contents (file, "", 0, NULL));
  ck_assert (truncate (file, 64 * MIB) == 0);
  dev = ds_test_loop_attach_dio (file, TRUE);
  confirm = g_strdup_printf ("--destroy-data=%s", dev);
  rc = ds_test_cli (&out, &err, "benchmark", dev, "--write", confirm, "--capacity", "32M",
                    "--accuracy", "1", "--json", "--no-progress", "--no-library", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  root = ds_fault_json_parse (out);
  ck_assert (root != NULL);
  ck_assert_msg (warning (root, "zero_reads") == NULL, "a write benchmark warned of its reads");
  ds_test_loop_detach (dev);
}
END_TEST

/* Block Size rows start where the one before stopped, not at 0: the
 * warning names where the zeros were read ("32 KiB … at 0 bytes" for rows
 * past 1 GB, issue 25).  Data over the first 8 MiB, never written past. */
START_TEST (test_block_size_zero_reads_where)
{
  g_autofree char *file = ds_test_make_file ("half.img", 8 * MIB, 14);
  g_autofree char *dev = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  const char *m;
  const char *at;
  guint places = 0;
  int rc;

  ck_assert (truncate (file, 128 * MIB) == 0);
  dev = ds_test_loop_attach_dio (file, TRUE);
  rc = ds_test_cli (&out, &err, "block-size", dev, "--accuracy", "1", "--json", "--no-progress",
                    "--no-library", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  root = ds_fault_json_parse (out);
  ck_assert (root != NULL);
  m = warning (root, "zero_reads");
  ck_assert_msg (m != NULL, "no zero_reads warning");
  ck_assert_msg (strstr (m, "at 0 bytes") == NULL, "%s", m);
  /* Every place named is past the written 8 MiB (8.4 MB). */
  for (at = strstr (m, " at "); at != NULL; at = strstr (at + 4, " at "))
    {
      double mb = g_ascii_strtod (at + 4, NULL);

      ck_assert_msg (g_str_has_prefix (strchr (at + 4, ' '), " MB") && mb >= 8.3, "%s", m);
      places++;
    }
  ck_assert_msg (places > 0, "no place named: %s", m);
  ds_test_loop_detach (dev);
}
END_TEST

static void
new_session (gpointer data)
{
  setsid ();
}

START_TEST (test_other_reader)
{
  g_autofree char *file = ds_test_make_file ("busy.img", 128 * MIB, 12);
  g_autofree char *dev = ds_test_loop_attach_dio (file, TRUE);
  g_autofree char *script = g_strdup_printf ("while :; do dd if=%s of=/dev/null bs=1M "
                                             "iflag=direct status=none; done", dev);
  /* Bounded by timeout even if this test dies before it stops it. */
  g_autoptr (JsonNode) root = NULL;
  const char *m;
  GPid pid;
  const char *argv[] = { "timeout", "20", "sh", "-c", script, NULL };
  int status;

  ck_assert (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                            new_session, NULL, &pid, NULL));
  g_usleep (200000);
  root = run_json (dev, "randread", "4K", "2s", NULL);
  /* The reader's own session: timeout, its shell and dd, by its id. */
  kill (-pid, SIGTERM);
  waitpid (pid, &status, 0);

  m = warning (root, "other_io");
  ck_assert_msg (m != NULL, "no other_io warning with dd reading the device");
  ck_assert (strstr (m, "/proc/diskstats") != NULL);
  ck_assert (warning (root, "loop_no_direct_io") == NULL);
  ck_assert (warning (root, "zero_reads") == NULL);
}
END_TEST

/* Direct I/O, written random data, nobody else: no warning at all; and the
 * environment is there, and the same after save and load. */
START_TEST (test_clean_and_environment)
{
  g_autofree char *file = ds_test_make_file ("clean.img", 64 * MIB, 13);
  g_autofree char *dev = ds_test_loop_attach_dio (file, TRUE);
  g_autofree char *saved = ds_test_scratch_path ("clean.json");
  g_autofree char *name = g_path_get_basename (dev);
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (DsResult) loaded = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) again = NULL;
  JsonNode *env;

  /* Other programs on a shared machine may probe every loop device (blkid,
   * udisks: about a megabyte, once): below the rule's 4 MiB floor. */
  root = run_json (dev, "randread", "4K", "1s", saved);
  (void) warning (root, "");
  ck_assert_uint_eq (n_warnings (root), 0);
  root = (json_node_unref (root), run_json (dev, "read", "1M", "1s", NULL));
  (void) warning (root, "");
  ck_assert_uint_eq (n_warnings (root), 0);

  g_clear_pointer (&root, json_node_unref);
  {
    g_autofree char *text = NULL;

    ck_assert (g_file_get_contents (saved, &text, NULL, NULL));
    root = ds_fault_json_parse (text);
  }
  env = ds_fault_json_get (root, "environment");
  ck_assert_str_eq (json_node_get_string (ds_fault_json_get (root, "environment.device")), name);
  ck_assert_str_eq (json_node_get_string (stack_member (root, 0, "type")), "loop");
  ck_assert (json_node_get_boolean (stack_member (root, 0, "direct_io")));
  ck_assert_str_eq (json_node_get_string (stack_member (root, 0, "backing_file")), file);
  ck_assert (ds_fault_json_get (root, "environment.scheduler") != NULL);
  ck_assert (json_node_get_int (ds_fault_json_get (root, "environment.read_ahead_kb")) >= 0);
  ck_assert (json_node_get_int (ds_fault_json_get (root, "environment.logical_block_size")) >= 512);
  ck_assert (ds_fault_json_get (root, "environment.write_cache") != NULL);
  ck_assert (ds_fault_json_get (root, "environment.nr_requests") != NULL);
  ck_assert (ds_fault_json_get (root, "environment.cpu_governor") != NULL);
  ck_assert (ds_fault_json_get (root, "environment.kernel") != NULL);

  loaded = ds_result_load (saved, &error);
  ck_assert_msg (loaded != NULL, "%s", error ? error->message : "");
  again = ds_result_to_json (loaded);
  ck_assert (json_node_equal (env, json_object_get_member (json_node_get_object (again), "environment")));
  ds_test_loop_detach (dev);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("int-warnings");
  TCase *tc = tcase_create ("int-warnings");

  ds_test_init ("int-warnings");
  ds_test_require_root ("loop devices need root");
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_loop_without_direct_io);
  tcase_add_test (tc, test_sparse_zero_reads);
  tcase_add_test (tc, test_write_benchmark_no_zero_reads);
  tcase_add_test (tc, test_block_size_zero_reads_where);
  tcase_add_test (tc, test_other_reader);
  tcase_add_test (tc, test_clean_and_environment);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
