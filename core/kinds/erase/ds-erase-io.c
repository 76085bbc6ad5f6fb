/* ds-erase-io.c: the erase kind's pieces, reads and writes, progress
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every byte means every byte.  The target is cut into pieces: whole
 * blocks (the last one shorter) over [0, direct_end), the part O_DIRECT can
 * address (the whole target, unless it is a regular file whose size is not
 * a multiple of its O_DIRECT alignment), then the tail [direct_end, size),
 * less than one alignment unit, written through the page cache on the same
 * fd (O_DIRECT cleared for that write) and fdatasync'ed, and read back
 * with O_DIRECT in one aligned read that the kernel ends at the end of the
 * file (so from the disk, not from the page cache it was written through).
 * Write and verify cut the same way, so the random stream of each piece is
 * regenerated from (seed, offset) alone.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "ds-clock.h"
#include "ds-error.h"
#include "ds-erase-private.h"

gboolean
_ds_erase_media_error (int e)
{
  return ds_error_from_errno (e) == DS_ERROR_IO || e == EREMOTEIO || e == ETIMEDOUT;
}

/* Reads or writes @len bytes.  A read with @eof_ok may end early at the
 * end of the file: *@ret_done says how far it got. */
static int
io_full (int        fd,
         gboolean   write,
         void      *buf,
         uint64_t   len,
         uint64_t   offset,
         gboolean   eof_ok,
         uint64_t  *ret_done)
{
  uint64_t done = 0;

  while (done < len)
    {
      ssize_t n = write ? pwrite (fd, (char *) buf + done, len - done, (off_t) (offset + done))
                        : pread (fd, (char *) buf + done, len - done, (off_t) (offset + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -errno;
      if (n == 0 && eof_ok)
        break;
      if (n == 0)
        return write ? -ENOSPC : -EIO;
      done += (uint64_t) n;
    }
  if (ret_done != NULL)
    *ret_done = done;

  return 0;
}

/* The piece that starts at @offset: a block, or the tail. */
uint64_t
_ds_erase_piece_len (const Erase *e,
                     uint64_t     offset)
{
  if (offset < e->direct_end)
    return MIN (e->data->block_bytes, e->direct_end - offset);
  return e->data->size_bytes - offset;
}

uint64_t
_ds_erase_piece_index (const Erase *e,
                       uint64_t     offset)
{
  if (offset < e->direct_end)
    return offset / e->data->block_bytes;
  return (e->direct_end + e->data->block_bytes - 1) / e->data->block_bytes;
}

/* The tail through the page cache: O_DIRECT off for this one call. */
static int
buffered_io (Erase    *e,
             gboolean  write,
             void     *buf,
             uint64_t  len,
             uint64_t  offset)
{
  int flags = fcntl (e->fd, F_GETFL);
  int r;

  if (flags < 0)
    return -errno;
  if ((flags & O_DIRECT) && fcntl (e->fd, F_SETFL, flags & ~O_DIRECT) != 0)
    return -errno;
  /* A read comes from the disk, not from the page cache. */
  if (!write)
    posix_fadvise (e->fd, 0, 0, POSIX_FADV_DONTNEED);
  r = io_full (e->fd, write, buf, len, offset, FALSE, NULL);
  /* On the disk before the verify reads it, and out of the page cache. */
  if (r == 0 && write && fdatasync (e->fd) != 0)
    r = -errno;
  if (r == 0 && write)
    posix_fadvise (e->fd, 0, 0, POSIX_FADV_DONTNEED);
  if ((flags & O_DIRECT) && fcntl (e->fd, F_SETFL, flags) != 0 && r == 0)
    r = -errno;

  return r;
}

int
_ds_erase_write_piece (Erase    *e,
                       void     *buf,
                       uint64_t  len,
                       uint64_t  offset)
{
  if (offset < e->direct_end)
    return io_full (e->fd, TRUE, buf, len, offset, FALSE, NULL);
  return buffered_io (e, TRUE, buf, len, offset);
}

/* @len bytes at @offset into @buf (as long as one block).  The tail is read
 * with O_DIRECT as one whole aligned unit, which the kernel ends at the end
 * of the file; a filesystem that refuses that read reads it buffered, from
 * the disk since buffered_io() dropped the page cache. */
int
_ds_erase_read_piece (Erase    *e,
                      void     *buf,
                      uint64_t  len,
                      uint64_t  offset)
{
  uint64_t got = 0;
  int r;

  if (offset < e->direct_end && ds_is_aligned (len, e->align))
    return io_full (e->fd, FALSE, buf, len, offset, FALSE, NULL);
  r = io_full (e->fd, FALSE, buf, ds_align_up (len, e->align), offset, TRUE, &got);
  if (r == -EINVAL)
    return buffered_io (e, FALSE, buf, len, offset);
  if (r == 0 && got < len)
    r = -EIO;  /* the file is shorter than it was */

  return r;
}

void
_ds_erase_phase_begin (Erase      *e,
                       const char *name,
                       double      base,
                       double      share)
{
  DsSample sample = { .kind = DS_SAMPLE_PHASE, .name = name, .write = strcmp (name, "verify") != 0 };

  e->phase_start_ns = ds_clock_ns ();
  e->last_emit_ns = 0;
  e->progress_base = base;
  e->progress_share = share;
  ds_run_set_progress (e->run, base);
  ds_run_emit (e->run, &sample);
}

void
_ds_erase_phase_progress (Erase    *e,
                          uint64_t  position,
                          uint64_t  bytes,
                          gboolean  force)
{
  uint64_t now = ds_clock_ns ();
  uint64_t elapsed = now - e->phase_start_ns;
  DsSample sample = {
    .kind = DS_SAMPLE_PROGRESS,
    .offset_bytes = position,
    .bytes = bytes,
    .elapsed_ns = elapsed,
    .value = elapsed ? (double) bytes * 1e9 / (double) elapsed : 0,
  };

  ds_run_set_progress (e->run, e->progress_base + e->progress_share *
                       (double) position / (double) MAX (e->data->size_bytes, 1));
  if (!force && now - e->last_emit_ns < DS_ERASE_PROGRESS_EVERY_NS)
    return;
  e->last_emit_ns = now;
  ds_run_emit (e->run, &sample);
}

/* Sets @error for a failure that ends the run and returns @r. */
int
_ds_erase_fail (Erase     *e,
                int        r,
                uint64_t   offset,
                GError   **error)
{
  if (r == -ECANCELED)
    return ds_run_check_cancelled (e->run, error);
  ds_set_error_from_errno (error, r, e->run->target->path);
  e->run->error_errno = -r;
  e->run->error_offset_bytes = (int64_t) offset;
  return r;
}

/* What was written is on the disk, also when the run stops: the report
 * then says exactly which bytes were overwritten. */
int
_ds_erase_flush (Erase *e)
{
  if (fsync (e->fd) != 0)
    return -errno;
  if (e->is_file)
    posix_fadvise (e->fd, 0, 0, POSIX_FADV_DONTNEED);
  return 0;
}
