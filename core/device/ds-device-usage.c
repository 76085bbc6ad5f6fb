/* ds-device-usage.c: is a block device in use (mounts, holders, swap,
 * partitions), and what it holds (libblkid signatures)
 *
 * Mounts come from /proc/self/mountinfo, swap from /proc/swaps, signatures
 * from libblkid (a read-only probe; a device the user may not open simply
 * has no known signature).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid.h>

#include "ds-device-facts.h"

typedef struct blkid_struct_probe DsBlkidProbe;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsBlkidProbe, blkid_free_probe)

void
ds_mount_entry_free (gpointer data)
{
  DsMountEntry *entry = data;

  g_free (entry->mountpoint);
  g_free (entry->source);
  g_free (entry);
}

/* ---- mounts and swaps ---- */

GPtrArray *
ds_mounts_read (void)
{
  GPtrArray *mounts = g_ptr_array_new_with_free_func (ds_mount_entry_free);
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/self/mountinfo", &contents, NULL, NULL))
    return mounts;

  /* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER */
  lines = g_strsplit (contents, "\n", -1);
  for (size_t i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], " ", -1);
      unsigned major, minor;
      DsMountEntry *entry;
      guint n = g_strv_length (fields);
      guint sep;

      if (n < 7 || sscanf (fields[2], "%u:%u", &major, &minor) != 2)
        continue;

      entry = g_new0 (DsMountEntry, 1);
      entry->major = major;
      entry->minor = minor;
      /* Spaces and friends are octal escapes (\040): g_strcompress undoes them. */
      entry->mountpoint = g_strcompress (fields[4]);
      for (sep = 6; sep < n && strcmp (fields[sep], "-") != 0; sep++)
        ;
      if (sep + 2 < n)
        entry->source = g_strcompress (fields[sep + 2]);
      g_ptr_array_add (mounts, entry);
    }

  return mounts;
}

/* Mount points of MAJOR:MINOR (or of a mount whose source is @path). */
char **
ds_mounts_points_for (GPtrArray  *mounts,
                      unsigned    major,
                      unsigned    minor,
                      const char *path)
{
  GPtrArray *points = g_ptr_array_new ();

  for (guint i = 0; i < mounts->len; i++)
    {
      DsMountEntry *entry = g_ptr_array_index (mounts, i);
      gboolean match = entry->major == major && entry->minor == minor;

      /* btrfs and friends report an anonymous 0:N; the source still names
       * the device. */
      if (!match && entry->major == 0 && entry->source != NULL &&
          g_strcmp0 (entry->source, path) == 0)
        match = TRUE;
      if (match && !g_ptr_array_find_with_equal_func (points, entry->mountpoint,
                                                      g_str_equal, NULL))
        g_ptr_array_add (points, g_strdup (entry->mountpoint));
    }

  return ds_ptr_array_to_strv (points);
}

gboolean
ds_swap_uses (const struct stat *target)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/swaps", &contents, NULL, NULL))
    return FALSE;

  /* "Filename Type Size Used Priority", the name with octal escapes. */
  lines = g_strsplit (contents, "\n", -1);
  for (size_t i = 1; lines[i] != NULL; i++)
    {
      g_autofree char *escaped = NULL;
      g_autofree char *filename = NULL;
      char *space = strpbrk (lines[i], " \t");
      struct stat st;

      if (space == NULL)
        continue;
      escaped = g_strndup (lines[i], space - lines[i]);
      filename = g_strcompress (escaped);
      if (stat (filename, &st) != 0)
        continue;
      if (S_ISBLK (target->st_mode) && S_ISBLK (st.st_mode) && st.st_rdev == target->st_rdev)
        return TRUE;
      if (S_ISREG (target->st_mode) && S_ISREG (st.st_mode) &&
          st.st_dev == target->st_dev && st.st_ino == target->st_ino)
        return TRUE;
    }

  return FALSE;
}

gboolean
ds_swap_is_active (unsigned major,
                   unsigned minor)
{
  struct stat st = { .st_mode = S_IFBLK, .st_rdev = makedev (major, minor) };

  return ds_swap_uses (&st);
}

/* ---- signatures ---- */

/* Reads the first filesystem or partition-table signature of @path with
 * libblkid.  Leaves both NULL when there is none or the device cannot be
 * opened (no permission: `list` still works for a plain user). */
void
ds_device_probe_signature (const char  *path,
                           char       **ret_type,
                           char       **ret_label)
{
  g_autoptr (DsBlkidProbe) probe = NULL;
  const char *value = NULL;
  int rc;

  *ret_type = NULL;
  *ret_label = NULL;

  probe = blkid_new_probe_from_filename (path);
  if (probe == NULL)
    return;

  blkid_probe_enable_superblocks (probe, 1);
  blkid_probe_set_superblocks_flags (probe, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL);
  blkid_probe_enable_partitions (probe, 1);
  blkid_probe_set_partitions_flags (probe, BLKID_PARTS_MAGIC);

  rc = blkid_do_safeprobe (probe);
  if (rc == -2)
    {
      /* Ambiguous (say, remains of two filesystems): still something a
       * write would destroy, so name the first one found. */
      blkid_reset_probe (probe);
      rc = blkid_do_probe (probe);
    }
  if (rc != 0)
    return;

  if (blkid_probe_lookup_value (probe, "TYPE", &value, NULL) == 0 ||
      blkid_probe_lookup_value (probe, "PTTYPE", &value, NULL) == 0)
    *ret_type = g_strdup (value);
  if (blkid_probe_lookup_value (probe, "LABEL", &value, NULL) == 0 &&
      value[0] != '\0')
    *ret_label = g_strdup (value);
}

/* ---- who has it open ---- */

/* The first line of /proc/PID/comm ("systemd-udevd"), or NULL. */
static char *
process_name (const char *pid)
{
  g_autofree char *path = g_build_filename ("/proc", pid, "comm", NULL);
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  g_strchomp (text);
  return text;
}

static gboolean
process_has_open (const char *pid,
                  dev_t       rdev)
{
  g_autofree char *fd_dir = g_build_filename ("/proc", pid, "fd", NULL);
  g_autoptr (GDir) dir = g_dir_open (fd_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *link = g_build_filename (fd_dir, name, NULL);
      struct stat st;

      /* stat() follows the fd's link to the open file itself, so a
       * device opened through any name (or deleted node) is found. */
      if (stat (link, &st) == 0 && S_ISBLK (st.st_mode) && st.st_rdev == rdev)
        return TRUE;
    }

  return FALSE;
}

char *
ds_block_device_openers (dev_t rdev)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  g_autoptr (GString) who = g_string_new (NULL);
  g_autofree char *self = g_strdup_printf ("%d", (int) getpid ());
  const char *pid;

  while (proc != NULL && (pid = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *comm = NULL;

      if (!g_ascii_isdigit (pid[0]) || g_str_equal (pid, self) || !process_has_open (pid, rdev))
        continue;
      comm = process_name (pid);
      if (who->len > 0)
        g_string_append (who, ", ");
      /* Translators: a program that has a device open: "fio (pid 9120)". */
      g_string_append_printf (who, _("%s (pid %s)"), comm != NULL ? comm : "?", pid);
    }

  return who->len > 0 ? g_string_free (g_steal_pointer (&who), FALSE) : NULL;
}

/* ---- in use ---- */

static void
append_reason (GString    *reason,
               const char *text)
{
  if (reason->len > 0)
    g_string_append (reason, "; ");
  g_string_append (reason, text);
}

static char *
join_quoted (char **names)
{
  return g_strjoinv (", ", names);
}

gboolean
ds_device_in_use (const DsDevice  *device,
                  char           **ret_reason)
{
  g_autoptr (GString) reason = g_string_new (NULL);
  g_autoptr (GPtrArray) mounts = NULL;

  g_return_val_if_fail (device != NULL, FALSE);

  if (device->mountpoints != NULL && device->mountpoints[0] != NULL)
    {
      g_autofree char *where = join_quoted (device->mountpoints);
      g_autofree char *text = g_strdup_printf (_("mounted at %s"), where);

      append_reason (reason, text);
    }
  if (device->holders != NULL && device->holders[0] != NULL)
    {
      g_autofree char *who = join_quoted (device->holders);
      g_autofree char *text = g_strdup_printf (_("held by %s"), who);

      append_reason (reason, text);
    }
  if (device->major != 0 && ds_swap_is_active (device->major, device->minor))
    append_reason (reason, _("used as swap"));

  /* A disk is in use when any of its partitions is. */
  for (size_t i = 0; device->partitions != NULL && device->partitions[i] != NULL; i++)
    {
      const char *part = device->partitions[i];
      g_autofree char *dir = g_build_filename (SYS_CLASS_BLOCK, part, NULL);
      g_autofree char *dev = ds_sysfs_read_attr (dir, "dev");
      g_autofree char *part_path = g_build_filename ("/dev", part, NULL);
      g_auto (GStrv) points = NULL;
      g_auto (GStrv) holders = NULL;
      unsigned major, minor;

      if (dev == NULL || sscanf (dev, "%u:%u", &major, &minor) != 2)
        continue;
      if (mounts == NULL)
        mounts = ds_mounts_read ();

      points = ds_mounts_points_for (mounts, major, minor, part_path);
      if (points[0] != NULL)
        {
          g_autofree char *where = join_quoted (points);
          g_autofree char *text = g_strdup_printf (_("%s is mounted at %s"), part, where);

          append_reason (reason, text);
        }
      holders = ds_sysfs_list_dir_names (dir, "holders");
      if (holders[0] != NULL)
        {
          g_autofree char *who = join_quoted (holders);
          g_autofree char *text = g_strdup_printf (_("%s is held by %s"), part, who);

          append_reason (reason, text);
        }
      if (ds_swap_is_active (major, minor))
        {
          g_autofree char *text = g_strdup_printf (_("%s is used as swap"), part);

          append_reason (reason, text);
        }
    }

  if (reason->len == 0)
    {
      if (ret_reason != NULL)
        *ret_reason = NULL;
      return FALSE;
    }

  if (ret_reason != NULL)
    *ret_reason = g_string_free (g_steal_pointer (&reason), FALSE);
  return TRUE;
}

