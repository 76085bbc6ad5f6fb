/* ds-environment.c: what the system was like under a run's target,
 * recorded once at its start (the stack walk: ds-environment-stack.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "ds-environment.h"
#include "ds-limits.h"
#include "ds-text.h"

static char *
read_text (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;

  return g_strstrip (text);
}

void
ds_environment_set_string (JsonObject *o,
                           const char *member,
                           const char *value)
{
  if (value != NULL && g_utf8_validate (value, -1, NULL))
    json_object_set_string_member (o, member, value);
  else
    json_object_set_null_member (o, member);
}

/* A number from sysfs, or null. */
static void
set_number (JsonObject *o,
            const char *member,
            const char *path)
{
  g_autofree char *text = read_text (path);
  char *end = NULL;
  gint64 v;

  if (text == NULL || *text == '\0')
    {
      json_object_set_null_member (o, member);
      return;
    }
  v = g_ascii_strtoll (text, &end, 10);
  if (end == NULL || *end != '\0')
    json_object_set_null_member (o, member);
  else
    json_object_set_int_member (o, member, v);
}

/* "mq-deadline kyber [none]": the one in brackets. */
static char *
active_scheduler (const char *text)
{
  const char *open = text ? strchr (text, '[') : NULL;
  const char *close = open ? strchr (open, ']') : NULL;

  if (open == NULL || close == NULL)
    return g_strdup (text);

  return g_strndup (open + 1, close - open - 1);
}

static void
queue_settings (JsonObject *o,
                const char *sysfs,
                const char *disk,
                DsEnvironment *env)
{
  g_autofree char *q = g_strdup_printf ("%s/block/%s/queue", sysfs, disk);
  g_autofree char *sched_path = g_strconcat (q, "/scheduler", NULL);
  g_autofree char *sched_text = read_text (sched_path);
  g_autofree char *sched = active_scheduler (sched_text);
  g_autofree char *wc_path = g_strconcat (q, "/write_cache", NULL);
  g_autofree char *wc = read_text (wc_path);
  g_autofree char *rot_path = g_strconcat (q, "/rotational", NULL);
  g_autofree char *rot = read_text (rot_path);
  const char *numbers[] = {
    "read_ahead_kb", "nr_requests", "max_sectors_kb", "logical_block_size",
    "physical_block_size",
  };

  ds_environment_set_string (o, "scheduler", sched);
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s", q, numbers[i]);
      set_number (o, numbers[i], path);
    }
  /* "write back" or "write through". */
  ds_environment_set_string (o, "write_cache", wc);
  if (rot != NULL)
    {
      env->rotational = strcmp (rot, "1") == 0;
      json_object_set_boolean_member (o, "rotational", env->rotational);
    }
  else
    json_object_set_null_member (o, "rotational");
}

/* The mount holding @real (a resolved path) on device @dev: the longest
 * mount point of that device that is a prefix of it. */
static void
mount_of (JsonObject *o,
          const char *real,
          dev_t       dev,
          char      **ret_source)
{
  g_autofree char *text = read_text ("/proc/self/mountinfo");
  g_auto (GStrv) lines = text ? g_strsplit (text, "\n", -1) : NULL;
  g_autofree char *want = g_strdup_printf ("%u:%u", major (dev), minor (dev));
  g_auto (GStrv) best = NULL;
  gsize best_len = 0;

  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], " ", -1);
      guint n = g_strv_length (f);
      gsize len;

      if (n < 10 || strcmp (f[2], want) != 0)
        continue;
      len = strlen (f[4]);
      if (!g_str_has_prefix (real, f[4]) ||
          (len > 1 && real[len] != '\0' && real[len] != '/'))
        continue;
      if (best == NULL || len > best_len)
        {
          g_strfreev (best);
          best = g_steal_pointer (&f);
          best_len = len;
        }
    }

  if (best == NULL)
    {
      json_object_set_null_member (o, "filesystem");
      return;
    }

  {
    /* id parent maj:min root mountpoint options [optional...] - fstype source superopts */
    guint dash = 6;
    JsonObject *fs = json_object_new ();
    const char *superopts;
    const char *compress = NULL;
    g_auto (GStrv) opts = NULL;

    while (best[dash] != NULL && strcmp (best[dash], "-") != 0)
      dash++;
    superopts = best[dash] && best[dash + 1] && best[dash + 2] ? best[dash + 3] : NULL;

    ds_environment_set_string (fs, "mount_point", best[4]);
    ds_environment_set_string (fs, "type", best[dash] ? best[dash + 1] : NULL);
    ds_environment_set_string (fs, "source", best[dash] && best[dash + 1] ? best[dash + 2] : NULL);
    ds_environment_set_string (fs, "mount_options", best[5]);
    ds_environment_set_string (fs, "super_options", superopts);

    /* btrfs says compress=zstd:3 (or compress-force=) among its options. */
    opts = superopts ? g_strsplit (superopts, ",", -1) : NULL;
    for (guint i = 0; opts != NULL && opts[i] != NULL; i++)
      if (g_str_has_prefix (opts[i], "compress"))
        compress = strchr (opts[i], '=') ? strchr (opts[i], '=') + 1 : opts[i];
    ds_environment_set_string (fs, "compression", compress);

    if (ret_source != NULL && best[dash] && best[dash + 1] && best[dash + 2])
      *ret_source = g_strdup (best[dash + 2]);
    json_object_set_object_member (o, "filesystem", fs);
  }
}

static uint64_t
mem_total (void)
{
  g_autofree char *text = read_text ("/proc/meminfo");
  const char *p = text ? strstr (text, "MemTotal:") : NULL;

  if (p == NULL)
    return 0;

  return g_ascii_strtoull (p + strlen ("MemTotal:"), NULL, 10) * 1024;
}

/* The kernel's name of the block device @dev ("sda1"), or NULL. */
static char *
block_name (const char *sysfs,
            dev_t       dev)
{
  g_autofree char *link = g_strdup_printf ("%s/dev/block/%u:%u", sysfs, major (dev), minor (dev));
  g_autofree char *real = realpath (link, NULL);

  return real ? g_path_get_basename (real) : NULL;
}

DsEnvironment *
ds_environment_collect (const char *path,
                        const char *sysfs)
{
  DsEnvironment *env = g_new0 (DsEnvironment, 1);
  JsonObject *o = json_object_new ();
  g_autofree char *governor = read_text ("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  g_autofree char *disk = NULL;
  g_autofree char *source = NULL;
  struct stat st;

  env->json = o;
  env->ram_bytes = mem_total ();
  if (sysfs == NULL)
    sysfs = "/sys";

  ds_environment_set_string (o, "cpu_governor", governor);
  json_object_set_int_member (o, "memory_bytes", (gint64) env->ram_bytes);
  /* What the run's own I/O threads run at (ds-io-worker.c). */
  json_object_set_int_member (o, "io_threads_nice", DS_IO_NICE);
  json_object_set_string_member (o, "io_threads_policy", DS_IO_SCHED_IDLE ? "idle" : "normal");

  if (path == NULL || stat (path, &st) != 0)
    {
      json_object_set_null_member (o, "device");
      return env;
    }

  env->is_file = !S_ISBLK (st.st_mode);
  if (env->is_file)
    {
      g_autofree char *real = realpath (path, NULL);

      mount_of (o, real ? real : path, st.st_dev, &source);
      env->diskstats_name = block_name (sysfs, st.st_dev);
      /* btrfs and others give files an anonymous device: the mount's
       * source names the real one. */
      if (env->diskstats_name == NULL && source != NULL && g_str_has_prefix (source, "/dev/"))
        {
          struct stat src;

          if (stat (source, &src) == 0 && S_ISBLK (src.st_mode))
            env->diskstats_name = block_name (sysfs, src.st_rdev);
        }
    }
  else
    {
      env->diskstats_name = block_name (sysfs, st.st_rdev);
    }

  ds_environment_set_string (o, "device", env->diskstats_name);
  if (env->diskstats_name == NULL)
    return env;

  json_object_set_array_member (o, "stack", ds_environment_stack (env, sysfs, env->diskstats_name));

  /* The queue is the whole disk's: a partition has none of its own. */
  {
    g_autofree char *part = g_strdup_printf ("%s/class/block/%s/partition", sysfs, env->diskstats_name);

    if (g_file_test (part, G_FILE_TEST_EXISTS))
      {
        g_autofree char *link = g_strdup_printf ("%s/class/block/%s", sysfs, env->diskstats_name);
        g_autofree char *real = realpath (link, NULL);
        g_autofree char *up = real ? g_path_get_dirname (real) : NULL;

        disk = up ? g_path_get_basename (up) : NULL;
      }
    else
      disk = g_strdup (env->diskstats_name);
  }
  if (disk != NULL)
    queue_settings (o, sysfs, disk, env);

  return env;
}

void
ds_environment_free (DsEnvironment *env)
{
  if (env == NULL)
    return;
  g_clear_pointer (&env->json, json_object_unref);
  g_free (env->diskstats_name);
  g_free (env->loop_no_dio);
  g_free (env->cache_layer);
  g_free (env);
}

/* @member of @o as text for the report, in *@buf (freed first): a string
 * from the file is anyone's, so it is escaped here (ds_text_sanitize) and
 * cannot start a line of its own. */
static const char *
member_text (JsonObject *o,
             const char *member,
             char      **buf)
{
  JsonNode *n = o ? json_object_get_member (o, member) : NULL;

  g_clear_pointer (buf, g_free);
  if (n == NULL || JSON_NODE_HOLDS_NULL (n) || !JSON_NODE_HOLDS_VALUE (n))
    return "?";
  if (json_node_get_value_type (n) == G_TYPE_STRING)
    *buf = ds_text_sanitize_short (json_node_get_string (n), 200);
  else if (json_node_get_value_type (n) == G_TYPE_BOOLEAN)
    return json_node_get_boolean (n) ? "yes" : "no";
  else
    *buf = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (n));
  return *buf;
}

void
ds_environment_report (JsonObject *e,
                       const char *kernel,
                       GString    *out)
{
  g_autofree char *b1 = NULL, *b2 = NULL, *b3 = NULL, *b4 = NULL, *b5 = NULL, *b6 = NULL;
  const char *governor;
  JsonArray *stack;
  JsonObject *fs;

  if (e == NULL || !json_object_has_member (e, "device"))
    return;

  governor = member_text (e, "cpu_governor", &b1);
  /* A VM or a kernel without cpufreq has no governor to say. */
  {
    g_autofree char *k = ds_text_sanitize_short (kernel ? kernel : "?", 200);

    g_string_append_printf (out, "Environment: kernel %s, CPU governor %s\n", k,
                            strcmp (governor, "?") == 0 ? "not reported" : governor);
  }
  {
    /* "? KiB" for a read-ahead not reported read as a size. */
    const char *ra = member_text (e, "read_ahead_kb", &b2);
    g_autofree char *read_ahead = strcmp (ra, "?") == 0 ? g_strdup ("not reported") :
                                  g_strdup_printf ("%s KiB", ra);

    g_string_append_printf (out, "  Queue: scheduler %s, read-ahead %s, write cache %s, "
                            "rotational %s, nr_requests %s\n",
                            member_text (e, "scheduler", &b5), read_ahead,
                            member_text (e, "write_cache", &b3), member_text (e, "rotational", &b6),
                            member_text (e, "nr_requests", &b4));
  }

  stack = json_object_has_member (e, "stack") &&
          JSON_NODE_HOLDS_ARRAY (json_object_get_member (e, "stack"))
          ? json_object_get_array_member (e, "stack") : NULL;
  if (stack != NULL && json_array_get_length (stack) > 0)
    {
      g_string_append (out, "  Stack:");
      for (guint i = 0; i < json_array_get_length (stack); i++)
        {
          JsonNode *n = json_array_get_element (stack, i);
          JsonObject *l = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
          g_autofree char *x = NULL, *y = NULL;

          /* x is reused: each value is printed before the next is read. */
          g_string_append_printf (out, "%s %s (%s", i > 0 ? " ->" : "",
                                  member_text (l, "name", &x), member_text (l, "type", &y));
          if (l != NULL && json_object_has_member (l, "direct_io"))
            g_string_append_printf (out, ", direct I/O %s", member_text (l, "direct_io", &x));
          if (l != NULL && json_object_has_member (l, "raid_level"))
            g_string_append_printf (out, ", %s", member_text (l, "raid_level", &x));
          g_string_append_c (out, ')');
        }
      g_string_append_c (out, '\n');
    }

  if (json_object_has_member (e, "io_threads_nice"))
    {
      g_autofree char *x = NULL;

      g_autofree char *policy = NULL;

      if (json_object_has_member (e, "io_threads_policy") &&
          g_strcmp0 (member_text (e, "io_threads_policy", &policy), "idle") == 0)
        g_string_append_printf (out, "  I/O threads: idle scheduling class, nice %s (below the program's own threads)\n",
                                member_text (e, "io_threads_nice", &x));
      else
        g_string_append_printf (out, "  I/O threads: nice %s (below the program's own threads)\n",
                                member_text (e, "io_threads_nice", &x));
    }

  fs = json_object_has_member (e, "filesystem") &&
       JSON_NODE_HOLDS_OBJECT (json_object_get_member (e, "filesystem"))
       ? json_object_get_object_member (e, "filesystem") : NULL;
  if (fs != NULL)
    {
      g_autofree char *x = NULL, *y = NULL, *z = NULL;
      const char *type = member_text (fs, "type", &x);
      const char *compression = member_text (fs, "compression", &z);

      /* Compression is a mount option of btrfs's (compress=zstd:3); other
       * filesystems have none to say, and saying "compression ?" of ext4
       * read as an unknown. */
      g_string_append_printf (out, "  Filesystem: %s (%s)%s%s\n", type,
                              member_text (fs, "mount_options", &y),
                              strcmp (compression, "?") != 0 ? ", compression " :
                              strcmp (type, "btrfs") == 0 ? ", no compression" : "",
                              strcmp (compression, "?") != 0 ? compression : "");
    }
}

/* The members the result keeps in fields of its own. */
static gboolean
is_base_member (const char *name)
{
  return strcmp (name, "started_at") == 0 || strcmp (name, "hostname") == 0 ||
         strcmp (name, "kernel") == 0;
}

void
ds_result_environment_to_json (const DsResult *result,
                               JsonObject     *env)
{
  g_autoptr (GList) names = NULL;

  if (result->environment == NULL)
    return;

  /* In the order they were set (an iterator goes in hash order). */
  names = json_object_get_members (result->environment);
  for (GList *l = names; l != NULL; l = l->next)
    if (!is_base_member (l->data))
      json_object_set_member (env, l->data,
                              json_node_copy (json_object_get_member (result->environment, l->data)));
}

void
ds_result_environment_from_json (DsResult   *result,
                                 JsonObject *env)
{
  g_autoptr (GList) names = json_object_get_members (env);

  g_clear_pointer (&result->environment, json_object_unref);
  for (GList *l = names; l != NULL; l = l->next)
    {
      if (is_base_member (l->data))
        continue;
      if (result->environment == NULL)
        result->environment = json_object_new ();
      json_object_set_member (result->environment, l->data,
                              json_node_copy (json_object_get_member (env, l->data)));
    }
}
