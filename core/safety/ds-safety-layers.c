/* ds-safety-layers.c: the layers of a stack of block devices, for the
 * write gate's walk (ds-safety-stack.c)
 *
 * A layer is a block device (its sysfs folder, /dev name and size) or a
 * file a loop device is bound to.  The loop driver's records are read
 * once per probe: for each bound loop, its window on the backing (offset,
 * size) and who the backing is, as the driver holds it (LOOP_GET_STATUS64:
 * a file's device and inode, a device node's number), so a renamed or
 * deleted name, a hard link or a mknod copy of a node is still the same
 * backing.  A layer's own use is its mounts and swap (a file's: swap and
 * the locks other programs hold on it).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-device-facts.h"
#include "ds-safety-private.h"

void
ds_layer_clear (DsLayer *node)
{
  g_clear_pointer (&node->label, g_free);
  g_clear_pointer (&node->sysdir, g_free);
  g_clear_pointer (&node->name, g_free);
}

static void
ds_loop_record_free (gpointer data)
{
  DsLoopRecord *loop = data;

  g_free (loop->name);
  g_free (loop->backing);
  g_free (loop);
}

void
ds_safety_set_unknown (DsStackWalk *walk,
                       const char  *format,
                       ...)
{
  va_list args;

  if (walk->facts->unknown != NULL)
    return;   /* the first doubt is enough to refuse */
  va_start (args, format);
  walk->facts->unknown = g_strdup_vprintf (format, args);
  va_end (args);
}

/* ---- the layers ---- */

/* The device @dev, from sysfs: /sys/dev/block/MAJ:MIN is its folder (a
 * symlink: no path is resolved but its name), "/dev/NAME" and size. */
gboolean
ds_layer_from_dev (DsStackWalk *walk,
                   dev_t        dev,
                   DsLayer     *ret_node)
{
  g_autofree char *sysdir = g_strdup_printf ("/sys/dev/block/%u:%u", major (dev), minor (dev));
  g_autofree char *link = g_file_read_link (sysdir, NULL);
  g_autofree char *name = NULL;
  g_autofree char *dm_name = NULL;
  uint64_t sectors;

  if (link == NULL || !ds_sysfs_read_u64 (sysdir, "size", &sectors))
    {
      ds_safety_set_unknown (walk, _("the block device %u:%u has no readable entry in %s"),
                             major (dev), minor (dev), "/sys/dev/block");
      return FALSE;
    }

  name = g_path_get_basename (link);
  if (g_str_has_prefix (name, "dm-"))
    dm_name = ds_sysfs_read_attr (sysdir, "dm/name");
  *ret_node = (DsLayer) {
    .dev = dev,
    .name = g_strdup (name),
    .label = dm_name != NULL ? g_strdup_printf ("/dev/%s (%s)", name, dm_name)
                             : g_strdup_printf ("/dev/%s", name),
    .sysdir = g_steal_pointer (&sysdir),
    .size = sectors * 512,
  };

  return TRUE;
}

/* The device whose sysfs folder (or /sys/class/block entry) is @dir. */
gboolean
ds_layer_from_sysdir (DsStackWalk *walk,
                      const char  *dir,
                      DsLayer     *ret_node)
{
  g_autofree char *text = ds_sysfs_read_attr (dir, "dev");
  unsigned maj, min;

  if (text == NULL || sscanf (text, "%u:%u", &maj, &min) != 2)
    {
      ds_safety_set_unknown (walk, _("%s has no device number in sysfs"), dir);
      return FALSE;
    }

  return ds_layer_from_dev (walk, makedev (maj, min), ret_node);
}

/* The loop driver's device numbers are the kernel's "huge" encoding:
 * minor's low byte, major, minor's rest. */
static dev_t
decode_loop_dev (uint64_t value)
{
  return makedev ((unsigned) ((value & 0xfff00) >> 8),
                  (unsigned) ((value & 0xff) | ((value >> 12) & 0xfff00)));
}

/* Who the loop @loop is bound to, and where its window starts: the
 * driver knows (an open and an ioctl); without permission to ask, sysfs
 * (@sysdir) and the path it shows, when that still resolves.  FALSE when
 * the loop came unbound meanwhile (another program detached it). */
static gboolean
loop_identify (DsLoopRecord *loop,
               const char   *sysdir)
{
  g_autofree char *node = g_build_filename ("/dev", loop->name, NULL);
  g_autofree char *still = NULL;
  struct loop_info64 info;
  struct stat st;
  int fd = open (node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

  if (fd >= 0)
    {
      int r = ioctl (fd, LOOP_GET_STATUS64, &info);
      int e = errno;

      close (fd);
      if (r == 0)
        {
          loop->known = TRUE;
          loop->block = info.lo_rdevice != 0;
          loop->bdev = decode_loop_dev (loop->block ? info.lo_rdevice : info.lo_device);
          loop->bino = (ino_t) info.lo_inode;
          loop->offset = info.lo_offset;
          return TRUE;
        }
      if (e == ENXIO)
        return FALSE;   /* unbound since sysfs was read */
    }

  loop->offset = ds_sysfs_read_u64_or (sysdir, "loop/offset", 0);
  if (!g_str_has_suffix (loop->backing, " (deleted)") && stat (loop->backing, &st) == 0)
    {
      loop->known = S_ISBLK (st.st_mode) || S_ISREG (st.st_mode);
      loop->block = S_ISBLK (st.st_mode);
      loop->bdev = loop->block ? st.st_rdev : st.st_dev;
      loop->bino = loop->block ? 0 : st.st_ino;
      return TRUE;
    }

  /* Not known: unless it is no longer bound at all. */
  still = ds_sysfs_read_attr (sysdir, "loop/backing_file");
  return still != NULL;
}

/* Every bound loop device, once per probe. */
GPtrArray *
ds_loop_records_read (void)
{
  GPtrArray *loops = g_ptr_array_new_with_free_func (ds_loop_record_free);
  g_autoptr (GDir) dir = g_dir_open ("/sys/block", 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *sysdir = NULL;
      g_autofree char *dev = NULL;
      g_autofree char *backing = NULL;
      unsigned maj, min;
      DsLoopRecord *loop;

      if (!g_str_has_prefix (name, "loop"))
        continue;
      sysdir = g_build_filename ("/sys/block", name, NULL);
      backing = ds_sysfs_read_attr (sysdir, "loop/backing_file");
      if (backing == NULL)
        continue;   /* not bound */
      dev = ds_sysfs_read_attr (sysdir, "dev");
      if (dev == NULL || sscanf (dev, "%u:%u", &maj, &min) != 2)
        continue;   /* gone meanwhile */

      loop = g_new0 (DsLoopRecord, 1);
      loop->name = g_strdup (name);
      loop->rdev = makedev (maj, min);
      loop->size = ds_sysfs_read_u64_or (sysdir, "size", 0) * 512;
      loop->backing = g_steal_pointer (&backing);
      if (loop_identify (loop, sysdir))
        g_ptr_array_add (loops, loop);
      else
        ds_loop_record_free (loop);
    }

  return loops;
}

/* The loop device @dev, if it is a bound one. */
const DsLoopRecord *
ds_loop_records_find (DsStackWalk *walk,
                      dev_t        dev)
{
  for (guint i = 0; i < walk->loops->len; i++)
    {
      const DsLoopRecord *loop = g_ptr_array_index (walk->loops, i);

      if (loop->rdev == dev)
        return loop;
    }

  return NULL;
}

/* A loop bound to what it cannot be asked about, under @node's name: a
 * stale path that may be @node.  Nothing else is left in doubt. */
void
ds_loop_records_check_unknown (DsStackWalk   *walk,
                               const DsLayer *node)
{
  g_autofree char *base = g_path_get_basename (node->label);

  for (guint i = 0; i < walk->loops->len; i++)
    {
      const DsLoopRecord *loop = g_ptr_array_index (walk->loops, i);
      g_autofree char *shown = NULL;
      char *deleted;

      if (loop->known)
        continue;
      shown = g_path_get_basename (loop->backing);
      if ((deleted = g_strrstr (shown, " (deleted)")) != NULL)
        *deleted = '\0';
      if (g_str_equal (shown, base))
        ds_safety_set_unknown (walk, _("/dev/%s is bound to a file of the same name that no longer "
                             "resolves, and /dev/%s cannot be asked without permission "
                             "to open it"), loop->name, loop->name);
    }
}

/* ---- use ---- */

static void
append (GString    *text,
        const char *part)
{
  if (text->len > 0)
    g_string_append (text, "; ");
  g_string_append (text, part);
}

/* What uses @node itself ("mounted at /mnt/x", "used as swap", a lock on
 * a file); NULL when nothing does.  What is stacked on it is not its use:
 * the walk meets that as layers of their own. */
char *
ds_layer_in_use (DsStackWalk   *walk,
                 const DsLayer *node)
{
  g_autoptr (GString) use = g_string_new (NULL);

  if (node->file)
    {
      struct stat st = { .st_mode = S_IFREG, .st_dev = node->dev, .st_ino = node->ino };
      g_autofree char *lock = NULL;

      if (ds_swap_uses (&st))
        append (use, _("used as swap"));
      if ((lock = ds_safety_find_lock (&st)) != NULL)
        {
          g_autofree char *text = g_strdup_printf (_("locked by %s"), lock);

          append (use, text);
        }
    }
  else
    {
      g_auto (GStrv) points = NULL;
      g_autofree char *path = g_strdup_printf ("/dev/%s", node->name);

      if (walk->mounts == NULL)
        walk->mounts = ds_mounts_read ();
      points = ds_mounts_points_for (walk->mounts, major (node->dev), minor (node->dev), path);
      if (points[0] != NULL)
        {
          g_autofree char *where = g_strjoinv (", ", points);
          g_autofree char *text = g_strdup_printf (_("mounted at %s"), where);

          append (use, text);
        }
      if (ds_swap_is_active (major (node->dev), minor (node->dev)))
        append (use, _("used as swap"));
    }

  return use->len > 0 ? g_string_free (g_steal_pointer (&use), FALSE) : NULL;
}

/* The file a loop is bound to, as a layer. */
void
ds_layer_from_loop_file (const DsLoopRecord *loop,
                         DsLayer            *ret_node)
{
  struct stat st;
  gboolean here = stat (loop->backing, &st) == 0 && S_ISREG (st.st_mode) &&
                  st.st_dev == loop->bdev && st.st_ino == loop->bino;

  /* sysfs says " (deleted)" itself; a file renamed away, or replaced by
   * another under its name, is said so. */
  *ret_node = (DsLayer) {
    .file = TRUE,
    .dev = loop->bdev,
    .ino = loop->bino,
    .label = here || g_str_has_suffix (loop->backing, " (deleted)")
             ? g_strdup (loop->backing)
             : g_strdup_printf (_("%s (no longer at that path)"), loop->backing),
    .size = here ? (uint64_t) st.st_size : DS_LAYER_END_OPEN,
  };
}
