/* test-int-safety.c: never write where not told to; fail cleanly (issue 5)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Root only, on loop devices (and a faultdisk, which counts every write):
 * write refusals at the CLI level (exit 3, the reason on stderr, the device
 * unchanged), read tests that never write, `file` on a full filesystem,
 * result files that are broken in every way, and a user without access.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-faultdisk.h"
#include "ds-result-json.h"
#include "ds-result.h"
#include "ds-test-util.h"

#define MiB (1024 * 1024)

/* A TAP comment, flushed at once (a failing forked test ends with _exit). */
#define note ds_test_note

static gboolean
contains_ci (const char *haystack,
             const char *needle)
{
  g_autofree char *h = g_ascii_strdown (haystack ? haystack : "", -1);
  g_autofree char *n = g_ascii_strdown (needle, -1);

  return strstr (h, n) != NULL;
}

static int
cli (char       **ret_out,
     char       **ret_err,
     const char  *first,
     ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  va_list args;
  const char *arg;

  g_ptr_array_add (argv, (gpointer) ds_test_cli_path ());
  va_start (args, first);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  return ds_test_run ((const char *const *) argv->pdata, ret_out, ret_err);
}

/* The refusal every write variant must give: exit 3, the reason on stderr
 * (each of @reasons, case-insensitive), the device unchanged. */
static void
check_refused (const char  *dev,
               const char  *confirm,
               const char **reasons)
{
  g_autofree char *before = ds_test_checksum (dev);
  g_autofree char *after = NULL;
  g_autofree char *destroy = confirm ? g_strdup_printf ("--destroy-data=%s", confirm) : NULL;
  const char *variants[][8] = {
    { "benchmark", dev, "--write", "--accuracy", "1", destroy, NULL },
    { "workload", dev, "--pattern", "randwrite", "--duration", "1s", destroy, NULL },
  };

  for (guint v = 0; v < G_N_ELEMENTS (variants); v++)
    {
      g_autoptr (GPtrArray) argv = g_ptr_array_new ();
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int rc;

      g_ptr_array_add (argv, (gpointer) ds_test_cli_path ());
      for (guint i = 0; variants[v][i] != NULL; i++)
        g_ptr_array_add (argv, (gpointer) variants[v][i]);
      g_ptr_array_add (argv, NULL);

      rc = ds_test_run ((const char *const *) argv->pdata, &out, &err);
      note ("%s %s --write%s%s: exit %d: %s", variants[v][0], dev,
            confirm ? " --destroy-data=" : "", confirm ? confirm : "", rc,
            err ? g_strstrip (err) : "");
      ck_assert_msg (rc == 3, "%s: exit %d (want 3, refused), stderr: %s",
                     variants[v][0], rc, err);
      for (guint r = 0; reasons[r] != NULL; r++)
        ck_assert_msg (contains_ci (err, reasons[r]),
                       "%s: the refusal does not say \"%s\": %s",
                       variants[v][0], reasons[r], err);
    }

  after = ds_test_checksum (dev);
  ck_assert_str_eq (before, after);
}

/* --------------------------------------------------------------------- */
/* Writes refused, with the reason. */

START_TEST (test_refuse_unconfirmed)
{
  g_autofree char *dev = ds_test_loop_new (16 * MiB, FALSE);
  g_autofree char *other = ds_test_loop_new (16 * MiB, FALSE);
  const char *no_confirm[] = { "--destroy-data", dev, NULL };
  const char *wrong[] = { "--destroy-data", other, NULL };

  check_refused (dev, NULL, no_confirm);
  /* Naming another device is no confirmation. */
  check_refused (dev, other, wrong);
}
END_TEST

START_TEST (test_refuse_mounted)
{
  g_autofree char *dev = ds_test_loop_new (16 * MiB, FALSE);
  g_autofree char *mnt = g_build_filename (ds_test_scratch_dir (), "mnt-mounted", NULL);
  const char *reasons[] = { "mounted", NULL };

  ds_test_mkfs_ext4 (dev);
  g_mkdir_with_parents (mnt, 0700);
  /* Read-only: the mount itself must not change the checksum. */
  ck_assert_msg (mount (dev, mnt, "ext4", MS_RDONLY, "noload") == 0, "mount: %s", g_strerror (errno));
  check_refused (dev, dev, reasons);
  ck_assert_int_eq (umount (mnt), 0);
}
END_TEST

START_TEST (test_refuse_signature)
{
  g_autofree char *fs_dev = ds_test_loop_new (16 * MiB, FALSE);
  g_autofree char *pt_dev = ds_test_loop_new (16 * MiB, FALSE);
  const char *fs_reasons[] = { "ext4", "--destroy-data", NULL };
  const char *pt_reasons[] = { "dos", "--destroy-data", NULL };

  ds_test_mkfs_ext4 (fs_dev);
  check_refused (fs_dev, NULL, fs_reasons);
  ds_test_write_mbr (pt_dev);
  check_refused (pt_dev, NULL, pt_reasons);
}
END_TEST

START_TEST (test_refuse_read_only)
{
  g_autofree char *dev = ds_test_loop_new (16 * MiB, TRUE);
  const char *reasons[] = { "read-only", NULL };

  check_refused (dev, dev, reasons);
}
END_TEST

START_TEST (test_refuse_exclusive)
{
  g_autofree char *dev = ds_test_loop_new (16 * MiB, FALSE);
  const char *reasons[] = { "in use", NULL };
  int fd = open (dev, O_RDONLY | O_EXCL | O_CLOEXEC);

  /* Another program holds it exclusively (as mkfs or a mount would). */
  ck_assert_int_ge (fd, 0);
  check_refused (dev, dev, reasons);
  close (fd);
}
END_TEST

/* --------------------------------------------------------------------- */
/* A read test never changes a byte, and never even issues a write. */

START_TEST (test_read_never_writes)
{
  g_autoptr (DsFaultDisk) disk = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *dev;
  int rc;

  /* The disk that counts writes is part of the suite: missing, it is a
   * failure (tools/install-deps installs what it needs). */
  ck_assert_msg (ds_faultdisk_available (&reason), "no fault-injecting disk: %s", reason);
  disk = ds_faultdisk_new (32 * MiB, 21);
  dev = ds_faultdisk_attach (disk, FALSE);
  before = ds_test_checksum (dev);

  ck_assert (ds_faultdisk_control (disk, "reset-counters"));

  rc = cli (&out, &err, "benchmark", dev, "--accuracy", "1", "--json", NULL);
  ck_assert_msg (rc == 0, "benchmark: exit %d: %s", rc, err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = cli (&out, &err, "workload", dev, "--pattern", "randread", "--queue-depth", "8",
            "--duration", "1s", "--json", NULL);
  ck_assert_msg (rc == 0, "workload randread: exit %d: %s", rc, err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = cli (&out, &err, "workload", dev, "--pattern", "read", "--duration", "500ms", "--json", NULL);
  ck_assert_msg (rc == 0, "workload read: exit %d: %s", rc, err);

  note ("read tests: %" PRIu64 " reads, %" PRIu64 " writes reached the disk",
        ds_faultdisk_counter (disk, "reads"), ds_faultdisk_counter (disk, "writes"));
  ck_assert_uint_gt (ds_faultdisk_counter (disk, "reads"), 0);
  ck_assert_uint_eq (ds_faultdisk_counter (disk, "writes"), 0);
  after = ds_test_checksum (dev);
  ck_assert_str_eq (before, after);
}
END_TEST

/* Takes @bytes of the filesystem at @mnt with a file of no data. */
static void
fill_filesystem (const char *mnt,
                 uint64_t    bytes)
{
  g_autofree char *filler = g_build_filename (mnt, "filler", NULL);
  int fd = open (filler, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);

  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (posix_fallocate (fd, 0, (off_t) bytes), 0);
  close (fd);
}

/* --------------------------------------------------------------------- */
/* `file` on a nearly full filesystem: a clear ENOSPC message, no test file
 * left behind. */

START_TEST (test_file_enospc)
{
  g_autofree char *help_out = NULL;
  g_autofree char *help_err = NULL;
  g_autofree char *dev = NULL;
  g_autofree char *mnt = NULL;
  g_autofree char *listing_before = NULL;
  g_autofree char *listing_after = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  struct statvfs before, after;
  uint64_t free_bytes;
  int rc;

  ck_assert_msg (cli (&help_out, &help_err, "file", "--help", NULL) == 0,
                 "`diskscope-cli file --help` failed: %s", help_err);

  dev = ds_test_loop_new (32 * MiB, FALSE);
  ds_test_mkfs_ext4 (dev);
  mnt = g_build_filename (ds_test_scratch_dir (), "mnt-full", NULL);
  g_mkdir_with_parents (mnt, 0700);
  ck_assert_msg (mount (dev, mnt, "ext4", 0, NULL) == 0, "mount: %s", g_strerror (errno));

  /* Leave about 1 MiB free (no blocks reserved for root: -m 0). */
  ck_assert_int_eq (statvfs (mnt, &before), 0);
  free_bytes = (uint64_t) before.f_bavail * before.f_frsize;
  fill_filesystem (mnt, free_bytes - MiB);
  sync ();
  ck_assert_int_eq (statvfs (mnt, &before), 0);
  listing_before = ds_test_list_dir (mnt);

  rc = cli (&out, &err, "file", mnt, "--size", "64M", "--duration", "500ms", "--json", NULL);
  note ("file on a full filesystem (%" PRIu64 " KiB free): exit %d: %s",
        (uint64_t) before.f_bavail * before.f_frsize / 1024, rc, err ? g_strstrip (err) : "");

  ck_assert_msg (rc == 1, "exit %d (want 1), stderr: %s", rc, err);
  ck_assert_msg (contains_ci (err, "space"), "no clear ENOSPC message: %s", err);
  ck_assert_msg (contains_ci (err, mnt), "the message does not name the folder: %s", err);

  listing_after = ds_test_list_dir (mnt);
  ck_assert_str_eq (listing_before, listing_after);
  sync ();
  ck_assert_int_eq (statvfs (mnt, &after), 0);
  /* The space is given back (an unlinked file still open would hold it). */
  ck_assert_uint_ge ((uint64_t) after.f_bfree + 64, (uint64_t) before.f_bfree);

  ck_assert_int_eq (umount (mnt), 0);
}
END_TEST

/* --------------------------------------------------------------------- */
/* Result files broken in every way: a clear error, never a crash, both
 * through `diskscope-cli report` and ds_result_load_data(). */

static char *
valid_result (void)
{
  g_autofree char *dev = ds_test_loop_new (16 * MiB, FALSE);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc = cli (&out, &err, "workload", dev, "--pattern", "randread",
                "--duration", "300ms", "--json", NULL);

  ck_assert_msg (rc == 0, "workload: exit %d: %s", rc, err);
  ds_test_loop_detach (dev);
  return g_steal_pointer (&out);
}

/* @text with the member at dotted @path replaced by @json_value (or
 * removed when NULL). */
static char *
mutate (const char *text,
        const char *path,
        const char *json_value)
{
  g_autoptr (JsonNode) root = ds_fault_json_parse (text);
  g_autofree char *parent_path = g_strdup (path);
  char *dot = strrchr (parent_path, '.');
  const char *member = dot ? dot + 1 : path;
  JsonNode *parent;
  JsonObject *object;

  ck_assert (root != NULL);
  if (dot)
    *dot = '\0';
  parent = dot ? ds_fault_json_get (root, parent_path) : root;
  ck_assert_msg (parent != NULL && JSON_NODE_HOLDS_OBJECT (parent), "no %s in the result", path);
  object = json_node_get_object (parent);
  if (json_value == NULL)
    json_object_remove_member (object, member);
  else
    json_object_set_member (object, member, json_from_string (json_value, NULL));
  return json_to_string (root, FALSE);
}

typedef struct {
  const char *name;
  char       *data;
  gssize      length;
} BadFile;

/* Loads @bad through ds_result_load_data() and `diskscope-cli report`;
 * NULL when both gave a clear error, else what went wrong. */
static char *
check_bad_file (const BadFile *bad)
{
  g_autofree char *path = g_build_filename (ds_test_scratch_dir (), "bad.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) result = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  gsize length = bad->length >= 0 ? (gsize) bad->length : strlen (bad->data);
  int rc;

  /* The loader itself. */
  result = ds_result_load_data (bad->data, (gssize) length, &error);
  if (result != NULL)
    return g_strdup_printf ("%s: ds_result_load_data() loaded it without an error", bad->name);
  if (error == NULL || error->message[0] == '\0')
    return g_strdup_printf ("%s: no error message", bad->name);
  if (!g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT))
    return g_strdup_printf ("%s: not DS_ERROR_CORRUPT: %s", bad->name, error->message);

  /* Through the CLI. */
  ck_assert (g_file_set_contents (path, bad->data, (gssize) length, NULL));
  rc = cli (&out, &err, "report", path, NULL);
  unlink (path);
  note ("report %s: exit %d: %s", bad->name, rc, err ? g_strstrip (err) : "");
  if (rc != 1 && rc != 2)
    return g_strdup_printf ("%s: report exit %d (a crash is -1)", bad->name, rc);
  if (strstr (err, "bad.json") == NULL)
    return g_strdup_printf ("%s: the error does not name the file: %s", bad->name, err);
  return NULL;
}

START_TEST (test_load_bad_results)
{
  g_autofree char *valid = valid_result ();
  gsize len = strlen (valid);
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) good = ds_result_load_data (valid, -1, &error);
  BadFile cases[] = {
    { "empty", g_strdup (""), 0 },
    { "truncated-10", g_strndup (valid, len / 10), -1 },
    { "truncated-half", g_strndup (valid, len / 2), -1 },
    { "truncated-end", g_strndup (valid, len - 3), -1 },
    { "not-json", g_strdup ("HD Tune Pro: ST3500418AS Benchmark\nTransfer Rate Minimum : 45.2 MB/s\n"), -1 },
    { "binary", g_memdup2 ("\x7f" "ELF\x02\x01\x01\0\0\0\xff\xfe", 12), 12 },
    { "nul-inside", g_memdup2 ("{\"schema\": \"diskscope-result/1\"\0}", 33), 33 },
    { "array", g_strdup ("[1, 2, 3]"), -1 },
    { "number", g_strdup ("42"), -1 },
    { "other-schema", mutate (valid, "schema", "\"fio-result/3\""), -1 },
    { "next-schema", mutate (valid, "schema", "\"diskscope-result/2\""), -1 },
    { "no-schema", mutate (valid, "schema", NULL), -1 },
    { "schema-number", mutate (valid, "schema", "1"), -1 },
    { "no-results", mutate (valid, "results", NULL), -1 },
    { "no-target", mutate (valid, "target", NULL), -1 },
    { "test-unknown", mutate (valid, "test", "\"defragment\""), -1 },
    { "size-negative", mutate (valid, "target.size_bytes", "-4096"), -1 },
    { "size-huge", mutate (valid, "target.size_bytes", "1e300"), -1 },
    { "block-size-odd", mutate (valid, "target.logical_block_size", "3"), -1 },
    { "ios-negative", mutate (valid, "results.read.ios", "-1"), -1 },
    { "ios-string", mutate (valid, "results.read.ios", "\"many\""), -1 },
    { "rate-negative", mutate (valid, "results.read.bytes_per_s", "-5e8"), -1 },
    { "rate-absurd", mutate (valid, "results.read.bytes_per_s", "1e20"), -1 },
    { "runtime-negative", mutate (valid, "results.runtime_s", "-1"), -1 },
    { "latency-object", mutate (valid, "results.read.latency_s", "[1, 2]"), -1 },
    { "complete-string", mutate (valid, "complete", "\"yes\""), -1 },
    { "error-bad", mutate (valid, "error", "{\"errno\": \"EIO\"}"), -1 },
  };

  /* The valid one loads (else the rest proves nothing). */
  ck_assert_msg (good != NULL, "a valid result does not load: %s", error ? error->message : "");

  /* Every case, then one verdict listing all that went wrong. */
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char *problem = check_bad_file (&cases[i]);

      if (problem != NULL)
        g_ptr_array_add (files, problem);
      g_free (cases[i].data);
    }
  g_ptr_array_add (files, NULL);
  ck_assert_msg (files->len == 1, "%u of %u broken files were not refused cleanly: %s",
                 files->len - 1, (guint) G_N_ELEMENTS (cases),
                 g_strjoinv ("; ", (char **) files->pdata));
}
END_TEST

/* 100 000 nested arrays: a recursive parser (json-glib 1.6's is) would
 * overflow its stack.  The loader must refuse such nesting first. */
START_TEST (test_load_deep_nesting)
{
  GString *deep = g_string_new ("{\"schema\": \"diskscope-result/1\", \"results\": ");
  BadFile bad = { "deep", NULL, -1 };

  for (int i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  for (int i = 0; i < 100000; i++)
    g_string_append_c (deep, ']');
  g_string_append_c (deep, '}');
  g_autofree char *problem = NULL;

  bad.data = g_string_free (deep, FALSE);
  problem = check_bad_file (&bad);
  g_free (bad.data);
  ck_assert_msg (problem == NULL, "%s", problem);
}
END_TEST

/* The seed corpus of the fuzzer: the broken ones fail cleanly, the valid
 * ones load. */
START_TEST (test_load_corpus)
{
  const char *dir_path = DS_FUZZ_CORPUS_DIR;
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  ck_assert_msg (dir != NULL, "no corpus in %s", dir_path);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autofree char *data = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (DsResult) result = NULL;
      gsize length;

      ck_assert (g_file_get_contents (path, &data, &length, NULL));
      result = ds_result_load_data (data, (gssize) length, &error);
      if (g_str_has_prefix (name, "valid-"))
        ck_assert_msg (result != NULL, "%s does not load: %s", name, error ? error->message : "");
      else
        ck_assert_msg (result == NULL && error != NULL, "%s loaded", name);
      n++;
    }
  ck_assert_uint_gt (n, 0);
}
END_TEST

/* --------------------------------------------------------------------- */
/* A user without access to the device: `list` works, a run says what to do. */

START_TEST (test_permission)
{
  g_autofree char *dev = ds_test_loop_new (16 * MiB, FALSE);
  const char *list[] = {
    "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
    ds_test_cli_path (), "list", NULL,
  };
  const char *bench[] = {
    "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
    ds_test_cli_path (), "benchmark", dev, "--accuracy", "1", NULL,
  };
  const char *workload[] = {
    "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
    ds_test_cli_path (), "workload", dev, "--pattern", "randread", "--duration", "1s", NULL,
  };
  const char *const *runs[] = { bench, workload };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc;

  /* setpriv runs it by path: it must be one, and executable by nobody. */
  ck_assert_msg (g_path_is_absolute (ds_test_cli_path ()) && access (ds_test_cli_path (), X_OK) == 0,
                 "the CLI is not an absolute, executable path: %s", ds_test_cli_path ());

  rc = ds_test_run (list, &out, &err);
  ck_assert_msg (rc == 0, "list as nobody: exit %d: %s", rc, err);
  ck_assert_msg (strstr (out, dev) != NULL, "list as nobody does not show %s:\n%s", dev, out);

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      rc = ds_test_run (runs[i], &out, &err);
      note ("%s as nobody: exit %d: %s", runs[i][5], rc, err ? g_strstrip (err) : "");
      ck_assert_msg (rc == 1, "%s as nobody: exit %d (want 1): %s", runs[i][5], rc, err);
      ck_assert_msg (strstr (err, dev) != NULL, "the error does not name %s: %s", dev, err);
      ck_assert_msg (contains_ci (err, "root"), "the error does not mention root: %s", err);
      ck_assert_msg (strstr (err, "disk") != NULL && contains_ci (err, "group"),
                     "the error does not mention the `disk` group: %s", err);
    }
}
END_TEST

/* --------------------------------------------------------------------- */
/* A file that backs a loop device is refused like a mounted device, found
 * by its path, a hard link, and after a rename (the loop driver's inode). */

static void
check_file_refused (const char *file,
                    const char *loop,
                    const char *why)
{
  g_autofree char *before = ds_test_checksum (file);
  g_autofree char *after = NULL;
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", file);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc;

  rc = cli (&out, &err, "workload", file, "--pattern", "randwrite", "--duration", "300ms",
            confirm, NULL);
  note ("workload %s (backs %s) confirmed: exit %d: %s", file, loop, rc, err ? g_strstrip (err) : "");
  ck_assert_msg (rc == 3, "exit %d, want 3: %s", rc, err);
  ck_assert_msg (strstr (err, loop) != NULL, "the refusal does not name %s: %s", loop, err);
  ck_assert_msg (contains_ci (err, why), "“%s” is not in: %s", why, err);
  after = ds_test_checksum (file);
  ck_assert_str_eq (before, after);
}

START_TEST (test_refuse_loop_backing_file)
{
  g_autofree char *image = ds_test_make_file ("backing.img", 16 * MiB, 31);
  g_autofree char *hard = g_build_filename (ds_test_scratch_dir (), "backing-hardlink.img", NULL);
  g_autofree char *moved = g_build_filename (ds_test_scratch_dir (), "backing-moved.img", NULL);
  g_autofree char *loop = ds_test_loop_attach (image, FALSE);

  g_autofree char *sysfs = g_strdup_printf ("/sys/block/%s/loop/backing_file", loop + strlen ("/dev/"));
  g_autofree char *shown = NULL;

  /* No filesystem in it: only the loop device can refuse this. */
  check_file_refused (image, loop, "backing file");
  /* Another name of the same inode. */
  ck_assert_int_eq (link (image, hard), 0);
  check_file_refused (hard, loop, "backing file");
  ck_assert_int_eq (rename (image, moved), 0);
  check_file_refused (moved, loop, "backing file");
  /* The name the loop device opened is gone: sysfs shows "(deleted)", and
   * only the driver's inode (LOOP_GET_STATUS64) still ties the hard link
   * to it. */
  ck_assert_int_eq (unlink (moved), 0);
  ck_assert (g_file_get_contents (sysfs, &shown, NULL, NULL));
  note ("%s after the unlink: %s", sysfs, g_strstrip (shown));
  ck_assert_msg (strstr (shown, "(deleted)") != NULL, "sysfs still shows a live path: %s", shown);
  check_file_refused (hard, loop, "backing file");

  /* A new file under the old name is another file: confirmed, it runs. */
  {
    g_autofree char *fresh = ds_test_make_file ("backing.img", 16 * MiB, 32);
    g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", fresh);
    g_autofree char *err = NULL;
    int rc = cli (NULL, &err, "workload", fresh, "--pattern", "randwrite", "--duration", "200ms",
                  confirm, NULL);

    ck_assert_msg (rc == 0, "a file that backs nothing: exit %d: %s", rc, err);
  }
  ds_test_loop_detach (loop);
}
END_TEST

/* The case: the image under a live, mounted filesystem. */
START_TEST (test_refuse_mounted_image)
{
  g_autofree char *image = ds_test_make_file ("live.img", 32 * MiB, 33);
  g_autofree char *loop = NULL;
  g_autofree char *mnt = NULL;

  ds_test_mkfs_ext4 (image);
  loop = ds_test_loop_attach (image, FALSE);
  mnt = ds_test_mount (loop, "mnt-live");
  check_file_refused (image, loop, mnt);
  {
    const char *umount_argv[] = { "umount", mnt, NULL };
    ds_test_run_ok (umount_argv);
  }
  ds_test_loop_detach (loop);
}
END_TEST

/* --------------------------------------------------------------------- */
/* Saving: never over a device node, a read-only or full filesystem fails
 * the run with the path named, and nothing half-written is left. */

static int
save_workload (const char  *dev,
               const char  *output,
               char       **ret_err)
{
  return cli (NULL, ret_err, "workload", dev, "--pattern", "randread", "--duration", "200ms",
              "--output", output, NULL);
}

START_TEST (test_output_device_nodes)
{
  g_autofree char *dev = ds_test_loop_new (16 * MiB, FALSE);
  g_autofree char *node = g_build_filename (ds_test_scratch_dir (), "full-node", NULL);
  g_autofree char *before = ds_test_checksum (dev);
  g_autofree char *after = NULL;
  g_autofree char *err = NULL;
  struct stat st;
  int rc;

  /* The run's own device, and a device node of our own (/dev/full's
   * numbers: the shared one is never put at risk). */
  rc = save_workload (dev, dev, &err);
  note ("-o %s (the target): exit %d: %s", dev, rc, err ? g_strstrip (err) : "");
  ck_assert_msg (rc == 1 && strstr (err, dev) != NULL, "exit %d: %s", rc, err);
  ck_assert_int_eq (stat (dev, &st), 0);
  ck_assert (S_ISBLK (st.st_mode));
  after = ds_test_checksum (dev);
  ck_assert_str_eq (before, after);

  ck_assert_int_eq (mknod (node, S_IFCHR | 0600, makedev (1, 7)), 0);
  g_clear_pointer (&err, g_free);
  rc = save_workload (dev, node, &err);
  note ("-o %s (a char device): exit %d: %s", node, rc, err ? g_strstrip (err) : "");
  ck_assert_msg (rc == 1 && strstr (err, "character device") != NULL, "exit %d: %s", rc, err);
  ck_assert_int_eq (lstat (node, &st), 0);
  ck_assert (S_ISCHR (st.st_mode));
}
END_TEST

START_TEST (test_output_read_only_and_full)
{
  g_autofree char *dev = ds_test_loop_new (16 * MiB, FALSE);
  g_autofree char *ro_dev = ds_test_loop_new (16 * MiB, FALSE);
  g_autofree char *full_dev = ds_test_loop_new (8 * MiB, FALSE);
  g_autofree char *ro_mnt = NULL;
  g_autofree char *full_mnt = NULL;
  g_autofree char *ro_out = NULL;
  g_autofree char *full_out = NULL;
  g_autofree char *listing_before = NULL;
  g_autofree char *listing_after = NULL;
  g_autofree char *err = NULL;
  const char *remount[] = { "mount", "-o", "remount,ro", NULL, NULL };
  struct statvfs vfs;
  int rc;

  ro_mnt = ds_test_mount_ext4 (ro_dev, "mnt-ro");
  remount[3] = ro_mnt;
  ds_test_run_ok (remount);
  ro_out = g_build_filename (ro_mnt, "r.json", NULL);
  rc = save_workload (dev, ro_out, &err);
  note ("-o on a read-only mount: exit %d: %s", rc, err ? g_strstrip (err) : "");
  ck_assert_msg (rc == 1, "exit %d: %s", rc, err);
  ck_assert_msg (strstr (err, ro_out) != NULL && contains_ci (err, "read-only"), "%s", err);

  /* Full: the check before the run passes, the write after it fails. */
  full_mnt = ds_test_mount_ext4 (full_dev, "mnt-full-out");
  ck_assert_int_eq (statvfs (full_mnt, &vfs), 0);
  fill_filesystem (full_mnt, (uint64_t) vfs.f_bavail * vfs.f_frsize);
  listing_before = ds_test_list_dir (full_mnt);
  full_out = g_build_filename (full_mnt, "r.json", NULL);
  g_clear_pointer (&err, g_free);
  rc = save_workload (dev, full_out, &err);
  note ("-o on a full filesystem: exit %d: %s", rc, err ? g_strstrip (err) : "");
  ck_assert_msg (rc == 1, "exit %d: %s", rc, err);
  ck_assert_msg (strstr (err, full_out) != NULL && contains_ci (err, "space"), "%s", err);
  listing_after = ds_test_list_dir (full_mnt);
  ck_assert_str_eq (listing_before, listing_after);
}
END_TEST

/* --------------------------------------------------------------------- */
/* "destroy_data_confirmed" is true only for a write the gate accepted. */

static gboolean
confirmed_in (const char *json)
{
  g_autoptr (JsonNode) root = ds_fault_json_parse (json);
  JsonNode *node;

  ck_assert_msg (root != NULL, "not JSON: %.200s", json);
  node = ds_fault_json_get (root, "params.destroy_data_confirmed");
  ck_assert (node != NULL);
  return json_node_get_boolean (node);
}

START_TEST (test_destroy_data_confirmed)
{
  g_autofree char *dev = ds_test_loop_new (16 * MiB, FALSE);
  g_autofree char *mounted = ds_test_loop_new (16 * MiB, FALSE);
  g_autofree char *mnt = ds_test_mount_ext4 (mounted, "mnt-confirm");
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autofree char *confirm_mounted = g_strdup_printf ("--destroy-data=%s", mounted);

  const struct {
    const char *what, *dev, *pattern, *confirm;
    int         status;
    gboolean    confirmed;
  } runs[] = {
    /* A read test, even with the flag given: nothing was confirmed. */
    { "read", dev, "randread", confirm, 0, FALSE },
    { "refused (mounted)", mounted, "randwrite", confirm_mounted, 3, FALSE },
    { "accepted", dev, "randwrite", confirm, 0, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int rc = cli (&out, &err, "workload", runs[i].dev, "--pattern", runs[i].pattern,
                    "--duration", "200ms", runs[i].confirm, "--json", NULL);

      ck_assert_msg (rc == runs[i].status, "%s: exit %d: %s", runs[i].what, rc, err);
      ck_assert_msg (confirmed_in (out) == runs[i].confirmed, "%s: destroy_data_confirmed is %s",
                     runs[i].what, runs[i].confirmed ? "false" : "true");
    }
  {
    const char *umount_argv[] = { "umount", mnt, NULL };
    ds_test_run_ok (umount_argv);
  }
}
END_TEST

static Suite *
safety_suite (void)
{
  Suite *suite = suite_create ("int-safety");
  TCase *refuse = tcase_create ("refuse");
  TCase *read = tcase_create ("read");
  TCase *load = tcase_create ("load");
  TCase *access_tc = tcase_create ("access");

  tcase_set_timeout (refuse, 120);
  tcase_add_test (refuse, test_refuse_unconfirmed);
  tcase_add_test (refuse, test_refuse_mounted);
  tcase_add_test (refuse, test_refuse_signature);
  tcase_add_test (refuse, test_refuse_read_only);
  tcase_add_test (refuse, test_refuse_exclusive);
  tcase_add_test (refuse, test_refuse_loop_backing_file);
  tcase_add_test (refuse, test_refuse_mounted_image);
  tcase_add_test (refuse, test_destroy_data_confirmed);
  tcase_add_test (refuse, test_output_device_nodes);
  tcase_add_test (refuse, test_output_read_only_and_full);
  suite_add_tcase (suite, refuse);

  tcase_set_timeout (read, 120);
  tcase_add_test (read, test_read_never_writes);
  tcase_add_test (read, test_file_enospc);
  suite_add_tcase (suite, read);

  tcase_set_timeout (load, 120);
  tcase_add_test (load, test_load_bad_results);
  tcase_add_test (load, test_load_deep_nesting);
  tcase_add_test (load, test_load_corpus);
  suite_add_tcase (suite, load);

  tcase_set_timeout (access_tc, 60);
  tcase_add_test (access_tc, test_permission);
  suite_add_tcase (suite, access_tc);

  return suite;
}

int
main (void)
{

  ds_test_init ("int-safety");
  ds_test_require_root ("refusals and checksums need real loop devices");
  ds_faultdisk_init ();

  return ds_test_run_suite (safety_suite ());
}
