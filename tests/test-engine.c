/* test-engine.c: the I/O engines (core/io/ds-engine*.c) on a regular file,
 * without root or a device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each engine (sync, io_uring, threads) runs on a file in the suite's
 * scratch folder under /var/tmp (a real filesystem that takes O_DIRECT;
 * the tmpfs of g_get_tmp_dir() may not), opened here with O_DIRECT, so only
 * the engines are under test: no target, no safety gate, no run loop.
 * Every 4 KiB block of the file starts with its own offset, so a buffer
 * says where it was read from.  Covers: bytes land where asked and nowhere
 * else; several I/Os queued together each come back once, with their own
 * result and times; a short read is a short count and a refused I/O its
 * -errno, after which the engine still works; io_uring at queue depth 32
 * keeps 32 in flight; and where io_uring is missing (ENOSYS, made here
 * with a seccomp filter) it says so and its init fails cleanly.
 * test-int-engine.c runs the same engines on a loop device (root).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-buffer.h"
#include "ds-clock.h"
#include "ds-engine.h"
#include "ds-test-util.h"

#define FILE_BYTES    (UINT64_C (4) << 20)
#define STAMP_BYTES   4096
#define ALIGN_BYTES   4096
#define WAIT_NS       (10 * DS_NS_PER_SEC)

static const DsEngineOps *const engines[] = {
  &ds_engine_sync,
  &ds_engine_uring,
  &ds_engine_threads,
};

static char *file_path;
static gboolean uring_ok;
static int uring_errno;

typedef struct {
  DsEngine  engine;
  DsIo     *ios;
} Fixture;

/* Every STAMP_BYTES block of @buf (@len bytes from @offset) starts with
 * its offset in the file; the rest is random. */
static void
stamp (uint8_t  *buf,
       uint64_t  offset,
       size_t    len,
       DsRng    *rng)
{
  ds_buffer_fill (buf, len, rng);
  for (size_t at = 0; at < len; at += STAMP_BYTES)
    {
      uint64_t where = offset + at;

      memcpy (buf + at, &where, sizeof where);
    }
}

static uint64_t
stamp_at (const uint8_t *buf)
{
  uint64_t where;

  memcpy (&where, buf, sizeof where);
  return where;
}

/* The file, stamped, written plainly (not through an engine). */
static void
make_file (const char *path)
{
  g_autofree uint8_t *data = g_malloc (FILE_BYTES);
  DsRng rng;
  int fd;

  ds_rng_seed (&rng, 20261207);
  stamp (data, 0, FILE_BYTES, &rng);
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  g_assert (fd >= 0);
  g_assert_cmpint (pwrite (fd, data, FILE_BYTES, 0), ==, (ssize_t) FILE_BYTES);
  g_assert_cmpint (fsync (fd), ==, 0);
  close (fd);
}

/* The whole of @path as it is now, read plainly. */
static uint8_t *
read_file (const char *path)
{
  uint8_t *data = g_malloc (FILE_BYTES);
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (pread (fd, data, FILE_BYTES, 0), (ssize_t) FILE_BYTES);
  close (fd);

  return data;
}

/* FALSE, with the reason in the output, when @ops cannot run here. */
static gboolean
engine_runs_here (const DsEngineOps *ops)
{
  if (ops != &ds_engine_uring || uring_ok)
    return TRUE;

  ds_test_note ("SKIP %s case: io_uring is not available here (%s)", ops->name,
                g_strerror (uring_errno));
  return FALSE;
}

/* @ops at @depth on @path (opened with @flags and O_DIRECT), one buffer
 * of @block_bytes per slot. */
static void
fixture_start_on (Fixture           *fx,
                  const char        *path,
                  const DsEngineOps *ops,
                  int                flags,
                  unsigned           depth,
                  size_t             block_bytes)
{
  memset (fx, 0, sizeof *fx);
  fx->engine.ops = ops;
  fx->engine.depth = depth;
  fx->engine.buffer_bytes = block_bytes;
  fx->engine.buffers = ds_buffer_alloc (depth * block_bytes, ALIGN_BYTES);
  ck_assert_ptr_nonnull (fx->engine.buffers);
  fx->engine.fd = open (path, flags | O_DIRECT | O_CLOEXEC);
  ck_assert_msg (fx->engine.fd >= 0, "open %s with O_DIRECT: %s (the scratch folder must "
                 "be on a filesystem that takes O_DIRECT)", path, g_strerror (errno));
  fx->ios = g_new0 (DsIo, depth);
  for (unsigned slot = 0; slot < depth; slot++)
    {
      fx->ios[slot].slot = slot;
      fx->ios[slot].buf = fx->engine.buffers + slot * block_bytes;
    }
  ck_assert_int_eq (ops->init (&fx->engine), 0);
  ck_assert_ptr_nonnull (fx->engine.priv);
}

/* The same on the stamped file. */
static void
fixture_start (Fixture           *fx,
               const DsEngineOps *ops,
               int                flags,
               unsigned           depth,
               size_t             block_bytes)
{
  fixture_start_on (fx, file_path, ops, flags, depth, block_bytes);
}

static void
fixture_stop (Fixture *fx)
{
  fx->engine.ops->cleanup (&fx->engine);
  ck_assert_ptr_null (fx->engine.priv);
  close (fx->engine.fd);
  ds_buffer_free (fx->engine.buffers);
  g_free (fx->ios);
}

/* Queues one I/O per slot, slot k at @offsets[k], all before one commit,
 * and reaps until each has come back exactly once, with its times. */
static void
run_batch (Fixture        *fx,
           const uint64_t *offsets,
           size_t          len_bytes,
           bool            write)
{
  DsEngine *e = &fx->engine;
  g_autofree DsIo **done = g_new0 (DsIo *, e->depth);
  g_autofree gboolean *seen = g_new0 (gboolean, e->depth);
  unsigned reaped = 0;

  for (unsigned slot = 0; slot < e->depth; slot++)
    {
      DsIo *io = &fx->ios[slot];

      io->offset_bytes = offsets[slot];
      io->len_bytes = (uint32_t) len_bytes;
      io->write = write;
      io->start_ns = io->end_ns = 0;
      io->result = -1;
      ck_assert_int_eq (e->ops->queue (e, io), 0);
    }
  ck_assert_int_eq (e->ops->commit (e), 0);

  while (reaped < e->depth)
    {
      int n = e->ops->getevents (e, 1, e->depth, WAIT_NS, done);

      ck_assert_msg (n > 0, "%s: getevents returned %d with %u of %u reaped", e->ops->name,
                     n, reaped, e->depth);
      for (int i = 0; i < n; i++)
        {
          const DsIo *io = done[i];

          ck_assert_uint_lt (io->slot, e->depth);
          ck_assert_ptr_eq (io, &fx->ios[io->slot]);
          ck_assert_msg (!seen[io->slot], "%s: slot %u came back twice", e->ops->name, io->slot);
          seen[io->slot] = TRUE;
          ck_assert_msg (io->result == (int64_t) io->len_bytes,
                         "%s: I/O at %" G_GUINT64_FORMAT ": result %" G_GINT64_FORMAT
                         ", expected %u", e->ops->name, io->offset_bytes, io->result,
                         io->len_bytes);
          /* Timed: stamped before the kernel had it, and after. */
          ck_assert_uint_gt (io->start_ns, 0);
          ck_assert_msg (io->end_ns > io->start_ns, "%s: took %" G_GUINT64_FORMAT " ns",
                         e->ops->name, io->end_ns - io->start_ns);
        }
      reaped += (unsigned) n;
    }
  ck_assert_uint_eq (reaped, e->depth);
  /* Nothing more to come. */
  ck_assert_int_eq (e->ops->getevents (e, 0, e->depth, 0, done), 0);
}

/* One I/O, reaped; its result. */
static int64_t
one_io (Fixture  *fx,
        uint64_t  offset_bytes,
        uint32_t  len_bytes,
        bool      write)
{
  DsEngine *e = &fx->engine;
  DsIo *io = &fx->ios[0];
  DsIo *done = NULL;

  io->offset_bytes = offset_bytes;
  io->len_bytes = len_bytes;
  io->write = write;
  io->result = 12345;
  ck_assert_int_eq (e->ops->queue (e, io), 0);
  ck_assert_int_eq (e->ops->commit (e), 0);
  ck_assert_int_eq (e->ops->getevents (e, 1, 1, WAIT_NS, &done), 1);
  ck_assert_ptr_eq (done, io);
  ck_assert_uint_le (io->start_ns, io->end_ns);

  return io->result;
}

/* Depth-many blocks read together, in no order the file has (slot k
 * reads a block from the far end): each buffer holds the block of its own
 * I/O's offset. */
START_TEST (test_read_where_asked)
{
  const DsEngineOps *ops = engines[_i];
  const size_t block_bytes = 16 << 10;
  const unsigned depth = 8;
  uint64_t offsets[8];
  Fixture fx;

  if (!engine_runs_here (ops))
    return;
  fixture_start (&fx, ops, O_RDONLY, depth, block_bytes);

  for (unsigned round = 0; round < 8; round++)
    {
      for (unsigned slot = 0; slot < depth; slot++)
        offsets[slot] = FILE_BYTES - (round * depth + slot + 1) * block_bytes;
      run_batch (&fx, offsets, block_bytes, false);
      for (unsigned slot = 0; slot < depth; slot++)
        for (size_t at = 0; at < block_bytes; at += STAMP_BYTES)
          ck_assert_msg (stamp_at (fx.ios[slot].buf + at) == offsets[slot] + at,
                         "%s: slot %u asked for %" G_GUINT64_FORMAT " and read the block of %"
                         G_GUINT64_FORMAT, ops->name, slot, offsets[slot] + at,
                         stamp_at (fx.ios[slot].buf + at));
    }

  fixture_stop (&fx);
}
END_TEST

/* Depth-many blocks written together at scattered places land there and
 * nowhere else: the whole file afterwards is the file before with exactly
 * those blocks replaced.  (A file of the case's own: the others read the
 * stamps.) */
START_TEST (test_write_lands_where_asked)
{
  const DsEngineOps *ops = engines[_i];
  const size_t block_bytes = 8 << 10;
  const unsigned depth = 8;
  g_autofree char *name = g_strdup_printf ("engine-write-%s.img", ops->name);
  g_autofree char *path = ds_test_scratch_path (name);
  g_autofree uint8_t *before = NULL;
  g_autofree uint8_t *after = NULL;
  uint64_t offsets[8];
  DsRng rng;
  Fixture fx;

  if (!engine_runs_here (ops))
    return;
  make_file (path);
  before = read_file (path);
  fixture_start_on (&fx, path, ops, O_RDWR, depth, block_bytes);

  ds_rng_seed (&rng, 100 + _i);
  for (unsigned slot = 0; slot < depth; slot++)
    {
      /* Slot k somewhere in stripe k (so none overlap), on the block. */
      uint64_t stripe = FILE_BYTES / depth;

      offsets[slot] = slot * stripe + ds_rng_below (&rng, stripe / block_bytes) * block_bytes;
      ds_buffer_fill (fx.ios[slot].buf, block_bytes, &rng);
      memcpy (before + offsets[slot], fx.ios[slot].buf, block_bytes);
    }
  run_batch (&fx, offsets, block_bytes, true);
  fixture_stop (&fx);

  after = read_file (path);
  for (uint64_t at = 0; at < FILE_BYTES; at += STAMP_BYTES)
    ck_assert_msg (memcmp (before + at, after + at, STAMP_BYTES) == 0,
                   "%s: the block at %" G_GUINT64_FORMAT " is not what was written there "
                   "(or was written and should not have been)", ops->name, at);
  unlink (path);
}
END_TEST

/* Past the end of a file a read returns 0 bytes, and one that runs past
 * it is short (the bytes up to the end): counts, not errors.  What the
 * kernel refuses comes back as -errno in the I/O's result (a write on a
 * read-only descriptor: -EBADF; a length off the logical block with
 * O_DIRECT: -EINVAL), and the engine goes on working. */
START_TEST (test_short_and_refused)
{
  const DsEngineOps *ops = engines[_i];
  Fixture fx;
  int64_t result;

  if (!engine_runs_here (ops))
    return;
  fixture_start (&fx, ops, O_RDONLY, 1, 2 * STAMP_BYTES);

  ck_assert_int_eq (one_io (&fx, FILE_BYTES, STAMP_BYTES, false), 0);
  ck_assert_int_eq (one_io (&fx, FILE_BYTES + (1 << 20), STAMP_BYTES, false), 0);
  result = one_io (&fx, FILE_BYTES - STAMP_BYTES, 2 * STAMP_BYTES, false);
  ck_assert_int_eq (result, STAMP_BYTES);
  ck_assert_uint_eq (stamp_at (fx.ios[0].buf), FILE_BYTES - STAMP_BYTES);

  result = one_io (&fx, 0, STAMP_BYTES, true);
  ck_assert_msg (result == -EBADF, "%s: a write on a read-only descriptor gave %" G_GINT64_FORMAT
                 ", not -EBADF", ops->name, result);
  result = one_io (&fx, 0, 100, false);
  ck_assert_msg (result == -EINVAL, "%s: a 100-byte O_DIRECT read gave %" G_GINT64_FORMAT
                 ", not -EINVAL", ops->name, result);

  /* Still working. */
  ck_assert_int_eq (one_io (&fx, 8 * STAMP_BYTES, STAMP_BYTES, false), STAMP_BYTES);
  ck_assert_uint_eq (stamp_at (fx.ios[0].buf), 8 * STAMP_BYTES);

  fixture_stop (&fx);
}
END_TEST

/* Nothing in flight: getevents waits out its timeout (the run loop's poll
 * for a Stop) and returns 0, neither early nor much later. */
START_TEST (test_getevents_idle)
{
  const DsEngineOps *ops = engines[_i];
  const uint64_t timeout_ns = 20 * DS_NS_PER_MSEC;
  DsIo *done[2];
  Fixture fx;
  uint64_t start_ns, elapsed_ns;

  if (!engine_runs_here (ops))
    return;
  fixture_start (&fx, ops, O_RDONLY, 2, STAMP_BYTES);

  start_ns = ds_clock_ns ();
  ck_assert_int_eq (ops->getevents (&fx.engine, 1, 2, timeout_ns, done), 0);
  elapsed_ns = ds_clock_ns () - start_ns;
  ck_assert_uint_ge (elapsed_ns, timeout_ns - DS_NS_PER_MSEC);
  ck_assert_msg (elapsed_ns < timeout_ns + 500 * DS_NS_PER_MSEC, "%s: waited %.1f ms for 20",
                 ops->name, elapsed_ns / 1e6);

  fixture_stop (&fx);
}
END_TEST

/* io_uring at queue depth 32: all 32 go to the kernel at once, each
 * completion is queued again at once, so 32 stay in flight until the last
 * round; every one of the 1024 I/Os comes back, each with its block. */
START_TEST (test_uring_depth_32)
{
  const unsigned depth = 32;
  const unsigned total = 1024;
  const uint64_t blocks = FILE_BYTES / STAMP_BYTES;
  DsIo *done[32];
  unsigned queued = 0, reaped = 0;
  DsRng rng;
  Fixture fx;

  if (!engine_runs_here (&ds_engine_uring))
    return;
  fixture_start (&fx, &ds_engine_uring, O_RDONLY, depth, STAMP_BYTES);

  ds_rng_seed (&rng, 32);
  for (unsigned slot = 0; slot < depth; slot++)
    {
      fx.ios[slot].offset_bytes = ds_rng_below (&rng, blocks) * STAMP_BYTES;
      fx.ios[slot].len_bytes = STAMP_BYTES;
      ck_assert_int_eq (ds_engine_uring.queue (&fx.engine, &fx.ios[slot]), 0);
      queued++;
    }
  /* The queue is full: one more is refused, not lost. */
  {
    DsIo extra = { .len_bytes = STAMP_BYTES, .buf = fx.ios[0].buf, .slot = depth };

    ck_assert_int_eq (ds_engine_uring.queue (&fx.engine, &extra), -EBUSY);
  }
  ck_assert_int_eq (ds_engine_uring.commit (&fx.engine), 0);

  while (reaped < queued)
    {
      int n = ds_engine_uring.getevents (&fx.engine, 1, depth, WAIT_NS, done);

      ck_assert_int_gt (n, 0);
      ck_assert_int_le (n, (int) (queued - reaped));
      reaped += (unsigned) n;
      for (int i = 0; i < n; i++)
        {
          ck_assert_int_eq (done[i]->result, STAMP_BYTES);
          ck_assert_uint_eq (stamp_at (done[i]->buf), done[i]->offset_bytes);
          ck_assert (done[i]->end_ns > done[i]->start_ns);
          if (queued < total)
            {
              done[i]->offset_bytes = ds_rng_below (&rng, blocks) * STAMP_BYTES;
              ck_assert_int_eq (ds_engine_uring.queue (&fx.engine, done[i]), 0);
              queued++;
            }
        }
      ck_assert_int_eq (ds_engine_uring.commit (&fx.engine), 0);
      if (queued < total)
        ck_assert_uint_eq (queued - reaped, depth);
    }

  ck_assert_uint_eq (queued, total);
  ck_assert_uint_eq (reaped, total);
  fixture_stop (&fx);
}
END_TEST

/* init refuses what it cannot do (no descriptor: -EBADF; io_uring beyond
 * its depth: -EINVAL), and cleanup after a failed init, or twice, is
 * harmless. */
START_TEST (test_failed_init)
{
  const DsEngineOps *ops = engines[_i];
  DsEngine engine = { .ops = ops, .fd = -1, .depth = 1, .buffer_bytes = STAMP_BYTES };

  engine.buffers = ds_buffer_alloc (STAMP_BYTES, ALIGN_BYTES);
  ck_assert_int_eq (ops->init (&engine), -EBADF);
  ck_assert_ptr_null (engine.priv);
  ops->cleanup (&engine);
  ops->cleanup (&engine);
  ck_assert_ptr_null (engine.priv);

  if (ops == &ds_engine_uring)
    {
      engine.fd = open (file_path, O_RDONLY | O_CLOEXEC);
      ck_assert_int_ge (engine.fd, 0);
      engine.depth = ops->max_depth + 1;
      ck_assert_int_eq (ops->init (&engine), -EINVAL);
      engine.depth = 0;
      ck_assert_int_eq (ops->init (&engine), -EINVAL);
      ops->cleanup (&engine);
      ck_assert_ptr_null (engine.priv);
      close (engine.fd);
    }
  ds_buffer_free (engine.buffers);
}
END_TEST

/* Where the kernel has no io_uring (ENOSYS: built without it, or a
 * seccomp policy, as here), ds_engine_uring_available() says so with the
 * errno, and the engine's init returns it, leaving nothing to clean up
 * (the run loop then takes the threads engine: test-io-loop.c). */
START_TEST (test_uring_missing)
{
  Fixture fx = { 0 };
  int why = 0;

  if (!ds_test_deny_io_uring ())
    {
      ds_test_note ("SKIP io_uring cannot be taken away here: %s", g_strerror (errno));
      return;
    }

  ck_assert (!ds_engine_uring_available (&why));
  ck_assert_int_eq (why, ENOSYS);
  ck_assert (!ds_engine_uring_available (NULL));

  fx.engine.ops = &ds_engine_uring;
  fx.engine.depth = 4;
  fx.engine.buffer_bytes = STAMP_BYTES;
  fx.engine.buffers = ds_buffer_alloc (4 * STAMP_BYTES, ALIGN_BYTES);
  fx.engine.fd = open (file_path, O_RDONLY | O_DIRECT | O_CLOEXEC);
  ck_assert_int_ge (fx.engine.fd, 0);
  ck_assert_int_eq (ds_engine_uring.init (&fx.engine), -ENOSYS);
  ck_assert_ptr_null (fx.engine.priv);
  ds_engine_uring.cleanup (&fx.engine);

  /* The engines that need no io_uring still run. */
  close (fx.engine.fd);
  ds_buffer_free (fx.engine.buffers);
  fixture_start (&fx, &ds_engine_sync, O_RDONLY, 1, STAMP_BYTES);
  ck_assert_int_eq (one_io (&fx, 4 * STAMP_BYTES, STAMP_BYTES, false), STAMP_BYTES);
  ck_assert_uint_eq (stamp_at (fx.ios[0].buf), 4 * STAMP_BYTES);
  fixture_stop (&fx);
}
END_TEST

START_TEST (test_lookup)
{
  ck_assert_ptr_eq (ds_engine_lookup ("sync"), &ds_engine_sync);
  ck_assert_ptr_eq (ds_engine_lookup ("io_uring"), &ds_engine_uring);
  ck_assert_ptr_eq (ds_engine_lookup ("threads"), &ds_engine_threads);
  /* "auto" is the run's to resolve, not an engine. */
  ck_assert_ptr_null (ds_engine_lookup ("auto"));
  ck_assert_ptr_null (ds_engine_lookup ("uring"));
  ck_assert_ptr_null (ds_engine_lookup (NULL));
  ck_assert_uint_eq (ds_engine_sync.max_depth, 1);
  ck_assert (!ds_engine_sync.fan_out);
  ck_assert_uint_eq (ds_engine_threads.max_depth, 1);
  ck_assert (ds_engine_threads.fan_out);
  ck_assert_uint_eq (ds_engine_uring.max_depth, 4096);
  ck_assert (!ds_engine_uring.fan_out);
}
END_TEST

int
main (void)
{
  Suite *suite = suite_create ("engine");
  TCase *tc = tcase_create ("engines");

  ds_test_init ("engine");
  file_path = ds_test_scratch_path ("engine.img");
  make_file (file_path);
  uring_ok = ds_engine_uring_available (&uring_errno);
  if (!uring_ok)
    ds_test_note ("io_uring is not available here (%s): its cases skip", g_strerror (uring_errno));

  /* Each case waits for the disk under /var/tmp: seconds when it is busy. */
  tcase_set_timeout (tc, 30);
  tcase_add_test (tc, test_lookup);
  tcase_add_loop_test (tc, test_read_where_asked, 0, G_N_ELEMENTS (engines));
  tcase_add_loop_test (tc, test_write_lands_where_asked, 0, G_N_ELEMENTS (engines));
  tcase_add_loop_test (tc, test_short_and_refused, 0, G_N_ELEMENTS (engines));
  tcase_add_loop_test (tc, test_getevents_idle, 0, G_N_ELEMENTS (engines));
  tcase_add_loop_test (tc, test_failed_init, 0, G_N_ELEMENTS (engines));
  tcase_add_test (tc, test_uring_depth_32);
  tcase_add_test (tc, test_uring_missing);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
