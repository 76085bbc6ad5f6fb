/* ds-safety.h: the write gate.  What is at a path is probed once into a
 * plain struct of facts; one function decides from those facts whether a
 * run may go ahead, and owns every write rule.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef enum {
  DS_SAFETY_READ,     /* a read test: nothing is written */
  DS_SAFETY_WRITE,    /* a write test on the device or file that is there */
  DS_SAFETY_ERASE,    /* erase: destroying the data is the point, so a disk
                       * image file may be erased once named (the other
                       * write rules hold) */
  DS_SAFETY_CREATE,   /* a new test file of Diskscope's own at the path */
} DsSafetyIntent;

typedef enum {
  DS_FACTS_MISSING,   /* nothing there (or it cannot be looked at) */
  DS_FACTS_BLOCK,
  DS_FACTS_FILE,      /* a regular file */
  DS_FACTS_OTHER,     /* a folder, character device, FIFO, socket */
} DsFactsKind;

/* Where a device or file that shares bytes with the target stands. */
typedef enum {
  DS_SHARE_ABOVE,   /* built on the target: a loop over it, a device-mapper
                     * or RAID set holding it, a partition of it, or
                     * anything built on those */
  DS_SHARE_BELOW,   /* what the target is built on: a loop's backing, a
                     * partition's disk, a dm or md set's members */
  DS_SHARE_BESIDE,  /* built on what the target is built on: another way
                     * to the same bytes (two loops over one file) */
} DsShareWhere;

/* The end of a byte range that cannot be known (a device-mapper or RAID
 * set maps its members in ways sysfs does not show): all of it. */
#define DS_SHARE_END_UNKNOWN UINT64_MAX

/* One device or file that sees some of the target's bytes, with the way
 * from the target to it and the byte ranges both cover where they meet.
 * Ranges are [start, end) in bytes of @base. */
typedef struct {
  DsShareWhere  where;
  char         *how;           /* "/dev/loop3 is the backing of /dev/loop4"
                                * (the way from the target to it) */
  char         *in_use;        /* "mounted at /mnt/x"; NULL: nothing uses it */
  gboolean      only_in_use;   /* counts only when in use: a partition (a
                                * window the kernel keeps on a disk) and
                                * what the target is built on; a loop, dm
                                * or md device over the bytes counts always */
  char         *base;          /* where both meet: "/x/f.img", "/dev/loop0" */
  uint64_t      target_start;  /* the target's bytes on @base */
  uint64_t      target_end;
  uint64_t      start;         /* its bytes on @base; end DS_SHARE_END_UNKNOWN:
                                * cannot be known (taken as all of them) */
  uint64_t      end;
} DsShare;

/* Everything the gate needs to know about a target.  Plain data:
 * ds_safety_probe() fills it from the system, the table-driven tests fill
 * it by hand.  Strings are NULL when there is nothing to say. */
typedef struct {
  char        *path;             /* as given */
  DsFactsKind  kind;
  int          stat_errno;       /* MISSING: why (ENOENT, EACCES...) */
  const char  *other_what;       /* OTHER: "a folder", "a FIFO"... (static) */
  dev_t        dev;              /* FILE: st_dev; BLOCK: st_rdev */
  ino_t        ino;              /* FILE: st_ino */
  uint64_t     size_bytes;       /* FILE: st_size; BLOCK: from sysfs */
  char        *description;      /* "Loop device (16.8 MB, /dev/loop3)", "the
                                  * file /x/y.bin (16.8 MB)" */
  /* Deep facts, probed only for a write. */
  gboolean     read_only;        /* BLOCK: ro or BLKROGET; FILE: ro mount */
  char        *in_use;           /* the target's own use: "mounted at /mnt",
                                  * "used as swap" (what is stacked on it
                                  * is in @shares) */
  char        *signature;        /* "ext4", "gpt", "swap"... (libblkid) */
  char        *signature_label;
  char        *dangling_link;    /* MISSING: the path is a symbolic link to
                                  * this, which does not exist */
  /* Everything stacked with the target on the same bytes: loops over it
   * or under it (backing files and devices, any offset and size limit),
   * holders and members (dm, md), partitions and their disk. */
  DsShare     *shares;
  unsigned     n_shares;
  char        *locked_by;        /* FILE: who holds a lock on it */
  char        *unknown;          /* why a fact could not be probed: a write
                                  * is refused when in doubt */
  /* The confirmation (--destroy-data, the name typed in the app). */
  char        *confirm;
  gboolean     confirm_matches;  /* it names this very device or file */
} DsTargetFacts;

/* Looks at @path once.  @deep: also the facts a write needs (mounts,
 * swap, signature, locks, and the stack of devices on the same bytes), which read the target's
 * first sectors (buffered): a read test skips them, so that nothing it
 * measures was cached by the probe.  @confirm: what the user named to
 * confirm a write (NULL: nothing). */
void      ds_safety_probe       (DsTargetFacts       *facts,
                                 const char          *path,
                                 const char          *confirm,
                                 gboolean             deep);
void      ds_target_facts_clear (DsTargetFacts       *facts);

/* The gate: TRUE if a run with @intent may go ahead on what @facts
 * describe; else FALSE with DS_ERROR_NOT_FOUND (nothing there),
 * DS_ERROR_INVALID (not a block device or regular file, an empty file) or
 * DS_ERROR_REFUSED (a write rule), and a message that says why and what
 * to do.  Every accepted DS_SAFETY_WRITE and DS_SAFETY_ERASE was
 * confirmed. */
gboolean  ds_safety_decide      (const DsTargetFacts *facts,
                                 DsSafetyIntent       intent,
                                 GError             **error);

/* TRUE if the target's bytes and @share's meet on its base (an unknown
 * range meets everything). */
gboolean  ds_share_overlaps     (const DsShare       *share);

/* "a folder", "a character device", "a FIFO (named pipe)"...: what a path
 * is, for messages (static). */
const char *ds_describe_file_type (mode_t mode);

G_END_DECLS
