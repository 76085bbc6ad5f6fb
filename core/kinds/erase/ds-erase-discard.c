/* ds-erase-discard.c: the erase kind's discard, and what its verify means
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a discard promises, and what its verify checks.  BLKDISCARD tells
 * the device that the blocks are free; it is advisory.  The kernel promises
 * nothing about what they read afterwards (it dropped discard_zeroes_data
 * in Linux 4.12; only BLKZEROOUT / write-zeroes promises zeros, and that is
 * a write): a device may return zeros (zram, a loop device over a
 * filesystem that punches holes, NVMe whose deallocated blocks read as
 * zero, SATA with RZAT), a fixed pattern, or the old data, and it may
 * accept the command and do nothing at all (a loop device over a
 * filesystem that cannot punch holes returns success and keeps every
 * byte).  A punched hole in a regular file reads as zeros by POSIX, if the
 * filesystem really punched it.  So after a discard, "verified" means
 * every byte reads back as zero, and a discard is verified unless the user
 * says not to.  To tell "the device kept the data" from "it returns
 * something else", the first 4 KiB of each piece (DS_ERASE_SAMPLE_BYTES;
 * every k-th piece beyond DS_ERASE_MAX_SAMPLES pieces) are read and hashed
 * just before their part is discarded: a piece that does not read back as
 * zeros and whose sample reads back as before (and was not zeros) is
 * listed in "survived".  Both fail the run: only zeros show the data is
 * gone.  The sample costs one small read per piece; the verify reads every
 * byte (--no-verify skips both, and the result then says it does not
 * know).
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include "ds-clock.h"
#include "ds-error.h"
#include "ds-erase-private.h"

/* FNV-1a over the sample; 0 is kept for "all zeros". */
static uint64_t
sample_hash (const guint8 *p,
             uint64_t      len)
{
  uint64_t h = UINT64_C (0xcbf29ce484222325);
  gboolean zero = TRUE;

  for (uint64_t i = 0; i < len; i++)
    {
      zero = zero && p[i] == 0;
      h = (h ^ p[i]) * UINT64_C (0x100000001b3);
    }

  return zero ? 0 : h | 1;
}

static uint64_t
sample_len (const Erase *e,
            uint64_t     offset)
{
  return MIN (MAX (DS_ERASE_SAMPLE_BYTES, e->align), _ds_erase_piece_len (e, offset));
}

/* Hashes the sample of every sampled piece that starts in [@from, @to),
 * before that part is discarded. */
static int
take_samples (Erase    *e,
              void     *buf,
              uint64_t  from,
              uint64_t  to)
{
  uint64_t block = e->data->block_bytes;
  uint64_t off = MIN (ds_align_up (from, block), e->direct_end);

  /* The tail starts before @from: it was sampled with the part before. */
  if (off < from)
    return 0;
  for (; off < to && off < e->data->size_bytes; off += _ds_erase_piece_len (e, off))
    {
      uint64_t i = _ds_erase_piece_index (e, off);
      uint64_t len = sample_len (e, off);
      int r;

      if (i % e->sample_stride != 0)
        continue;
      r = _ds_erase_read_piece (e, buf, len, off);
      if (r < 0 && !_ds_erase_media_error (-r))
        return r;
      e->samples[i / e->sample_stride] = r < 0 ? 0 : sample_hash (buf, len);
    }

  return 0;
}

static int
discard_range (Erase    *e,
               gboolean  secure,
               uint64_t  offset,
               uint64_t  len)
{
  uint64_t range[2] = { offset, len };

  if (e->is_file)
    return fallocate (e->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                      (off_t) offset, (off_t) len) == 0 ? 0 : -errno;
  return ioctl (e->fd, secure ? BLKSECDISCARD : BLKDISCARD, range) == 0 ? 0 : -errno;
}

int
_ds_erase_discard (Erase   *e,
                   void    *buf,
                   GError **error)
{
  DsEraseData *data = e->data;
  DsTarget *target = e->run->target;
  gboolean secure = data->method == DS_ERASE_SECURE_DISCARD;

  if (target->kind == DS_TARGET_FILE && secure)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("%s is a regular file: a secure discard is a block device's "
                   "command; use --discard (punches a hole) or an overwrite"),
                   target->path);
      return -EOPNOTSUPP;
    }
  if (target->kind == DS_TARGET_BLOCK && !secure && !ds_erase_discard_supported (target->path))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("%s does not support discard (its queue/discard_max_bytes is 0): "
                   "nothing was written; use an overwrite (--zeros or --random)"),
                   target->path);
      return -EOPNOTSUPP;
    }

  for (uint64_t off = 0; off < data->size_bytes; off += DS_ERASE_DISCARD_PIECE)
    {
      uint64_t len = MIN (DS_ERASE_DISCARD_PIECE, data->size_bytes - off);
      int r = 0;

      if (ds_run_cancelled (e->run))
        return _ds_erase_fail (e, -ECANCELED, off, error);
      if (e->samples != NULL && (r = take_samples (e, buf, off, off + len)) < 0)
        return _ds_erase_fail (e, r, off, error);
      r = discard_range (e, secure, off, len);
      if (r == -EOPNOTSUPP && off == 0)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                       _("%s does not support %s: nothing was erased; use %s"),
                       target->path, secure ? "secure discard (BLKSECDISCARD)" :
                       "discard (hole punching)",
                       secure ? "--discard or an overwrite" : "an overwrite");
          return r;
        }
      if (r < 0)
        return _ds_erase_fail (e, r, off, error);
      data->bytes_done += len;
      data->reached_bytes = off + len;
      data->erase_ns = ds_clock_ns () - e->phase_start_ns;
      _ds_erase_phase_progress (e, off + len, data->bytes_done, FALSE);
    }
  _ds_erase_phase_progress (e, data->size_bytes, data->bytes_done, TRUE);

  return 0;
}

/* Whether the piece read into @buf still holds the old data (its sample,
 * not zeros before, reads back as it was). */
gboolean
_ds_erase_survived (const Erase *e,
                    const void  *buf,
                    uint64_t     offset)
{
  uint64_t i = _ds_erase_piece_index (e, offset);
  uint64_t before;

  if (e->samples == NULL || i % e->sample_stride != 0)
    return FALSE;
  before = e->samples[i / e->sample_stride];
  return before != 0 && sample_hash (buf, sample_len (e, offset)) == before;
}
