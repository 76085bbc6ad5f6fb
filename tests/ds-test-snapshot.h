/* ds-test-snapshot.h: what is at a name, to check that a refused save left
 * it exactly as it was (no device needed)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sys/stat.h>

G_BEGIN_DECLS

/* lstat() of a name, with the content of a regular file and the target of
 * a symbolic link; exists FALSE when nothing is there. */
typedef struct {
  gboolean     exists;
  struct stat  st;
  char        *content;
  gsize        length;
  char        *link;
} DsTestSnapshot;

DsTestSnapshot ds_test_snapshot           (const char     *path);
void           ds_test_snapshot_clear     (DsTestSnapshot *snapshot);
/* Fails the test unless @path is what @before saw: the same type, mode,
 * owner, device number, inode (not replaced), content and link; or still
 * nothing.  Clears @before. */
void           ds_test_snapshot_unchanged (DsTestSnapshot *before,
                                           const char     *path);

G_END_DECLS
