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
  char        *in_use;           /* "mounted at /mnt; held by dm-0", "used
                                  * as swap" */
  char        *signature;        /* "ext4", "gpt", "swap"... (libblkid) */
  char        *signature_label;
  char        *loop_device;      /* FILE: the loop device it backs, with its
                                  * use ("/dev/loop3, mounted at /mnt") */
  char        *locked_by;        /* FILE: who holds a lock on it */
  char        *unknown;          /* why a fact could not be probed: a write
                                  * is refused when in doubt */
  /* The confirmation (--destroy-data, the name typed in the app). */
  char        *confirm;
  gboolean     confirm_matches;  /* it names this very device or file */
} DsTargetFacts;

/* Looks at @path once.  @deep: also the facts a write needs (mounts,
 * holders, swap, signature, loop devices, locks), which read the target's
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

/* "a folder", "a character device", "a FIFO (named pipe)"...: what a path
 * is, for messages (static). */
const char *ds_describe_file_type (mode_t mode);

G_END_DECLS
