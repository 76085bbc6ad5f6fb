/* test-library-write.c: writing a result into the library folder
 * (core/library/ds-library-write.c)
 *
 * Unit suite: no root, no device.  What ds-library-write.h and its
 * private half promise: the bytes written are the file's, whole (empty,
 * binary, several MiB), under exactly the name asked, mode 0644 less the
 * umask, or the mode of the file replaced; the temporary ".NAME.XXXXXX"
 * beside it; a failure (a folder that is a file, a missing folder, a
 * folder this user may not write, a folder at the name) leaves the folder
 * as it was, no temporary file; NO_REPLACE refuses anything at the name;
 * and each errno's message, word for word.  test-library.c checks
 * NO_REPLACE over a file, a kept 0600 mode, a FIFO and a link.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-library-private.h"
#include "ds-library-write.h"
#include "ds-test-util.h"

/* A fresh folder under the temporary folder, removed by rm_tree(). */
static char *
make_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("ds-library-write-XXXXXX", &error);

  ck_assert_msg (dir != NULL, "%s", error ? error->message : "");
  return dir;
}

static void
rm_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        rm_tree (child);
      else
        g_unlink (child);
    }
  (void) chmod (path, 0700);
  g_rmdir (path);
}

static void
assert_contents (const char *path,
                 const char *data,
                 gsize       length)
{
  g_autofree char *text = NULL;
  gsize got = 0;

  ck_assert (g_file_get_contents (path, &text, &got, NULL));
  ck_assert_uint_eq (got, length);
  ck_assert (memcmp (text, data, length) == 0);
}

static void
assert_listing (const char *dir,
                const char *want)
{
  g_autofree char *names = ds_test_list_dir (dir);

  ck_assert_str_eq (names, want);
}

START_TEST (test_new_files)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *path = g_build_filename (dir, "r1.json", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.json", NULL);
  g_autofree char *big = g_build_filename (dir, "big.json", NULL);
  static const char binary[] = { 'a', '\0', 'b', '\n', '\xff', '\0' };
  const gsize big_len = 5 * 1024 * 1024 + 3;
  g_autofree char *big_data = g_malloc (big_len);
  g_autoptr (GError) error = NULL;
  GStatBuf st;

  umask (022);
  ck_assert (ds_library_write_file (path, binary, sizeof binary, DS_LIBRARY_WRITE_REPLACE, &error));
  assert_contents (path, binary, sizeof binary);
  ck_assert_int_eq (g_stat (path, &st), 0);
  ck_assert_uint_eq (st.st_mode & 07777, 0644);
  ck_assert (S_ISREG (st.st_mode));

  /* Nothing: an empty file, also with NULL data; NO_REPLACE where
   * nothing is makes it. */
  ck_assert (ds_library_write_file (empty, NULL, 0, DS_LIBRARY_WRITE_NO_REPLACE, &error));
  assert_contents (empty, "", 0);

  for (gsize i = 0; i < big_len; i++)
    big_data[i] = (char) (i * 7 + i / 4096);
  ck_assert (ds_library_write_file (big, big_data, big_len, DS_LIBRARY_WRITE_NO_REPLACE, &error));
  assert_contents (big, big_data, big_len);

  /* A stricter umask applies to a new file. */
  umask (077);
  ck_assert (ds_library_write_file (path, "x", 1, DS_LIBRARY_WRITE_REPLACE, &error));
  ck_assert_int_eq (g_stat (path, &st), 0);
  /* Replaced: the old file's mode, not the umask's. */
  ck_assert_uint_eq (st.st_mode & 07777, 0644);
  g_unlink (path);
  ck_assert (ds_library_write_file (path, "y", 1, DS_LIBRARY_WRITE_REPLACE, &error));
  ck_assert_int_eq (g_stat (path, &st), 0);
  ck_assert_uint_eq (st.st_mode & 07777, 0600);
  umask (022);

  /* Exactly the names asked, no temporary file left. */
  assert_listing (dir, "big.json empty.json r1.json");
  rm_tree (dir);
}
END_TEST

/* A relative name is written in the current folder. */
START_TEST (test_relative_name)
{
  g_autofree char *dir = make_dir ();
  g_autoptr (GError) error = NULL;

  ck_assert_int_eq (chdir (dir), 0);
  ck_assert (ds_library_write_file ("rel.json", "rel", 3, DS_LIBRARY_WRITE_NO_REPLACE, &error));
  assert_contents ("rel.json", "rel", 3);
  assert_listing (dir, "rel.json");
  ck_assert_int_eq (chdir ("/"), 0);
  rm_tree (dir);
}
END_TEST

/* A replaced file's mode is kept (not its set-id bits). */
START_TEST (test_replace_keeps_mode)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *path = g_build_filename (dir, "m.json", NULL);
  g_autoptr (GError) error = NULL;
  GStatBuf st;

  umask (022);
  ck_assert (g_file_set_contents (path, "old", -1, NULL));
  ck_assert_int_eq (chmod (path, 02640), 0);
  ck_assert (ds_library_write_file (path, "new!", 4, DS_LIBRARY_WRITE_REPLACE, &error));
  assert_contents (path, "new!", 4);
  ck_assert_int_eq (g_stat (path, &st), 0);
  ck_assert_uint_eq (st.st_mode & 07777, 0640);
  ck_assert_int_eq (st.st_uid, geteuid ());
  assert_listing (dir, "m.json");
  rm_tree (dir);
}
END_TEST

/* What is at the name and is not a file stays; nothing else is left. */
START_TEST (test_folder_at_name)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *sub = g_build_filename (dir, "d.json", NULL);
  g_autofree char *dangling = g_build_filename (dir, "l.json", NULL);
  g_autofree char *want = NULL;
  g_autoptr (GError) error = NULL;

  ck_assert_int_eq (g_mkdir (sub, 0700), 0);
  ck_assert (!ds_library_write_file (sub, "x", 1, DS_LIBRARY_WRITE_REPLACE, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
  want = g_strdup_printf ("could not save %s: it is not a regular file; the results library "
                          "replaces nothing else", sub);
  ck_assert_str_eq (error->message, want);
  g_clear_error (&error);
  g_clear_pointer (&want, g_free);

  ck_assert (!ds_library_write_file (sub, "x", 1, DS_LIBRARY_WRITE_NO_REPLACE, &error));
  ck_assert (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS));
  want = g_strdup_printf ("%s already exists", sub);
  ck_assert_str_eq (error->message, want);
  g_clear_error (&error);
  g_clear_pointer (&want, g_free);

  /* A link to nothing: NO_REPLACE leaves it, and creates nothing where
   * it points. */
  ck_assert_int_eq (symlink ("nowhere.json", dangling), 0);
  ck_assert (!ds_library_write_file (dangling, "x", 1, DS_LIBRARY_WRITE_NO_REPLACE, &error));
  ck_assert (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS));
  ck_assert (g_file_test (dangling, G_FILE_TEST_IS_SYMLINK));

  assert_listing (dir, "d.json l.json");
  assert_listing (sub, "");
  rm_tree (dir);
}
END_TEST

/* A folder that is a file, or that does not exist: DS_ERROR_NOT_FOUND,
 * naming the path and the folder. */
START_TEST (test_missing_folder)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *file = g_build_filename (dir, "plain", NULL);
  g_autofree char *under_file = g_build_filename (file, "r.json", NULL);
  g_autofree char *under_missing = g_build_filename (dir, "gone", "r.json", NULL);
  const char *paths[] = { under_file, under_missing };
  const char *folders[] = { file, NULL };
  g_autofree char *gone = g_build_filename (dir, "gone", NULL);

  folders[1] = gone;
  ck_assert (g_file_set_contents (file, "p", -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    for (guint flags = 0; flags <= DS_LIBRARY_WRITE_NO_REPLACE; flags++)
      {
        g_autoptr (GError) error = NULL;
        g_autofree char *want = g_strdup_printf ("could not save %s: the folder %s does not exist",
                                                 paths[i], folders[i]);

        ck_assert (!ds_library_write_file (paths[i], "x", 1, flags, &error));
        ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
        ck_assert_str_eq (error->message, want);
      }
  assert_listing (dir, "plain");
  assert_contents (file, "p", 1);
  rm_tree (dir);
}
END_TEST

/* As `nobody` (a child dropping root, or this user when not root), in a
 * folder it may not write: DS_ERROR_PERMISSION, the folder unchanged. */
START_TEST (test_read_only_folder)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *path = g_build_filename (dir, "r.json", NULL);
  g_autofree char *want = g_strdup_printf ("could not save %s: %s (check who owns %s)", path,
                                           g_strerror (EACCES), dir);
  int pipe_fds[2];
  pid_t pid;
  int status = 0;
  char buf[1024] = { 0 };
  gssize n;

  ck_assert (g_file_set_contents (path, "kept", -1, NULL));
  ck_assert_int_eq (chmod (dir, 0555), 0);
  ck_assert_int_eq (pipe (pipe_fds), 0);
  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0)
    {
      struct passwd *pw = getpwnam ("nobody");
      g_autoptr (GError) error = NULL;
      gboolean ok;

      close (pipe_fds[0]);
      if (geteuid () == 0 && (pw == NULL || setgid (pw->pw_gid) != 0 || setuid (pw->pw_uid) != 0))
        _exit (3);
      ok = ds_library_write_file (path, "new", 3, DS_LIBRARY_WRITE_REPLACE, &error);
      if (!ok && g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION))
        (void) !write (pipe_fds[1], error->message, strlen (error->message));
      g_clear_error (&error);
      ok = ok || ds_library_write_file (path, "new", 3, DS_LIBRARY_WRITE_NO_REPLACE, &error);
      _exit (ok ? 1 : g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION) ? 0 : 2);
    }
  close (pipe_fds[1]);
  n = read (pipe_fds[0], buf, sizeof buf - 1);
  close (pipe_fds[0]);
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  ck_assert (WIFEXITED (status));
  ck_assert_int_eq (WEXITSTATUS (status), 0);
  ck_assert_int_gt (n, 0);
  ck_assert_str_eq (buf, want);

  ck_assert_int_eq (chmod (dir, 0700), 0);
  assert_contents (path, "kept", 4);
  assert_listing (dir, "r.json");
  rm_tree (dir);
}
END_TEST

/* Each errno's error: domain, code and message. */
START_TEST (test_error_messages)
{
  const char *path = "/srv/lib/r.json";
  g_autofree char *nospc = g_strdup_printf ("could not save /srv/lib/r.json: no space left in /srv/lib "
                                            "(%s); nothing was written there", g_strerror (ENOSPC));
  g_autofree char *dquot = g_strdup_printf ("could not save /srv/lib/r.json: no space left in /srv/lib "
                                            "(%s); nothing was written there", g_strerror (EDQUOT));
  g_autofree char *eacces = g_strdup_printf ("could not save /srv/lib/r.json: %s (check who owns /srv/lib)",
                                             g_strerror (EACCES));
  g_autofree char *eperm = g_strdup_printf ("could not save /srv/lib/r.json: %s (check who owns /srv/lib)",
                                            g_strerror (EPERM));
  g_autofree char *eio = g_strdup_printf ("could not save /srv/lib/r.json: %s", g_strerror (EIO));
  g_autofree char *ebusy = g_strdup_printf ("could not save /srv/lib/r.json: %s", g_strerror (EBUSY));
  g_autofree char *emfile = g_strdup_printf ("could not save /srv/lib/r.json: %s", g_strerror (EMFILE));
  const struct { int e; int code; const char *message; } cases[] = {
    { ENOSPC, DS_ERROR_NO_SPACE, nospc },
    { EDQUOT, DS_ERROR_NO_SPACE, dquot },
    { EROFS, DS_ERROR_PERMISSION, "could not save /srv/lib/r.json: /srv/lib is on a read-only filesystem" },
    { EACCES, DS_ERROR_PERMISSION, eacces },
    { EPERM, DS_ERROR_PERMISSION, eperm },
    { ENOENT, DS_ERROR_NOT_FOUND, "could not save /srv/lib/r.json: the folder /srv/lib does not exist" },
    { ENOTDIR, DS_ERROR_NOT_FOUND, "could not save /srv/lib/r.json: the folder /srv/lib does not exist" },
    { EIO, DS_ERROR_IO, eio },
    { EBUSY, DS_ERROR_BUSY, ebusy },
    { EMFILE, DS_ERROR_FAILED, emfile },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;

      ds_library_set_write_error (&error, cases[i].e, path);
      ck_assert_msg (g_error_matches (error, DS_ERROR, cases[i].code), "errno %d: code %d", cases[i].e,
                     error->code);
      ck_assert_str_eq (error->message, cases[i].message);
    }

  /* No folder in the name: ".". */
  {
    g_autoptr (GError) error = NULL;

    ds_library_set_write_error (&error, ENOENT, "r.json");
    ck_assert_str_eq (error->message, "could not save r.json: the folder . does not exist");
    ds_library_set_write_error (NULL, ENOSPC, "r.json");
  }
}
END_TEST

/* The temporary file: ".NAME.XXXXXX" beside the path, the data synced,
 * 0644 or @like's mode; a name the library's cleanup knows. */
START_TEST (test_write_temp)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *path = g_build_filename (dir, "r9.json", NULL);
  g_autofree char *prefix = g_build_filename (dir, ".r9.json.", NULL);
  g_autoptr (GError) error = NULL;
  struct stat like = { 0 };
  GStatBuf st;

  umask (022);
  for (guint round = 0; round < 2; round++)
    {
      g_autofree char *tmp = NULL;
      g_autofree char *base = NULL;

      like.st_mode = S_IFREG | 04600;
      tmp = ds_library_write_temp (path, "temp", 4, round ? &like : NULL, &error);
      ck_assert_msg (tmp != NULL, "%s", error ? error->message : "");
      ck_assert (g_str_has_prefix (tmp, prefix));
      ck_assert_uint_eq (strlen (tmp), strlen (prefix) + 6);
      base = g_path_get_basename (tmp);
      ck_assert (ds_library_is_temp_name (base));
      assert_contents (tmp, "temp", 4);
      ck_assert_int_eq (g_stat (tmp, &st), 0);
      ck_assert_uint_eq (st.st_mode & 07777, round ? 0600 : 0644);
      /* The path itself is not made. */
      ck_assert (!g_file_test (path, G_FILE_TEST_EXISTS));
      g_unlink (tmp);
    }

  /* A failure: NULL, the error naming the path (not the temporary). */
  {
    g_autofree char *missing = g_build_filename (dir, "no", "r9.json", NULL);
    g_autofree char *want = g_strdup_printf ("could not save %s: the folder %s/no does not exist",
                                             missing, dir);

    ck_assert_ptr_null (ds_library_write_temp (missing, "x", 1, NULL, &error));
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
    ck_assert_str_eq (error->message, want);
  }
  assert_listing (dir, "");
  rm_tree (dir);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("library-write");
  TCase *tc = tcase_create ("library-write");

  tcase_add_test (tc, test_new_files);
  tcase_add_test (tc, test_relative_name);
  tcase_add_test (tc, test_replace_keeps_mode);
  tcase_add_test (tc, test_folder_at_name);
  tcase_add_test (tc, test_missing_folder);
  tcase_add_test (tc, test_read_only_folder);
  tcase_add_test (tc, test_error_messages);
  tcase_add_test (tc, test_write_temp);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
