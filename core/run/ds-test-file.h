/* ds-test-file.h: the nameless test file a benchmark runs on in a folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The file benchmark and the presets run in a folder of the filesystem to
 * test, through a test file of their own.  It is created with O_TMPFILE
 * where the filesystem allows it (it has no name, so nothing is left behind
 * however the run ends, a crash or Ctrl-C included), else under a hidden
 * unique name that is unlinked right after the open (the same guarantee,
 * one system call later).  Its size is what was asked clamped to the free
 * space less a margin, and it is fully written with incompressible data
 * before anything is measured (reads of holes or unwritten extents measure
 * nothing).  O_DIRECT throughout; a filesystem that refuses it gives a clear
 * error, or with @buffered_ok the page cache (noted in the result).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-target.h"

G_BEGIN_DECLS

typedef struct {
  const char *what;            /* "the file benchmark": names it in messages */
  uint64_t    want_bytes;
  uint64_t    min_bytes;       /* below this (after clamping): an error */
  gboolean    buffered_ok;     /* --buffered: the page cache where O_DIRECT
                                * is refused */
} DsTestFileRequest;

typedef struct {
  uint64_t file_bytes;         /* the size it got */
  gboolean buffered;           /* through the page cache */
  gboolean tmpfile;            /* O_TMPFILE (else a hidden unlinked name) */
  uint64_t fs_size_bytes;      /* the filesystem's size ... */
  uint64_t fs_free_bytes;      /* ... and what was free before the file */
} DsTestFileInfo;

/* Checks that @dir is a folder, sizes the file, notes a smaller size than
 * asked in run->result, describes the filesystem in run->result->target,
 * and opens the (empty) file.  Returns its target, or NULL with @error:
 * DS_ERROR_INVALID (not a folder), DS_ERROR_NO_SPACE, DS_ERROR_PERMISSION,
 * DS_ERROR_REFUSED (read-only), DS_ERROR_UNSUPPORTED (no direct I/O). */
DsTarget *ds_test_file_open       (DsRun                   *run,
                                   const char              *dir,
                                   const DsTestFileRequest *request,
                                   DsTestFileInfo          *ret_info,
                                   GError                 **error);

/* Reserves and writes the whole of run->target (the test file), then
 * fdatasync()s it.  DS_ERROR_NO_SPACE says there was no room in @dir. */
int       ds_test_file_fill       (DsRun                   *run,
                                   const char              *dir,
                                   GError                 **error);

/* Rewords the error a run on the test file ended with: ENOSPC ("the
 * filesystem at @dir ran out of space"), EINVAL from a direct transfer the
 * filesystem refused.  Returns @ret. */
int       ds_test_file_wrap_error (int                      ret,
                                   GError                 **error,
                                   const char              *dir,
                                   uint64_t                 file_bytes);

G_END_DECLS
