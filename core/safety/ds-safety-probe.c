/* ds-safety-probe.c: what is at a path, probed once for the write gate
 *
 * A block device: its identity, read-only flag and signature (ds-device).
 * A regular file: its filesystem's read-only flag, swap, the locks other
 * programs hold on it (/proc/locks: QEMU locks its disk images) and its
 * signature (libblkid reads files as well as devices).  For both, what
 * shares their bytes (the loops, partitions, dm and md sets stacked over,
 * under and beside them, and their mounts) comes from ds-safety-stack.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-device-facts.h"
#include "ds-safety-private.h"
#include "ds-units.h"

const char *
ds_describe_file_type (mode_t mode)
{
  if (S_ISREG (mode))
    return _("a regular file");
  if (S_ISDIR (mode))
    return _("a folder");
  if (S_ISBLK (mode))
    return _("a block device");
  if (S_ISCHR (mode))
    return _("a character device");
  if (S_ISFIFO (mode))
    return _("a FIFO (named pipe)");
  if (S_ISSOCK (mode))
    return _("a socket");
  if (S_ISLNK (mode))
    return _("a symbolic link");

  return _("of an unknown type");
}

static gboolean
same_target (const struct stat *a,
             const struct stat *b)
{
  if (S_ISBLK (a->st_mode) && S_ISBLK (b->st_mode))
    return a->st_rdev == b->st_rdev;
  if (S_ISREG (a->st_mode) && S_ISREG (b->st_mode))
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;

  return FALSE;
}

/* TRUE if @confirm names the device or file @st is: a path, a symlink to
 * it, or for a device a bare name ("loop0" for /dev/loop0). */
static gboolean
confirm_names (const char        *confirm,
               const struct stat *st)
{
  struct stat cst;

  if (confirm == NULL || confirm[0] == '\0')
    return FALSE;
  if (stat (confirm, &cst) == 0 && same_target (&cst, st))
    return TRUE;
  if (S_ISBLK (st->st_mode) && strchr (confirm, '/') == NULL)
    {
      g_autofree char *dev = g_build_filename ("/dev", confirm, NULL);

      return stat (dev, &cst) == 0 && same_target (&cst, st);
    }

  return FALSE;
}

/* ---- block devices ---- */

/* BLKROGET: the kernel's own read-only flag (sysfs `ro` can lag behind a
 * BLKROSET).  FALSE when the device cannot be opened to ask. */
static gboolean
ioctl_read_only (const char *path)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  int ro = 0;

  if (fd < 0)
    return FALSE;
  if (ioctl (fd, BLKROGET, &ro) != 0)
    ro = 0;
  close (fd);

  return ro != 0;
}

static void
probe_block (DsTargetFacts *facts,
             const char    *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsDevice) device = ds_device_lookup (path, &error);

  if (device == NULL)
    {
      facts->unknown = g_strdup (error->message);
      return;
    }

  g_free (facts->description);
  facts->description = ds_device_describe (device);
  facts->size_bytes = device->size_bytes;
  facts->read_only = device->read_only || ioctl_read_only (path);
  facts->signature = g_steal_pointer (&device->signature);
  facts->signature_label = g_steal_pointer (&device->signature_label);
}

/* ---- regular files ---- */

/* Who holds a lock on @st: /proc/locks lines read
 *   "1: POSIX  ADVISORY  WRITE 1234 08:02:5678 0 EOF"
 * with the filesystem's major:minor in hex and the inode in decimal (an
 * OFD lock, as QEMU takes, shows pid -1). */
char *
ds_safety_find_lock (const struct stat *st)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/locks", &contents, NULL, NULL))
    return NULL;

  lines = g_strsplit (contents, "\n", -1);
  for (size_t i = 0; lines[i] != NULL; i++)
    {
      char type[16], mode[16], access[16];
      unsigned major, minor;
      unsigned long long ino;
      long pid;
      g_autofree char *comm_path = NULL;
      g_autofree char *comm = NULL;

      if (strstr (lines[i], "->") != NULL)
        continue;   /* a waiter, not a holder */
      if (sscanf (lines[i], "%*d: %15s %15s %15s %ld %x:%x:%llu",
                  type, mode, access, &pid, &major, &minor, &ino) != 7)
        continue;
      if (major != major (st->st_dev) || minor != minor (st->st_dev) ||
          ino != (unsigned long long) st->st_ino)
        continue;
      /* The kernel's names, as users know the locks: OFDLCK is "OFD". */
      if (strcmp (type, "OFDLCK") == 0)
        strcpy (type, "OFD");

      if (pid <= 0)
        return g_strdup_printf (_("another program (%s lock)"), type);
      comm_path = g_strdup_printf ("/proc/%ld/comm", pid);
      if (g_file_get_contents (comm_path, &comm, NULL, NULL))
        return g_strdup_printf (_("process %ld (%s, %s lock)"), pid, g_strstrip (comm), type);
      return g_strdup_printf (_("process %ld (%s lock)"), pid, type);
    }

  return NULL;
}

static void
probe_file (DsTargetFacts     *facts,
            const char        *path,
            const struct stat *st)
{
  struct statvfs vfs;

  if (statvfs (path, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
    facts->read_only = TRUE;
  if (ds_swap_uses (st))
    facts->in_use = g_strdup (_("used as swap"));
  facts->locked_by = ds_safety_find_lock (st);
  if (st->st_size > 0)
    ds_device_probe_signature (path, &facts->signature, &facts->signature_label);
}

void
ds_safety_probe (DsTargetFacts *facts,
                 const char    *path,
                 const char    *confirm,
                 gboolean       deep)
{
  struct stat st;

  *facts = (DsTargetFacts) {
    .path = g_strdup (path),
    .confirm = g_strdup (confirm),
  };

  if (stat (path, &st) != 0)
    {
      facts->kind = DS_FACTS_MISSING;
      facts->stat_errno = errno;
      /* Not nothing: a symbolic link to nothing. */
      if (errno == ENOENT && lstat (path, &st) == 0 && S_ISLNK (st.st_mode))
        facts->dangling_link = g_file_read_link (path, NULL);
      return;
    }

  if (S_ISBLK (st.st_mode))
    {
      facts->kind = DS_FACTS_BLOCK;
      facts->dev = st.st_rdev;
    }
  else if (S_ISREG (st.st_mode))
    {
      g_autofree char *size = ds_format_size ((uint64_t) st.st_size);

      facts->kind = DS_FACTS_FILE;
      facts->dev = st.st_dev;
      facts->ino = st.st_ino;
      facts->size_bytes = (uint64_t) st.st_size;
      facts->description = g_strdup_printf (_("the file %s (%s)"), path, size);
    }
  else
    {
      facts->kind = DS_FACTS_OTHER;
      facts->other_what = ds_describe_file_type (st.st_mode);
      return;
    }

  facts->confirm_matches = confirm_names (confirm, &st);
  if (!deep)
    return;

  if (facts->kind == DS_FACTS_BLOCK)
    probe_block (facts, path);
  else
    probe_file (facts, path, &st);
  ds_safety_probe_stack (facts, path, &st);
}
