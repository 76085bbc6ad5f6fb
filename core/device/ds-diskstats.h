/* ds-diskstats.h: one device's sector counts from /proc/diskstats, and
 * the I/O during a run that was not the run's own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* The kernel counts in 512-byte sectors whatever the device's block size. */
#define DS_DISKSTATS_SECTOR_BYTES 512

typedef struct {
  gboolean  valid;
  uint64_t  sectors_read;
  uint64_t  sectors_written;
} DsDiskstats;

/* Finds @name ("loop3", "sda1") in @text, the contents of /proc/diskstats;
 * FALSE (and @out->valid FALSE) when it is not there or a line is cut. */
gboolean ds_diskstats_parse (const char  *text,
                             const char  *name,
                             DsDiskstats *out);
/* Reads /proc/diskstats now. */
gboolean ds_diskstats_read  (const char  *name,
                             DsDiskstats *out);

/* The bytes the device moved between @start and @end beyond @ours_read
 * and @ours_written (what the run itself did), never negative; and in
 * *@ret_total what it moved in all.  0 when either snapshot is invalid. */
uint64_t ds_diskstats_other_bytes (const DsDiskstats *start,
                                   const DsDiskstats *end,
                                   uint64_t           ours_read,
                                   uint64_t           ours_written,
                                   uint64_t          *ret_total);

G_END_DECLS
