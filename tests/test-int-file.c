/* test-int-file.c: the File Benchmark on small loop-mounted ext4
 * filesystems (root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test file must be gone however the run ends: after success, after a
 * SIGINT and a SIGKILL of the CLI mid-run, and after running out of space.
 * "Gone" is checked two ways: the folder lists exactly what it listed before
 * and the filesystem's free space is back to what it was.
 */
#include "config.h"

#include <check.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ds-bench-block-size.h"
#include "ds-bench-file.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-test-util.h"

#define FS_BYTES (UINT64_C (96) << 20)

static char *mnt;          /* ext4 with room for a 32 MiB test file */
static char *mnt_full;     /* ext4 almost full */
static char *dev;
static char *dev_full;

/* ---- helpers ---- */

static char *
make_fs (const char *name,
         char      **ret_dev)
{
  g_autofree char *image = g_strdup_printf ("%s.img", name);
  g_autofree char *path = ds_test_make_file (image, FS_BYTES, 1);
  char *device;

  ds_test_mkfs_ext4 (path);
  device = ds_test_loop_attach (path, FALSE);
  *ret_dev = device;

  return ds_test_mount (device, name);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  /* g_ptr_array_sort passes pointers to the elements. */
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

/* The folder's names, sorted, as one string. */
static char *
listing (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  ck_assert_ptr_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);

  return g_strjoinv ("\n", (char **) names->pdata);
}

static uint64_t
free_bytes (const char *dir)
{
  struct statvfs vfs;

  ck_assert_int_eq (statvfs (dir, &vfs), 0);

  return (uint64_t) vfs.f_bfree * vfs.f_frsize;
}

/* Free space comes back when the last descriptor closes; give the kernel a
 * moment (ext4 frees an orphan's blocks at the final iput). */
static void
assert_space_back (const char *dir,
                   uint64_t    before)
{
  uint64_t now = 0;

  for (int tries = 0; tries < 100; tries++)
    {
      now = free_bytes (dir);
      if (now >= before)
        return;
      g_usleep (20000);
    }
  ck_abort_msg ("%s: %" G_GUINT64_FORMAT " bytes free, %" G_GUINT64_FORMAT
                " before the run", dir, now, before);
}

static DsResult *
run_file (const char *dir,
          uint64_t    size_bytes)
{
  DsBenchSpec spec;
  DsResult *r;
  gint cancel = 0;

  ds_bench_spec_init (&spec, DS_BENCH_FILE);
  spec.target_path = g_strdup (dir);
  ds_file_options (&spec)->size_bytes = size_bytes;
  spec.duration_ns = 200 * DS_NS_PER_MSEC;
  r = ds_run (&spec, NULL, NULL, &cancel);
  ds_bench_spec_clear (&spec);

  return r;
}

/* ---- tests ---- */

START_TEST (test_success_leaves_nothing)
{
  g_autofree char *before = listing (mnt);
  g_autofree char *after = NULL;
  uint64_t space = free_bytes (mnt);
  g_autoptr (DsResult) r = run_file (mnt, 32 << 20);
  DsFileData *d = r->data;

  if (r->error != NULL)
    ck_abort_msg ("file on %s: %s", mnt, r->error->message);
  ck_assert (r->complete);
  ck_assert_uint_eq (d->file_bytes, 32 << 20);
  ck_assert (d->tmpfile);            /* ext4 has O_TMPFILE */
  ck_assert (!d->buffered);          /* and O_DIRECT */
  ck_assert_msg (d->sequential_read_bytes_per_s > 0 && d->sequential_write_bytes_per_s > 0 &&
                 d->random_read_iops > 0 && d->random_write_iops > 0 &&
                 d->random_read_qd32_iops > 0 && d->random_write_qd32_iops > 0,
                 "%g %g %g %g %g %g", d->sequential_read_bytes_per_s,
                 d->sequential_write_bytes_per_s, d->random_read_iops,
                 d->random_write_iops, d->random_read_qd32_iops, d->random_write_qd32_iops);
  ck_assert_uint_eq (d->block_size->len, DS_BLOCK_SIZE_N_SIZES);
  for (guint i = 0; i < d->block_size->len; i++)
    {
      const DsBlockSizeRow *row = &g_array_index (d->block_size, DsBlockSizeRow, i);

      ck_assert_msg (row->read_bytes_per_s > 0 && row->write_bytes_per_s > 0,
                     "%" G_GUINT64_FORMAT ": read %g write %g", row->block_bytes,
                     row->read_bytes_per_s, row->write_bytes_per_s);
    }
  /* The report's header names the filesystem's device. */
  ck_assert_ptr_nonnull (r->target.model);
  ck_assert_ptr_nonnull (strstr (r->target.model, dev));

  after = listing (mnt);
  ck_assert_str_eq (before, after);
  assert_space_back (mnt, space);
}
END_TEST

/* Sectors read and written by @device so far (/sys/block/X/stat). */
static void
device_sectors (const char *device,
                uint64_t   *ret_read,
                uint64_t   *ret_written)
{
  g_autofree char *base = g_path_get_basename (device);
  g_autofree char *path = g_strdup_printf ("/sys/block/%s/stat", base);
  g_autofree char *text = NULL;
  g_auto (GStrv) f = NULL;

  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  f = g_strsplit_set (g_strstrip (text), " ", -1);
  {
    g_autoptr (GPtrArray) fields = g_ptr_array_new ();

    for (guint i = 0; f[i] != NULL; i++)
      if (f[i][0] != '\0')
        g_ptr_array_add (fields, f[i]);
    ck_assert_uint_ge (fields->len, 7);
    /* reads, merges, sectors read, ms, writes, merges, sectors written */
    *ret_read = g_ascii_strtoull (fields->pdata[2], NULL, 10);
    *ret_written = g_ascii_strtoull (fields->pdata[6], NULL, 10);
  }
}

/* The file is written before it is read: reads of a file that was only
 * allocated (unwritten extents) or sparse never reach the device.  The
 * sequential read row (the first after the fill) reads 8 MB blocks, so the
 * device must see at least one such block read during that row; and the
 * fill must have written the whole file before it. */
typedef struct {
  const char *device;
  uint64_t    read_at_seq_read;
  uint64_t    read_at_seq_write;
  uint64_t    written_at_fill;
  uint64_t    written_at_seq_read;
} PhaseSectors;

static void
phase_sectors (const DsSample *sample,
               gpointer        user_data)
{
  PhaseSectors *p = user_data;
  uint64_t r, w;

  if (sample->kind != DS_SAMPLE_PHASE || sample->name == NULL)
    return;
  device_sectors (p->device, &r, &w);
  if (g_str_equal (sample->name, "fill"))
    p->written_at_fill = w;
  else if (g_str_equal (sample->name, "sequential_read"))
    {
      p->read_at_seq_read = r;
      p->written_at_seq_read = w;
    }
  else if (g_str_equal (sample->name, "sequential_write"))
    p->read_at_seq_write = r;
}

START_TEST (test_file_is_filled)
{
  PhaseSectors p = { .device = dev };
  DsBenchSpec spec;
  g_autoptr (DsResult) r = NULL;
  gint cancel = 0;

  ds_bench_spec_init (&spec, DS_BENCH_FILE);
  spec.target_path = g_strdup (mnt);
  ds_file_options (&spec)->size_bytes = 32 << 20;
  spec.duration_ns = 200 * DS_NS_PER_MSEC;
  r = ds_run (&spec, phase_sectors, &p, &cancel);
  ds_bench_spec_clear (&spec);
  ck_assert (r->complete);

  ck_assert_uint_gt (p.read_at_seq_read, 0);
  ck_assert_msg ((p.written_at_seq_read - p.written_at_fill) * 512 >= (UINT64_C (32) << 20),
                 "the fill wrote only %" G_GUINT64_FORMAT " bytes",
                 (p.written_at_seq_read - p.written_at_fill) * 512);
  ck_assert_msg ((p.read_at_seq_write - p.read_at_seq_read) * 512 >= (UINT64_C (8) << 20),
                 "the sequential read row read only %" G_GUINT64_FORMAT " bytes from the device",
                 (p.read_at_seq_write - p.read_at_seq_read) * 512);
}
END_TEST

/* Spawns the CLI on @dir and signals it once the test file exists (the
 * free space drops), after @delay_ms more. */
static int
cli_signalled (const char *dir,
               int         signo,
               int         delay_ms,
               char      **ret_err)
{
  const char *argv[] = {
    ds_test_cli_path (), "file", dir, "--size", "32M", "--duration", "1s", NULL,
  };
  g_autoptr (GError) error = NULL;
  uint64_t space = free_bytes (dir);
  GPid pid;
  int err_fd = -1;
  int status = 0;
  gboolean seen = FALSE;
  g_autoptr (GString) err = g_string_new (NULL);
  char buf[4096];
  ssize_t n;

  ck_assert (g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                       G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                       NULL, NULL, &pid, NULL, NULL, &err_fd, &error));

  for (int tries = 0; tries < 500 && !seen; tries++)
    {
      if (free_bytes (dir) + (16 << 20) < space)
        seen = TRUE;
      else
        g_usleep (10000);
    }
  ck_assert_msg (seen, "the CLI never made its test file in %s", dir);
  g_usleep ((gulong) delay_ms * 1000);
  kill (pid, signo);
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  g_spawn_close_pid (pid);

  while ((n = read (err_fd, buf, sizeof buf)) > 0)
    g_string_append_len (err, buf, n);
  close (err_fd);
  if (ret_err != NULL)
    *ret_err = g_strdup (err->str);

  if (WIFEXITED (status))
    return WEXITSTATUS (status);

  return -WTERMSIG (status);
}

START_TEST (test_sigint_leaves_nothing)
{
  g_autofree char *before = listing (mnt);
  g_autofree char *after = NULL;
  g_autofree char *err = NULL;
  uint64_t space = free_bytes (mnt);
  int rc = cli_signalled (mnt, SIGINT, 300, &err);

  ck_assert_msg (rc == 130, "exit %d after SIGINT: %s", rc, err);
  after = listing (mnt);
  ck_assert_str_eq (before, after);
  assert_space_back (mnt, space);
}
END_TEST

/* Not even a kill the process cannot catch leaves the file: O_TMPFILE. */
START_TEST (test_sigkill_leaves_nothing)
{
  g_autofree char *before = listing (mnt);
  g_autofree char *after = NULL;
  uint64_t space = free_bytes (mnt);
  int rc = cli_signalled (mnt, SIGKILL, 300, NULL);

  ck_assert_int_eq (rc, -SIGKILL);
  after = listing (mnt);
  ck_assert_str_eq (before, after);
  assert_space_back (mnt, space);
}
END_TEST

/* Asked for more than is free: clamped to the free space, and it runs. */
START_TEST (test_size_clamped)
{
  g_autofree char *before = listing (mnt);
  g_autofree char *after = NULL;
  uint64_t space = free_bytes (mnt);
  g_autoptr (DsResult) r = run_file (mnt, UINT64_C (1) << 30);
  DsFileData *d = r->data;
  gboolean noted = FALSE;

  if (r->error != NULL)
    ck_abort_msg ("file on %s: %s", mnt, r->error->message);
  ck_assert_uint_lt (d->file_bytes, space);
  ck_assert_uint_ge (d->file_bytes, DS_FILE_MIN_BYTES);
  for (guint i = 0; i < r->notes->len; i++)
    if (strstr (r->notes->pdata[i], "test file is") != NULL)
      noted = TRUE;
  ck_assert (noted);
  after = listing (mnt);
  ck_assert_str_eq (before, after);
  assert_space_back (mnt, space);
}
END_TEST

/* A filesystem with too little room: a clear message, exit 1, no file. */
START_TEST (test_no_space)
{
  const char *argv[] = {
    ds_test_cli_path (), "file", mnt_full, "--size", "64M", "--duration", "200ms", NULL,
  };
  g_autofree char *before = listing (mnt_full);
  g_autofree char *after = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  uint64_t space = free_bytes (mnt_full);
  int rc = ds_test_run (argv, &out, &err);

  ck_assert_msg (rc == 1, "exit %d: %s", rc, err);
  ck_assert_msg (strstr (err, "space") != NULL && strstr (err, mnt_full) != NULL,
                 "unclear: %s", err);
  after = listing (mnt_full);
  ck_assert_str_eq (before, after);
  assert_space_back (mnt_full, space);

  /* In-process: the error is DS_ERROR_NO_SPACE. */
  {
    g_autoptr (DsResult) r = run_file (mnt_full, 64 << 20);

    ck_assert (g_error_matches (r->error, DS_ERROR, DS_ERROR_NO_SPACE));
  }
}
END_TEST

START_TEST (test_not_a_folder)
{
  g_autofree char *file = g_build_filename (mnt, "plain", NULL);
  g_autofree char *missing = g_build_filename (mnt, "missing", NULL);
  g_autoptr (DsResult) a = NULL;
  g_autoptr (DsResult) b = NULL;

  ck_assert (g_file_set_contents (file, "x", 1, NULL));
  a = run_file (file, 32 << 20);
  ck_assert (g_error_matches (a->error, DS_ERROR, DS_ERROR_INVALID));
  b = run_file (missing, 32 << 20);
  ck_assert (g_error_matches (b->error, DS_ERROR, DS_ERROR_NOT_FOUND));
  g_unlink (file);
}
END_TEST

/* The CLI's JSON has the keys and loads. */
START_TEST (test_cli_json)
{
  const char *argv[] = {
    ds_test_cli_path (), "file", mnt, "--size", "16M", "--duration", "100ms", "--json", NULL,
  };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = NULL;
  int rc = ds_test_run (argv, &out, &err);

  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  r = ds_result_load_data (out, -1, &error);
  ck_assert_msg (r != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (r->kind, DS_BENCH_FILE);
  ck_assert_ptr_nonnull (strstr (out, "\"random_write_qd32_iops\""));
  ck_assert_ptr_nonnull (strstr (out, "\"block_size\""));
  ck_assert_uint_eq (((DsFileData *) r->data)->file_bytes, 16 << 20);
}
END_TEST

static void
suite_setup (void)
{
  g_autofree char *filler = NULL;
  const char *sync_argv[] = { "sync", NULL };

  mnt = make_fs ("mnt", &dev);
  mnt_full = make_fs ("full", &dev_full);

  /* Leave about 8 MiB free: less than the 16 MiB smallest test file. */
  filler = g_build_filename (mnt_full, "filler", NULL);
  {
    uint64_t space = free_bytes (mnt_full);
    g_autofree char *size = g_strdup_printf ("%" G_GUINT64_FORMAT, space - (8 << 20));
    const char *argv[] = { "fallocate", "-l", size, filler, NULL };

    ck_assert_int_eq (ds_test_run (argv, NULL, NULL), 0);
  }
  ds_test_run (sync_argv, NULL, NULL);
}

int
main (void)
{
  Suite *s;
  TCase *tc;

  ds_test_init ("int-file");
  ds_test_require_root ("loop devices, mkfs and mount");

  s = suite_create ("int-file");
  tc = tcase_create ("file");
  tcase_set_timeout (tc, 120);
  tcase_add_unchecked_fixture (tc, suite_setup, NULL);
  tcase_add_test (tc, test_success_leaves_nothing);
  tcase_add_test (tc, test_file_is_filled);
  tcase_add_test (tc, test_sigint_leaves_nothing);
  tcase_add_test (tc, test_sigkill_leaves_nothing);
  tcase_add_test (tc, test_size_clamped);
  tcase_add_test (tc, test_no_space);
  tcase_add_test (tc, test_not_a_folder);
  tcase_add_test (tc, test_cli_json);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
