/* test-kind-erase-io.c: the erase kind's pieces, I/O and discard
 * (core/kinds/erase/ds-erase-io.c, ds-erase-discard.c) on a regular file
 *
 * Unit suite: no root, no device (test-kind-erase.c has the kind's
 * comparison, fio refusal, JSON and report; test-int-erase.c the whole
 * run on loop devices).  An Erase made by hand as erase_prepare() makes
 * it, over a file in g_get_tmp_dir() opened with O_DIRECT where the
 * filesystem takes it and unlinked at once.  What they promise: the
 * target cut into blocks over the O_DIRECT part and one tail, numbered
 * in order; which errors are the medium's; each piece written and read
 * back, the tail through the page cache without losing O_DIRECT, a file
 * cut short read as EIO; a phase's samples and the run's progress, at
 * most ten a second unless forced; a failure recorded as the run wants
 * it; a discard that samples each piece before it punches the hole, what
 * "survived" then says (the sample only, every k-th piece), and every
 * refusal before a byte is touched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-erase-private.h"
#include "ds-error.h"
#include "ds-test-util.h"

#define BLOCK (UINT64_C (16384))
/* Two whole blocks, a short one up to the O_DIRECT part's end, a tail. */
#define SIZE  (10 * 4096 + 100)

typedef struct {
  char        *path;
  DsTarget     target;
  DsRun        run;
  Erase        e;
  int          plain;   /* the same file without O_DIRECT, to look at it */
  gint         cancel;
  GArray      *heard;   /* DsSample */
  guint8      *content; /* what the file held */
} Fixture;

static void
heard_sink (const DsSample *sample,
            gpointer        user_data)
{
  g_array_append_val (((Fixture *) user_data)->heard, *sample);
}

/* An Erase of @method over a new file of SIZE bytes: random, but for
 * the third piece, zeros when @zero_piece. */
static Fixture *
fixture_new (DsEraseMethod method,
             gboolean      zero_piece)
{
  Fixture *f = g_new0 (Fixture, 1);
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  int fd;

  f->content = g_malloc (SIZE);
  for (guint i = 0; i < SIZE; i++)
    f->content[i] = (guint8) g_rand_int (rand);
  if (zero_piece)
    memset (f->content + 2 * BLOCK, 0, 8192);
  f->path = g_build_filename (g_get_tmp_dir (), "ds-kind-erase-XXXXXX", NULL);
  fd = g_mkstemp (f->path);
  ck_assert_msg (fd >= 0, "%s: %s", f->path, g_strerror (errno));
  ck_assert_int_eq (write (fd, f->content, SIZE), SIZE);
  close (fd);
  f->e.fd = open (f->path, O_RDWR | O_DIRECT | O_CLOEXEC);
  f->e.align = 4096;
  if (f->e.fd < 0 && errno == EINVAL)
    {
      ds_test_note ("%s takes no O_DIRECT: buffered", g_get_tmp_dir ());
      f->e.fd = open (f->path, O_RDWR | O_CLOEXEC);
      f->e.align = 1;
    }
  ck_assert_int_ge (f->e.fd, 0);
  f->plain = open (f->path, O_RDWR | O_CLOEXEC);
  ck_assert_int_ge (f->plain, 0);
  /* Nothing left behind, whatever the test does. */
  ck_assert_int_eq (unlink (f->path), 0);

  f->heard = g_array_new (FALSE, TRUE, sizeof (DsSample));
  f->target = (DsTarget) { .path = f->path, .fd = f->e.fd, .kind = DS_TARGET_FILE, .size_bytes = SIZE };
  f->run = (DsRun) { .target = &f->target, .sink = heard_sink, .sink_data = f, .cancel = &f->cancel };
  f->e.run = &f->run;
  f->e.data = ds_erase_data_new ();
  f->e.data->method = method;
  f->e.data->verify = TRUE;
  f->e.data->size_bytes = SIZE;
  f->e.data->block_bytes = BLOCK;
  f->e.is_file = TRUE;
  f->e.direct_end = ds_align_down (SIZE, f->e.align);
  f->e.n_pieces = _ds_erase_piece_index (&f->e, f->e.direct_end) + (f->e.direct_end < SIZE);
  return f;
}

static void
fixture_free (Fixture *f)
{
  close (f->e.fd);
  close (f->plain);
  ds_erase_data_free (f->e.data);
  g_free (f->e.samples);
  g_array_unref (f->heard);
  g_free (f->content);
  g_free (f->path);
  g_free (f);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Fixture, fixture_free)

/* The file as it is now, through the page cache. */
static guint8 *
file_now (Fixture *f)
{
  guint8 *now = g_malloc (SIZE);
  struct stat st;

  ck_assert_int_eq (fstat (f->plain, &st), 0);
  ck_assert_int_eq (st.st_size, SIZE);
  ck_assert_int_eq (pread (f->plain, now, SIZE, 0), SIZE);
  return now;
}

/* ---- ds-erase-io.c ---------------------------------------------------- */

/* Blocks over [0, direct_end), the last one short, then one tail; each
 * numbered after the one before, and every byte in exactly one piece. */
START_TEST (test_pieces)
{
  static const struct { uint64_t size; uint32_t align; uint64_t want[5][2]; guint n; } cases[] = {
    { SIZE, 4096, { { 0, BLOCK }, { BLOCK, BLOCK }, { 2 * BLOCK, 8192 }, { 40960, 100 } }, 4 },
    { 2 * BLOCK + 100, 4096, { { 0, BLOCK }, { BLOCK, BLOCK }, { 2 * BLOCK, 100 } }, 3 },
    { 2 * BLOCK, 4096, { { 0, BLOCK }, { BLOCK, BLOCK } }, 2 },
    { SIZE, 1, { { 0, BLOCK }, { BLOCK, BLOCK }, { 2 * BLOCK, 8292 } }, 3 },
    { 100, 4096, { { 0, 100 } }, 1 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      DsEraseData data = { .size_bytes = cases[c].size, .block_bytes = BLOCK };
      Erase e = { .data = &data, .align = cases[c].align,
                  .direct_end = ds_align_down (cases[c].size, cases[c].align) };
      guint n = 0;

      for (uint64_t off = 0; off < data.size_bytes; off += _ds_erase_piece_len (&e, off), n++)
        {
          ck_assert_uint_lt (n, cases[c].n);
          ck_assert_uint_eq (off, cases[c].want[n][0]);
          ck_assert_uint_eq (_ds_erase_piece_len (&e, off), cases[c].want[n][1]);
          ck_assert_uint_eq (_ds_erase_piece_index (&e, off), n);
        }
      ck_assert_uint_eq (n, cases[c].n);
      /* erase_prepare()'s count of them. */
      ck_assert_uint_eq (_ds_erase_piece_index (&e, e.direct_end) + (e.direct_end < data.size_bytes), n);
    }
}
END_TEST

/* What the kernel says of a sector it could not read or write; the rest
 * (a full disk, a vanished device, a refusal, a stop) end the run. */
START_TEST (test_media_errors)
{
  const int media[] = { EIO, EILSEQ, EBADMSG, ENODATA, EREMOTEIO, ETIMEDOUT };
  const int other[] = { 0, ENOSPC, ENODEV, ENXIO, EINVAL, EOPNOTSUPP, ECANCELED, EBADF, EPERM };

  for (guint i = 0; i < G_N_ELEMENTS (media); i++)
    ck_assert_msg (_ds_erase_media_error (media[i]), "%s", g_strerror (media[i]));
  for (guint i = 0; i < G_N_ELEMENTS (other); i++)
    ck_assert_msg (!_ds_erase_media_error (other[i]), "%s", g_strerror (other[i]));
}
END_TEST

/* Every piece written and read back; the tail through the page cache, the
 * fd's O_DIRECT given back; a file cut short is an error, not old bytes. */
START_TEST (test_write_read)
{
  g_autoptr (Fixture) f = fixture_new (DS_ERASE_RANDOM, FALSE);
  Erase *e = &f->e;
  void *buf = ds_buffer_alloc (BLOCK, 4096);
  void *back = ds_buffer_alloc (BLOCK, 4096);
  g_autofree guint8 *want = g_malloc (SIZE);
  g_autofree guint8 *now = NULL;
  guint i = 0;

  for (uint64_t off = 0; off < SIZE; off += _ds_erase_piece_len (e, off), i++)
    {
      memset (buf, 0x11 * (i + 1), BLOCK);
      memcpy (want + off, buf, _ds_erase_piece_len (e, off));
      ck_assert_int_eq (_ds_erase_write_piece (e, buf, _ds_erase_piece_len (e, off), off), 0);
    }
  ck_assert_int_eq (_ds_erase_flush (e), 0);
  now = file_now (f);
  ck_assert_int_eq (memcmp (now, want, SIZE), 0);
  ck_assert_int_eq (fcntl (e->fd, F_GETFL) & O_DIRECT, e->align > 1 ? O_DIRECT : 0);
  for (uint64_t off = 0; off < SIZE; off += _ds_erase_piece_len (e, off))
    {
      memset (back, 0xee, BLOCK);
      ck_assert_int_eq (_ds_erase_read_piece (e, back, _ds_erase_piece_len (e, off), off), 0);
      ck_assert_int_eq (memcmp (back, want + off, _ds_erase_piece_len (e, off)), 0);
    }

  ck_assert_int_eq (ftruncate (f->plain, SIZE - 60), 0);
  ck_assert_int_eq (_ds_erase_read_piece (e, back, 100, 40960), -EIO);
  /* Not open for writing; not open at all. */
  e->fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);
  ck_assert_int_eq (_ds_erase_write_piece (e, buf, BLOCK, 0), -EBADF);
  close (e->fd);
  e->fd = -1;
  ck_assert_int_eq (_ds_erase_flush (e), -EBADF);
  ck_assert_int_eq (_ds_erase_write_piece (e, buf, 100, 40960), -EBADF);
  e->fd = f->target.fd;
  ds_buffer_free (buf);
  ds_buffer_free (back);
}
END_TEST

/* A phase's samples: its start (a write unless it is the verify), its
 * position forced or ten a second, the run's progress in its share. */
START_TEST (test_phases)
{
  g_autoptr (Fixture) f = fixture_new (DS_ERASE_ZEROS, FALSE);
  const DsSample *s;

  _ds_erase_phase_begin (&f->e, "write", 0, 0.5);
  _ds_erase_phase_progress (&f->e, SIZE / 2, SIZE / 2, TRUE);
  _ds_erase_phase_progress (&f->e, SIZE, SIZE, FALSE);
  ck_assert_uint_eq (f->heard->len, 2);
  ck_assert_double_eq (f->run.progress, 0.5);
  s = &g_array_index (f->heard, DsSample, 0);
  ck_assert (s->kind == DS_SAMPLE_PHASE && s->write && strcmp (s->name, "write") == 0);
  ck_assert_double_eq (s->progress, 0);
  s = &g_array_index (f->heard, DsSample, 1);
  ck_assert_int_eq (s->kind, DS_SAMPLE_PROGRESS);
  ck_assert_uint_eq (s->offset_bytes, SIZE / 2);
  ck_assert_uint_eq (s->bytes, SIZE / 2);
  ck_assert_double_eq (s->progress, 0.25);
  ck_assert (s->value >= 0);

  /* The verify reads; its first position is heard at once. */
  _ds_erase_phase_begin (&f->e, "verify", 0.5, 0.5);
  _ds_erase_phase_progress (&f->e, SIZE / 2, SIZE / 4, FALSE);
  ck_assert_uint_eq (f->heard->len, 4);
  s = &g_array_index (f->heard, DsSample, 2);
  ck_assert (s->kind == DS_SAMPLE_PHASE && !s->write && strcmp (s->name, "verify") == 0);
  ck_assert_double_eq (s->progress, 0.5);
  ck_assert_uint_eq (g_array_index (f->heard, DsSample, 3).bytes, SIZE / 4);
  ck_assert_double_eq (g_array_index (f->heard, DsSample, 3).progress, 0.75);
  /* Past the end, or nothing to erase: the progress stays in [0, 1]. */
  _ds_erase_phase_progress (&f->e, 2 * SIZE, SIZE, TRUE);
  ck_assert_double_eq (f->run.progress, 1.0);
  f->e.data->size_bytes = 0;
  _ds_erase_phase_progress (&f->e, 0, 0, TRUE);
  ck_assert_double_eq (f->run.progress, 0.5);
  _ds_erase_phase_begin (&f->e, "discard", 0, 1);
  ck_assert (g_array_index (f->heard, DsSample, 6).write);
}
END_TEST

/* A failure as the run records it: the error naming the target, the
 * errno and where; the user's stop as a stop, with no errno. */
START_TEST (test_fail)
{
  g_autoptr (Fixture) f = fixture_new (DS_ERASE_ZEROS, FALSE);
  g_autoptr (GError) error = NULL;
  g_autofree char *msg = NULL;

  ck_assert_int_eq (_ds_erase_fail (&f->e, -EIO, 8192, &error), -EIO);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_IO));
  msg = g_strdup_printf ("%s: Input/output error", f->path);
  ck_assert_str_eq (error->message, msg);
  ck_assert_int_eq (f->run.error_errno, EIO);
  ck_assert_int_eq (f->run.error_offset_bytes, 8192);
  g_clear_error (&error);

  ck_assert_int_eq (_ds_erase_fail (&f->e, -ENOSPC, 0, &error), -ENOSPC);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NO_SPACE));
  ck_assert_int_eq (f->run.error_errno, ENOSPC);
  g_clear_error (&error);

  f->run.error_errno = 0;
  f->run.error_offset_bytes = -1;
  f->cancel = 1;
  ck_assert_int_eq (_ds_erase_fail (&f->e, -ECANCELED, 4096, &error), -ECANCELED);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CANCELLED));
  ck_assert_str_eq (error->message, "the run was stopped by the user");
  ck_assert_int_eq (f->run.error_errno, 0);
  ck_assert_int_eq (f->run.error_offset_bytes, -1);
}
END_TEST

/* ---- ds-erase-discard.c ----------------------------------------------- */

/* Runs the discard with a sample every @stride pieces; FALSE when it
 * failed, with @error. */
static int
discard (Fixture  *f,
         uint64_t  stride,
         GError  **error)
{
  void *buf = ds_buffer_alloc (BLOCK, 4096);
  int r;

  g_free (f->e.samples);
  f->e.sample_stride = stride;
  f->e.samples = stride > 0 ? g_new0 (uint64_t, f->e.n_pieces / stride + 1) : NULL;
  _ds_erase_phase_begin (&f->e, "discard", 0, 0.1);
  r = _ds_erase_discard (&f->e, buf, error);
  ds_buffer_free (buf);
  return r;
}

/* A punched hole: every byte reads zero, the size is kept; each piece's
 * sample was taken before, so a piece that reads back as it was
 * "survived", judged on its sample alone. */
START_TEST (test_discard_file)
{
  g_autoptr (Fixture) f = fixture_new (DS_ERASE_DISCARD, TRUE);
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *now = NULL;
  g_autofree guint8 *zeros = g_malloc0 (SIZE);
  g_autofree guint8 *edited = g_memdup2 (f->content, SIZE);
  const DsSample *last;
  uint64_t *s;

  ck_assert_uint_eq (f->e.n_pieces, 4);
  ck_assert_int_eq (discard (f, 1, &error), 0);
  ck_assert_ptr_null (error);
  now = file_now (f);
  ck_assert_int_eq (memcmp (now, zeros, SIZE), 0);
  ck_assert_uint_eq (f->e.data->bytes_done, SIZE);
  ck_assert_uint_eq (f->e.data->reached_bytes, SIZE);
  ck_assert_uint_gt (f->e.data->erase_ns, 0);
  last = &g_array_index (f->heard, DsSample, f->heard->len - 1);
  ck_assert (last->kind == DS_SAMPLE_PROGRESS && last->offset_bytes == SIZE && last->bytes == SIZE);
  ck_assert_double_eq_tol (last->progress, 0.1, 1e-12);
  s = f->e.samples;
  ck_assert (s[0] != 0 && s[1] != 0 && s[2] == 0 && s[3] != 0 && s[4] == 0);

  ck_assert (_ds_erase_survived (&f->e, f->content, 0));
  ck_assert (_ds_erase_survived (&f->e, f->content + BLOCK, BLOCK));
  ck_assert (_ds_erase_survived (&f->e, f->content + 40960, 40960));
  ck_assert (!_ds_erase_survived (&f->e, zeros, 0));
  /* Zeros before are no survivor: the piece reads as erased. */
  ck_assert (!_ds_erase_survived (&f->e, f->content + 2 * BLOCK, 2 * BLOCK));
  /* A byte of the sample changed: gone; one past it: not seen. */
  edited[BLOCK + 4095] ^= 1;
  ck_assert (!_ds_erase_survived (&f->e, edited + BLOCK, BLOCK));
  edited[BLOCK + 4095] ^= 1;
  edited[BLOCK + 4096] ^= 1;
  ck_assert (_ds_erase_survived (&f->e, edited + BLOCK, BLOCK));

  /* Every other piece sampled: the others never survive. */
  ck_assert_int_eq (pwrite (f->plain, f->content, SIZE, 0), SIZE);
  ck_assert_int_eq (fdatasync (f->plain), 0);
  ck_assert_int_eq (discard (f, 2, &error), 0);
  s = f->e.samples;
  ck_assert (s[0] != 0 && s[1] == 0 && s[2] == 0);
  ck_assert (_ds_erase_survived (&f->e, f->content, 0));
  ck_assert (!_ds_erase_survived (&f->e, f->content + BLOCK, BLOCK));
  ck_assert (!_ds_erase_survived (&f->e, f->content + 40960, 40960));

  /* No samples (--no-verify): nothing is known to survive. */
  ck_assert_int_eq (discard (f, 0, &error), 0);
  ck_assert (!_ds_erase_survived (&f->e, f->content, 0));
}
END_TEST

/* Refused before a byte is touched: a secure discard of a file, a block
 * target without discard, a stop; a discard the fd cannot do fails
 * where it was. */
START_TEST (test_discard_refused)
{
  static const struct { DsEraseMethod method; DsTargetKind kind; gboolean stop; const char *message; } cases[] = {
    { DS_ERASE_SECURE_DISCARD, DS_TARGET_FILE, FALSE,
      " is a regular file: a secure discard is a block device's command; use --discard "
      "(punches a hole) or an overwrite" },
    { DS_ERASE_DISCARD, DS_TARGET_BLOCK, FALSE,
      " does not support discard (its queue/discard_max_bytes is 0): nothing was written; "
      "use an overwrite (--zeros or --random)" },
    { DS_ERASE_DISCARD, DS_TARGET_FILE, TRUE, "the run was stopped by the user" },
  };
  const int codes[] = { DS_ERROR_UNSUPPORTED, DS_ERROR_UNSUPPORTED, DS_ERROR_CANCELLED };
  const int rcs[] = { -EOPNOTSUPP, -EOPNOTSUPP, -ECANCELED };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (Fixture) f = fixture_new (cases[i].method, FALSE);
      g_autoptr (GError) error = NULL;
      g_autofree char *msg = cases[i].stop ? g_strdup (cases[i].message)
                                            : g_strconcat (f->path, cases[i].message, NULL);
      g_autofree guint8 *now = NULL;

      f->target.kind = cases[i].kind;
      f->cancel = cases[i].stop;
      ck_assert_int_eq (discard (f, 1, &error), rcs[i]);
      ck_assert (g_error_matches (error, DS_ERROR, codes[i]));
      ck_assert_str_eq (error->message, msg);
      now = file_now (f);
      ck_assert_int_eq (memcmp (now, f->content, SIZE), 0);
      ck_assert (f->e.data->bytes_done == 0 && f->e.data->reached_bytes == 0);
      ck_assert_uint_eq (f->e.samples[0], 0);
    }

  /* Read-only: the samples are read, the hole is refused at byte 0. */
  {
    g_autoptr (Fixture) f = fixture_new (DS_ERASE_DISCARD, FALSE);
    g_autoptr (GError) error = NULL;
    g_autofree char *msg = g_strdup_printf ("%s: Bad file descriptor", f->path);
    g_autofree char *self = g_strdup_printf ("/proc/self/fd/%d", f->plain);
    g_autofree guint8 *now = NULL;

    close (f->e.fd);
    f->e.fd = open (self, O_RDONLY | O_CLOEXEC);
    ck_assert_int_ge (f->e.fd, 0);
    ck_assert_int_eq (discard (f, 1, &error), -EBADF);
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_FAILED));
    ck_assert_str_eq (error->message, msg);
    ck_assert_int_eq (f->run.error_errno, EBADF);
    ck_assert_int_eq (f->run.error_offset_bytes, 0);
    ck_assert (f->e.samples[0] != 0 && f->e.samples[3] != 0);
    now = file_now (f);
    ck_assert_int_eq (memcmp (now, f->content, SIZE), 0);
  }
  ck_assert (!ds_erase_discard_supported ("/dev/null"));
  ck_assert (!ds_erase_discard_supported ("/nonexistent/ds-kind-erase"));
  ck_assert (!ds_erase_discard_supported (g_get_tmp_dir ()));
}
END_TEST

static Suite *
kind_erase_io_suite (void)
{
  Suite *suite = suite_create ("kind-erase-io");
  TCase *tc = tcase_create ("kind-erase-io");

  tcase_add_test (tc, test_pieces);
  tcase_add_test (tc, test_media_errors);
  tcase_add_test (tc, test_write_read);
  tcase_add_test (tc, test_phases);
  tcase_add_test (tc, test_fail);
  tcase_add_test (tc, test_discard_file);
  tcase_add_test (tc, test_discard_refused);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  return ds_test_run_suite (kind_erase_io_suite ());
}
