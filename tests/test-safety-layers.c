/* test-safety-layers.c: the layers the write gate's stack walk meets
 * (core/safety/ds-safety-layers.c)
 *
 * Unit suite: no root, nothing written to any device.  The module reads
 * sysfs at fixed places (/sys/dev/block, /sys/block), so this file
 * includes it, to reach its static helpers too, and gives them what can
 * be fabricated: a loop's sysfs folder in a temporary directory, loop
 * records and mount tables made by hand, temporary files as backings.
 * What it promises: the first doubt is kept (later ones dropped); a
 * device number without a sysfs entry, a folder without a readable
 * `dev`, is a doubt that names it; a device's layer is its kernel name,
 * "/dev/NAME" and size from sysfs; the loop driver's device numbers are
 * decoded from the kernel's huge encoding; without the driver, a loop's
 * backing is who its path is now (file or device), unknown when that
 * path no longer resolves, and a loop gone from sysfs is dropped; a
 * loop file's layer says when the file is no longer at its path; an
 * unknown loop bound to a file of the layer's name is a doubt; a
 * device's use is its mounts (by number, or by source for 0:N mounts), a
 * file's the locks others hold on it.  Real sysfs is only read, where it
 * has entries.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ds-safety-layers.c"

#include <check.h>
#include <sys/file.h>

#include <glib/gstdio.h>

#include "ds-test-util.h"

static char *dir;

static void
setup (void)
{
  dir = g_dir_make_tmp ("ds-safety-layers-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&dir, g_free);
}

/* Writes @text to @rel under the temporary folder, making its folders;
 * returns the path. */
static char *
put (const char *rel,
     const char *text)
{
  char *path = g_build_filename (dir, rel, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  ck_assert_int_eq (g_mkdir_with_parents (parent, 0755), 0);
  ck_assert (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* A walk over nothing yet: @facts to note doubts in, no loops. */
static DsStackWalk
walk_new (DsTargetFacts *facts)
{
  return (DsStackWalk) {
    .facts = facts,
    .loops = g_ptr_array_new_with_free_func (ds_loop_record_free),
  };
}

static void
walk_clear (DsStackWalk *walk)
{
  g_clear_pointer (&walk->loops, g_ptr_array_unref);
  g_clear_pointer (&walk->mounts, g_ptr_array_unref);
  g_clear_pointer (&walk->facts->unknown, g_free);
}

static DsLoopRecord *
loop_new (const char *name,
          dev_t       rdev,
          const char *backing,
          gboolean    known)
{
  DsLoopRecord *loop = g_new0 (DsLoopRecord, 1);

  loop->name = g_strdup (name);
  loop->rdev = rdev;
  loop->backing = g_strdup (backing);
  loop->known = known;
  return loop;
}

/* The first doubt is the one the refusal gives. */
START_TEST (test_set_unknown)
{
  DsTargetFacts facts = { 0 };
  DsStackWalk walk = walk_new (&facts);

  ds_safety_set_unknown (&walk, "the %s of %d", "first", 1);
  ck_assert_str_eq (facts.unknown, "the first of 1");
  ds_safety_set_unknown (&walk, "a second");
  ck_assert_str_eq (facts.unknown, "the first of 1");
  walk_clear (&walk);
}
END_TEST

/* LOOP_GET_STATUS64's numbers: minor's low byte, major, minor's rest. */
START_TEST (test_decode_loop_dev)
{
  static const struct { uint64_t value; unsigned maj, min; } cases[] = {
    { 0x00700, 7, 0 },
    { 0x0070a, 7, 10 },
    { 0x00800, 8, 0 },
    { 0x00811, 8, 17 },
    { 0x10300, 259, 0 },
    /* minor 256 and up: the rest above the major */
    { 0x100700, 7, 256 },
    { 0x3f0007ff, 7, 0x3f0ff },
    { 0xfffff, 0xfff, 0xff },
    { 0, 0, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      dev_t dev = decode_loop_dev (cases[i].value);

      ck_assert_msg (major (dev) == cases[i].maj && minor (dev) == cases[i].min,
                     "%#jx: %u:%u, not %u:%u", (uintmax_t) cases[i].value, major (dev),
                     minor (dev), cases[i].maj, cases[i].min);
    }
}
END_TEST

/* No sysfs entry for a number, no `dev` in a folder: a doubt naming it,
 * and no layer. */
START_TEST (test_layer_not_in_sysfs)
{
  DsTargetFacts facts = { 0 };
  DsStackWalk walk = walk_new (&facts);
  g_auto (DsLayer) layer = { 0 };
  g_autofree char *want = NULL;
  g_autofree char *garbage = NULL;
  g_autofree char *ghost = NULL;

  ck_assert (!ds_layer_from_dev (&walk, makedev (4095, 1048575), &layer));
  ck_assert_str_eq (facts.unknown,
                    "the block device 4095:1048575 has no readable entry in /sys/dev/block");
  ck_assert_ptr_null (layer.label);
  g_clear_pointer (&facts.unknown, g_free);

  ck_assert (!ds_layer_from_sysdir (&walk, dir, &layer));
  want = g_strdup_printf ("%s has no device number in sysfs", dir);
  ck_assert_str_eq (facts.unknown, want);
  g_clear_pointer (&facts.unknown, g_free);

  g_free (put ("garbage/dev", "sda\n"));
  garbage = g_build_filename (dir, "garbage", NULL);
  ck_assert (!ds_layer_from_sysdir (&walk, garbage, &layer));
  g_free (want);
  want = g_strdup_printf ("%s has no device number in sysfs", garbage);
  ck_assert_str_eq (facts.unknown, want);
  g_clear_pointer (&facts.unknown, g_free);

  /* A number there, but no such device. */
  g_free (put ("ghost/dev", "4095:1048574\n"));
  ghost = g_build_filename (dir, "ghost", NULL);
  ck_assert (!ds_layer_from_sysdir (&walk, ghost, &layer));
  ck_assert_str_eq (facts.unknown,
                    "the block device 4095:1048574 has no readable entry in /sys/dev/block");
  ck_assert_ptr_null (layer.label);
  walk_clear (&walk);
}
END_TEST

/* A device sysfs has: its kernel name, /dev name, folder and size, the
 * same by number and by its /sys/class/block folder.  Read only. */
START_TEST (test_layer_real_device)
{
  g_autoptr (GDir) sys = g_dir_open ("/sys/dev/block", 0, NULL);
  const char *entry = sys != NULL ? g_dir_read_name (sys) : NULL;
  DsTargetFacts facts = { 0 };
  DsStackWalk walk = walk_new (&facts);
  g_auto (DsLayer) layer = { 0 };
  g_auto (DsLayer) again = { 0 };
  g_autofree char *sysdir = NULL;
  g_autofree char *link = NULL;
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  g_autofree char *class_dir = NULL;
  unsigned maj, min;
  uint64_t sectors;

  if (entry == NULL)
    {
      ds_test_note ("no block device in /sys/dev/block: nothing to read");
      walk_clear (&walk);
      return;
    }
  ck_assert_int_eq (sscanf (entry, "%u:%u", &maj, &min), 2);
  sysdir = g_strdup_printf ("/sys/dev/block/%u:%u", maj, min);
  link = g_file_read_link (sysdir, NULL);
  ck_assert_ptr_nonnull (link);
  name = g_path_get_basename (link);
  ck_assert (ds_sysfs_read_u64 (sysdir, "size", &sectors));

  ck_assert (ds_layer_from_dev (&walk, makedev (maj, min), &layer));
  ck_assert_ptr_null (facts.unknown);
  ck_assert (!layer.file);
  ck_assert_str_eq (layer.name, name);
  ck_assert_str_eq (layer.sysdir, sysdir);
  ck_assert_uint_eq (layer.size, sectors * 512);
  ck_assert_uint_eq (layer.dev, makedev (maj, min));
  label = g_strdup_printf ("/dev/%s", name);
  ck_assert (g_str_has_prefix (layer.label, label));
  if (!g_str_has_prefix (name, "dm-"))
    ck_assert_str_eq (layer.label, label);

  class_dir = g_build_filename (SYS_CLASS_BLOCK, name, NULL);
  ck_assert (ds_layer_from_sysdir (&walk, class_dir, &again));
  ck_assert_str_eq (again.label, layer.label);
  ck_assert_uint_eq (again.dev, layer.dev);
  walk_clear (&walk);
}
END_TEST

/* A path that is not a device node anywhere under /dev: the loop driver
 * cannot be asked, so the sysfs folder and the backing's path tell. */
#define NO_NODE "ds-test-no-such-loop"

/* A block device node to stat (never opened): a real one in /dev. */
static char *
find_block_node (void)
{
  g_autoptr (GDir) dev = g_dir_open ("/dev", 0, NULL);
  const char *entry;

  while (dev != NULL && (entry = g_dir_read_name (dev)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/dev", entry, NULL);
      struct stat st;

      if (lstat (path, &st) == 0 && S_ISBLK (st.st_mode))
        return g_steal_pointer (&path);
    }
  return NULL;
}

START_TEST (test_loop_identify_from_sysfs)
{
  g_autofree char *backing = put ("disk.img", "0123456789abcdef");
  g_autofree char *sysdir = g_build_filename (dir, "sys", NULL);
  g_autofree char *node = find_block_node ();
  g_autofree char *attr = NULL;
  struct stat st;
  DsLoopRecord *loop;

  g_free (put ("sys/loop/offset", "1048576\n"));
  attr = put ("sys/loop/backing_file", "x\n");

  /* A file: its filesystem's device and its inode, and the offset. */
  ck_assert_int_eq (stat (backing, &st), 0);
  loop = loop_new (NO_NODE, 0, backing, FALSE);
  ck_assert (loop_identify (loop, sysdir));
  ck_assert (loop->known);
  ck_assert (!loop->block);
  ck_assert_uint_eq (loop->bdev, st.st_dev);
  ck_assert_uint_eq (loop->bino, st.st_ino);
  ck_assert_uint_eq (loop->offset, 1048576);
  ds_loop_record_free (loop);

  /* Deleted, or no longer there: still bound, but not known. */
  loop = loop_new (NO_NODE, 0, "/srv/disk.img (deleted)", FALSE);
  ck_assert (loop_identify (loop, sysdir));
  ck_assert (!loop->known);
  ds_loop_record_free (loop);
  loop = loop_new (NO_NODE, 0, "/ds-test/renamed-away.img", FALSE);
  ck_assert (loop_identify (loop, sysdir));
  ck_assert (!loop->known);
  ck_assert_uint_eq (loop->offset, 1048576);
  ds_loop_record_free (loop);

  /* Neither a file nor a device: bound, not known. */
  loop = loop_new (NO_NODE, 0, dir, FALSE);
  ck_assert (loop_identify (loop, sysdir));
  ck_assert (!loop->known);
  ds_loop_record_free (loop);

  /* A device node: its number, no inode. */
  if (node != NULL)
    {
      ck_assert_int_eq (stat (node, &st), 0);
      loop = loop_new (NO_NODE, 0, node, FALSE);
      ck_assert (loop_identify (loop, sysdir));
      ck_assert (loop->known && loop->block);
      ck_assert_uint_eq (loop->bdev, st.st_rdev);
      ck_assert_uint_eq (loop->bino, 0);
      ds_loop_record_free (loop);
    }
  else
    ds_test_note ("no block device node in /dev to stat");

  /* Unbound meanwhile (no backing_file left), and no offset: dropped. */
  ck_assert_int_eq (g_unlink (attr), 0);
  g_free (put ("sys/loop/offset", "\n"));
  loop = loop_new (NO_NODE, 0, "/srv/gone.img (deleted)", FALSE);
  ck_assert (!loop_identify (loop, sysdir));
  ck_assert_uint_eq (loop->offset, 0);
  ds_loop_record_free (loop);
}
END_TEST

/* The bound loops of this machine: each one well formed.  Read only. */
START_TEST (test_loop_records_read)
{
  g_autoptr (GPtrArray) loops = ds_loop_records_read ();

  ck_assert_ptr_nonnull (loops);
  for (guint i = 0; i < loops->len; i++)
    {
      const DsLoopRecord *loop = loops->pdata[i];
      g_autofree char *sysdir = g_build_filename ("/sys/block", loop->name, NULL);
      g_autofree char *dev = g_strdup_printf ("%u:%u", major (loop->rdev), minor (loop->rdev));
      g_autofree char *said = ds_sysfs_read_attr (sysdir, "dev");

      ck_assert (g_str_has_prefix (loop->name, "loop"));
      ck_assert_ptr_nonnull (loop->backing);
      /* (Detached meanwhile by another program: nothing to compare.) */
      if (said != NULL)
        ck_assert_str_eq (said, dev);
    }
}
END_TEST

START_TEST (test_loop_records_find)
{
  DsTargetFacts facts = { 0 };
  DsStackWalk walk = walk_new (&facts);

  ck_assert_ptr_null (ds_loop_records_find (&walk, makedev (7, 0)));
  g_ptr_array_add (walk.loops, loop_new ("loop0", makedev (7, 0), "/a.img", TRUE));
  g_ptr_array_add (walk.loops, loop_new ("loop300", makedev (7, 300), "/b.img", TRUE));
  ck_assert_str_eq (ds_loop_records_find (&walk, makedev (7, 300))->name, "loop300");
  ck_assert_str_eq (ds_loop_records_find (&walk, makedev (7, 0))->name, "loop0");
  ck_assert_ptr_null (ds_loop_records_find (&walk, makedev (7, 1)));
  ck_assert_ptr_null (ds_loop_records_find (&walk, makedev (8, 0)));
  walk_clear (&walk);
}
END_TEST

/* An unknown loop whose stale path ends in the layer's name may be over
 * it: a doubt.  Known loops, and other names, are not. */
START_TEST (test_loop_records_check_unknown)
{
  DsTargetFacts facts = { 0 };
  DsStackWalk walk = walk_new (&facts);
  DsLayer img = { .file = TRUE, .label = (char *) "/srv/vm/disk.img" };
  DsLayer loop2 = { .label = (char *) "/dev/loop2", .name = (char *) "loop2" };

  g_ptr_array_add (walk.loops, loop_new ("loop1", makedev (7, 1), "/srv/vm/disk.img", TRUE));
  g_ptr_array_add (walk.loops, loop_new ("loop3", makedev (7, 3), "/old/disk.img.bak", FALSE));
  ds_loop_records_check_unknown (&walk, &img);
  ds_loop_records_check_unknown (&walk, &loop2);
  ck_assert_ptr_null (facts.unknown);

  /* Deleted under the same name, in any folder. */
  g_ptr_array_add (walk.loops, loop_new ("loop7", makedev (7, 7), "/elsewhere/disk.img (deleted)",
                                         FALSE));
  ds_loop_records_check_unknown (&walk, &loop2);
  ck_assert_ptr_null (facts.unknown);
  ds_loop_records_check_unknown (&walk, &img);
  ck_assert_str_eq (facts.unknown, "/dev/loop7 is bound to a file of the same name that no "
                    "longer resolves, and /dev/loop7 cannot be asked without permission to "
                    "open it");
  g_clear_pointer (&facts.unknown, g_free);

  /* A device node's stale path too. */
  g_ptr_array_add (walk.loops, loop_new ("loop9", makedev (7, 9), "/dev/loop2", FALSE));
  ds_loop_records_check_unknown (&walk, &loop2);
  ck_assert_str_eq (facts.unknown, "/dev/loop9 is bound to a file of the same name that no "
                    "longer resolves, and /dev/loop9 cannot be asked without permission to "
                    "open it");
  walk_clear (&walk);
}
END_TEST

/* The file a loop is bound to: its path while the same file is there;
 * said otherwise when it was replaced or moved, open-ended then. */
START_TEST (test_layer_from_loop_file)
{
  g_autofree char *path = put ("disk.img", "0123456789abcdef0123");
  g_autofree char *want = NULL;
  struct stat st;
  DsLoopRecord loop = { .name = (char *) "loop4", .backing = path };

  ck_assert_int_eq (stat (path, &st), 0);
  loop.bdev = st.st_dev;
  loop.bino = st.st_ino;
  {
    g_auto (DsLayer) layer = { 0 };

    ds_layer_from_loop_file (&loop, &layer);
    ck_assert (layer.file);
    ck_assert_str_eq (layer.label, path);
    ck_assert_uint_eq (layer.size, 20);
    ck_assert_uint_eq (layer.dev, st.st_dev);
    ck_assert_uint_eq (layer.ino, st.st_ino);
    ck_assert_ptr_null (layer.name);
    ck_assert_ptr_null (layer.sysdir);
  }

  /* Another file under its name (another inode). */
  want = g_strdup_printf ("%s (no longer at that path)", path);
  loop.bino = st.st_ino + 1;
  {
    g_auto (DsLayer) layer = { 0 };

    ds_layer_from_loop_file (&loop, &layer);
    ck_assert_str_eq (layer.label, want);
    ck_assert_uint_eq (layer.size, DS_LAYER_END_OPEN);
    ck_assert_uint_eq (layer.ino, st.st_ino + 1);
  }

  /* Nothing there any more. */
  ck_assert_int_eq (g_unlink (path), 0);
  loop.bino = st.st_ino;
  {
    g_auto (DsLayer) layer = { 0 };

    ds_layer_from_loop_file (&loop, &layer);
    ck_assert_str_eq (layer.label, want);
    ck_assert_uint_eq (layer.size, DS_LAYER_END_OPEN);
  }

  /* sysfs already says it was deleted: its words, as they are. */
  loop.backing = (char *) "/srv/disk.img (deleted)";
  {
    g_auto (DsLayer) layer = { 0 };

    ds_layer_from_loop_file (&loop, &layer);
    ck_assert_str_eq (layer.label, "/srv/disk.img (deleted)");
    ck_assert_uint_eq (layer.size, DS_LAYER_END_OPEN);
  }
}
END_TEST

static DsMountEntry *
mount_new (unsigned    maj,
           unsigned    min,
           const char *point,
           const char *source)
{
  DsMountEntry *entry = g_new0 (DsMountEntry, 1);

  *entry = (DsMountEntry) { maj, min, g_strdup (point), g_strdup (source) };
  return entry;
}

/* A device's use: each mount point once, by number or by source (btrfs
 * mounts show 0:N); nothing for a device nobody mounted. */
START_TEST (test_layer_in_use_device)
{
  DsTargetFacts facts = { 0 };
  DsStackWalk walk = walk_new (&facts);
  DsLayer disk = { .name = (char *) "dstest0", .dev = makedev (4094, 3) };
  DsLayer btrfs = { .name = (char *) "dstest1", .dev = makedev (4094, 4) };
  DsLayer idle = { .name = (char *) "dstest2", .dev = makedev (4094, 5) };
  g_autofree char *use = NULL;
  GPtrArray *mounts;

  mounts = g_ptr_array_new_with_free_func (ds_mount_entry_free);
  g_ptr_array_add (mounts, mount_new (4094, 3, "/mnt/a", "/dev/dstest0"));
  g_ptr_array_add (mounts, mount_new (4094, 3, "/mnt/b", "/dev/dstest0"));
  g_ptr_array_add (mounts, mount_new (4094, 3, "/mnt/a", "/dev/dstest0"));
  g_ptr_array_add (mounts, mount_new (0, 42, "/srv/pool", "/dev/dstest1"));
  /* A source by that name, but a real number of another device. */
  g_ptr_array_add (mounts, mount_new (4094, 9, "/mnt/other", "/dev/dstest2"));
  walk.mounts = mounts;

  use = ds_layer_in_use (&walk, &disk);
  ck_assert_str_eq (use, "mounted at /mnt/a, /mnt/b");
  g_free (use);
  use = ds_layer_in_use (&walk, &btrfs);
  ck_assert_str_eq (use, "mounted at /srv/pool");
  g_clear_pointer (&use, g_free);
  ck_assert_ptr_null (ds_layer_in_use (&walk, &idle));
  /* The table given is the one used: read once per walk. */
  ck_assert_ptr_eq (walk.mounts, mounts);
  ck_assert_ptr_null (facts.unknown);
  walk_clear (&walk);

  /* None yet: this machine's is read, and a device it lacks is unused. */
  walk = walk_new (&facts);
  idle.dev = makedev (4095, 1048575);
  ck_assert_ptr_null (ds_layer_in_use (&walk, &idle));
  ck_assert_ptr_nonnull (walk.mounts);
  walk_clear (&walk);
}
END_TEST

/* A file's use: the locks on it (a process's, with its name; an OFD
 * lock's, with no process to name, as /proc/locks types it);
 * nothing when it has none. */
START_TEST (test_layer_in_use_file)
{
  g_autofree char *path = put ("disk.img", "0123456789abcdef");
  g_autofree char *comm = NULL;
  g_autofree char *want = NULL;
  g_autofree char *use = NULL;
  DsTargetFacts facts = { 0 };
  DsStackWalk walk = walk_new (&facts);
  DsLayer layer = { .file = TRUE };
  struct flock ofd = { .l_type = F_RDLCK, .l_whence = SEEK_SET };
  struct stat st;
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  int fd2 = open (path, O_RDONLY | O_CLOEXEC);

  ck_assert_int_ge (fd, 0);
  ck_assert_int_ge (fd2, 0);
  ck_assert_int_eq (fstat (fd, &st), 0);
  layer.dev = st.st_dev;
  layer.ino = st.st_ino;
  ck_assert_ptr_null (ds_layer_in_use (&walk, &layer));

  ck_assert_int_eq (flock (fd, LOCK_SH), 0);
  ck_assert (g_file_get_contents ("/proc/self/comm", &comm, NULL, NULL));
  want = g_strdup_printf ("locked by process %ld (%s, FLOCK lock)", (long) getpid (),
                          g_strstrip (comm));
  use = ds_layer_in_use (&walk, &layer);
  ck_assert_str_eq (use, want);
  g_clear_pointer (&use, g_free);
  ck_assert_int_eq (flock (fd, LOCK_UN), 0);

  ck_assert_int_eq (fcntl (fd2, F_OFD_SETLK, &ofd), 0);
  use = ds_layer_in_use (&walk, &layer);
  ck_assert_str_eq (use, "locked by another program (OFD lock)");
  g_clear_pointer (&use, g_free);
  close (fd2);
  ck_assert_ptr_null (ds_layer_in_use (&walk, &layer));

  /* Another file on the same filesystem: not this one's lock. */
  ck_assert_int_eq (flock (fd, LOCK_EX), 0);
  layer.ino = st.st_ino + 1;
  ck_assert_ptr_null (ds_layer_in_use (&walk, &layer));
  close (fd);
  /* A file's use needs no mount table. */
  ck_assert_ptr_null (walk.mounts);
  walk_clear (&walk);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("safety-layers");
  TCase *tc = tcase_create ("safety-layers");

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_set_unknown);
  tcase_add_test (tc, test_decode_loop_dev);
  tcase_add_test (tc, test_layer_not_in_sysfs);
  tcase_add_test (tc, test_layer_real_device);
  tcase_add_test (tc, test_loop_identify_from_sysfs);
  tcase_add_test (tc, test_loop_records_read);
  tcase_add_test (tc, test_loop_records_find);
  tcase_add_test (tc, test_loop_records_check_unknown);
  tcase_add_test (tc, test_layer_from_loop_file);
  tcase_add_test (tc, test_layer_in_use_device);
  tcase_add_test (tc, test_layer_in_use_file);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
