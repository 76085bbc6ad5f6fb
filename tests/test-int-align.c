/* test-int-align.c: where random I/O lands on a real device, seen by the
 * kernel (root)
 *
 * fio and CrystalDiskMark put random I/O on multiples of the transfer size;
 * on a 512e drive a 4 KiB I/O at a 512-byte offset straddles two physical
 * sectors (a write becomes read-modify-write).  Each run here is traced
 * with the block layer's block_bio_queue tracepoint, in a tracefs instance
 * of the test's own, filtered to the test's loop device: every bio of a
 * 4 KiB random run must start on a 4 KiB boundary, and with --align 512
 * (HD Tune's rule) most must not.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "ds-test-util.h"

#define note ds_test_note
#define MIB (UINT64_C (1) << 20)

static char *device;
static char *tracefs;          /* where tracefs is mounted */
static gboolean mounted_here;  /* by main(), unmounted at its end */

static void
setup (void)
{
  device = ds_test_loop_new (256 * MIB, FALSE);
}

static void
teardown (void)
{
  if (device != NULL)
    ds_test_loop_detach (device);
  g_clear_pointer (&device, g_free);
}

/* tracefs files take a plain write (no temporary file and rename). */
static void
write_file (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  FILE *f = fopen (path, "w");

  ck_assert_msg (f != NULL, "%s: %s", path, g_strerror (errno));
  ck_assert_msg (fputs (text, f) >= 0 && fclose (f) == 0, "%s: %s", path, g_strerror (errno));
}

typedef struct {
  guint    bios;
  guint    unaligned;        /* start not a multiple of align_sectors */
  guint    other_size;       /* not of the run's block size */
  guint    others;           /* not from the run's I/O threads */
  uint64_t first_unaligned;  /* sector */
} Trace;

/* Runs diskscope-cli with @args (DEV replaced by the device) while the
 * test's own tracefs instance records every bio queued on the device, and
 * counts the bios of @block_sectors sectors whose start is not a multiple
 * of @align_sectors.  @ret_json gets the CLI's stdout. */
static Trace
traced_run (const char  *args,
            guint        block_sectors,
            guint        align_sectors,
            char       **ret_json)
{
  g_autofree char *name = g_strdup_printf ("ds-test-align-%d", (int) getpid ());
  g_autofree char *instance = g_build_filename (tracefs, "instances", name, NULL);
  g_autofree char *event = g_build_filename (instance, "events", "block", "block_bio_queue", NULL);
  g_autofree char *filter = NULL;
  g_autofree char *trace_path = g_build_filename (instance, "trace", NULL);
  g_autofree char *trace = NULL;
  g_autofree char *err = NULL;
  g_autofree char *line = NULL;
  g_auto (GStrv) argv = NULL;
  g_auto (GStrv) lines = NULL;
  struct stat st;
  Trace t = { 0 };
  int status;

  ck_assert_int_eq (stat (device, &st), 0);
  ck_assert_msg (mkdir (instance, 0700) == 0, "mkdir %s: %s", instance, g_strerror (errno));
  /* The kernel's dev_t: major << 20 | minor. */
  filter = g_strdup_printf ("dev == %u", (major (st.st_rdev) << 20) | minor (st.st_rdev));
  write_file (instance, "buffer_size_kb", "16384");
  write_file (event, "filter", filter);
  write_file (event, "enable", "1");

  line = g_strjoinv (device, (argv = g_strsplit (args, "DEV", -1)));
  g_clear_pointer (&argv, g_strfreev);
  ck_assert (g_shell_parse_argv (line, NULL, &argv, NULL));
  status = ds_test_cli_argv ((const char *const *) argv, NULL, ret_json, &err);

  write_file (event, "enable", "0");
  ck_assert (g_file_get_contents (trace_path, &trace, NULL, NULL));
  ck_assert_msg (rmdir (instance) == 0, "rmdir %s: %s", instance, g_strerror (errno));
  ck_assert_msg (status == 0, "%s: exit %d: %s", line, status, err);

  /* "  ds-io-1188  [000] .....  2790.293322: block_bio_queue: 7,1 RS 21347 + 8 [ds-io]" */
  lines = g_strsplit (trace, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *plus = strstr (lines[i], " + ");
      const char *p;
      uint64_t sector;
      guint n;

      const char *comm = strrchr (lines[i], '[');

      if (lines[i][0] == '#' || plus == NULL || comm == NULL ||
          strstr (lines[i], "block_bio_queue") == NULL)
        continue;
      /* Ours: the I/O threads, or io_uring's workers for them.  Not udev's
       * probe of the device (blkid reads its end in 64 KiB). */
      if (!g_str_has_prefix (comm, "[ds-io]") && !g_str_has_prefix (comm, "[iou-"))
        {
          t.others++;
          continue;
        }
      for (p = plus; p > lines[i] && p[-1] != ' '; p--)
        ;
      sector = g_ascii_strtoull (p, NULL, 10);
      n = (guint) g_ascii_strtoull (plus + 3, NULL, 10);
      if (n != block_sectors)
        {
          t.other_size++;
          continue;
        }
      t.bios++;
      if (sector % align_sectors != 0 && t.unaligned++ == 0)
        t.first_unaligned = sector;
    }
  note ("%s: %u bios of %u sectors, %u not on %u sectors (first at sector %" G_GUINT64_FORMAT
        "), %u of another size, %u from other programs", line, t.bios, block_sectors,
        t.unaligned, align_sectors, t.first_unaligned, t.other_size, t.others);

  return t;
}

static gint64
params_align (const char *json)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *params;

  ck_assert (json_parser_load_from_data (parser, json, -1, NULL));
  params = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                          "params");
  ck_assert (json_object_has_member (params, "random_align_bytes"));

  return json_object_get_int_member (params, "random_align_bytes");
}

/* RND4K at QD1 (the sync engine) and QD32 (io_uring), reads and writes:
 * every bio on a 4 KiB boundary, and the result says so. */
START_TEST (test_rnd4k_on_4k)
{
  static const char *const runs[] = {
    "workload DEV --pattern randread --block-size 4K --duration 500ms --json --no-library --no-progress",
    "workload DEV --pattern randread --block-size 4K --queue-depth 32 --duration 500ms --json --no-library --no-progress",
    "workload DEV --pattern randwrite --block-size 4K --queue-depth 8 --duration 500ms --destroy-data=DEV --json --no-library --no-progress",
  };

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *json = NULL;
      Trace t = traced_run (runs[i], 8, 8, &json);

      /* 50 bios at 512-byte offsets all on 4 KiB by chance: 8^-50. */
      ck_assert_msg (t.bios > 50, "only %u 4 KiB bios traced", t.bios);
      ck_assert_msg (t.unaligned == 0, "%u of %u bios off 4 KiB (sector %" G_GUINT64_FORMAT ")",
                     t.unaligned, t.bios, t.first_unaligned);
      ck_assert_int_eq (params_align (json), 0);
    }
}
END_TEST

/* A 64 KiB random row on 64 KiB boundaries; CrystalDiskMark's RND4K step
 * through the mark kind. */
START_TEST (test_other_kinds_on_their_block)
{
  g_autofree char *json = NULL;
  Trace t = traced_run ("workload DEV --pattern randread --block-size 64K --duration 500ms "
                        "--json --no-library --no-progress", 128, 128, &json);

  ck_assert_uint_gt (t.bios, 50);
  ck_assert_uint_eq (t.unaligned, 0);
  g_clear_pointer (&json, g_free);

  t = traced_run ("mark DEV --rows randread,4k,qd1,t1,500ms --count 1 --warmup 0 --pause 0 "
                  "--size 128M --json --no-progress", 8, 8, &json);
  ck_assert_uint_gt (t.bios, 50);
  ck_assert_uint_eq (t.unaligned, 0);
}
END_TEST

/* --align 512: HD Tune's rule, any sector; recorded in the result. */
START_TEST (test_align_512)
{
  g_autofree char *json = NULL;
  Trace t = traced_run ("workload DEV --pattern randread --block-size 4K --duration 500ms --align 512 "
                        "--json --no-library --no-progress", 8, 8, &json);

  /* 7 of 8 places are off a 4 KiB boundary. */
  ck_assert_uint_gt (t.bios, 50);
  ck_assert_msg (t.unaligned > t.bios / 2, "only %u of %u off 4 KiB", t.unaligned, t.bios);
  ck_assert_int_eq (params_align (json), 512);
}
END_TEST

/* Mounts tracefs where the system has none, for the whole suite. */
static gboolean
find_tracefs (void)
{
  g_autofree char *instances = NULL;

  tracefs = g_strdup ("/sys/kernel/tracing");
  instances = g_build_filename (tracefs, "instances", NULL);
  if (g_file_test (instances, G_FILE_TEST_IS_DIR))
    return TRUE;
  g_clear_pointer (&instances, g_free);
  g_free (tracefs);
  tracefs = ds_test_scratch_path ("tracefs");
  if (mkdir (tracefs, 0700) != 0 || mount ("nodev", tracefs, "tracefs", 0, NULL) != 0)
    return FALSE;
  mounted_here = TRUE;
  instances = g_build_filename (tracefs, "instances", NULL);

  return g_file_test (instances, G_FILE_TEST_IS_DIR);
}

int
main (void)
{
  Suite *s = suite_create ("align");
  TCase *tc = tcase_create ("align");
  int status;

  ds_test_init ("test-int-align");
  ds_test_require_root ("loop devices and tracefs need root");
  if (!find_tracefs ())
    {
      /* The kernel's tracing is the witness: without it there is no test. */
      printf ("1..0 # SKIP tracefs with instances is not available (%s)\n", g_strerror (errno));
      if (mounted_here)
        umount (tracefs);
      return 0;
    }
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_rnd4k_on_4k);
  tcase_add_test (tc, test_other_kinds_on_their_block);
  tcase_add_test (tc, test_align_512);
  suite_add_tcase (s, tc);

  status = ds_test_run_suite (s);
  if (mounted_here && umount (tracefs) == 0)
    rmdir (tracefs);

  return status;
}
