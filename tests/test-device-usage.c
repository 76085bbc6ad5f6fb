/* test-device-usage.c: is a device in use, and what it holds
 * (core/device/ds-device-usage.c), without root or a device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The mount table is this process's own /proc/self/mountinfo (read only:
 * every Linux has /proc mounted on its own anonymous device); the lookup
 * of mount points runs on a table made here.  Signatures are probed on
 * image files (an MBR, an ext4 made by mkfs.ext4, one with a swap
 * signature over it).  A disk's partitions are fake sysfs folders in a
 * temporary directory, named from /sys/class/block by a relative path.
 * Who has a block device open needs one this user may open: as root only.
 * A positive swap answer needs swapon (root, and the host's memory): not
 * tested here.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-device-facts.h"
#include "ds-test-util.h"

static char *dir;

static void
setup (void)
{
  dir = g_dir_make_tmp ("ds-device-usage-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
}

static char *
joined (char **names)
{
  return g_strjoinv (" ", names);
}

/* ---- mounts ---- */

/* Every line of mountinfo is an entry with an absolute mount point; /proc
 * is there, on the device stat() gives it, from the source "proc". */
START_TEST (test_mounts_read_proc)
{
  g_autoptr (GPtrArray) mounts = ds_mounts_read ();
  struct stat st;
  gboolean found = FALSE;

  ck_assert_int_eq (stat ("/proc", &st), 0);
  ck_assert_uint_gt (mounts->len, 0);
  for (guint i = 0; i < mounts->len; i++)
    {
      const DsMountEntry *entry = g_ptr_array_index (mounts, i);

      ck_assert_ptr_nonnull (entry->mountpoint);
      ck_assert_msg (entry->mountpoint[0] == '/', "mount point \"%s\"", entry->mountpoint);
      if (g_str_equal (entry->mountpoint, "/proc") &&
          entry->major == major (st.st_dev) && entry->minor == minor (st.st_dev))
        {
          ck_assert_str_eq (entry->source, "proc");
          found = TRUE;
        }
    }
  ck_assert_msg (found, "/proc (%u:%u) is not in the mount table", major (st.st_dev),
                 minor (st.st_dev));
}
END_TEST

/* Mount points are octal-escaped in mountinfo ("\040" for a space): as
 * many entries as lines with a MAJ:MIN, each mount point as it is, and
 * the source the field after the file system type (after the optional
 * fields and their "-"), not the type. */
START_TEST (test_mounts_read_matches_text)
{
  g_autoptr (GPtrArray) mounts = ds_mounts_read ();
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  guint n = 0;

  ck_assert (g_file_get_contents ("/proc/self/mountinfo", &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], " ", -1);
      g_autofree char *point = NULL;
      g_autofree char *source = NULL;
      const DsMountEntry *entry;
      guint sep;

      if (g_strv_length (fields) < 7)
        continue;
      point = g_strcompress (fields[4]);
      ck_assert_uint_lt (n, mounts->len);
      entry = g_ptr_array_index (mounts, n);
      ck_assert_str_eq (entry->mountpoint, point);
      sep = 6;
      while (fields[sep] != NULL && strcmp (fields[sep], "-") != 0)
        sep++;
      ck_assert_msg (fields[sep] != NULL && fields[sep + 1] != NULL && fields[sep + 2] != NULL,
                     "%s", lines[i]);
      source = g_strcompress (fields[sep + 2]);
      ck_assert_str_eq (entry->source, source);
      n++;
    }
  ck_assert_uint_eq (n, mounts->len);
}
END_TEST

static void
add_mount (GPtrArray  *mounts,
           unsigned    maj,
           unsigned    min,
           const char *point,
           const char *source)
{
  DsMountEntry *entry = g_new0 (DsMountEntry, 1);

  entry->major = maj;
  entry->minor = min;
  entry->mountpoint = g_strdup (point);
  entry->source = g_strdup (source);
  g_ptr_array_add (mounts, entry);
}

/* A device's mount points: each once, in the table's order (a bind mount
 * is a second point); an anonymous 0:N mount (btrfs) counts when its
 * source is the device's path, a numbered one does not; no match is an
 * empty list. */
START_TEST (test_mounts_points_for)
{
  g_autoptr (GPtrArray) mounts = g_ptr_array_new_with_free_func (ds_mount_entry_free);
  g_auto (GStrv) sda1 = NULL;
  g_auto (GStrv) btrfs = NULL;
  g_auto (GStrv) none = NULL;
  g_auto (GStrv) by_source = NULL;
  g_autofree char *text = NULL;
  g_autofree char *btrfs_text = NULL;

  add_mount (mounts, 8, 1, "/mnt/data", "/dev/sda1");
  add_mount (mounts, 8, 2, "/home", "/dev/sda2");
  add_mount (mounts, 8, 1, "/srv/bind", "/dev/sda1");
  add_mount (mounts, 8, 1, "/mnt/data", "/dev/sda1");
  add_mount (mounts, 0, 45, "/btrfs", "/dev/sdb1");
  add_mount (mounts, 0, 46, "/btrfs/@home", "/dev/sdb1");
  add_mount (mounts, 0, 47, "/tmp", NULL);
  add_mount (mounts, 8, 3, "/other", "/dev/sdc1");

  sda1 = ds_mounts_points_for (mounts, 8, 1, "/dev/sda1");
  text = joined (sda1);
  ck_assert_str_eq (text, "/mnt/data /srv/bind");

  btrfs = ds_mounts_points_for (mounts, 8, 17, "/dev/sdb1");
  btrfs_text = joined (btrfs);
  ck_assert_str_eq (btrfs_text, "/btrfs /btrfs/@home");

  /* A numbered mount whose source names the path is another device's. */
  by_source = ds_mounts_points_for (mounts, 8, 33, "/dev/sdc1");
  ck_assert_ptr_null (by_source[0]);

  none = ds_mounts_points_for (mounts, 7, 0, "/dev/loop0");
  ck_assert_ptr_nonnull (none);
  ck_assert_ptr_null (none[0]);

  g_strfreev (ds_mounts_points_for (mounts, 0, 47, NULL));
}
END_TEST

/* ---- swap ---- */

/* What is not a swap area is not: a regular file, a character device,
 * a device number no swap has.  Each line of /proc/swaps that names a
 * file or device this user can stat is one (none where there is no
 * swap). */
START_TEST (test_swap_not_used)
{
  g_autofree char *file = g_build_filename (dir, "swapfile", NULL);
  g_autofree char *swaps = NULL;
  g_auto (GStrv) lines = NULL;
  struct stat st;

  ck_assert (g_file_set_contents (file, "not swap", -1, NULL));
  ck_assert_int_eq (stat (file, &st), 0);
  ck_assert (!ds_swap_uses (&st));
  ck_assert_int_eq (stat ("/dev/null", &st), 0);
  ck_assert (!ds_swap_uses (&st));
  ck_assert (!ds_swap_is_active (0, 0));
  ck_assert (!ds_swap_is_active (4095, 1048575));

  ck_assert (g_file_get_contents ("/proc/swaps", &swaps, NULL, NULL));
  lines = g_strsplit (swaps, "\n", -1);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_autofree char *name = NULL;
      g_autofree char *path = NULL;
      char *space = strpbrk (lines[i], " \t");

      if (space == NULL)
        continue;
      name = g_strndup (lines[i], space - lines[i]);
      path = g_strcompress (name);
      if (stat (path, &st) != 0)
        continue;
      ck_assert_msg (ds_swap_uses (&st), "%s is in /proc/swaps", path);
      if (S_ISBLK (st.st_mode))
        ck_assert (ds_swap_is_active (major (st.st_rdev), minor (st.st_rdev)));
    }
}
END_TEST

/* ---- signatures ---- */

static char *
image (const char *name,
       uint64_t    size_bytes)
{
  char *path = g_build_filename (dir, name, NULL);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (ftruncate (fd, (off_t) size_bytes), 0);
  close (fd);
  return path;
}

/* mkfs.ext4 from PATH or the sbin folders (a user's PATH may lack them);
 * NULL when there is none. */
static char *
find_mkfs (void)
{
  const char *const places[] = { "/usr/sbin/mkfs.ext4", "/sbin/mkfs.ext4" };
  char *found = g_find_program_in_path ("mkfs.ext4");

  for (unsigned i = 0; found == NULL && i < G_N_ELEMENTS (places); i++)
    if (g_file_test (places[i], G_FILE_TEST_IS_EXECUTABLE))
      found = g_strdup (places[i]);
  return found;
}

/* An ext4 image, labelled @label ("" for none); NULL (with a note) when
 * mkfs.ext4 is not installed. */
static char *
ext4_image (const char *name,
            const char *label)
{
  g_autofree char *mkfs = find_mkfs ();
  char *path;

  if (mkfs == NULL)
    {
      ds_test_note ("SKIP no mkfs.ext4 here: the ext4 signatures are not probed");
      return NULL;
    }
  path = image (name, 4 << 20);
  {
    const char *argv[] = { mkfs, "-q", "-F", "-L", label, path, NULL };

    ds_test_run_ok (argv);
  }
  return path;
}

static void
probe (const char  *path,
       char       **ret_type,
       char       **ret_label)
{
  /* Whatever was there before is replaced, by NULL when nothing is found. */
  *ret_type = g_strdup ("stale");
  *ret_label = g_strdup ("stale");
  {
    char *old_type = *ret_type;
    char *old_label = *ret_label;

    ds_device_probe_signature (path, ret_type, ret_label);
    g_free (old_type);
    g_free (old_label);
  }
}

/* Nothing to find: a missing path, a folder, an empty file, zeros. */
START_TEST (test_signature_none)
{
  g_autofree char *missing = g_build_filename (dir, "missing.img", NULL);
  g_autofree char *empty = image ("empty.img", 0);
  g_autofree char *zeros = image ("zeros.img", 1 << 20);
  const char *paths[] = { missing, dir, empty, zeros };

  for (unsigned i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *type = NULL;
      g_autofree char *label = NULL;

      probe (paths[i], &type, &label);
      ck_assert_msg (type == NULL, "%s: type %s", paths[i], type);
      ck_assert_msg (label == NULL, "%s: label %s", paths[i], label);
    }
}
END_TEST

/* A DOS partition table: its type, and no label. */
START_TEST (test_signature_partition_table)
{
  g_autofree char *path = image ("mbr.img", 8 << 20);
  g_autofree char *type = NULL;
  g_autofree char *label = NULL;

  ds_test_write_mbr (path);
  probe (path, &type, &label);
  ck_assert_str_eq (type, "dos");
  ck_assert_ptr_null (label);
}
END_TEST

/* A filesystem: its type and label; without a label, no label (not "");
 * and remains of two (a swap signature over the ext4, which blkid calls
 * ambivalent) still name one of them: a write would destroy it. */
START_TEST (test_signature_filesystem)
{
  g_autofree char *labelled = ext4_image ("labelled.img", "dslabel");
  g_autofree char *plain = NULL;
  g_autofree char *type = NULL;
  g_autofree char *label = NULL;
  g_autofree char *type2 = NULL;
  g_autofree char *label2 = NULL;
  g_autofree char *type3 = NULL;
  g_autofree char *label3 = NULL;
  const uint32_t swap_header[2] = { GUINT32_TO_LE (1), GUINT32_TO_LE (1023) };
  int fd;

  if (labelled == NULL)
    return;
  probe (labelled, &type, &label);
  ck_assert_str_eq (type, "ext4");
  ck_assert_str_eq (label, "dslabel");

  plain = ext4_image ("plain.img", "");
  probe (plain, &type2, &label2);
  ck_assert_str_eq (type2, "ext4");
  ck_assert_ptr_null (label2);

  /* Swap's header (version 1, last page 1023) at 1 KiB, its magic at the
   * end of the first 4 KiB page. */
  fd = open (plain, O_WRONLY | O_CLOEXEC);
  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (pwrite (fd, swap_header, sizeof swap_header, 1024), sizeof swap_header);
  ck_assert_int_eq (pwrite (fd, "SWAPSPACE2", 10, 4096 - 10), 10);
  close (fd);
  probe (plain, &type3, &label3);
  ck_assert_msg (type3 != NULL && (g_str_equal (type3, "ext4") || g_str_equal (type3, "swap")),
                 "remains of ext4 and swap: %s", type3 ? type3 : "(none)");
}
END_TEST

/* A file this user may not read has no known signature (as root every
 * file may be read: skipped). */
START_TEST (test_signature_unreadable)
{
  g_autofree char *path = image ("mbr.img", 8 << 20);
  g_autofree char *type = NULL;
  g_autofree char *label = NULL;

  if (ds_test_is_root ())
    {
      ds_test_note ("SKIP root reads every file");
      return;
    }
  ds_test_write_mbr (path);
  ck_assert_int_eq (chmod (path, 0), 0);
  probe (path, &type, &label);
  ck_assert_ptr_null (type);
  ck_assert_ptr_null (label);
}
END_TEST

/* ---- who has it open ---- */

/* A device number no one has open: nobody named. */
START_TEST (test_openers_none)
{
  ck_assert_ptr_null (ds_block_device_openers (makedev (4095, 1048575)));
}
END_TEST

/* The first disk or partition of /sys/class/block that has a node in
 * /dev: not a loop, zram, device-mapper, md or nbd device (another
 * program's, which this test leaves alone). */
static char *
some_block_device (dev_t *ret_rdev)
{
  g_autoptr (GDir) d = g_dir_open ("/sys/class/block", 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/dev", name, NULL);
      struct stat st;

      if (g_str_has_prefix (name, "loop") || g_str_has_prefix (name, "zram") ||
          g_str_has_prefix (name, "dm-") || g_str_has_prefix (name, "md") ||
          g_str_has_prefix (name, "nbd"))
        continue;
      if (stat (path, &st) == 0 && S_ISBLK (st.st_mode))
        {
          *ret_rdev = st.st_rdev;
          return g_steal_pointer (&path);
        }
    }
  return NULL;
}

/* A process that has the device open, read only, is named with its pid
 * ("ds-opener (pid N)"); this process is not, though it has it open too.
 * As root only: a user may open no block device. */
START_TEST (test_openers_named)
{
  g_autofree char *device = NULL;
  g_autofree char *openers = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *before = NULL;
  g_autofree char *self = NULL;
  int ready[2];
  int fd;
  char c;
  pid_t pid;
  dev_t rdev = 0;
  int status;

  if (!ds_test_is_root ())
    {
      ds_test_note ("SKIP opening a block device needs root");
      return;
    }
  device = some_block_device (&rdev);
  if (device == NULL)
    {
      ds_test_note ("SKIP no block device node in /dev");
      return;
    }
  fd = open (device, O_RDONLY | O_CLOEXEC);
  if (fd < 0 && (errno == EPERM || errno == EACCES))
    {
      /* A container's device cgroup refuses even root. */
      ds_test_note ("SKIP %s cannot be opened here: %s", device, g_strerror (errno));
      return;
    }
  ck_assert_msg (fd >= 0, "%s: %s", device, g_strerror (errno));
  /* Others may have it open (udev, a mounted filesystem's kernel side is
   * no process): only this process must not be among them. */
  before = ds_block_device_openers (rdev);
  self = g_strdup_printf ("(pid %d)", (int) getpid ());
  ck_assert_msg (before == NULL || strstr (before, self) == NULL, "%s", before);

  ck_assert_int_eq (pipe (ready), 0);
  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0)
    {
      prctl (PR_SET_NAME, "ds-opener");
      close (ready[0]);
      /* fd is inherited until exec: the child has it open too. */
      if (write (ready[1], "R", 1) != 1)
        _exit (1);
      pause ();
      _exit (0);
    }
  close (ready[1]);
  ck_assert_int_eq (read (ready[0], &c, 1), 1);
  close (ready[0]);
  openers = ds_block_device_openers (rdev);
  expected = g_strdup_printf ("ds-opener (pid %d)", (int) pid);
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  close (fd);
  ck_assert_msg (openers != NULL && strstr (openers, expected) != NULL,
                 "%s: %s", device, openers ? openers : "(nobody)");
}
END_TEST

/* ---- in use ---- */

/* A partition folder of the fake sysfs, named from /sys/class/block by a
 * relative path ("../../../tmp/ds-device-usage-X/sdz1"). */
static char *
fake_partition (const char *name,
                const char *dev)
{
  g_autofree char *part_dir = g_build_filename (dir, name, NULL);

  ck_assert_int_eq (g_mkdir_with_parents (part_dir, 0755), 0);
  if (dev != NULL)
    {
      g_autofree char *dev_file = g_build_filename (part_dir, "dev", NULL);

      ck_assert (g_file_set_contents (dev_file, dev, -1, NULL));
    }
  return g_strconcat ("../../..", part_dir, NULL);
}

static void
fake_holder (const char *part,
             const char *holder)
{
  g_autofree char *path = g_build_filename (dir, part, "holders", holder, NULL);

  ck_assert_int_eq (g_mkdir_with_parents (path, 0755), 0);
}

/* A disk that is not mounted, held or swap is in use when a partition is:
 * mounted (its MAJ:MIN in the mount table: here /proc's), held (its
 * holders/, in natural order), each reason naming the partition, joined
 * by "; ".  A partition without a readable `dev`, or with no number in
 * it, is passed over; one that is neither mounted nor held adds nothing. */
START_TEST (test_in_use_by_partitions)
{
  g_autoptr (DsDevice) device = g_new0 (DsDevice, 1);
  g_autofree char *proc_dev = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *idle_reason = NULL;
  char *mounted, *held, *no_dev, *bad_dev, *idle;
  struct stat st;

  ck_assert_int_eq (stat ("/proc", &st), 0);
  proc_dev = g_strdup_printf ("%u:%u\n", major (st.st_dev), minor (st.st_dev));
  mounted = fake_partition ("sdz1", proc_dev);
  held = fake_partition ("sdz2", "4095:1048574\n");
  fake_holder ("sdz2", "dm-10");
  fake_holder ("sdz2", "dm-3");
  no_dev = fake_partition ("sdz3", NULL);
  fake_holder ("sdz3", "dm-4");
  bad_dev = fake_partition ("sdz4", "none\n");
  fake_holder ("sdz4", "dm-5");
  idle = fake_partition ("sdz5", "4095:1048573\n");

  device->name = g_strdup ("sdz");
  device->path = g_strdup ("/dev/sdz");
  device->type = DS_DEVICE_DISK;
  device->mountpoints = g_new0 (char *, 1);
  device->holders = g_new0 (char *, 1);
  device->partitions = g_new0 (char *, 2);
  device->partitions[0] = g_strdup (idle);
  ck_assert (!ds_device_in_use (device, &idle_reason));
  ck_assert_ptr_null (idle_reason);

  g_strfreev (device->partitions);
  device->partitions = g_new0 (char *, 6);
  device->partitions[0] = mounted;
  device->partitions[1] = held;
  device->partitions[2] = no_dev;
  device->partitions[3] = bad_dev;
  device->partitions[4] = idle;

  ck_assert (ds_device_in_use (device, &reason));
  /* /proc first; bind mounts of it (a container's /proc/sys) after. */
  prefix = g_strdup_printf ("%s is mounted at /proc", mounted);
  expected = g_strdup_printf ("; %s is held by dm-3, dm-10", held);
  ck_assert_msg (g_str_has_prefix (reason, prefix) && g_str_has_suffix (reason, expected) &&
                 strstr (reason, "; ") == strstr (reason, expected), "%s", reason);
  ck_assert (ds_device_in_use (device, NULL));
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("device-usage");
  TCase *mounts = tcase_create ("mounts");
  TCase *signatures = tcase_create ("signatures");
  TCase *use = tcase_create ("use");

  tcase_add_checked_fixture (mounts, setup, teardown);
  tcase_add_test (mounts, test_mounts_read_proc);
  tcase_add_test (mounts, test_mounts_read_matches_text);
  tcase_add_test (mounts, test_mounts_points_for);
  tcase_add_test (mounts, test_swap_not_used);
  suite_add_tcase (s, mounts);

  tcase_add_checked_fixture (signatures, setup, teardown);
  tcase_add_test (signatures, test_signature_none);
  tcase_add_test (signatures, test_signature_partition_table);
  tcase_add_test (signatures, test_signature_filesystem);
  tcase_add_test (signatures, test_signature_unreadable);
  suite_add_tcase (s, signatures);

  tcase_add_checked_fixture (use, setup, teardown);
  tcase_add_test (use, test_openers_none);
  tcase_add_test (use, test_openers_named);
  tcase_add_test (use, test_in_use_by_partitions);
  suite_add_tcase (s, use);

  return ds_test_run_suite (s);
}
