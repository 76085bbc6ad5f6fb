/* test-int-engine.c: the engines against a real loop device (root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The device is opened here with O_DIRECT (not through ds-target), so only
 * the engines are under test.  Every engine runs every case where it makes
 * sense; io_uring cases are skipped with a note when the kernel refuses it.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ds-buffer.h"
#include "ds-clock.h"
#include "ds-engine.h"
#include "ds-test-util.h"

#define DEVICE_BYTES  (UINT64_C (64) << 20)
#define ALIGN_BYTES   4096
#define TIMEOUT_NS    (50 * DS_NS_PER_MSEC)

static char *device_path;
static char *backing_path;
static gboolean uring_ok;
static int uring_errno;

static const DsEngineOps *const engines[] = {
  &ds_engine_sync,
  &ds_engine_uring,
  &ds_engine_threads,
};

typedef struct {
  DsEngine  engine;
  DsIo     *ios;
} Fixture;

/* Opens the device and starts @ops at @depth with @block_bytes buffers.
 * FALSE (after a note) when the engine cannot run here at all. */
static gboolean
fixture_start (Fixture           *fx,
               const DsEngineOps *ops,
               unsigned           depth,
               size_t             block_bytes)
{
  memset (fx, 0, sizeof *fx);

  if (ops == &ds_engine_uring && !uring_ok)
    {
      ds_test_note ("SKIP %s case: io_uring is not available here (%s)", ops->name,
                    g_strerror (uring_errno));
      return FALSE;
    }

  fx->engine.ops = ops;
  fx->engine.depth = depth;
  fx->engine.buffer_bytes = block_bytes;
  fx->engine.buffers = ds_buffer_alloc (depth * block_bytes, ALIGN_BYTES);
  ck_assert_ptr_nonnull (fx->engine.buffers);
  fx->engine.fd = open (device_path, O_RDWR | O_DIRECT | O_CLOEXEC);
  ck_assert_msg (fx->engine.fd >= 0, "open %s: %s", device_path, g_strerror (errno));
  fx->ios = g_new0 (DsIo, depth);
  for (unsigned slot = 0; slot < depth; slot++)
    {
      fx->ios[slot].slot = slot;
      fx->ios[slot].buf = fx->engine.buffers + slot * block_bytes;
    }
  ck_assert_int_eq (ops->init (&fx->engine), 0);

  return TRUE;
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

static void
check_done (const DsIo *io)
{
  ck_assert_msg (io->result == (int64_t) io->len_bytes,
                 "I/O at %" G_GUINT64_FORMAT ": result %" G_GINT64_FORMAT ", expected %u",
                 io->offset_bytes, io->result, io->len_bytes);
  ck_assert_uint_gt (io->start_ns, 0);
  ck_assert_uint_le (io->start_ns, io->end_ns);
}

/* Runs one I/O per slot at @offsets (n = depth), all in flight together,
 * and checks every one comes back exactly once. */
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
      int n = e->ops->getevents (e, 1, e->depth, 10 * DS_NS_PER_SEC, done);

      ck_assert_int_gt (n, 0);
      for (int i = 0; i < n; i++)
        {
          unsigned slot = done[i]->slot;

          ck_assert_ptr_eq (done[i], &fx->ios[slot]);
          ck_assert (!seen[slot]);
          seen[slot] = TRUE;
          check_done (done[i]);
        }
      reaped += (unsigned) n;
    }
  ck_assert_uint_eq (reaped, e->depth);
}

static void
read_backing (uint64_t  offset_bytes,
              size_t    len_bytes,
              uint8_t  *ret_buf)
{
  int fd = open (backing_path, O_RDONLY | O_DIRECT | O_CLOEXEC);

  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (pread (fd, ret_buf, len_bytes, (off_t) offset_bytes), (ssize_t) len_bytes);
  close (fd);
}

static unsigned
depth_for (const DsEngineOps *ops)
{
  return ops == &ds_engine_uring ? 8 : 1;
}

/* A known region read through the engine equals the backing file. */
START_TEST (test_read_matches_file)
{
  const DsEngineOps *ops = engines[_i];
  const size_t block_bytes = 64 << 10;
  const uint64_t region = 8 << 20;
  uint8_t *expect = ds_buffer_alloc (block_bytes, ALIGN_BYTES);
  Fixture fx;

  if (!fixture_start (&fx, ops, depth_for (ops), block_bytes))
    return;

  /* 2 MiB from 8 MiB on, depth blocks at a time. */
  for (uint64_t base = region; base < region + (2 << 20); base += fx.engine.depth * block_bytes)
    {
      g_autofree uint64_t *offsets = g_new (uint64_t, fx.engine.depth);

      for (unsigned slot = 0; slot < fx.engine.depth; slot++)
        offsets[slot] = base + slot * block_bytes;
      run_batch (&fx, offsets, block_bytes, false);
      for (unsigned slot = 0; slot < fx.engine.depth; slot++)
        {
          read_backing (offsets[slot], block_bytes, expect);
          ck_assert_msg (memcmp (fx.ios[slot].buf, expect, block_bytes) == 0,
                         "%s: data at %" G_GUINT64_FORMAT " differs from the file",
                         ops->name, offsets[slot]);
        }
    }

  ds_buffer_free (expect);
  fixture_stop (&fx);
}
END_TEST

/* Random data written at random (distinct) 4K-aligned places reads back
 * the same, through the engine and from the backing file. */
START_TEST (test_write_read_back)
{
  const DsEngineOps *ops = engines[_i];
  const size_t block_bytes = 16 << 10;
  uint8_t *expect = ds_buffer_alloc (block_bytes, ALIGN_BYTES);
  g_autofree uint8_t *written = NULL;
  g_autofree uint64_t *offsets = NULL;
  DsRng rng;
  Fixture fx;
  unsigned depth = depth_for (ops);

  if (!fixture_start (&fx, ops, depth, block_bytes))
    return;

  ds_rng_seed (&rng, 42 + _i);
  written = g_malloc (depth * block_bytes);
  offsets = g_new (uint64_t, depth);

  for (unsigned round = 0; round < 4; round++)
    {
      /* Distinct 16K-aligned places across the device (slot k in stripe
       * k, so they never overlap). */
      uint64_t stripe = DEVICE_BYTES / depth;

      for (unsigned slot = 0; slot < depth; slot++)
        {
          offsets[slot] = slot * stripe + ds_rng_below (&rng, stripe / block_bytes) * block_bytes;
          ds_buffer_fill (fx.ios[slot].buf, block_bytes, &rng);
          memcpy (written + slot * block_bytes, fx.ios[slot].buf, block_bytes);
        }
      run_batch (&fx, offsets, block_bytes, true);

      for (unsigned slot = 0; slot < depth; slot++)
        memset (fx.ios[slot].buf, 0, block_bytes);
      run_batch (&fx, offsets, block_bytes, false);

      for (unsigned slot = 0; slot < depth; slot++)
        {
          ck_assert_msg (memcmp (fx.ios[slot].buf, written + slot * block_bytes, block_bytes) == 0,
                         "%s: read back at %" G_GUINT64_FORMAT " differs", ops->name, offsets[slot]);
          read_backing (offsets[slot], block_bytes, expect);
          ck_assert_msg (memcmp (expect, written + slot * block_bytes, block_bytes) == 0,
                         "%s: backing file at %" G_GUINT64_FORMAT " differs", ops->name, offsets[slot]);
        }
    }

  ds_buffer_free (expect);
  fixture_stop (&fx);
}
END_TEST

static int64_t
one_io (Fixture  *fx,
        uint64_t  offset_bytes,
        bool      write,
        uint32_t  len_bytes)
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
  ck_assert_int_eq (e->ops->getevents (e, 1, 1, 10 * DS_NS_PER_SEC, &done), 1);
  ck_assert_ptr_eq (done, io);
  ck_assert_uint_le (io->start_ns, io->end_ns);

  return io->result;
}

/* Past the end of a block device the kernel (blkdev_read_iter /
 * blkdev_write_iter) answers a read with 0 bytes (end of file, not
 * -EINVAL) and a write with -ENOSPC; a read that starts inside and runs past
 * the end is short (the bytes up to the end).
 * Every engine must pass these through as results, not fail or crash. */
START_TEST (test_past_end)
{
  const DsEngineOps *ops = engines[_i];
  Fixture fx;
  int64_t result;

  if (!fixture_start (&fx, ops, depth_for (ops), 4096))
    return;

  result = one_io (&fx, DEVICE_BYTES, false, 4096);
  fprintf (stderr, "# %s: read at the end -> %" G_GINT64_FORMAT "\n", ops->name, result);
  ck_assert_int_eq (result, 0);

  result = one_io (&fx, DEVICE_BYTES + (1 << 20), false, 4096);
  fprintf (stderr, "# %s: read 1 MiB past the end -> %" G_GINT64_FORMAT "\n", ops->name, result);
  ck_assert_int_eq (result, 0);

  result = one_io (&fx, DEVICE_BYTES - 2048, false, 4096);
  fprintf (stderr, "# %s: 4K read 2K before the end -> %" G_GINT64_FORMAT "\n", ops->name, result);
  ck_assert_int_eq (result, 2048);

  result = one_io (&fx, DEVICE_BYTES, true, 4096);
  fprintf (stderr, "# %s: write at the end -> %" G_GINT64_FORMAT "\n", ops->name, result);
  ck_assert_int_eq (result, -ENOSPC);

  /* The engine still works afterwards. */
  ck_assert_int_eq (one_io (&fx, 0, false, 4096), 4096);

  fixture_stop (&fx);
}
END_TEST

/* Nothing in flight: getevents waits out its timeout (so a run loop can
 * poll for cancellation) and returns 0, neither early nor much later. */
START_TEST (test_getevents_idle)
{
  const DsEngineOps *ops = engines[_i];
  DsIo *done[8];
  Fixture fx;
  uint64_t start_ns, elapsed_ns;

  if (!fixture_start (&fx, ops, depth_for (ops), 4096))
    return;

  start_ns = ds_clock_ns ();
  ck_assert_int_eq (fx.engine.ops->getevents (&fx.engine, 1, fx.engine.depth, TIMEOUT_NS, done), 0);
  elapsed_ns = ds_clock_ns () - start_ns;
  fprintf (stderr, "# %s: idle getevents took %.1f ms\n", ops->name, elapsed_ns / 1e6);
  ck_assert_uint_ge (elapsed_ns, TIMEOUT_NS - DS_NS_PER_MSEC);
  ck_assert_uint_lt (elapsed_ns, TIMEOUT_NS + 200 * DS_NS_PER_MSEC);

  /* And after a completed I/O has been taken, again. */
  ck_assert_int_eq (one_io (&fx, 4096, false, 4096), 4096);
  ck_assert_int_eq (fx.engine.ops->getevents (&fx.engine, 1, fx.engine.depth, TIMEOUT_NS, done), 0);

  fixture_stop (&fx);
}
END_TEST

/* io_uring at QD32: all 32 are taken by the kernel at once, and as each
 * completion is re-queued, 32 stay in flight; what getevents returns sums
 * exactly to what was queued. */
START_TEST (test_uring_depth_32)
{
  const unsigned depth = 32;
  const unsigned total = 4096;
  DsIo *done[32];
  Fixture fx;
  DsRng rng;
  unsigned queued = 0, reaped = 0, max_in_flight = 0;

  if (!fixture_start (&fx, &ds_engine_uring, depth, 4096))
    return;

  ds_rng_seed (&rng, 7);
  for (unsigned slot = 0; slot < depth; slot++)
    {
      fx.ios[slot].offset_bytes = ds_rng_below (&rng, DEVICE_BYTES / 4096) * 4096;
      fx.ios[slot].len_bytes = 4096;
      ck_assert_int_eq (fx.engine.ops->queue (&fx.engine, &fx.ios[slot]), 0);
      queued++;
    }
  ck_assert_int_eq (fx.engine.ops->commit (&fx.engine), 0);
  max_in_flight = queued - reaped;

  while (reaped < queued)
    {
      int n = fx.engine.ops->getevents (&fx.engine, 1, depth, 10 * DS_NS_PER_SEC, done);

      ck_assert_int_gt (n, 0);
      ck_assert_int_le (n, (int) (queued - reaped));
      reaped += (unsigned) n;
      for (int i = 0; i < n; i++)
        {
          check_done (done[i]);
          if (queued < total)
            {
              done[i]->offset_bytes = ds_rng_below (&rng, DEVICE_BYTES / 4096) * 4096;
              ck_assert_int_eq (fx.engine.ops->queue (&fx.engine, done[i]), 0);
              queued++;
            }
        }
      ck_assert_int_eq (fx.engine.ops->commit (&fx.engine), 0);
      max_in_flight = MAX (max_in_flight, queued - reaped);
      /* Everything not yet reaped was re-queued: the queue stays full
       * until the last round. */
      if (queued < total)
        ck_assert_uint_eq (queued - reaped, depth);
    }

  ck_assert_uint_eq (queued, total);
  ck_assert_uint_eq (reaped, total);
  ck_assert_uint_eq (max_in_flight, depth);
  fixture_stop (&fx);
}
END_TEST

/* init refuses what it cannot do, and cleanup after a failed init (or
 * twice) is harmless. */
START_TEST (test_failed_init)
{
  const DsEngineOps *ops = engines[_i];
  DsEngine engine = { .ops = ops, .fd = -1, .depth = 1, .buffer_bytes = 4096 };

  engine.buffers = ds_buffer_alloc (4096, ALIGN_BYTES);
  ck_assert_int_lt (ops->init (&engine), 0);
  ops->cleanup (&engine);
  ops->cleanup (&engine);
  ck_assert_ptr_null (engine.priv);

  if (ops == &ds_engine_uring)
    {
      engine.fd = open (device_path, O_RDONLY | O_DIRECT | O_CLOEXEC);
      engine.depth = ops->max_depth + 1;
      ck_assert_int_eq (ops->init (&engine), -EINVAL);
      ops->cleanup (&engine);
      ck_assert_ptr_null (engine.priv);
      close (engine.fd);
    }
  ds_buffer_free (engine.buffers);
}
END_TEST

START_TEST (test_lookup_and_contract)
{
  ck_assert_ptr_eq (ds_engine_lookup ("sync"), &ds_engine_sync);
  ck_assert_ptr_eq (ds_engine_lookup ("io_uring"), &ds_engine_uring);
  ck_assert_ptr_eq (ds_engine_lookup ("threads"), &ds_engine_threads);
  ck_assert_uint_eq (ds_engine_sync.max_depth, 1);
  ck_assert (!ds_engine_sync.fan_out);
  ck_assert_uint_eq (ds_engine_threads.max_depth, 1);
  ck_assert (ds_engine_threads.fan_out);
  ck_assert_uint_eq (ds_engine_uring.max_depth, 4096);
  ck_assert (!ds_engine_uring.fan_out);
  /* threads is sync, per thread: the very same functions. */
  ck_assert_ptr_eq (ds_engine_threads.queue, ds_engine_sync.queue);
  ck_assert_ptr_eq (ds_engine_threads.getevents, ds_engine_sync.getevents);
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;
  int failed;
  g_autofree char *name = NULL;
  uint64_t size = 0;
  int fd;

  ds_test_init ("int-engine");
  ds_test_require_root ("attaches loop devices");

  name = g_strdup_printf ("engine-%d.img", (int) getpid ());
  backing_path = ds_test_make_file (name, DEVICE_BYTES, 20240501);
  device_path = ds_test_loop_attach (backing_path, FALSE);
  fd = open (device_path, O_RDONLY | O_CLOEXEC);
  g_assert (fd >= 0);
  g_assert (ioctl (fd, BLKGETSIZE64, &size) == 0);
  g_assert (size == DEVICE_BYTES);
  close (fd);
  uring_ok = ds_engine_uring_available (&uring_errno);

  suite = suite_create ("int-engine");
  tc = tcase_create ("engines");
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_lookup_and_contract);
  tcase_add_loop_test (tc, test_read_matches_file, 0, G_N_ELEMENTS (engines));
  tcase_add_loop_test (tc, test_write_read_back, 0, G_N_ELEMENTS (engines));
  tcase_add_loop_test (tc, test_past_end, 0, G_N_ELEMENTS (engines));
  tcase_add_loop_test (tc, test_getevents_idle, 0, G_N_ELEMENTS (engines));
  tcase_add_loop_test (tc, test_failed_init, 0, G_N_ELEMENTS (engines));
  tcase_add_test (tc, test_uring_depth_32);
  suite_add_tcase (suite, tc);

  failed = ds_test_run_suite (suite);

  ds_test_loop_detach (device_path);
  g_free (device_path);
  g_free (backing_path);

  return failed == 0 ? 0 : 1;
}
