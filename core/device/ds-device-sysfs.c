/* ds-device-sysfs.c: small sysfs readers and natural name order for
 * ds-device*.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "ds-device-facts.h"

/* The stripped contents of DIR/REL, or NULL if missing or empty. */
char *
ds_sysfs_read_attr (const char *dir,
                    const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autofree char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  g_strstrip (contents);
  if (contents[0] == '\0')
    return NULL;

  return g_steal_pointer (&contents);
}

gboolean
ds_sysfs_read_u64 (const char *dir,
                   const char *rel,
                   uint64_t   *ret_value)
{
  g_autofree char *text = ds_sysfs_read_attr (dir, rel);
  char *end = NULL;
  guint64 v;

  if (text == NULL)
    return FALSE;
  errno = 0;
  v = g_ascii_strtoull (text, &end, 10);
  if (errno != 0 || end == text)
    return FALSE;

  *ret_value = v;
  return TRUE;
}

uint64_t
ds_sysfs_read_u64_or (const char *dir,
                      const char *rel,
                      uint64_t    fallback)
{
  uint64_t v;

  return ds_sysfs_read_u64 (dir, rel, &v) ? v : fallback;
}

gboolean
ds_sysfs_attr_exists (const char *dir,
                      const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* "none [mq-deadline] kyber" -> "mq-deadline"; a lone word is itself. */
char *
ds_sysfs_parse_scheduler (const char *text)
{
  const char *open, *close;

  if (text == NULL)
    return NULL;
  open = strchr (text, '[');
  close = open ? strchr (open, ']') : NULL;
  if (open != NULL && close != NULL && close > open + 1)
    return g_strndup (open + 1, close - open - 1);
  if (strchr (text, ' ') == NULL)
    return g_strdup (text);

  return NULL;
}

/* Natural order: loop2 before loop10, sda before sdb, vda1 before vda10. */
int
ds_natural_compare (const char *a,
                    const char *b)
{
  while (*a && *b)
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          guint64 na = g_ascii_strtoull (a, (char **) &a, 10);
          guint64 nb = g_ascii_strtoull (b, (char **) &b, 10);

          if (na != nb)
            return na < nb ? -1 : 1;
          continue;
        }
      if (*a != *b)
        return (unsigned char) *a < (unsigned char) *b ? -1 : 1;
      a++;
      b++;
    }

  return (unsigned char) *a - (unsigned char) *b;
}

int
ds_compare_names (gconstpointer a,
                  gconstpointer b)
{
  return ds_natural_compare (*(const char *const *) a, *(const char *const *) b);
}

char **
ds_ptr_array_to_strv (GPtrArray *array)
{
  g_ptr_array_add (array, NULL);
  return (char **) g_ptr_array_free (array, FALSE);
}

/* Names of the subdirectories of DIR/REL (holders/), sorted. */
char **
ds_sysfs_list_dir_names (const char *dir,
                         const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
  GPtrArray *names = g_ptr_array_new ();
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, ds_compare_names);

  return ds_ptr_array_to_strv (names);
}

/* Child partitions of a disk: its subdirectories that have a `partition`
 * attribute. */
char **
ds_sysfs_list_partitions (const char *sysdir)
{
  g_autoptr (GDir) d = g_dir_open (sysdir, 0, NULL);
  GPtrArray *names = g_ptr_array_new ();
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *part = g_build_filename (sysdir, name, "partition", NULL);

      if (g_file_test (part, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, ds_compare_names);

  return ds_ptr_array_to_strv (names);
}
