/* ds-target.h: a block device or regular file opened for a run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum {
  DS_TARGET_BLOCK,
  DS_TARGET_FILE,
} DsTargetKind;

typedef struct {
  char         *path;
  int           fd;
  DsTargetKind  kind;
  gboolean      writable;            /* opened for writing */
  gboolean      direct;              /* O_DIRECT in effect */
  uint64_t      size_bytes;
  uint32_t      logical_block_size;  /* I/O offset and length alignment */
  uint32_t      physical_block_size;
  uint32_t      mem_align;           /* buffer alignment (>= 512 or DIOALIGN) */
  gboolean      rotational;
  char         *model;               /* NULL where unknown */
} DsTarget;

typedef enum {
  DS_TARGET_OPEN_READ     = 0,
  DS_TARGET_OPEN_WRITE    = 1 << 0, /* O_RDWR (+ O_EXCL for block devices) */
  DS_TARGET_OPEN_BUFFERED = 1 << 1, /* no O_DIRECT (file benchmark fallback) */
  DS_TARGET_OPEN_CREATE   = 1 << 2, /* regular files: create if missing */
} DsTargetOpenFlags;

/* Opens @path with O_DIRECT|O_CLOEXEC (unless BUFFERED).  For a write open of
 * a block device the safety gate runs first (ds_target_check_write()).
 * Errors: DS_ERROR_NOT_FOUND, DS_ERROR_PERMISSION (message says to run as
 * root or join the `disk` group), DS_ERROR_BUSY, DS_ERROR_REFUSED,
 * DS_ERROR_UNSUPPORTED (no O_DIRECT), DS_ERROR_INVALID (not a block device or
 * regular file, or size 0). */
DsTarget *ds_target_open        (const char         *path,
                                 DsTargetOpenFlags   flags,
                                 const char         *confirm,
                                 GError            **error);
void      ds_target_free        (DsTarget           *target);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsTarget, ds_target_free)

/* The write-safety gate for block devices (files pass): refuses, with
 * DS_ERROR_REFUSED and a message that says why, unless @confirm names the
 * same device as @path (after resolving symlinks), the device is not
 * read-only, not mounted (nor any partition), has no holders, and (unless
 * confirmed) carries no filesystem or partition-table signature; the
 * signature is named in the message either way.  O_EXCL is checked by the
 * open itself (DS_ERROR_BUSY). */
gboolean  ds_target_check_write (const char         *path,
                                 const char         *confirm,
                                 GError            **error);

/* Alignment rules: TRUE if @value is a multiple of @align (a power of 2). */
static inline gboolean
ds_is_aligned (uint64_t value, uint64_t align)
{
  return (value & (align - 1)) == 0;
}

static inline uint64_t
ds_align_down (uint64_t value, uint64_t align)
{
  return value & ~(align - 1);
}

static inline uint64_t
ds_align_up (uint64_t value, uint64_t align)
{
  return (value + align - 1) & ~(align - 1);
}

G_END_DECLS
