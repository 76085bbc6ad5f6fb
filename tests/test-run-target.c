/* test-run-target.c: the run's target (core/run/ds-run-target.c) on
 * regular files in the suite's scratch folder under /var/tmp, without
 * root or a device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run context made by hand, as ds_run_full() makes it.  What the
 * result says of its target, opened or not; a read, a confirmed and an
 * unconfirmed write; a --create test file, nameless or kept, filled with
 * random data to its last whole block (and the fill's phase announced),
 * removed again when the spec does not fit it or the fill fails (a file
 * size limit: EFBIG), and an existing file never removed; erase may take
 * a disk image a write test may not.  The wait for a busy block device
 * (ds_run_open_path's loop) needs a device held exclusively: the
 * integration tests' (test-int-chain.c, test-int-target.c).  No room for
 * the file (ENOSPC) is not provoked: it would fill the host's disk.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-error.h"
#include "ds-run.h"
#include "ds-test-util.h"

#define KiB         (UINT64_C (1) << 10)
#define MiB         (UINT64_C (1) << 20)
#define FILE_BYTES  (2 * MiB)

static char *file_path;   /* random data, read only to the tests */
static guint path_serial;

/* A fresh name in the scratch folder (not created). */
static char *
new_path (const char *what)
{
  g_autofree char *name = g_strdup_printf ("%s-%d-%u.img", what, (int) getpid (), path_serial++);

  return ds_test_scratch_path (name);
}

/* What the sink heard: the phases by name. */
typedef struct {
  GPtrArray *phases;
  gboolean   fill_writes;
} Heard;

static void
heard_sink (const DsSample *sample,
            gpointer        user_data)
{
  Heard *heard = user_data;

  if (sample->kind == DS_SAMPLE_PHASE)
    {
      g_ptr_array_add (heard->phases, g_strdup (sample->name));
      if (g_strcmp0 (sample->name, "fill") == 0)
        heard->fill_writes = sample->write;
    }
}

typedef struct {
  DsRun     run;
  DsResult *result;
  Heard     heard;
  gint      cancel;
} Run;

/* A run of @kind on @path as ds_run_full() sets one up (udisks2 never
 * asked); the caller sets the spec's write, confirmation and --create on
 * r->result->spec. */
static void
run_init (Run         *r,
          DsBenchKind  kind,
          const char  *path)
{
  memset (r, 0, sizeof *r);
  r->result = ds_result_new_blank (kind);
  g_free (r->result->spec.target_path);
  r->result->spec.target_path = g_strdup (path);
  g_free (r->result->spec.engine);
  r->result->spec.engine = g_strdup ("auto");
  r->heard.phases = g_ptr_array_new_with_free_func (g_free);

  r->run.spec = &r->result->spec;
  r->run.result = r->result;
  r->run.engine_auto = TRUE;
  r->run.sink = heard_sink;
  r->run.sink_data = &r->heard;
  r->run.cancel = &r->cancel;
  r->run.access.no_udisks = TRUE;
  r->run.access.cancel = &r->cancel;
  r->run.error_offset_bytes = -1;
  ds_rng_seed (&r->run.rng, 11);
}

static void
run_clear (Run *r)
{
  g_clear_pointer (&r->run.target, ds_target_free);
  g_clear_pointer (&r->result, ds_result_free);
  g_clear_pointer (&r->heard.phases, g_ptr_array_unref);
}

static void
set_create (Run      *r,
            uint64_t  bytes,
            gboolean  keep)
{
  r->result->spec.create_bytes = bytes;
  r->result->spec.keep = keep;
  r->result->spec.write = TRUE;
}

static void
set_write (Run        *r,
           const char *confirm)
{
  r->result->spec.write = TRUE;
  g_free (r->result->spec.destroy_data);
  r->result->spec.destroy_data = g_strdup (confirm);
}

static uint64_t
file_size (const char *path)
{
  struct stat st;

  ck_assert_int_eq (stat (path, &st), 0);
  return (uint64_t) st.st_size;
}

/* A copy of the random file, for a case that writes. */
static char *
copy_of_file (const char *what)
{
  char *path = new_path (what);
  g_autofree char *data = NULL;
  gsize len = 0;

  ck_assert (g_file_get_contents (file_path, &data, &len, NULL));
  ck_assert (g_file_set_contents (path, data, (gssize) len, NULL));
  return path;
}

/* ---- describe ---- */

/* The result's target is the DsTarget's, copied (not shared), a block
 * device's kind included; what it said before is gone (the model of an
 * earlier description is not left behind). */
START_TEST (test_describe_target)
{
  Run r;
  DsTarget target = {
    .path = (char *) "/dev/sdz", .kind = DS_TARGET_BLOCK, .size_bytes = 256 * G_GUINT64_CONSTANT (1000000000),
    .logical_block_size = 512, .physical_block_size = 4096, .rotational = TRUE,
    .model = (char *) "QEMU HARDDISK", .serial = (char *) "QM00001", .wwn = (char *) "0x5000c500a1b2c3d4",
  };
  DsTarget file = {
    .path = (char *) "/var/tmp/x.img", .kind = DS_TARGET_FILE, .size_bytes = FILE_BYTES,
    .logical_block_size = 4096, .physical_block_size = 4096,
  };
  const DsTargetInfo *info;

  run_init (&r, DS_BENCH_TRANSFER, "/dev/sdz");
  ds_run_describe_target (&r.run, &target);
  info = &r.result->target;
  ck_assert_str_eq (info->path, "/dev/sdz");
  ck_assert_ptr_ne (info->path, target.path);
  ck_assert (info->is_block);
  ck_assert_uint_eq (info->size_bytes, target.size_bytes);
  ck_assert_str_eq (info->model, "QEMU HARDDISK");
  ck_assert_ptr_ne (info->model, target.model);
  ck_assert_str_eq (info->serial, "QM00001");
  ck_assert_str_eq (info->wwn, "0x5000c500a1b2c3d4");
  ck_assert_uint_eq (info->logical_block_size, 512);
  ck_assert_uint_eq (info->physical_block_size, 4096);
  ck_assert (info->rotational);

  ds_run_describe_target (&r.run, &file);
  ck_assert_str_eq (info->path, "/var/tmp/x.img");
  ck_assert (!info->is_block);
  ck_assert_uint_eq (info->size_bytes, FILE_BYTES);
  ck_assert_ptr_null (info->model);
  ck_assert_ptr_null (info->serial);
  ck_assert_ptr_null (info->wwn);
  ck_assert_uint_eq (info->logical_block_size, 4096);
  ck_assert (!info->rotational);
  run_clear (&r);
}
END_TEST

/* ---- open ---- */

/* A read test on an existing file: the run's target, read only, the
 * result's target described, no write confirmed, no note. */
START_TEST (test_open_read)
{
  Run r;
  g_autoptr (GError) error = NULL;

  run_init (&r, DS_BENCH_WORKLOAD, file_path);
  ck_assert_msg (ds_run_open_target (&r.run, &error), "%s", error ? error->message : "");
  ck_assert_ptr_nonnull (r.run.target);
  ck_assert (!r.run.target->writable);
  ck_assert (!r.run.target->created);
  ck_assert_uint_eq (r.run.target->size_bytes, FILE_BYTES);
  ck_assert_str_eq (r.result->target.path, file_path);
  ck_assert (!r.result->target.is_block);
  ck_assert_uint_eq (r.result->target.size_bytes, FILE_BYTES);
  ck_assert_uint_ge (r.result->target.logical_block_size, 512);
  ck_assert (!r.result->spec.write_confirmed);
  ck_assert_uint_eq (r.result->notes->len, 0);
  ck_assert_uint_eq (r.heard.phases->len, 0);
  run_clear (&r);
}
END_TEST

/* What cannot be opened is still named in the result, as a file; the run
 * gets no target. */
START_TEST (test_open_missing)
{
  Run r;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = new_path ("missing");

  run_init (&r, DS_BENCH_WORKLOAD, path);
  ck_assert (!ds_run_open_target (&r.run, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  ck_assert_ptr_null (r.run.target);
  ck_assert_str_eq (r.result->target.path, path);
  ck_assert (!r.result->target.is_block);
  ck_assert (!g_file_test (path, G_FILE_TEST_EXISTS));
  run_clear (&r);
}
END_TEST

/* A write to an existing file: refused unless the confirmation names it
 * (and then not confirmed); named, opened for writing and confirmed in
 * the result's spec (only the gate of this run confirms). */
START_TEST (test_open_write)
{
  g_autofree char *path = copy_of_file ("write");
  Run r;

  run_init (&r, DS_BENCH_TRANSFER, path);
  set_write (&r, NULL);
  r.result->spec.write_confirmed = TRUE;   /* from a loaded spec: not ours */
  {
    g_autoptr (GError) error = NULL;

    ck_assert (!ds_run_open_target (&r.run, &error));
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
    ck_assert_msg (strstr (error->message, "destroys the data") != NULL, "%s", error->message);
    ck_assert_ptr_null (r.run.target);
    ck_assert_str_eq (r.result->target.path, path);
  }
  run_clear (&r);

  run_init (&r, DS_BENCH_TRANSFER, path);
  set_write (&r, path);
  {
    g_autoptr (GError) error = NULL;

    ck_assert_msg (ds_run_open_target (&r.run, &error), "%s", error ? error->message : "");
    ck_assert (r.run.target->writable);
    ck_assert (r.result->spec.write_confirmed);
    ck_assert_uint_eq (r.result->target.size_bytes, FILE_BYTES);
  }
  run_clear (&r);
  ck_assert_uint_eq (file_size (path), FILE_BYTES);
}
END_TEST

/* A disk image (a partition table in the file): a write test refuses it
 * even when named; erase, whose point is destroying it, takes it. */
START_TEST (test_open_erase_takes_image)
{
  g_autofree char *path = copy_of_file ("image");
  Run r;

  ds_test_write_mbr (path);
  run_init (&r, DS_BENCH_TRANSFER, path);
  set_write (&r, path);
  {
    g_autoptr (GError) error = NULL;

    ck_assert (!ds_run_open_target (&r.run, &error));
    ck_assert_msg (strstr (error->message, "so it is a disk image") != NULL, "%s", error->message);
  }
  run_clear (&r);

  run_init (&r, DS_BENCH_ERASE, path);
  set_write (&r, path);
  {
    g_autoptr (GError) error = NULL;

    ck_assert_msg (ds_run_open_target (&r.run, &error), "%s", error ? error->message : "");
    ck_assert (r.run.target->writable);
    ck_assert (r.result->spec.write_confirmed);
  }
  run_clear (&r);
}
END_TEST

/* ---- --create ---- */

/* Every logical block of [0, @bytes) written, with random data (no block
 * all zeros, no two alike in their first 16 bytes). */
static void
assert_filled (int      fd,
               uint64_t bytes)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                       (GDestroyNotify) g_bytes_unref, NULL);
  uint8_t *block = NULL;
  static const uint8_t zeros[4096];

  ck_assert_int_eq (posix_memalign ((void **) &block, 4096, 4096), 0);
  for (uint64_t at = 0; at < bytes; at += 4096)
    {
      GBytes *head;

      ck_assert_int_eq (pread (fd, block, 4096, (off_t) at), 4096);
      if (memcmp (block, zeros, 4096) == 0)
        ck_abort_msg ("block at %" G_GUINT64_FORMAT " is all zeros", at);
      head = g_bytes_new (block, 16);
      if (!g_hash_table_add (seen, head))
        ck_abort_msg ("block at %" G_GUINT64_FORMAT " repeats an earlier one", at);
    }
  free (block);
}

/* A nameless test file: made, filled to its size with random data before
 * the test (the fill announced as a writing phase), the result's target
 * of that size, a note saying it is gone after the run, and nothing left
 * at the path.  A size with a tail past the last 8 MiB block is written
 * whole too. */
START_TEST (test_create_nameless)
{
  g_autofree char *path = new_path ("create");
  const uint64_t bytes = 8 * MiB + 12 * KiB;
  g_autoptr (GError) error = NULL;
  Run r;
  const char *note;

  run_init (&r, DS_BENCH_WORKLOAD, path);
  set_create (&r, bytes, FALSE);
  ck_assert_msg (ds_run_open_target (&r.run, &error), "%s", error ? error->message : "");
  ck_assert (r.run.target->created);
  ck_assert_uint_eq (r.run.target->size_bytes, bytes);
  ck_assert_uint_eq (r.result->target.size_bytes, bytes);
  ck_assert (!g_file_test (path, G_FILE_TEST_EXISTS));
  ck_assert_str_eq (r.result->engine, "sync");
  ck_assert_uint_eq (r.heard.phases->len, 1);
  ck_assert_str_eq (g_ptr_array_index (r.heard.phases, 0), "fill");
  ck_assert (r.heard.fill_writes);
  assert_filled (r.run.target->fd, bytes);

  ck_assert_uint_eq (r.result->notes->len, 1);
  note = g_ptr_array_index (r.result->notes, 0);
  ck_assert_msg (g_str_has_prefix (note, path) &&
                 strstr (note, " is a test file Diskscope created for this run (8.4 MB of random "
                         "data, written before the test); it is gone after the run") != NULL,
                 "%s", note);
  run_clear (&r);
}
END_TEST

/* A kept test file: at its path after the run, of its size, filled; the
 * note says it was kept.  A size that is no whole number of logical
 * blocks: its last partial block is not written, but the file has the
 * size asked. */
START_TEST (test_create_kept)
{
  g_autofree char *path = new_path ("kept");
  const uint64_t bytes = 1 * MiB + 4 * KiB + 100;
  g_autoptr (GError) error = NULL;
  Run r;
  int fd;

  run_init (&r, DS_BENCH_WORKLOAD, path);
  set_create (&r, bytes, TRUE);
  ck_assert_msg (ds_run_open_target (&r.run, &error), "%s", error ? error->message : "");
  ck_assert_uint_eq (r.run.target->size_bytes, bytes);
  ck_assert_msg (g_str_has_suffix (g_ptr_array_index (r.result->notes, 0), "; it was kept"),
                 "%s", (char *) g_ptr_array_index (r.result->notes, 0));
  run_clear (&r);

  ck_assert_uint_eq (file_size (path), bytes);
  fd = open (path, O_RDONLY | O_DIRECT | O_CLOEXEC);
  ck_assert_int_ge (fd, 0);
  assert_filled (fd, 1 * MiB + 4 * KiB);
  close (fd);
}
END_TEST

/* --create of a path that exists is refused, and the file there (someone
 * else's) is neither removed nor changed, --keep or not. */
START_TEST (test_create_existing_untouched)
{
  g_autofree char *path = copy_of_file ("exists");
  g_autofree char *before = ds_test_checksum (path);
  g_autofree char *after = NULL;

  for (int keep = 0; keep < 2; keep++)
    {
      g_autoptr (GError) error = NULL;
      Run r;

      run_init (&r, DS_BENCH_WORKLOAD, path);
      set_create (&r, 1 * MiB, keep);
      ck_assert (!ds_run_open_target (&r.run, &error));
      ck_assert_ptr_nonnull (error);
      ck_assert_ptr_null (r.run.target);
      ck_assert_str_eq (r.result->target.path, path);
      run_clear (&r);
      ck_assert (g_file_test (path, G_FILE_TEST_IS_REGULAR));
    }
  after = ds_test_checksum (path);
  ck_assert_str_eq (before, after);
}
END_TEST

/* A kept test file the spec does not fit (too small for the kind: extra
 * needs 1 MiB) is removed again before anything is written: no fill. */
START_TEST (test_create_kept_too_small)
{
  g_autofree char *path = new_path ("small");
  g_autoptr (GError) error = NULL;
  Run r;

  run_init (&r, DS_BENCH_EXTRA, path);
  set_create (&r, 512 * KiB, TRUE);
  ck_assert (!ds_run_open_target (&r.run, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  ck_assert_msg (strstr (error->message, "too small for the") != NULL, "%s", error->message);
  ck_assert (!g_file_test (path, G_FILE_TEST_EXISTS));
  ck_assert_uint_eq (r.heard.phases->len, 0);
  ck_assert_ptr_null (r.run.target);
  run_clear (&r);
}
END_TEST

/* A fill that fails (a file size limit below the size: fallocate says
 * EFBIG) fails the open with the system's words and the path, and a kept
 * file is removed.  RLIMIT_FSIZE and SIGXFSZ ignored: this forked case
 * only. */
START_TEST (test_create_fill_fails)
{
  struct rlimit limit;

  signal (SIGXFSZ, SIG_IGN);
  ck_assert_int_eq (getrlimit (RLIMIT_FSIZE, &limit), 0);
  limit.rlim_cur = 2 * MiB;
  ck_assert_int_eq (setrlimit (RLIMIT_FSIZE, &limit), 0);

  for (int keep = 0; keep < 2; keep++)
    {
      g_autofree char *path = new_path ("limit");
      g_autoptr (GError) error = NULL;
      Run r;

      run_init (&r, DS_BENCH_WORKLOAD, path);
      set_create (&r, 8 * MiB, keep);
      ck_assert (!ds_run_open_target (&r.run, &error));
      ck_assert_ptr_nonnull (error);
      ck_assert_msg (strstr (error->message, g_strerror (EFBIG)) != NULL, "%s", error->message);
      ck_assert_msg (!g_error_matches (error, DS_ERROR, DS_ERROR_NO_SPACE), "%s", error->message);
      ck_assert_msg (!g_file_test (path, G_FILE_TEST_EXISTS), "keep %d: %s left behind", keep, path);
      ck_assert_uint_eq (r.heard.phases->len, 0);
      run_clear (&r);
    }
}
END_TEST

/* The run's cancel flag stops the fill: the open fails as cancelled, and
 * a kept file is removed. */
START_TEST (test_create_fill_cancelled)
{
  g_autofree char *path = new_path ("cancel");
  g_autoptr (GError) error = NULL;
  Run r;

  run_init (&r, DS_BENCH_WORKLOAD, path);
  set_create (&r, 16 * MiB, TRUE);
  g_atomic_int_set (&r.cancel, 1);
  ck_assert (!ds_run_open_target (&r.run, &error));
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CANCELLED), "%s", error->message);
  ck_assert (!g_file_test (path, G_FILE_TEST_EXISTS));
  run_clear (&r);
}
END_TEST

/* ds_run_fill on a target of the run's: the size set to what was asked,
 * every whole block written, the fill's phase sent first. */
START_TEST (test_fill_direct)
{
  g_autofree char *path = new_path ("fill");
  const uint64_t bytes = 2 * MiB + 8 * KiB;
  g_autoptr (GError) error = NULL;
  Run r;
  int fd;

  fd = open (path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  ck_assert_int_ge (fd, 0);
  close (fd);
  run_init (&r, DS_BENCH_WORKLOAD, path);
  r.run.target = g_new0 (DsTarget, 1);
  r.run.target->path = g_strdup (path);
  r.run.target->fd = open (path, O_RDWR | O_DIRECT | O_CLOEXEC);
  ck_assert_int_ge (r.run.target->fd, 0);
  r.run.target->kind = DS_TARGET_FILE;
  r.run.target->writable = TRUE;
  r.run.target->direct = TRUE;
  r.run.target->logical_block_size = 4096;
  r.run.target->physical_block_size = 4096;
  r.run.target->mem_align = 4096;

  ck_assert_msg (ds_run_fill (&r.run, bytes, &error), "%s", error ? error->message : "");
  ck_assert_uint_eq (r.run.target->size_bytes, bytes);
  ck_assert_uint_eq (file_size (path), bytes);
  ck_assert_uint_eq (r.heard.phases->len, 1);
  ck_assert_str_eq (g_ptr_array_index (r.heard.phases, 0), "fill");
  assert_filled (r.run.target->fd, bytes);
  run_clear (&r);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("run-target");
  TCase *open_case = tcase_create ("open");
  TCase *create = tcase_create ("create");

  ds_test_init ("run-target");
  file_path = ds_test_make_file ("run-target.img", FILE_BYTES, 20261207);

  tcase_set_timeout (open_case, 30);
  tcase_add_test (open_case, test_describe_target);
  tcase_add_test (open_case, test_open_read);
  tcase_add_test (open_case, test_open_missing);
  tcase_add_test (open_case, test_open_write);
  tcase_add_test (open_case, test_open_erase_takes_image);
  suite_add_tcase (s, open_case);

  tcase_set_timeout (create, 30);
  tcase_add_test (create, test_create_nameless);
  tcase_add_test (create, test_create_kept);
  tcase_add_test (create, test_create_existing_untouched);
  tcase_add_test (create, test_create_kept_too_small);
  tcase_add_test (create, test_create_fill_fails);
  tcase_add_test (create, test_create_fill_cancelled);
  tcase_add_test (create, test_fill_direct);
  suite_add_tcase (s, create);

  return ds_test_run_suite (s);
}
