/* ds-test-snapshot.c: what is at a name (see ds-test-snapshot.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "ds-test-snapshot.h"

DsTestSnapshot
ds_test_snapshot (const char *path)
{
  DsTestSnapshot s = { 0 };

  if (lstat (path, &s.st) != 0)
    return s;
  s.exists = TRUE;
  if (S_ISREG (s.st.st_mode))
    ck_assert_msg (g_file_get_contents (path, &s.content, &s.length, NULL), "%s: unreadable", path);
  if (S_ISLNK (s.st.st_mode))
    s.link = g_file_read_link (path, NULL);

  return s;
}

void
ds_test_snapshot_clear (DsTestSnapshot *s)
{
  g_clear_pointer (&s->content, g_free);
  g_clear_pointer (&s->link, g_free);
}

void
ds_test_snapshot_unchanged (DsTestSnapshot *before,
                            const char     *path)
{
  DsTestSnapshot now = ds_test_snapshot (path);

  ck_assert_msg (now.exists == before->exists, "%s %s", path,
                 now.exists ? "was created" : "is gone");
  if (now.exists)
    {
      ck_assert_msg ((now.st.st_mode & S_IFMT) == (before->st.st_mode & S_IFMT),
                     "%s changed type (mode %o, was %o)", path, now.st.st_mode, before->st.st_mode);
      ck_assert_msg (now.st.st_mode == before->st.st_mode, "%s: mode %o, was %o", path,
                     now.st.st_mode, before->st.st_mode);
      ck_assert_msg (now.st.st_rdev == before->st.st_rdev, "%s: another device number", path);
      ck_assert_msg (now.st.st_ino == before->st.st_ino, "%s was replaced", path);
      ck_assert_msg (now.st.st_uid == before->st.st_uid && now.st.st_gid == before->st.st_gid,
                     "%s changed owner", path);
      ck_assert_msg (now.length == before->length &&
                     (now.length == 0 || memcmp (now.content, before->content, now.length) == 0),
                     "%s: its content changed", path);
      ck_assert_str_eq (now.link ? now.link : "", before->link ? before->link : "");
    }
  ds_test_snapshot_clear (&now);
  ds_test_snapshot_clear (before);
}
