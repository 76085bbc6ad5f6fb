/* test-test-file.c: the nameless test file a benchmark runs on in a
 * folder (core/run/ds-test-file.c)
 *
 * Unit suite: no root, no device.  A run context made by hand, as
 * ds_run_full() makes it, and folders in the suite's scratch folder under
 * /var/tmp (a real filesystem that takes O_DIRECT).  What ds-test-file.h
 * promises: the file made with O_TMPFILE and O_DIRECT, nothing in the
 * folder while it is open or after; its size what was asked, or the free
 * space less the margin (1 % of it, 4 to 256 MiB) in whole MiB with a note
 * in the result saying so; the result's target the filesystem; below
 * min_bytes a DS_ERROR_NO_SPACE that says how much is needed; not a folder
 * DS_ERROR_INVALID, a missing one DS_ERROR_NOT_FOUND; a folder the user
 * may not write DS_ERROR_PERMISSION that says to pick another (as nobody,
 * when the suite runs as root).  ds_test_file_fill writes every byte with
 * random data (read back through /proc/self/fd); a fill that fails or is
 * stopped keeps the failure's words.  ds_test_file_wrap_error rewords
 * ENOSPC and EINVAL word for word and leaves anything else alone.  That
 * the fill ends with fdatasync() is not observable from here (O_DIRECT
 * writes leave no dirty page to see); ENOSPC from a real filesystem is
 * not provoked: it would fill the host's disk.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-error.h"
#include "ds-run.h"
#include "ds-test-file.h"
#include "ds-test-util.h"
#include "ds-units.h"

#define KiB   (UINT64_C (1) << 10)
#define MiB   (UINT64_C (1) << 20)
#define WHAT  "the file benchmark"

static guint dir_serial;

/* A fresh, empty folder in the scratch folder, of @mode. */
static char *
new_dir (const char *what,
         mode_t      mode)
{
  g_autofree char *name = g_strdup_printf ("%s-%d-%u", what, (int) getpid (), dir_serial++);
  char *path = ds_test_scratch_path (name);

  ck_assert_int_eq (g_mkdir (path, 0700), 0);
  ck_assert_int_eq (chmod (path, mode), 0);
  return path;
}

static void
assert_empty (const char *dir)
{
  g_autofree char *names = ds_test_list_dir (dir);

  ck_assert_str_eq (names, "");
}

/* What the sink heard: the phases by name. */
static void
heard_sink (const DsSample *sample,
            gpointer        user_data)
{
  GPtrArray *phases = user_data;

  if (sample->kind == DS_SAMPLE_PHASE)
    g_ptr_array_add (phases, g_strdup (sample->name));
}

typedef struct {
  DsRun      run;
  DsResult  *result;
  GPtrArray *phases;
  gint       cancel;
} Run;

/* A run of the file kind as ds_run_full() sets one up, no target yet. */
static void
run_init (Run *r)
{
  memset (r, 0, sizeof *r);
  r->result = ds_result_new_blank (DS_BENCH_FILE);
  g_free (r->result->spec.engine);
  r->result->spec.engine = g_strdup ("auto");
  r->phases = g_ptr_array_new_with_free_func (g_free);
  r->run.spec = &r->result->spec;
  r->run.result = r->result;
  r->run.engine_auto = TRUE;
  r->run.sink = heard_sink;
  r->run.sink_data = r->phases;
  r->run.cancel = &r->cancel;
  r->run.access.no_udisks = TRUE;
  r->run.access.cancel = &r->cancel;
  r->run.error_offset_bytes = -1;
  ds_rng_seed (&r->run.rng, 23);
}

static void
run_clear (Run *r)
{
  g_clear_pointer (&r->run.target, ds_target_free);
  g_clear_pointer (&r->result, ds_result_free);
  g_clear_pointer (&r->phases, g_ptr_array_unref);
}

/* ds_test_file_open() into the run; the test fails on an error. */
static void
open_ok (Run            *r,
         const char     *dir,
         uint64_t        want_bytes,
         uint64_t        min_bytes,
         DsTestFileInfo *info)
{
  DsTestFileRequest request = { .what = WHAT, .want_bytes = want_bytes, .min_bytes = min_bytes };
  g_autoptr (GError) error = NULL;

  r->run.target = ds_test_file_open (&r->run, dir, &request, info, &error);
  ck_assert_msg (r->run.target != NULL && error == NULL, "%s", error ? error->message : "");
}

/* ds_test_file_open() that fails with @code; its message. */
static char *
open_fails (Run        *r,
            const char *dir,
            uint64_t    want_bytes,
            uint64_t    min_bytes,
            DsError     code)
{
  DsTestFileRequest request = { .what = WHAT, .want_bytes = want_bytes, .min_bytes = min_bytes };
  g_autoptr (GError) error = NULL;
  DsTestFileInfo info;
  DsTarget *target;

  target = ds_test_file_open (&r->run, dir, &request, &info, &error);
  ck_assert_ptr_null (target);
  ck_assert_ptr_nonnull (error);
  ck_assert_msg (g_error_matches (error, DS_ERROR, code), "code %d: %s", error->code, error->message);
  ck_assert_uint_eq (r->result->notes->len, 0);
  return g_strdup (error->message);
}

static uint64_t
fs_size (const char *dir)
{
  struct statvfs vfs;

  ck_assert_int_eq (statvfs (dir, &vfs), 0);
  return (uint64_t) vfs.f_blocks * vfs.f_frsize;
}

/* What is left to the test file of @free_bytes: the margin is 1 % of it,
 * at least 4 MiB and at most 256 MiB; whole MiB. */
static uint64_t
room_for (uint64_t  free_bytes,
          uint64_t *ret_margin)
{
  uint64_t margin = CLAMP (free_bytes / 100, 4 * MiB, 256 * MiB);

  *ret_margin = margin;
  return free_bytes > margin ? (free_bytes - margin) / MiB * MiB : 0;
}

/* ---- open ---- */

/* The size asked (whole MiB, with room): a nameless O_DIRECT file, empty,
 * in nothing the folder lists; the info and the result's target say what
 * the filesystem is; no note.  The folder is still empty once it is
 * closed. */
START_TEST (test_open_nameless)
{
  g_autofree char *dir = new_dir ("open", 0700);
  g_autofree char *fd_path = NULL;
  g_autofree char *link = NULL;
  DsTestFileInfo info;
  struct stat st;
  Run r;

  run_init (&r);
  open_ok (&r, dir, 4 * MiB, 1 * MiB, &info);
  ck_assert_uint_eq (info.file_bytes, 4 * MiB);
  ck_assert (info.tmpfile);
  ck_assert (!info.buffered);
  ck_assert_uint_eq (info.fs_size_bytes, fs_size (dir));
  ck_assert_uint_gt (info.fs_free_bytes, 4 * MiB);
  ck_assert_uint_le (info.fs_free_bytes, info.fs_size_bytes);

  ck_assert (r.run.target->tmpfile);
  ck_assert (r.run.target->direct);
  ck_assert (r.run.target->writable);
  ck_assert (r.run.target->created);
  ck_assert_uint_eq (r.run.target->size_bytes, 4 * MiB);
  ck_assert_int_eq (fstat (r.run.target->fd, &st), 0);
  ck_assert (S_ISREG (st.st_mode));
  ck_assert_int_eq (st.st_size + st.st_nlink, 0);
  ck_assert_int_eq (fcntl (r.run.target->fd, F_GETFL) & O_DIRECT, O_DIRECT);
  fd_path = g_strdup_printf ("/proc/self/fd/%d", r.run.target->fd);
  link = g_file_read_link (fd_path, NULL);
  ck_assert_msg (link != NULL && g_str_has_prefix (link, dir) &&
                 g_str_has_suffix (link, " (deleted)"), "%s", link);
  assert_empty (dir);

  ck_assert_str_eq (r.result->target.path, dir);
  ck_assert (!r.result->target.is_block);
  ck_assert_uint_eq (r.result->target.size_bytes, info.fs_size_bytes);
  if (r.run.target->model != NULL && r.run.target->fs_device != NULL)
    {
      g_autofree char *model = g_strdup_printf ("%s (%s)", r.run.target->model,
                                                r.run.target->fs_device);

      ck_assert_str_eq (r.result->target.model, model);
    }
  else
    ck_assert_pstr_eq (r.result->target.model, r.run.target->fs_device);
  ck_assert_uint_eq (r.result->notes->len, 0);
  run_clear (&r);
  assert_empty (dir);

  /* A size in bytes that is not whole MiB, with room: whole MiB, and no
   * note blaming the free space for the rounding. */
  run_init (&r);
  open_ok (&r, dir, 4 * MiB + 1000, 1 * MiB, &info);
  ck_assert_uint_eq (info.file_bytes, 4 * MiB);
  ck_assert_uint_eq (r.result->notes->len, 0);
  run_clear (&r);
}
END_TEST

/* More than is free: the free space less the margin, in whole MiB, and a
 * note that says both sizes and what is free where.  Exactly min_bytes
 * will do (the file asked with its minimum of the same size). */
START_TEST (test_open_clamped)
{
  g_autofree char *dir = new_dir ("clamp", 0700);
  uint64_t want = fs_size (dir) * 2 + 5 * MiB;
  g_autofree char *want_text = ds_format_size (want);
  g_autofree char *size_text = NULL;
  g_autofree char *free_text = NULL;
  g_autofree char *note = NULL;
  DsTestFileInfo info;
  uint64_t margin;
  struct stat st;
  Run r;

  run_init (&r);
  open_ok (&r, dir, want, 16 * MiB, &info);
  ck_assert_uint_eq (info.file_bytes, room_for (info.fs_free_bytes, &margin));
  ck_assert_uint_eq (r.run.target->size_bytes, info.file_bytes);
  ck_assert_uint_eq (info.file_bytes % MiB, 0);
  ck_assert_uint_le (info.file_bytes + margin, info.fs_free_bytes);
  ck_assert_uint_gt (info.file_bytes + margin + MiB, info.fs_free_bytes);
  /* Opened only: nothing is reserved or written yet. */
  ck_assert_int_eq (fstat (r.run.target->fd, &st), 0);
  ck_assert_int_eq (st.st_size, 0);
  ck_assert_int_eq (st.st_blocks, 0);

  size_text = ds_format_size (info.file_bytes);
  free_text = ds_format_size (info.fs_free_bytes);
  note = g_strdup_printf ("the test file is %s, not %s: %s is free at %s",
                          size_text, want_text, free_text, dir);
  ck_assert_uint_eq (r.result->notes->len, 1);
  ck_assert_str_eq (g_ptr_array_index (r.result->notes, 0), note);
  run_clear (&r);

  run_init (&r);
  open_ok (&r, dir, 2 * MiB, 2 * MiB, &info);
  ck_assert_uint_eq (info.file_bytes, 2 * MiB);
  ck_assert_uint_eq (r.result->notes->len, 0);
  run_clear (&r);
  assert_empty (dir);
}
END_TEST

/* The message of a request for @min_bytes at @dir with @free_bytes free. */
static char *
no_space_message (const char *dir,
                  uint64_t    min_bytes,
                  uint64_t    free_bytes)
{
  g_autofree char *free_text = ds_format_size (free_bytes);
  uint64_t margin;

  room_for (free_bytes, &margin);
  return g_strdup_printf ("not enough free space at %s for " WHAT ": %s free, it needs at "
                          "least %" PRIu64 " MiB plus %" PRIu64 " MiB for the filesystem",
                          dir, free_text, min_bytes / MiB, margin / MiB);
}

/* Less room than min_bytes: DS_ERROR_NO_SPACE that says what is free and
 * what is needed, the filesystem's margin apart; nothing made, no note.
 * (Other programs write to the same disk: the free space is read before
 * and after, and the message must fit one of them.) */
START_TEST (test_open_below_min)
{
  g_autofree char *dir = new_dir ("min", 0700);
  uint64_t min = fs_size (dir) + 7 * MiB;

  for (guint attempt = 0; attempt < 5; attempt++)
    {
      struct statvfs before, after;
      g_autofree char *message = NULL;
      g_autofree char *expect_before = NULL;
      g_autofree char *expect_after = NULL;
      Run r;

      run_init (&r);
      ck_assert_int_eq (statvfs (dir, &before), 0);
      message = open_fails (&r, dir, min + 64 * MiB, min, DS_ERROR_NO_SPACE);
      ck_assert_int_eq (statvfs (dir, &after), 0);
      run_clear (&r);
      assert_empty (dir);

      expect_before = no_space_message (dir, min, (uint64_t) before.f_bavail * before.f_frsize);
      expect_after = no_space_message (dir, min, (uint64_t) after.f_bavail * after.f_frsize);
      if (g_str_equal (message, expect_before) || g_str_equal (message, expect_after))
        return;
      if (attempt == 4)
        ck_assert_str_eq (message, expect_after);
    }
}
END_TEST

/* Not a folder: a regular file or a character device is DS_ERROR_INVALID
 * that says the benchmark runs in a folder; a path that is not there is
 * DS_ERROR_NOT_FOUND in the system's words; one through a regular file
 * the same with ENOTDIR's. */
START_TEST (test_open_not_folder)
{
  g_autofree char *dir = new_dir ("notdir", 0700);
  g_autofree char *file = g_build_filename (dir, "file", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);
  g_autofree char *through = g_build_filename (file, "sub", NULL);
  const char *invalid[] = { file, "/dev/null" };
  Run r;

  ck_assert (g_file_set_contents (file, "x", 1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      g_autofree char *message = NULL;
      g_autofree char *expect = g_strdup_printf ("%s is not a folder: " WHAT " runs in a folder "
                                                 "of the filesystem to test", invalid[i]);

      run_init (&r);
      message = open_fails (&r, invalid[i], 4 * MiB, MiB, DS_ERROR_INVALID);
      ck_assert_str_eq (message, expect);
      run_clear (&r);
    }
  {
    g_autofree char *message = NULL;
    g_autofree char *expect = g_strdup_printf ("%s: %s", missing, g_strerror (ENOENT));

    run_init (&r);
    message = open_fails (&r, missing, 4 * MiB, MiB, DS_ERROR_NOT_FOUND);
    ck_assert_str_eq (message, expect);
    run_clear (&r);
  }
  {
    g_autofree char *message = NULL;
    g_autofree char *expect = g_strdup_printf ("%s: %s", through, g_strerror (ENOTDIR));

    run_init (&r);
    message = open_fails (&r, through, 4 * MiB, MiB, DS_ERROR_FAILED);
    ck_assert_str_eq (message, expect);
    run_clear (&r);
  }
  ck_assert (!g_file_test (missing, G_FILE_TEST_EXISTS));
}
END_TEST

/* A folder the user may not write (0555; as root, root may: this forked
 * case becomes nobody first): DS_ERROR_PERMISSION that says why and to
 * pick a folder one can write to; nothing made. */
START_TEST (test_open_no_permission)
{
  g_autofree char *dir = new_dir ("ro", 0555);
  g_autofree char *message = NULL;
  g_autofree char *expect = NULL;
  Run r;

  if (geteuid () == 0)
    {
      /* nobody must reach the folder: the scratch folder is 0700. */
      ck_assert_int_eq (chmod (ds_test_scratch_dir (), 0711), 0);
      ck_assert_int_eq (setgroups (0, NULL), 0);
      ck_assert_int_eq (setresgid (65534, 65534, 65534), 0);
      ck_assert_int_eq (setresuid (65534, 65534, 65534), 0);
    }
  ck_assert_int_ne (access (dir, W_OK), 0);

  run_init (&r);
  message = open_fails (&r, dir, 4 * MiB, MiB, DS_ERROR_PERMISSION);
  expect = g_strdup_printf ("cannot create a test file in %s (%s): pick a folder you can "
                            "write to", dir, g_strerror (EACCES));
  ck_assert_str_eq (message, expect);
  ck_assert_ptr_null (r.run.target);
  run_clear (&r);
  assert_empty (dir);
}
END_TEST

/* ---- fill ---- */

/* Every 4 KiB block of the first @bytes of @path: not all zeros, and no
 * two alike in their first 16 bytes (random data, not a pattern). */
static void
assert_random (const char *path,
               uint64_t    bytes)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                       (GDestroyNotify) g_bytes_unref, NULL);
  static const uint8_t zeros[4096];
  uint8_t block[4096];
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  ck_assert_msg (fd >= 0, "%s: %s", path, g_strerror (errno));
  for (uint64_t at = 0; at < bytes; at += sizeof block)
    {
      ck_assert_int_eq (pread (fd, block, sizeof block, (off_t) at), sizeof block);
      if (memcmp (block, zeros, sizeof block) == 0)
        ck_abort_msg ("block at %" PRIu64 " is all zeros", at);
      if (!g_hash_table_add (seen, g_bytes_new (block, 16)))
        ck_abort_msg ("block at %" PRIu64 " repeats an earlier one", at);
    }
  ck_assert_int_eq (pread (fd, block, sizeof block, (off_t) bytes), 0);
  close (fd);
}

/* The fill: 0, the whole file written (9 MiB: an 8 MiB block and a tail)
 * with random data, its blocks allocated, the fill announced as a phase;
 * still nothing in the folder, nor once it is closed. */
START_TEST (test_fill)
{
  g_autofree char *dir = new_dir ("fill", 0700);
  g_autofree char *fd_path = NULL;
  g_autoptr (GError) error = NULL;
  DsTestFileInfo info;
  struct stat st;
  Run r;

  run_init (&r);
  open_ok (&r, dir, 9 * MiB, 1 * MiB, &info);
  ck_assert_msg (ds_test_file_fill (&r.run, dir, &error) == 0 && error == NULL,
                 "%s", error ? error->message : "");
  ck_assert_uint_eq (r.run.target->size_bytes, 9 * MiB);
  ck_assert_int_eq (fstat (r.run.target->fd, &st), 0);
  ck_assert_int_eq (st.st_size, 9 * MiB);
  ck_assert_uint_ge ((uint64_t) st.st_blocks * 512, 9 * MiB);
  ck_assert_uint_eq (r.phases->len, 1);
  ck_assert_str_eq (g_ptr_array_index (r.phases, 0), "fill");
  fd_path = g_strdup_printf ("/proc/self/fd/%d", r.run.target->fd);
  assert_random (fd_path, 9 * MiB);
  assert_empty (dir);
  run_clear (&r);
  assert_empty (dir);
}
END_TEST

/* A fill that fails before a byte is written (a file size limit below the
 * size: the reservation says EFBIG) keeps the system's words: not taken
 * for no space, and -EIO (the reservation's errno does not travel).  A
 * stopped fill is DS_ERROR_CANCELLED.  RLIMIT_FSIZE and SIGXFSZ: this
 * forked case only. */
START_TEST (test_fill_fails)
{
  g_autofree char *dir = new_dir ("limit", 0700);
  g_autofree char *expect = g_strdup_printf ("%s: %s", dir, g_strerror (EFBIG));
  DsTestFileInfo info;
  struct rlimit limit;
  Run r;

  run_init (&r);
  open_ok (&r, dir, 4 * MiB, 1 * MiB, &info);
  g_atomic_int_set (&r.cancel, 1);
  {
    g_autoptr (GError) error = NULL;
    int ret = ds_test_file_fill (&r.run, dir, &error);

    ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CANCELLED), "%s", error->message);
    ck_assert_str_eq (error->message, "the run was stopped by the user");
    ck_assert_int_lt (ret, 0);
  }
  run_clear (&r);

  signal (SIGXFSZ, SIG_IGN);
  ck_assert_int_eq (getrlimit (RLIMIT_FSIZE, &limit), 0);
  limit.rlim_cur = 2 * MiB;
  ck_assert_int_eq (setrlimit (RLIMIT_FSIZE, &limit), 0);
  run_init (&r);
  open_ok (&r, dir, 4 * MiB, 1 * MiB, &info);
  {
    g_autoptr (GError) error = NULL;

    ck_assert_int_eq (ds_test_file_fill (&r.run, dir, &error), -EIO);
    ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_FAILED), "%s", error->message);
    ck_assert_str_eq (error->message, expect);
  }
  ck_assert_uint_eq (r.phases->len, 0);
  run_clear (&r);
  assert_empty (dir);
}
END_TEST

/* ---- wrap_error ---- */

static GError *
wrapped (int         ret,
         GQuark      domain,
         int         code,
         const char *message,
         uint64_t    file_bytes)
{
  GError *error = g_error_new_literal (domain, code, message);

  ck_assert_int_eq (ds_test_file_wrap_error (ret, &error, "/mnt/data", file_bytes), ret);
  return error;
}

/* -ENOSPC: DS_ERROR_NO_SPACE, the folder, the file's size and the old
 * words; -EINVAL: DS_ERROR_UNSUPPORTED (a direct transfer refused) unless
 * it already was the user's bad parameters; anything else, a positive
 * errno included, as it was; no error to reword: nothing set. */
START_TEST (test_wrap_error)
{
  static const struct { int ret; GQuark (*domain) (void); int code; int code_after; const char *after; } cases[] = {
    { -ENOSPC, ds_error_quark, DS_ERROR_IO, DS_ERROR_NO_SPACE,
      "the filesystem at /mnt/data ran out of space for the 1.1 GB test file (old words); "
      "free some space or give a smaller --size" },
    { -ENOSPC, g_file_error_quark, G_FILE_ERROR_NOSPC, DS_ERROR_NO_SPACE,
      "the filesystem at /mnt/data ran out of space for the 1.1 GB test file (old words); "
      "free some space or give a smaller --size" },
    { -EINVAL, ds_error_quark, DS_ERROR_FAILED, DS_ERROR_UNSUPPORTED,
      "the filesystem at /mnt/data refused a direct I/O transfer (old words); "
      "--buffered runs anyway, through the page cache" },
    { -EINVAL, ds_error_quark, DS_ERROR_INVALID, DS_ERROR_INVALID, "old words" },
    { -EIO, ds_error_quark, DS_ERROR_IO, DS_ERROR_IO, "old words" },
    { -ECANCELED, ds_error_quark, DS_ERROR_CANCELLED, DS_ERROR_CANCELLED, "old words" },
    { ENOSPC, ds_error_quark, DS_ERROR_IO, DS_ERROR_IO, "old words" },
    { EINVAL, ds_error_quark, DS_ERROR_IO, DS_ERROR_IO, "old words" },
    { 0, ds_error_quark, DS_ERROR_IO, DS_ERROR_IO, "old words" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = wrapped (cases[i].ret, cases[i].domain (), cases[i].code,
                                          "old words", UINT64_C (1) << 30);
      GQuark domain = cases[i].code_after == cases[i].code ? cases[i].domain () : DS_ERROR;

      ck_assert_msg (g_error_matches (error, domain, cases[i].code_after), "case %u: %s", i, error->message);
      ck_assert_str_eq (error->message, cases[i].after);
    }
  {
    g_autoptr (GError) error = wrapped (-ENOSPC, DS_ERROR, DS_ERROR_IO, "x", 0);

    ck_assert_str_eq (error->message, "the filesystem at /mnt/data ran out of space for the "
                      "0 bytes test file (x); free some space or give a smaller --size");
  }
  {
    GError *error = NULL;

    ck_assert_int_eq (ds_test_file_wrap_error (-ENOSPC, &error, "/mnt/data", MiB), -ENOSPC);
    ck_assert_ptr_null (error);
    ck_assert_int_eq (ds_test_file_wrap_error (-EINVAL, NULL, "/mnt/data", MiB), -EINVAL);
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("test-file");
  TCase *open_case = tcase_create ("open");
  TCase *fill = tcase_create ("fill");
  TCase *wrap = tcase_create ("wrap");

  ds_test_init ("test-file");

  tcase_set_timeout (open_case, 30);
  tcase_add_test (open_case, test_open_nameless);
  tcase_add_test (open_case, test_open_clamped);
  tcase_add_test (open_case, test_open_below_min);
  tcase_add_test (open_case, test_open_not_folder);
  tcase_add_test (open_case, test_open_no_permission);
  suite_add_tcase (s, open_case);

  tcase_set_timeout (fill, 30);
  tcase_add_test (fill, test_fill);
  tcase_add_test (fill, test_fill_fails);
  suite_add_tcase (s, fill);

  tcase_add_test (wrap, test_wrap_error);
  suite_add_tcase (s, wrap);

  return ds_test_run_suite (s);
}
