/* ds-safety-private.h: what the safety probe's files share (not for
 * callers outside core/safety/)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "ds-safety.h"

G_BEGIN_DECLS

/* ---- ds-safety-stack.c ---- */

/* Fills @facts->in_use (a block device's own mounts and
 * swap) and @facts->shares (everything stacked with it on the same
 * bytes) for the block device or regular file @st found at @path; a fact
 * that cannot be probed goes to @facts->unknown. */
void   ds_safety_probe_stack (DsTargetFacts     *facts,
                              const char        *path,
                              const struct stat *st);

/* ---- ds-safety-layers.c: the layers the walk meets ---- */

/* The end of a layer whose own size is not known (a deleted backing
 * file): its offsets are still exact. */
#define DS_LAYER_END_OPEN (DS_SHARE_END_UNKNOWN - 1)

/* A block device, or a file a loop device is bound to. */
typedef struct {
  gboolean  file;
  dev_t     dev;      /* a device's number; a file's st_dev */
  ino_t     ino;      /* a file's */
  char     *name;     /* a device's kernel name: "loop3", "dm-0" */
  char     *label;    /* "/dev/loop3", "/dev/dm-0 (vg-root)", "/x/f.img" */
  char     *sysdir;   /* a device's folder: /sys/dev/block/MAJ:MIN */
  uint64_t  size;     /* bytes; DS_LAYER_END_OPEN when not known */
} DsLayer;

void   ds_layer_clear (DsLayer *layer);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DsLayer, ds_layer_clear)

/* A bound loop device, as the driver has it. */
typedef struct {
  char     *name;      /* "loop4" */
  dev_t     rdev;
  uint64_t  offset;    /* its window on the backing, in bytes */
  uint64_t  size;
  char     *backing;   /* the path sysfs shows */
  gboolean  known;     /* who the backing is (below) is known */
  gboolean  block;     /* the backing is a device node */
  dev_t     bdev;      /* a device's number; a file's st_dev */
  ino_t     bino;
} DsLoopRecord;

/* One walk over a stack: what it found, and what it read once. */
typedef struct {
  DsTargetFacts *facts;
  GArray        *shares;   /* DsShare */
  GPtrArray     *loops;    /* DsLoopRecord, from ds_loop_records_read() */
  GPtrArray     *mounts;   /* DsMountEntry, read when first needed */
  GHashTable    *seen;     /* the layers met */
} DsStackWalk;

/* The first fact that cannot be probed, for the refusal (later ones are
 * dropped: one is enough to refuse). */
void   ds_safety_set_unknown (DsStackWalk *walk,
                              const char  *format,
                              ...) G_GNUC_PRINTF (2, 3);

/* The block device @dev (from /sys/dev/block), or the one whose sysfs
 * folder is @dir; FALSE (and a doubt noted) when sysfs has no entry. */
gboolean ds_layer_from_dev       (DsStackWalk        *walk,
                                  dev_t               dev,
                                  DsLayer            *ret_layer);
gboolean ds_layer_from_sysdir    (DsStackWalk        *walk,
                                  const char         *dir,
                                  DsLayer            *ret_layer);
/* The file the loop @loop is bound to (not a device). */
void     ds_layer_from_loop_file (const DsLoopRecord *loop,
                                  DsLayer            *ret_layer);
/* What uses @layer itself ("mounted at /mnt/x", "used as swap", "locked
 * by process 42 (...)"); NULL when nothing does. */
char    *ds_layer_in_use         (DsStackWalk        *walk,
                                  const DsLayer      *layer);

/* Every bound loop device (DsLoopRecord, free func set). */
GPtrArray          *ds_loop_records_read          (void);
const DsLoopRecord *ds_loop_records_find          (DsStackWalk   *walk,
                                                   dev_t          dev);
/* Notes a doubt when a loop the driver cannot be asked about shows a
 * path under @layer's name that no longer resolves. */
void                ds_loop_records_check_unknown (DsStackWalk   *walk,
                                                   const DsLayer *layer);

/* ---- ds-safety-probe.c ---- */

/* Who holds a lock on the file @st (/proc/locks):
 * "process 42 (qemu-system-x86, OFD lock)"; NULL when nobody does. */
char  *ds_safety_find_lock   (const struct stat *st);

G_END_DECLS
