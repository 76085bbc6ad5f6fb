/* ds-bench-erase.h: a gated full overwrite or discard (kind "erase")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The whole target is overwritten with zeros or pseudo-random data
 * (O_DIRECT writes of the block size, then a flush of the drive's cache),
 * or handed to the kernel as a discard (BLKDISCARD / BLKSECDISCARD; a hole
 * punched in a regular file).  With verify every byte is read back and
 * compared: zeros, the same pseudo-random stream (regenerated from the
 * seed, nothing kept in memory), or, after a discard, zeros.
 *
 * The target is opened through the write gate (ds_target_open() with the
 * write flag and the spec's destroy_data confirmation): the same safety
 * model as every write test.
 *
 * A page drives it through ds_run(); the sink receives, on the worker
 * thread, DS_SAMPLE_PHASE "write", "discard" or "verify" as each starts,
 * and about ten times a second DS_SAMPLE_PROGRESS with offset_bytes = the
 * position, bytes = bytes done in the phase, elapsed_ns = time in the
 * phase, value = the phase's rate so far (bytes/s).  The time left is
 * elapsed_ns × (1 − progress) / progress (progress covers both phases).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-ranges.h"

G_BEGIN_DECLS

typedef struct {
  DsEraseMethod method;
  gboolean      verify;           /* asked for */
  uint64_t      size_bytes;       /* what was to be erased */
  uint64_t      block_bytes;
  uint64_t      seed;             /* random: the stream written */
  uint64_t      bytes_done;       /* written or discarded */
  uint64_t      erase_ns;
  uint64_t      bytes_verified;   /* read back and compared */
  uint64_t      verify_ns;
  gboolean      verified;         /* verify read everything and all matched */
  DsRangeList   write_errors;     /* blocks that could not be written */
  DsRangeList   mismatches;       /* blocks that read back otherwise */
} DsEraseData;

/* TRUE if @path (a block device) advertises discard (queue/discard_max_bytes
 * > 0).  Secure discard is not advertised in sysfs on current kernels:
 * only the BLKSECDISCARD ioctl itself tells (EOPNOTSUPP). */
gboolean ds_erase_discard_supported (const char *path);

G_END_DECLS
