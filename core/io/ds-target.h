/* ds-target.h: a block device or regular file opened for a run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-udisks.h"

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
  char         *serial;              /* block devices: NULL where unknown */
  char         *wwn;
  char         *fs_device;           /* files: the block device their
                                      * filesystem is on ("/dev/sda2") */
  gboolean      created;             /* a test file Diskscope made */
  gboolean      tmpfile;             /* made nameless with O_TMPFILE */
} DsTarget;

typedef enum {
  DS_TARGET_OPEN_READ     = 0,
  DS_TARGET_OPEN_WRITE    = 1 << 0, /* O_RDWR (+ O_EXCL for block devices) */
  DS_TARGET_OPEN_BUFFERED = 1 << 1, /* no O_DIRECT (file benchmark fallback) */
  DS_TARGET_OPEN_CREATE   = 1 << 2, /* a new test file: the path must not
                                     * exist; made nameless (O_TMPFILE, or a
                                     * hidden name unlinked at once) in its
                                     * folder, so it is gone when closed */
  DS_TARGET_OPEN_KEEP     = 1 << 3, /* with CREATE: made under its name, and
                                     * left there */
  DS_TARGET_OPEN_ERASE    = 1 << 4, /* with WRITE: erase, not a test
                                     * (DS_SAFETY_ERASE) */
} DsTargetOpenFlags;

/* Opens @path for a run: the safety gate first (ds-safety.h: probed once,
 * decided once; a write needs @confirm to name the target), then the open
 * with O_DIRECT|O_CLOEXEC (unless BUFFERED) and O_EXCL for a block device
 * opened for writing.  Errors: DS_ERROR_NOT_FOUND, DS_ERROR_PERMISSION
 * (message says how to get access), DS_ERROR_BUSY, DS_ERROR_REFUSED (the
 * gate, or a read-only device), DS_ERROR_UNSUPPORTED (no O_DIRECT),
 * DS_ERROR_INVALID (not a block device or regular file, or empty). */
DsTarget *ds_target_open        (const char         *path,
                                 DsTargetOpenFlags   flags,
                                 const char         *confirm,
                                 GError            **error);
/* ds_target_open(), and when the open of a block device is refused
 * (EACCES/EPERM) to a user who is not root, udisks2 is asked to open it
 * instead (ds-udisks.h), unless @access says no_udisks.  That may wait
 * for a password prompt: *access->cancel becoming non-zero stops the wait
 * with DS_ERROR_CANCELLED, and access->notice is told.  A refusal by
 * polkit is DS_ERROR_PERMISSION naming the polkit action.  @access may be
 * NULL (udisks2 may be asked; no agent; nobody told). */
DsTarget *ds_target_open_full   (const char           *path,
                                 DsTargetOpenFlags     flags,
                                 const char           *confirm,
                                 const DsTargetAccess *access,
                                 GError              **error);
/* The same gate and checks for an fd opened elsewhere (udisks2, a
 * portal): @fd must be @path's device or file (else DS_ERROR_REFUSED),
 * readable and writable for WRITE; O_DIRECT is set on it unless BUFFERED.
 * Takes @fd: it is closed on failure.  Not for CREATE. */
DsTarget *ds_target_open_fd     (const char         *path,
                                 int                 fd,
                                 DsTargetOpenFlags   flags,
                                 const char         *confirm,
                                 GError            **error);
/* A nameless test file in the folder @dir (O_TMPFILE where the filesystem
 * has it, else a hidden unique name unlinked right after the open): gone
 * however the run ends.  Opened for writing, size 0; @flags may add
 * BUFFERED.  DS_ERROR_UNSUPPORTED when only O_DIRECT was refused. */
DsTarget *ds_target_open_tmpfile (const char        *dir,
                                  DsTargetOpenFlags  flags,
                                  GError           **error);
void      ds_target_free        (DsTarget           *target);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsTarget, ds_target_free)

/* The write gate alone (what a front end asks before it shows its own
 * confirmation): ds_safety_probe() + ds_safety_decide() for a write. */
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
