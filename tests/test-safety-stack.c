/* test-safety-stack.c: what shares bytes with a write's target, the write
 * gate's walk over a stack of devices (core/safety/ds-safety-stack.c)
 *
 * Unit suite: no root, no device.  The walk reads sysfs at fixed places:
 * this file includes the module with SYS_CLASS_BLOCK pointed at a sysfs
 * tree fabricated in a temporary directory, and stands in for its layers
 * (ds-safety-layers.c, see test-safety-layers.c): a layer is read from
 * that tree's dev/block/M:m link, the loop records are the test's, a
 * device's use is its `test-mounted` file.  Real stacks (root):
 * test-int-safety-stack.c.
 *
 * Promised: from the target up (loops, holders, partitions), down (a
 * loop's backing, a partition's disk, slaves) and beside (what else is
 * built on a layer below), each layer once, with the way to it in words,
 * its use, whether it counts only in use, where both meet and the bytes
 * each covers there through every offset and size limit (a holder's: all
 * of them); a partition without a start, a loop that cannot be asked, a
 * stack deeper than 16 are doubts; a cycle in sysfs ends.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-device-facts.h"

/* The fabricated tree's class/block, for holders and slaves. */
static char *class_block;
#undef SYS_CLASS_BLOCK
#define SYS_CLASS_BLOCK class_block

#include "ds-safety-stack.c"

#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "ds-test-util.h"

#define MiB (UINT64_C (1) << 20)
#define UNKNOWN DS_SHARE_END_UNKNOWN

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DsTargetFacts, ds_target_facts_clear)

static char *root;
static GPtrArray *records;   /* DsLoopRecord: what the "driver" says (interned strings) */

/* The layers, read from the fabricated tree. */
void
ds_layer_clear (DsLayer *layer)
{
  g_clear_pointer (&layer->label, g_free);
  g_clear_pointer (&layer->sysdir, g_free);
  g_clear_pointer (&layer->name, g_free);
}

void
ds_safety_set_unknown (DsStackWalk *walk,
                       const char  *format,
                       ...)
{
  va_list args;

  if (walk->facts->unknown != NULL)
    return;
  va_start (args, format);
  walk->facts->unknown = g_strdup_vprintf (format, args);
  va_end (args);
}

gboolean
ds_layer_from_dev (DsStackWalk *walk,
                   dev_t        dev,
                   DsLayer     *ret_layer)
{
  g_autofree char *sysdir = g_strdup_printf ("%s/dev/block/%u:%u", root, major (dev), minor (dev));
  g_autofree char *link = g_file_read_link (sysdir, NULL);
  g_autofree char *name = link != NULL ? g_path_get_basename (link) : NULL;
  g_autofree char *dm = ds_sysfs_read_attr (sysdir, "dm/name");
  uint64_t sectors;

  if (link == NULL || !ds_sysfs_read_u64 (sysdir, "size", &sectors))
    {
      ds_safety_set_unknown (walk, "no %u:%u", major (dev), minor (dev));
      return FALSE;
    }
  *ret_layer = (DsLayer) {
    .dev = dev, .name = g_strdup (name), .sysdir = g_strdup (sysdir), .size = sectors * 512,
    .label = dm != NULL ? g_strdup_printf ("/dev/%s (%s)", name, dm) : g_strdup_printf ("/dev/%s", name),
  };
  return TRUE;
}

gboolean
ds_layer_from_sysdir (DsStackWalk *walk,
                      const char  *dir,
                      DsLayer     *ret_layer)
{
  g_autofree char *text = ds_sysfs_read_attr (dir, "dev");
  g_autofree char *name = g_path_get_basename (dir);
  unsigned maj, min;

  if (text == NULL || sscanf (text, "%u:%u", &maj, &min) != 2)
    {
      ds_safety_set_unknown (walk, "no dev for %s", name);
      return FALSE;
    }
  return ds_layer_from_dev (walk, makedev (maj, min), ret_layer);
}

void
ds_layer_from_loop_file (const DsLoopRecord *loop,
                         DsLayer            *ret_layer)
{
  struct stat st;

  ck_assert_int_eq (stat (loop->backing, &st), 0);
  *ret_layer = (DsLayer) { .file = TRUE, .dev = loop->bdev, .ino = loop->bino,
                           .label = g_strdup (loop->backing), .size = (uint64_t) st.st_size };
}

char *
ds_layer_in_use (G_GNUC_UNUSED DsStackWalk *walk,
                 const DsLayer             *layer)
{
  g_autofree char *point = layer->file ? NULL : ds_sysfs_read_attr (layer->sysdir, "test-mounted");

  return point != NULL ? g_strdup_printf ("mounted at %s", point) : NULL;
}

GPtrArray *
ds_loop_records_read (void)
{
  return g_ptr_array_ref (records);
}

const DsLoopRecord *
ds_loop_records_find (DsStackWalk *walk,
                      dev_t        dev)
{
  for (guint i = 0; i < walk->loops->len; i++)
    if (((DsLoopRecord *) walk->loops->pdata[i])->rdev == dev)
      return walk->loops->pdata[i];
  return NULL;
}

void
ds_loop_records_check_unknown (G_GNUC_UNUSED DsStackWalk   *walk,
                               G_GNUC_UNUSED const DsLayer *layer)
{
}

static void
setup (void)
{
  root = g_dir_make_tmp ("ds-safety-stack-XXXXXX", NULL);
  ck_assert_ptr_nonnull (root);
  class_block = g_build_filename (root, "class", "block", NULL);
  records = g_ptr_array_new_with_free_func (g_free);
}

static void
teardown (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", root);

  ck_assert_int_eq (system (cmd), 0);
  g_clear_pointer (&root, g_free);
  g_clear_pointer (&class_block, g_free);
  g_clear_pointer (&records, g_ptr_array_unref);
}

/* Writes @text to devices/@rel/@name, making its folders. */
static void
attr (const char *rel,
      const char *name,
      const char *text)
{
  g_autofree char *path = g_build_filename (root, "devices", rel, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  ck_assert_int_eq (g_mkdir_with_parents (parent, 0755), 0);
  ck_assert (g_file_set_contents (path, text, -1, NULL));
}

/* @root/@folder/@name -> devices/@rel, as sysfs links a device. */
static void
link_to (const char *folder,
         const char *name,
         const char *rel)
{
  g_autofree char *parent = g_build_filename (root, folder, NULL);
  g_autofree char *path = g_build_filename (parent, name, NULL);
  g_autofree char *to = g_build_filename (root, "devices", rel, NULL);

  ck_assert_int_eq (g_mkdir_with_parents (parent, 0755), 0);
  /* A longer chain over a shorter one: what is there stays. */
  ck_assert (symlink (to, path) == 0 || errno == EEXIST);
}

/* A device at devices/@rel (a partition: under its disk's folder, with
 * @start in sectors; -1: not one), its number and size, linked from
 * dev/block and class/block. */
static void
device (const char *rel,
        unsigned    maj,
        unsigned    min,
        uint64_t    bytes,
        int64_t     start)
{
  g_autofree char *name = g_path_get_basename (rel);
  g_autofree char *number = g_strdup_printf ("%u:%u", maj, min);
  g_autofree char *size = g_strdup_printf ("%ju\n", (uintmax_t) bytes / 512);
  g_autofree char *at = g_strdup_printf ("%jd\n", (intmax_t) start);

  attr (rel, "dev", number);
  attr (rel, "size", size);
  if (start >= 0)
    attr (rel, "partition", "1\n"), attr (rel, "start", at);
  link_to ("dev/block", number, rel);
  link_to ("class/block", name, rel);
}

/* @upper holds @lower: holders/ of the one, slaves/ of the other. */
static void
holds (const char *upper,
       const char *lower)
{
  g_autofree char *up_name = g_path_get_basename (upper);
  g_autofree char *low_name = g_path_get_basename (lower);
  g_autofree char *h = g_build_filename ("holders", up_name, NULL);
  g_autofree char *s = g_build_filename ("slaves", low_name, NULL);

  attr (lower, h, "");
  attr (upper, s, "");
}

/* The loop @rel (7:@min) bound to @backing: a device node (@bdev) or a
 * file (@st), with its window; sysfs shows it bound. */
static void
loop_device (const char        *rel,
             unsigned           min,
             uint64_t           size,
             dev_t              bdev,
             const struct stat *st,
             uint64_t           offset,
             const char        *backing)
{
  DsLoopRecord *loop = g_new0 (DsLoopRecord, 1);
  g_autofree char *name = g_path_get_basename (rel);

  device (rel, 7, min, size, -1);
  attr (rel, "loop/backing_file", backing);
  *loop = (DsLoopRecord) {
    .name = (char *) g_intern_string (name), .rdev = makedev (7, min), .offset = offset,
    .size = size, .backing = (char *) g_intern_string (backing), .known = TRUE, .block = st == NULL,
    .bdev = st == NULL ? bdev : st->st_dev, .bino = st == NULL ? 0 : st->st_ino,
  };
  g_ptr_array_add (records, loop);
}

static void
probe_block (DsTargetFacts *facts,
             unsigned       maj,
             unsigned       min)
{
  struct stat st = { .st_mode = S_IFBLK | 0660, .st_rdev = makedev (maj, min) };

  ds_target_facts_clear (facts);
  ds_safety_probe_stack (facts, "/dev/target", &st);
}

/* What a share must be (DsShare's fields in order; where without its
 * DS_SHARE_). */
#define SHARE(where_, how_, use_, only_, base_, ts, te, s, e) \
  ((DsShare) { DS_SHARE_##where_, (char *) (how_), (char *) (use_), only_, (char *) (base_), \
               ts, te, s, e })

static void
assert_share (const DsTargetFacts *facts,
              unsigned             i,
              DsShare              want)
{
  const DsShare *s;

  ck_assert_msg (i < facts->n_shares, "share %u of %u", i, facts->n_shares);
  s = &facts->shares[i];
  ck_assert_str_eq (s->how, want.how);
  ck_assert_msg (s->where == want.where, "%s: where %d", s->how, s->where);
  ck_assert_pstr_eq (s->in_use, want.in_use);
  ck_assert_msg (s->only_in_use == want.only_in_use, "%s: only_in_use %d", s->how, s->only_in_use);
  ck_assert_str_eq (s->base, want.base);
  ck_assert_msg (s->target_start == want.target_start && s->target_end == want.target_end &&
                 s->start == want.start && s->end == want.end,
                 "%s: target [%ju, %ju), it [%ju, %ju)", s->how, (uintmax_t) s->target_start,
                 (uintmax_t) s->target_end, (uintmax_t) s->start, (uintmax_t) s->end);
}

/* A disk with two partitions, the first mounted, the second past it. */
static void
disk_with_partitions (void)
{
  device ("sda", 8, 0, 64 * MiB, -1);
  device ("sda/sda1", 8, 1, 8 * MiB, 2048);
  device ("sda/sda2", 8, 2, 16 * MiB, 18432);
  attr ("sda/sda1", "test-mounted", "/boot");
}

/* The disk: its partitions above it, each where it lies; its own use. */
START_TEST (test_disk_and_partitions)
{
  g_auto (DsTargetFacts) facts = { 0 };

  disk_with_partitions ();
  probe_block (&facts, 8, 0);
  ck_assert_ptr_null (facts.unknown);
  ck_assert_ptr_null (facts.in_use);
  ck_assert_uint_eq (facts.n_shares, 2);
  assert_share (&facts, 0, SHARE (ABOVE, "/dev/sda has the partition /dev/sda1",
                "mounted at /boot", TRUE, "/dev/sda", 0, 64 * MiB, MiB, 9 * MiB));
  assert_share (&facts, 1, SHARE (ABOVE, "/dev/sda has the partition /dev/sda2", NULL, TRUE,
                "/dev/sda", 0, 64 * MiB, 9 * MiB, 25 * MiB));

  /* A partition sysfs shows past the disk's end (a shrunk image): its
   * bytes end with the disk's. */
  device ("sda/sda3", 8, 3, 16 * MiB, 122880);
  probe_block (&facts, 8, 0);
  ck_assert_uint_eq (facts.n_shares, 3);
  assert_share (&facts, 2, SHARE (ABOVE, "/dev/sda has the partition /dev/sda3", NULL, TRUE,
                "/dev/sda", 0, 64 * MiB, 60 * MiB, 64 * MiB));

  /* A disk alone: nothing stacked. */
  device ("sdb", 8, 16, 4 * MiB, -1);
  attr ("sdb", "test-mounted", "/mnt");
  probe_block (&facts, 8, 16);
  ck_assert_uint_eq (facts.n_shares, 0);
  ck_assert_ptr_null (facts.unknown);
  ck_assert_str_eq (facts.in_use, "mounted at /mnt");
}
END_TEST

/* A partition: its disk below (the target's bytes on it shifted by its
 * start), the other partition beside, and its own use. */
START_TEST (test_partition)
{
  g_auto (DsTargetFacts) facts = { 0 };

  disk_with_partitions ();
  probe_block (&facts, 8, 2);
  ck_assert_ptr_null (facts.unknown);
  ck_assert_uint_eq (facts.n_shares, 2);
  assert_share (&facts, 0, SHARE (BELOW, "/dev/sda2 is a partition of /dev/sda", NULL, TRUE,
                "/dev/sda", 9 * MiB, 25 * MiB, 0, 64 * MiB));
  assert_share (&facts, 1, SHARE (BESIDE,
                "/dev/sda2 is a partition of /dev/sda, which also has the partition /dev/sda1",
                "mounted at /boot", TRUE, "/dev/sda", 9 * MiB, 25 * MiB, MiB, 9 * MiB));
  ck_assert (!ds_share_overlaps (&facts.shares[1]));

  /* What is built on a partition beside that misses the target's bytes
   * is not walked into. */
  loop_device ("virtual/loop5", 5, 8 * MiB, makedev (8, 1), NULL, 0, "/dev/sda1");
  probe_block (&facts, 8, 2);
  ck_assert_uint_eq (facts.n_shares, 2);

  probe_block (&facts, 8, 1);
  ck_assert_str_eq (facts.in_use, "mounted at /boot");
  ck_assert_uint_eq (facts.n_shares, 3);
  assert_share (&facts, 0, SHARE (ABOVE, "/dev/sda1 is the backing device of /dev/loop5", NULL,
                FALSE, "/dev/sda1", 0, 8 * MiB, 0, 8 * MiB));
  assert_share (&facts, 2, SHARE (BESIDE,
                "/dev/sda1 is a partition of /dev/sda, which also has the partition /dev/sda2",
                NULL, TRUE, "/dev/sda", MiB, 9 * MiB, 9 * MiB, 25 * MiB));

  /* A partition whose start sysfs does not give: a doubt. */
  attr ("sda/sda2", "start", "");
  probe_block (&facts, 8, 2);
  ck_assert_str_eq (facts.unknown, "the start of the partition /dev/sda2 cannot be read");
  probe_block (&facts, 8, 0);
  ck_assert_str_eq (facts.unknown, "the start of the partition sda2 cannot be read");
  /* The rest is still walked: sda1 and the loop over it. */
  ck_assert_uint_eq (facts.n_shares, 2);
  assert_share (&facts, 1, SHARE (ABOVE, "/dev/sda has the partition /dev/sda1, which is the "
                "backing device of /dev/loop5", NULL, FALSE, "/dev/sda", 0, 64 * MiB,
                MiB, 9 * MiB));
}
END_TEST

/* A loop over a partition, 1 MiB in, 4 MiB long: above the partition
 * where its window lies; below the loop, the partition then the disk,
 * the target's bytes carried through both offsets. */
START_TEST (test_loop_over_partition)
{
  g_auto (DsTargetFacts) facts = { 0 };

  disk_with_partitions ();
  loop_device ("virtual/loop0", 0, 4 * MiB, makedev (8, 2), NULL, MiB, "/dev/sda2");
  attr ("virtual/loop0", "test-mounted", "/mnt/loop");

  probe_block (&facts, 8, 2);
  ck_assert_ptr_null (facts.unknown);
  ck_assert_uint_eq (facts.n_shares, 3);
  assert_share (&facts, 0, SHARE (ABOVE, "/dev/sda2 is the backing device of /dev/loop0",
                "mounted at /mnt/loop", FALSE, "/dev/sda2", 0, 16 * MiB, MiB, 5 * MiB));

  probe_block (&facts, 7, 0);
  ck_assert_ptr_null (facts.unknown);
  ck_assert_str_eq (facts.in_use, "mounted at /mnt/loop");
  ck_assert_uint_eq (facts.n_shares, 3);
  assert_share (&facts, 0, SHARE (BELOW, "/dev/loop0 is a loop over /dev/sda2", NULL, TRUE,
                "/dev/sda2", MiB, 5 * MiB, 0, 16 * MiB));
  assert_share (&facts, 1, SHARE (BELOW,
                "/dev/loop0 is a loop over /dev/sda2, which is a partition of /dev/sda", NULL,
                TRUE, "/dev/sda", 10 * MiB, 14 * MiB, 0, 64 * MiB));
  assert_share (&facts, 2, SHARE (BESIDE,
                "/dev/loop0 is a loop over /dev/sda2, which is a partition of /dev/sda, which "
                "also has the partition /dev/sda1", "mounted at /boot", TRUE, "/dev/sda",
                10 * MiB, 14 * MiB, MiB, 9 * MiB));

  /* The driver cannot be asked about it: a doubt, nothing below. */
  ((DsLoopRecord *) records->pdata[0])->known = FALSE;
  probe_block (&facts, 7, 0);
  ck_assert_str_eq (facts.unknown, "the loop device /dev/loop0 cannot be asked what it is bound to");
  ck_assert_uint_eq (facts.n_shares, 0);
  g_ptr_array_set_size (records, 0);
  probe_block (&facts, 7, 0);
  ck_assert_str_eq (facts.unknown, "the loop device /dev/loop0 cannot be asked what it is bound to");
}
END_TEST

/* A device-mapper set over two disks: held, all of its bytes unknown;
 * from the set, both members below, counted only in use. */
START_TEST (test_dm_over_two_disks)
{
  g_auto (DsTargetFacts) facts = { 0 };

  device ("sdb", 8, 16, 32 * MiB, -1);
  device ("sdc", 8, 32, 32 * MiB, -1);
  device ("virtual/dm-0", 253, 0, 60 * MiB, -1);
  attr ("virtual/dm-0", "dm/name", "vg-data");
  attr ("virtual/dm-0", "test-mounted", "/srv");
  holds ("virtual/dm-0", "sdb");
  holds ("virtual/dm-0", "sdc");

  probe_block (&facts, 8, 32);
  ck_assert_ptr_null (facts.unknown);
  ck_assert_uint_eq (facts.n_shares, 1);
  assert_share (&facts, 0, SHARE (ABOVE, "/dev/sdc is held by /dev/dm-0 (vg-data)",
                "mounted at /srv", FALSE, "/dev/sdc", 0, 32 * MiB, 0, UNKNOWN));
  ck_assert (ds_share_overlaps (&facts.shares[0]));

  probe_block (&facts, 253, 0);
  ck_assert_ptr_null (facts.unknown);
  ck_assert_str_eq (facts.in_use, "mounted at /srv");
  ck_assert_uint_eq (facts.n_shares, 2);
  assert_share (&facts, 0, SHARE (BELOW, "/dev/dm-0 (vg-data) is built on /dev/sdb", NULL,
                TRUE, "/dev/sdb", 0, UNKNOWN, 0, 32 * MiB));
  assert_share (&facts, 1, SHARE (BELOW, "/dev/dm-0 (vg-data) is built on /dev/sdc", NULL,
                TRUE, "/dev/sdc", 0, UNKNOWN, 0, 32 * MiB));

  /* A holder sysfs lists but cannot describe: a doubt. */
  attr ("sdc", "holders/md9", "");
  probe_block (&facts, 8, 32);
  ck_assert_str_eq (facts.unknown, "no dev for md9");
}
END_TEST

/* Loops over a file: one at an offset with a size limit, a loop over
 * that loop, and another over the whole file. */
START_TEST (test_loops_over_file)
{
  g_autofree char *img = g_build_filename (root, "disk.img", NULL);
  g_auto (DsTargetFacts) facts = { 0 };
  struct stat st;

  ck_assert (g_file_set_contents (img, "", 0, NULL));
  ck_assert_int_eq (truncate (img, 8 * MiB), 0);
  ck_assert_int_eq (stat (img, &st), 0);
  loop_device ("virtual/loop1", 1, 2 * MiB, 0, &st, 3 * MiB, img);
  loop_device ("virtual/loop2", 2, MiB, makedev (7, 1), NULL, MiB, "/dev/loop1");
  loop_device ("virtual/loop3", 3, 8 * MiB, 0, &st, 0, img);
  attr ("virtual/loop3", "test-mounted", "/mnt/img");

  ds_safety_probe_stack (&facts, img, &st);
  ck_assert_ptr_null (facts.unknown);
  ck_assert_ptr_null (facts.in_use);
  ck_assert_uint_eq (facts.n_shares, 3);
  {
    g_autofree char *l1 = g_strdup_printf ("%s is the backing file of /dev/loop1", img);
    g_autofree char *l2 = g_strdup_printf ("%s, which is the backing device of /dev/loop2", l1);
    g_autofree char *l3 = g_strdup_printf ("%s is the backing file of /dev/loop3", img);

    assert_share (&facts, 0, SHARE (ABOVE, l1, NULL, FALSE, img, 0, 8 * MiB, 3 * MiB, 5 * MiB));
    /* The loop over the loop: 1 MiB into its window, cut at its end. */
    assert_share (&facts, 1, SHARE (ABOVE, l2, NULL, FALSE, img, 0, 8 * MiB, 4 * MiB, 5 * MiB));
    assert_share (&facts, 2, SHARE (ABOVE, l3, "mounted at /mnt/img", FALSE, img, 0, 8 * MiB,
                  0, 8 * MiB));
  }

  /* From the top: both loops below, the file under them, the other loop
   * over the file beside. */
  probe_block (&facts, 7, 2);
  ck_assert_ptr_null (facts.unknown);
  ck_assert_uint_eq (facts.n_shares, 3);
  assert_share (&facts, 0, SHARE (BELOW, "/dev/loop2 is a loop over /dev/loop1", NULL, TRUE,
                "/dev/loop1", MiB, 2 * MiB, 0, 2 * MiB));
  {
    g_autofree char *down = g_strdup_printf ("/dev/loop2 is a loop over /dev/loop1, which is a "
                                             "loop over %s", img);
    g_autofree char *beside = g_strdup_printf ("%s, which is also the backing file of "
                                               "/dev/loop3", down);

    assert_share (&facts, 1, SHARE (BELOW, down, NULL, TRUE, img, 4 * MiB, 5 * MiB, 0, 8 * MiB));
    assert_share (&facts, 2, SHARE (BESIDE, beside, "mounted at /mnt/img", FALSE, img,
                  4 * MiB, 5 * MiB, 0, 8 * MiB));
  }
}
END_TEST

/* A chain of @n devices over /dev/d0, each holding the one below. */
static void
chain (unsigned n)
{
  for (unsigned i = 0; i <= n; i++)
    {
      g_autofree char *rel = g_strdup_printf ("virtual/d%u", i);
      g_autofree char *below = g_strdup_printf ("virtual/d%u", i - 1);

      device (rel, 240, i, 4 * MiB, -1);
      if (i > 0)
        holds (rel, below);
    }
}

/* 16 devices over the target, or under it, are walked; 17 are a doubt. */
START_TEST (test_depth_limit)
{
  g_auto (DsTargetFacts) facts = { 0 };

  chain (16);
  probe_block (&facts, 240, 0);
  ck_assert_ptr_null (facts.unknown);
  ck_assert_uint_eq (facts.n_shares, 16);
  ck_assert (g_str_has_prefix (facts.shares[15].how, "/dev/d0 is held by /dev/d1, which is held "
                               "by /dev/d2, "));
  ck_assert (g_str_has_suffix (facts.shares[15].how, "/dev/d15, which is held by /dev/d16"));
  probe_block (&facts, 240, 16);
  ck_assert_ptr_null (facts.unknown);
  ck_assert_uint_eq (facts.n_shares, 16);

  chain (17);
  probe_block (&facts, 240, 0);
  ck_assert_str_eq (facts.unknown, "more than 16 devices are stacked on /dev/d0");
  ck_assert_uint_eq (facts.n_shares, 17);
  probe_block (&facts, 240, 17);
  ck_assert_str_eq (facts.unknown, "more than 16 devices are stacked under /dev/d0");
}
END_TEST

/* sysfs that holds itself in a ring: each layer once, and the walk ends;
 * a target sysfs does not have is a doubt with nothing found. */
START_TEST (test_cycle_and_missing)
{
  g_auto (DsTargetFacts) facts = { 0 };

  device ("virtual/md0", 9, 0, 8 * MiB, -1);
  device ("virtual/md1", 9, 1, 8 * MiB, -1);
  holds ("virtual/md0", "virtual/md1");
  holds ("virtual/md1", "virtual/md0");
  probe_block (&facts, 9, 0);
  ck_assert_ptr_null (facts.unknown);
  ck_assert_uint_eq (facts.n_shares, 1);
  assert_share (&facts, 0, SHARE (ABOVE, "/dev/md0 is held by /dev/md1", NULL, FALSE,
                "/dev/md0", 0, 8 * MiB, 0, UNKNOWN));

  probe_block (&facts, 9, 7);
  ck_assert_str_eq (facts.unknown, "no 9:7");
  ck_assert_uint_eq (facts.n_shares, 0);
  ck_assert_ptr_null (facts.in_use);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("safety-stack");
  TCase *tc = tcase_create ("safety-stack");

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_disk_and_partitions);
  tcase_add_test (tc, test_partition);
  tcase_add_test (tc, test_loop_over_partition);
  tcase_add_test (tc, test_dm_over_two_disks);
  tcase_add_test (tc, test_loops_over_file);
  tcase_add_test (tc, test_depth_limit);
  tcase_add_test (tc, test_cycle_and_missing);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
