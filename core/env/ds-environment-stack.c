/* ds-environment-stack.c: the device stack under a block device, from
 * /sys/block/NAME/slaves: dm-crypt, LVM, dm-cache, bcache, md RAID, loop
 * (with its backing file and direct I/O), partitions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ds-environment.h"

/* Depth of a stack worth walking: loops of symlinks end here. */
#define STACK_MAX_DEPTH 8

static char *
read_attr (const char *sysfs,
           const char *name,
           const char *attr)
{
  g_autofree char *path = g_strdup_printf ("%s/block/%s/%s", sysfs, name, attr);
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;

  return g_strstrip (text);
}

static gboolean
has_attr (const char *sysfs,
          const char *name,
          const char *attr)
{
  g_autofree char *path = g_strdup_printf ("%s/block/%s/%s", sysfs, name, attr);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* A block device's size from sysfs (in 512-byte sectors there). */
static uint64_t
size_of (const char *sysfs,
         const char *name)
{
  g_autofree char *size = read_attr (sysfs, name, "size");

  return size ? g_ascii_strtoull (size, NULL, 10) * 512 : 0;
}

/* bcache: bcacheN/bcache/cache is the cache set; its cache0 the cache
 * device's bcache directory, inside that device's. */
static uint64_t
bcache_cache_bytes (const char *sysfs,
                    const char *name)
{
  g_autofree char *set = g_strdup_printf ("%s/block/%s/bcache/cache/cache0", sysfs, name);
  g_autofree char *real = realpath (set, NULL);
  g_autofree char *dev = real ? g_path_get_dirname (real) : NULL;
  g_autofree char *size_path = dev ? g_strconcat (dev, "/size", NULL) : NULL;
  g_autofree char *size = NULL;

  if (size_path == NULL || !g_file_get_contents (size_path, &size, NULL, NULL))
    return 0;

  return g_ascii_strtoull (size, NULL, 10) * 512;
}

/* What one layer is: its type and what matters of it. */
static JsonObject *
describe (DsEnvironment *env,
          const char    *sysfs,
          const char    *name)
{
  JsonObject *o = json_object_new ();

  json_object_set_string_member (o, "name", name);

  if (has_attr (sysfs, name, "loop"))
    {
      g_autofree char *backing = read_attr (sysfs, name, "loop/backing_file");
      g_autofree char *dio = read_attr (sysfs, name, "loop/dio");
      gboolean direct = dio != NULL && strcmp (dio, "1") == 0;

      json_object_set_string_member (o, "type", "loop");
      env->virtual_layer = TRUE;
      ds_environment_set_string (o, "backing_file", backing);
      json_object_set_boolean_member (o, "direct_io", direct);
      if (!direct && env->loop_no_dio == NULL)
        env->loop_no_dio = g_strdup_printf ("%s over %s", name, backing ? backing : "?");
    }
  else if (has_attr (sysfs, name, "dm"))
    {
      g_autofree char *uuid = read_attr (sysfs, name, "dm/uuid");
      g_autofree char *dm_name = read_attr (sysfs, name, "dm/name");
      const char *type = "dm";

      if (uuid != NULL && g_str_has_prefix (uuid, "CRYPT-"))
        type = "dm-crypt";
      else if (uuid != NULL && g_str_has_prefix (uuid, "LVM-"))
        type = "lvm";
      else if (uuid != NULL && g_str_has_prefix (uuid, "mpath-"))
        type = "multipath";

      /* An LVM cache's hidden parts are named <lv>_cdata, _cmeta, _corig;
       * writecache's _cvol. */
      if (dm_name != NULL &&
          (g_str_has_suffix (dm_name, "_corig") || g_str_has_suffix (dm_name, "_cdata") ||
           g_str_has_suffix (dm_name, "_cvol") || g_str_has_suffix (dm_name, "_cpool")))
        {
          type = "dm-cache";
          if (env->cache_layer == NULL)
            env->cache_layer = g_strdup_printf ("dm-cache, %s", dm_name);
          if (g_str_has_suffix (dm_name, "_cdata") || g_str_has_suffix (dm_name, "_cvol"))
            env->cache_bytes = MAX (env->cache_bytes, size_of (sysfs, name));
        }

      json_object_set_string_member (o, "type", type);
      ds_environment_set_string (o, "dm_name", dm_name);
      ds_environment_set_string (o, "dm_uuid", uuid);
    }
  else if (has_attr (sysfs, name, "md"))
    {
      g_autofree char *level = read_attr (sysfs, name, "md/level");

      json_object_set_string_member (o, "type", "md");
      ds_environment_set_string (o, "raid_level", level);
    }
  else if (g_str_has_prefix (name, "bcache"))
    {
      json_object_set_string_member (o, "type", "bcache");
      if (env->cache_layer == NULL)
        env->cache_layer = g_strdup (name);
      env->cache_bytes = MAX (env->cache_bytes, bcache_cache_bytes (sysfs, name));
    }
  else if (g_str_has_prefix (name, "zram"))
    {
      json_object_set_string_member (o, "type", "zram");
      env->virtual_layer = TRUE;
    }
  else
    {
      json_object_set_string_member (o, "type", "disk");
    }

  return o;
}

static gboolean
is_partition (const char *sysfs,
              const char *name)
{
  g_autofree char *path = g_strdup_printf ("%s/class/block/%s/partition", sysfs, name);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
walk (DsEnvironment *env,
      const char    *sysfs,
      const char    *name,
      JsonArray     *out,
      unsigned       depth)
{
  g_autofree char *dir = NULL;
  g_autoptr (GDir) d = NULL;
  g_autoptr (GPtrArray) below = g_ptr_array_new_with_free_func (g_free);
  JsonObject *o;
  const char *entry;

  if (depth >= STACK_MAX_DEPTH)
    return;

  /* A partition's directory sits inside its disk's. */
  if (is_partition (sysfs, name))
    {
      g_autofree char *link = g_strdup_printf ("%s/class/block/%s", sysfs, name);
      g_autofree char *real = realpath (link, NULL);
      g_autofree char *up = real ? g_path_get_dirname (real) : NULL;
      g_autofree char *disk = up ? g_path_get_basename (up) : NULL;

      o = json_object_new ();
      json_object_set_string_member (o, "name", name);
      json_object_set_string_member (o, "type", "partition");
      ds_environment_set_string (o, "partition_of", disk);
      json_array_add_object_element (out, o);
      if (disk != NULL)
        walk (env, sysfs, disk, out, depth + 1);
      return;
    }

  json_array_add_object_element (out, describe (env, sysfs, name));

  dir = g_strdup_printf ("%s/block/%s/slaves", sysfs, name);
  d = g_dir_open (dir, 0, NULL);
  while (d != NULL && (entry = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (below, g_strdup (entry));
  g_ptr_array_sort (below, compare_names);

  for (guint i = 0; i < below->len; i++)
    walk (env, sysfs, below->pdata[i], out, depth + 1);
}

JsonArray *
ds_environment_stack (DsEnvironment *env,
                      const char    *sysfs,
                      const char    *name)
{
  JsonArray *out = json_array_new ();

  walk (env, sysfs, name, out, 0);

  return out;
}
