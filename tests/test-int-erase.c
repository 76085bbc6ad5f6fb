/* test-int-erase.c: the erase command on loop devices and zram (root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What is on the device afterwards is read back here with O_DIRECT and
 * compared (zeros, or bytes that are no longer the old ones); every
 * refusal must leave the device's checksum unchanged.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "ds-bench-erase.h"
#include "ds-buffer.h"
#include "ds-faultdisk.h"
#include "ds-result-json.h"
#include "ds-test-util.h"

#define MiB (UINT64_C (1024) * 1024)
#define DEVICE_BYTES (32 * MiB)

#define note ds_test_note

/* Bytes of @path that are not zero, read with O_DIRECT. */
static uint64_t
count_nonzero (const char *path)
{
  uint8_t *buf = ds_buffer_alloc (1 << 20, 4096);
  int fd = open (path, O_RDONLY | O_DIRECT | O_CLOEXEC);
  uint64_t nonzero = 0;
  ssize_t n;

  ck_assert_int_ge (fd, 0);
  while ((n = read (fd, buf, 1 << 20)) > 0)
    for (ssize_t i = 0; i < n; i++)
      nonzero += buf[i] != 0;
  ck_assert_int_eq (n, 0);
  close (fd);
  ds_buffer_free (buf);

  return nonzero;
}

/* All of @path (@size bytes), read with O_DIRECT. */
static uint8_t *
read_all (const char *path,
          uint64_t    size)
{
  uint8_t *buf = ds_buffer_alloc (size, 4096);
  int fd = open (path, O_RDONLY | O_DIRECT | O_CLOEXEC);

  ck_assert_int_ge (fd, 0);
  for (uint64_t done = 0; done < size;)
    {
      ssize_t n = pread (fd, buf + done, MIN (size - done, 1 << 20), (off_t) done);

      ck_assert_int_gt (n, 0);
      done += (uint64_t) n;
    }
  close (fd);

  return buf;
}

static int
cli (char       **ret_out,
     char       **ret_err,
     const char  *first,
     ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *discard = NULL;
  va_list args;
  const char *a;
  int rc;

  g_ptr_array_add (argv, (gpointer) ds_test_cli_path ());
  va_start (args, first);
  for (a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  /* Always capture stdout: the program's must not mix into the TAP. */
  rc = ds_test_run ((const char *const *) argv->pdata, ret_out ? ret_out : &discard, ret_err);
  if (rc != 0 && ret_err != NULL && *ret_err != NULL)
    note ("exit %d: %s", rc, *ret_err);
  return rc;
}

static JsonNode *
parse (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();

  ck_assert_msg (json_parser_load_from_data (parser, text, -1, NULL), "not JSON: %.300s", text);
  return json_node_copy (json_parser_get_root (parser));
}

static JsonObject *
results_of (JsonNode *root)
{
  return json_object_get_object_member (json_node_get_object (root), "results");
}

START_TEST (test_erase_zeros_verify)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *r;

  ck_assert_uint_gt (count_nonzero (dev), DEVICE_BYTES / 2);
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--verify", "--json", NULL), 0);
  ck_assert_uint_eq (count_nonzero (dev), 0);

  root = parse (out);
  r = results_of (root);
  ck_assert_str_eq (json_object_get_string_member (r, "method"), "zeros");
  ck_assert (json_object_get_boolean_member (r, "verified"));
  ck_assert_int_eq (json_object_get_int_member (r, "bytes_done"), DEVICE_BYTES);
  ck_assert_int_eq (json_object_get_int_member (r, "bytes_verified"), DEVICE_BYTES);
  ck_assert (json_object_get_double_member (r, "bytes_per_s") > 0);
}
END_TEST

START_TEST (test_erase_random_verify)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *before = ds_test_checksum (dev);
  g_autofree char *after = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  uint64_t nonzero;

  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--random", "--verify", "--json", NULL), 0);
  after = ds_test_checksum (dev);
  ck_assert_str_ne (before, after);
  /* Pseudo-random: about 255 of 256 bytes are not zero. */
  nonzero = count_nonzero (dev);
  ck_assert_uint_gt (nonzero, DEVICE_BYTES / 256 * 250);
  root = parse (out);
  ck_assert_str_eq (json_object_get_string_member (results_of (root), "method"), "random");
  ck_assert (json_object_get_boolean_member (results_of (root), "verified"));

  /* Text: the method and the verification in words. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--random", NULL), 0);
  ck_assert_ptr_nonnull (strstr (out, "overwrite with pseudo-random data"));
  ck_assert_ptr_nonnull (strstr (out, "not asked"));
}
END_TEST

START_TEST (test_erase_refusals_leave_the_device_alone)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *other = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *wrong = g_strdup_printf ("--destroy-data=%s", other);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *before = ds_test_checksum (dev);
  g_autofree char *err = NULL;
  g_autofree char *mnt = NULL;
  g_autofree char *sum = NULL;

  /* Not confirmed. */
  ck_assert_int_eq (cli (NULL, &err, "erase", dev, NULL), 3);
  ck_assert_ptr_nonnull (strstr (err, "--destroy-data="));
  g_clear_pointer (&err, g_free);
  /* Confirmed with another device. */
  ck_assert_int_eq (cli (NULL, &err, "erase", dev, wrong, NULL), 3);
  g_clear_pointer (&err, g_free);
  /* Two methods. */
  ck_assert_int_eq (cli (NULL, &err, "erase", dev, confirm, "--zeros", "--random", NULL), 2);
  g_clear_pointer (&err, g_free);
  /* Secure discard: a loop device has none; nothing is written. */
  ck_assert_int_eq (cli (NULL, &err, "erase", dev, confirm, "--secure", NULL), 1);
  ck_assert_ptr_nonnull (strstr (err, "secure discard"));
  g_clear_pointer (&err, g_free);
  sum = ds_test_checksum (dev);
  ck_assert_str_eq (before, sum);
  g_clear_pointer (&sum, g_free);

  /* Mounted: refused even when confirmed. */
  mnt = ds_test_mount_ext4 (dev, "erase-mnt");
  g_clear_pointer (&before, g_free);
  before = ds_test_checksum (dev);
  ck_assert_int_eq (cli (NULL, &err, "erase", dev, confirm, NULL), 3);
  ck_assert_ptr_nonnull (strstr (err, "in use"));
  sum = ds_test_checksum (dev);
  ck_assert_str_eq (before, sum);
}
END_TEST

START_TEST (test_erase_discard_loop)
{
  g_autofree char *dev = ds_test_loop_new (DEVICE_BYTES, FALSE);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;

  /* A loop device discards by punching holes in its file: zeros after. */
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--discard", "--verify", "--json", NULL), 0);
  ck_assert_uint_eq (count_nonzero (dev), 0);
  root = parse (out);
  ck_assert_str_eq (json_object_get_string_member (results_of (root), "method"), "discard");
  ck_assert (json_object_get_boolean_member (results_of (root), "verified"));
}
END_TEST

START_TEST (test_erase_write_errors_are_reported)
{
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_new (DEVICE_BYTES, 5);
  const char *dev = ds_faultdisk_attach (disk, FALSE);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *failed;

  ck_assert (ds_faultdisk_control (disk, "write-error %" PRIu64 " 4096", 8 * MiB + 4096));
  /* The erase goes past the bad block, then says it could not erase it. */
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--json", NULL), 1);
  ck_assert_ptr_nonnull (strstr (err, "could not be written"));
  root = parse (out);
  failed = json_object_get_array_member (results_of (root), "write_errors");
  ck_assert_uint_eq (json_array_get_length (failed), 1);
  ck_assert_int_eq (json_object_get_int_member (json_array_get_object_element (failed, 0), "offset_bytes"),
                    (gint64) (8 * MiB));
  ck_assert_int_eq (json_object_get_int_member (results_of (root), "bytes_done"),
                    (gint64) (DEVICE_BYTES - 4 * MiB));
}
END_TEST

/* A device that accepts a discard and keeps every byte (a loop device over
 * a filesystem that cannot punch holes) is caught: a discard is read back
 * by default, and the result says the old data survived.  One that
 * returns 0xff after it fails too, without that claim; one that zeros
 * passes. */
START_TEST (test_erase_dropped_discard_is_caught)
{
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_new (DEVICE_BYTES, 6);
  const char *dev = ds_faultdisk_attach (disk, FALSE);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *before = ds_test_checksum (dev);
  g_autofree char *after = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *survived;
  JsonObject *r;

  ck_assert (ds_faultdisk_control (disk, "discard drop"));
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--discard", "--json", NULL), 1);
  ck_assert_uint_ge (ds_faultdisk_counter (disk, "discards"), 1);
  ck_assert_msg (strstr (err, "still read back as the old data") && strstr (err, "kept the data"),
                 "%s", err);
  after = ds_test_checksum (dev);
  ck_assert_str_eq (before, after);
  root = parse (out);
  r = results_of (root);
  ck_assert (json_object_get_boolean_member (r, "verify"));
  ck_assert (!json_object_get_boolean_member (r, "verified"));
  ck_assert_int_eq (json_object_get_int_member (r, "bytes_verified"), DEVICE_BYTES);
  survived = json_object_get_array_member (r, "survived");
  ck_assert_uint_eq (json_array_get_length (survived), 1);
  ck_assert_int_eq (json_object_get_int_member (json_array_get_object_element (survived, 0),
                                                "length_bytes"), DEVICE_BYTES);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&root, json_node_unref);

  /* The text says it too; --no-verify does not read back, and says that
   * it does not know. */
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--discard", NULL), 1);
  ck_assert_msg (strstr (out, "still hold the old data"), "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--discard", "--no-verify", NULL), 0);
  ck_assert_msg (strstr (out, "not asked (--no-verify)"), "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  ck_assert (ds_faultdisk_control (disk, "discard ones"));
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--discard", "--json", NULL), 1);
  ck_assert_msg (strstr (err, "did not read back as zeros"), "%s", err);
  root = parse (out);
  r = results_of (root);
  ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (r, "survived")), 0);
  ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (r, "mismatches")), 1);
  ck_assert_uint_eq (count_nonzero (dev), DEVICE_BYTES);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&root, json_node_unref);

  ck_assert (ds_faultdisk_control (disk, "discard zero"));
  ck_assert_int_eq (cli (&out, &err, "erase", dev, confirm, "--discard", "--json", NULL), 0);
  ck_assert (json_object_get_boolean_member (results_of (root = parse (out)), "verified"));
  ck_assert_uint_eq (count_nonzero (dev), 0);
}
END_TEST

/* The same through a regular file on the FUSE disk: a punched hole the
 * filesystem accepts and ignores. */
START_TEST (test_erase_dropped_hole_in_a_file)
{
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_new (8 * MiB, 9);
  const char *file = ds_faultdisk_get_file (disk);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", file);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  ck_assert_int_eq (cli (&out, &err, "erase", file, confirm, "--discard", "--no-library", NULL), 1);
  ck_assert_msg (strstr (err, "filesystem accepted the punched hole and kept the data"), "%s", err);
  ck_assert_uint_gt (count_nonzero (file), 8 * MiB / 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  ck_assert (ds_faultdisk_control (disk, "discard zero"));
  ck_assert_int_eq (cli (&out, &err, "erase", file, confirm, "--discard", "--no-library", NULL), 0);
  ck_assert_uint_eq (count_nonzero (file), 0);
}
END_TEST

/* SIGINT in the middle of an erase of a slow disk: the report says which
 * bytes were overwritten, and exactly those are zeros now; the rest is
 * what it was. */
START_TEST (test_erase_stopped_says_which_bytes)
{
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_new (DEVICE_BYTES, 10);
  const char *dev = ds_faultdisk_attach (disk, FALSE);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *json = ds_test_scratch_path ("stopped-erase.json");
  const char *argv[] = { ds_test_cli_path (), "erase", dev, confirm, "--block-size", "64K",
                         "--verify", "--no-library", "-o", json, NULL };
  const char *prefix = "Overwritten before the stop: bytes 0 – ";
  uint8_t *old = read_all (dev, DEVICE_BYTES);
  uint8_t *now;
  g_autoptr (DsFaultProc) proc = NULL;
  g_autoptr (DsResult) saved = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const DsEraseData *data;
  const char *line;
  uint64_t reached;
  int rc;

  /* 512 writes of 64 KiB at 3 ms each: 1.5 s at least. */
  ck_assert (ds_faultdisk_control (disk, "delay 3000"));
  proc = ds_fault_proc_spawn (argv);
  g_usleep (700 * 1000);
  ck_assert_msg (ds_fault_proc_end_time (proc) == 0, "the erase ended on its own");
  ds_fault_proc_signal (proc, SIGINT);
  rc = ds_fault_proc_wait (proc, 10000);
  out = ds_fault_proc_stdout (proc);
  err = ds_fault_proc_stderr (proc);
  ck_assert_msg (rc == 130, "exit %d: %s", rc, err);

  line = strstr (out, prefix);
  ck_assert_msg (line != NULL, "no overwritten range in: %s", out);
  note ("%.*s", (int) strcspn (line, "\n"), line);
  reached = g_ascii_strtoull (line + strlen (prefix), NULL, 10) + 1;
  saved = ds_result_load (json, &error);
  ck_assert_msg (saved != NULL, "%s", error ? error->message : "");
  data = saved->data;
  ck_assert_uint_eq (data->reached_bytes, reached);
  ck_assert_uint_eq (data->bytes_done, reached);
  ck_assert_uint_eq (data->bytes_verified, 0);
  ck_assert_uint_gt (reached, 0);
  ck_assert_uint_lt (reached, DEVICE_BYTES);
  ck_assert_msg (strstr (out, "Verified              : not reached"), "%s", out);

  ds_faultdisk_control (disk, "delay 0");
  now = read_all (dev, DEVICE_BYTES);
  {
    uint64_t i = 0;

    while (i < reached && now[i] == 0)
      i++;
    ck_assert_msg (i == reached, "byte %" PRIu64 " (before the stop) is not zero", i);
  }
  ck_assert_msg (memcmp (now + reached, old + reached, DEVICE_BYTES - reached) == 0,
                 "bytes past %" PRIu64 " were changed", reached);
  ds_buffer_free (now);
  ds_buffer_free (old);
}
END_TEST

/* sysfs takes a plain write (g_file_set_contents renames a temporary). */
static gboolean
write_sysfs (const char *path,
             const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = write (fd, text, strlen (text)) == (ssize_t) strlen (text);
  close (fd);
  return ok;
}

/* zram0 is one device shared by every session on this machine: only
 * under the lock, only when nobody set it up, and reset afterwards. */
START_TEST (test_erase_zram_every_method)
{
  int lock = open ("/tmp/diskscope-zram.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  g_autofree char *size = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  const char *dev = "/dev/zram0";
  uint8_t *buf;
  int fd;

  if (!g_file_test (dev, G_FILE_TEST_EXISTS))
    {
      note ("no /dev/zram0 on this machine (modprobe zram): the zram case is not run");
      return;
    }
  ck_assert_int_ge (lock, 0);
  /* Others hold the lock for minutes at times: wait a while, not forever. */
  for (int waited_ms = 0; flock (lock, LOCK_EX | LOCK_NB) != 0; waited_ms += 200)
    {
      if (waited_ms >= 30000)
        {
          note ("zram0 stayed locked by another user for 30 s: the zram case is not run");
          close (lock);
          return;
        }
      g_usleep (200 * 1000);
    }
  ck_assert (g_file_get_contents ("/sys/block/zram0/disksize", &size, NULL, NULL));
  if (g_ascii_strtoull (size, NULL, 10) != 0)
    {
      note ("zram0 is set up by someone else: the zram case is not run");
      close (lock);
      return;
    }
  ck_assert (write_sysfs ("/sys/block/zram0/disksize", "33554432"));

  /* For each method: data first (random, so zram stores it), then erase
   * it and count what is left.  zram is reset before any assertion. */
  {
    static const char *const methods[] = { "--zeros", "--random", "--discard", "--secure" };
    int rc[G_N_ELEMENTS (methods)];
    uint64_t had[G_N_ELEMENTS (methods)], left[G_N_ELEMENTS (methods)];
    char *outs[G_N_ELEMENTS (methods)];

    buf = ds_buffer_alloc (1 << 20, 4096);
    for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
      {
        fd = open (dev, O_WRONLY | O_DIRECT | O_CLOEXEC);
        for (int i = 0; fd >= 0 && i < 32; i++)
          {
            DsRng rng;
            ds_rng_seed (&rng, (uint64_t) i + 1 + m * 100);
            ds_buffer_fill (buf, 1 << 20, &rng);
            if (pwrite (fd, buf, 1 << 20, (off_t) i << 20) != 1 << 20)
              break;
          }
        if (fd >= 0)
          close (fd);
        had[m] = count_nonzero (dev);
        outs[m] = NULL;
        /* An overwrite verifies when asked; a discard by default. */
        rc[m] = cli (&outs[m], &err, "erase", dev, "--destroy-data=/dev/zram0", methods[m],
                     "--json", m < 2 ? "--verify" : NULL, NULL);
        left[m] = count_nonzero (dev);
        g_clear_pointer (&err, g_free);
      }
    ds_buffer_free (buf);
    write_sysfs ("/sys/block/zram0/reset", "1");
    close (lock);

    for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
      {
        note ("zram %s: exit %d, %" PRIu64 " non-zero bytes before, %" PRIu64 " after",
              methods[m], rc[m], had[m], left[m]);
        ck_assert_uint_gt (had[m], 16 * MiB);
        if (strcmp (methods[m], "--secure") == 0 && rc[m] == 1)
          {
            /* zram has no secure erase: refused, nothing written. */
            ck_assert_uint_eq (left[m], had[m]);
            g_free (outs[m]);
            continue;
          }
        ck_assert_int_eq (rc[m], 0);
        if (strcmp (methods[m], "--random") == 0)
          ck_assert_uint_gt (left[m], 32 * MiB / 256 * 250);
        else
          ck_assert_uint_eq (left[m], 0);
        root = parse (outs[m]);
        ck_assert (json_object_get_boolean_member (results_of (root), "verified"));
        ck_assert_int_eq (json_object_get_int_member (results_of (root), "bytes_verified"), 32 * MiB);
        g_clear_pointer (&root, json_node_unref);
        g_free (outs[m]);
      }
  }
}
END_TEST

static Suite *
erase_suite (void)
{
  Suite *suite = suite_create ("int-erase");
  TCase *tc = tcase_create ("erase");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_erase_zeros_verify);
  tcase_add_test (tc, test_erase_random_verify);
  tcase_add_test (tc, test_erase_refusals_leave_the_device_alone);
  tcase_add_test (tc, test_erase_discard_loop);
  tcase_add_test (tc, test_erase_write_errors_are_reported);
  tcase_add_test (tc, test_erase_zram_every_method);
  tcase_add_test (tc, test_erase_dropped_discard_is_caught);
  tcase_add_test (tc, test_erase_dropped_hole_in_a_file);
  tcase_add_test (tc, test_erase_stopped_says_which_bytes);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  ds_test_init ("int-erase");
  ds_test_require_root ("erase writes to loop devices it attaches");
  ds_faultdisk_init ();

  return ds_test_run_suite (erase_suite ());
}
