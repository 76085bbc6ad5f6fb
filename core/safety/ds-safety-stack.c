/* ds-safety-stack.c: what shares bytes with a write's target
 *
 * A target is one layer of a stack: loop devices over files or over other
 * devices (at any offset, with any size limit), partitions over their
 * disk, device-mapper and RAID sets over their members.  Writing any layer
 * writes the bytes every other layer over them shows.  The walk goes from
 * the target both ways:
 *   up     what is built on it (loops whose backing it is, sysfs holders/,
 *          partitions), and on those, to the top;
 *   down   what it is built on (a loop's backing, a partition's disk,
 *          sysfs slaves/), to the bottom; and from every layer below, up
 *          again into what else is built there (beside the target).
 * Every layer met becomes a DsShare: the way to it in words, its own use,
 * and the bytes it and the target cover where they meet, carried through
 * every offset and size limit on the way.  ds_safety_decide() judges them.
 *
 * The facts: sysfs (holders/, slaves/, a partition's start and size, a
 * loop's loop/offset and size), the loop driver's record of its backing
 * (LOOP_GET_STATUS64: the device and inode of a file, the device number
 * of a device node, so a renamed or deleted name, a hard link or a mknod
 * copy is still found), /proc/self/mountinfo, /proc/swaps, /proc/locks.
 * Each is read once per probe, and only for a write.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-device-facts.h"
#include "ds-safety-private.h"

/* Deeper than any real stack (loop over dm over md over partitions...):
 * past it the walk stops and the gate refuses in doubt. */
#define MAX_DEPTH 16

/* Bytes [start, end) of a layer. */
typedef struct {
  uint64_t start;
  uint64_t end;     /* DS_SHARE_END_UNKNOWN: not known */
} Range;

/* Where the walk met the target's bytes: a layer of the stack (@base),
 * and the target's bytes on it. */
typedef struct {
  DsShareWhere  where;
  const char   *base;
  Range         target;
} Meeting;

static char *
node_key (const DsLayer *node)
{
  if (node->file)
    return g_strdup_printf ("f%ju:%ju", (uintmax_t) node->dev, (uintmax_t) node->ino);

  return g_strdup_printf ("b%u:%u", major (node->dev), minor (node->dev));
}

/* TRUE the first time @node is met. */
static gboolean
first_visit (DsStackWalk   *walk,
             const DsLayer *node)
{
  return g_hash_table_add (walk->seen, node_key (node));
}

/* [outer.start + offset, + size), within @outer; unknown stays unknown. */
static Range
window (Range    outer,
        uint64_t offset,
        uint64_t size)
{
  Range r;

  if (outer.end == DS_SHARE_END_UNKNOWN)
    return (Range) { 0, DS_SHARE_END_UNKNOWN };
  r.start = outer.start + MIN (offset, DS_LAYER_END_OPEN - outer.start);
  r.end = r.start + MIN (size, DS_LAYER_END_OPEN - r.start);
  r.start = MIN (r.start, outer.end);
  r.end = MIN (r.end, outer.end);

  return r;
}

/* @r moved @offset bytes on: the same bytes seen from the layer below. */
static Range
shift (Range    r,
       uint64_t offset)
{
  if (r.end == DS_SHARE_END_UNKNOWN)
    return r;

  return (Range) { r.start + MIN (offset, DS_LAYER_END_OPEN - r.start),
                   r.end + MIN (offset, DS_LAYER_END_OPEN - r.end) };
}

static gboolean
meets (Range a,
       Range b)
{
  if (a.end == DS_SHARE_END_UNKNOWN || b.end == DS_SHARE_END_UNKNOWN)
    return TRUE;

  return a.start < b.end && b.start < a.end;
}

static void
add_share (DsStackWalk   *walk,
           const Meeting *meeting,
           DsShareWhere   where,
           char          *how,
           char          *in_use,
           gboolean       only_in_use,
           Range          range)
{
  DsShare share = {
    .where = where,
    .how = how,
    .in_use = in_use,
    .only_in_use = only_in_use,
    .base = g_strdup (meeting->base),
    .target_start = meeting->target.start,
    .target_end = meeting->target.end,
    .start = range.start,
    .end = range.end,
  };

  g_array_append_val (walk->shares, share);
}

/* ---- up: what is built on a layer ---- */

typedef enum {
  STEP_LOOP,        /* @user is a loop over @node */
  STEP_HOLDER,      /* @user (dm, md) holds @node */
  STEP_PARTITION,   /* @user is a partition of @node */
} Step;

/* The way to @user, one step past @how (NULL: @node is the target;
 * @beside: @node is under the target, and @user another way up from it). */
static char *
describe_up (const char    *how,
             const DsLayer *node,
             const DsLayer *user,
             Step           step,
             gboolean       beside)
{
  const char *via = how != NULL ? how : node->label;
  const char *up = user->label;

  if (step == STEP_LOOP && how == NULL)
    return node->file ? g_strdup_printf (_("%s is the backing file of %s"), via, up)
                      : g_strdup_printf (_("%s is the backing device of %s"), via, up);
  if (step == STEP_LOOP && beside)
    return node->file ? g_strdup_printf (_("%s, which is also the backing file of %s"), via, up)
                      : g_strdup_printf (_("%s, which is also the backing device of %s"), via, up);
  if (step == STEP_LOOP)
    return g_strdup_printf (_("%s, which is the backing device of %s"), via, up);

  if (step == STEP_HOLDER && how == NULL)
    return g_strdup_printf (_("%s is held by %s"), via, up);
  if (step == STEP_HOLDER)
    return beside ? g_strdup_printf (_("%s, which is also held by %s"), via, up)
                  : g_strdup_printf (_("%s, which is held by %s"), via, up);

  if (how == NULL)
    return g_strdup_printf (_("%s has the partition %s"), via, up);
  return beside ? g_strdup_printf (_("%s, which also has the partition %s"), via, up)
                : g_strdup_printf (_("%s, which has the partition %s"), via, up);
}

static void walk_up (DsStackWalk *walk, const Meeting *meeting, const DsLayer *node,
                     Range on_base, const char *how, unsigned depth);

/* @user is built on @node over @range (bytes of the meeting's base):
 * one share, and what is built on it in turn. */
static void
meet_user (DsStackWalk   *walk,
           const Meeting *meeting,
           const DsLayer *node,
           const DsLayer *user,
           Step           step,
           Range          range,
           const char    *how,
           unsigned       depth)
{
  g_autofree char *way = NULL;

  if (!first_visit (walk, user))
    return;
  way = describe_up (how, node, user, step, depth == 0 && meeting->where == DS_SHARE_BESIDE);
  add_share (walk, meeting, meeting->where, g_strdup (way), ds_layer_in_use (walk, user),
             step == STEP_PARTITION, range);
  if (meets (range, meeting->target))
    walk_up (walk, meeting, user, range, way, depth + 1);
}

static void
walk_up (DsStackWalk   *walk,
         const Meeting *meeting,
         const DsLayer *node,
         Range          on_base,
         const char    *how,
         unsigned       depth)
{
  if (depth > MAX_DEPTH)
    {
      ds_safety_set_unknown (walk, _("more than %d devices are stacked on %s"),
                             MAX_DEPTH, meeting->base);
      return;
    }

  ds_loop_records_check_unknown (walk, node);
  for (guint i = 0; i < walk->loops->len; i++)
    {
      const DsLoopRecord *loop = g_ptr_array_index (walk->loops, i);
      g_auto (DsLayer) user = { 0 };

      if (!loop->known || loop->block == node->file || loop->bdev != node->dev ||
          (node->file && loop->bino != node->ino))
        continue;
      if (ds_layer_from_dev (walk, loop->rdev, &user))
        meet_user (walk, meeting, node, &user, STEP_LOOP,
                   window (on_base, loop->offset, loop->size), how, depth);
    }
  if (node->file)
    return;

  {
    g_auto (GStrv) holders = ds_sysfs_list_dir_names (node->sysdir, "holders");
    g_auto (GStrv) parts = ds_sysfs_list_partitions (node->sysdir);

    /* A holder maps the bytes its own way (dm tables, md layouts): all
     * of them, as far as the gate knows. */
    for (size_t i = 0; holders[i] != NULL; i++)
      {
        g_autofree char *dir = g_build_filename (SYS_CLASS_BLOCK, holders[i], NULL);
        g_auto (DsLayer) user = { 0 };

        if (ds_layer_from_sysdir (walk, dir, &user))
          meet_user (walk, meeting, node, &user, STEP_HOLDER,
                     (Range) { 0, DS_SHARE_END_UNKNOWN }, how, depth);
      }
    for (size_t i = 0; parts[i] != NULL; i++)
      {
        g_autofree char *dir = g_build_filename (node->sysdir, parts[i], NULL);
        g_auto (DsLayer) user = { 0 };
        uint64_t start;

        if (!ds_sysfs_read_u64 (dir, "start", &start))
          {
            ds_safety_set_unknown (walk, _("the start of the partition %s cannot be read"),
                                   parts[i]);
            continue;
          }
        if (ds_layer_from_sysdir (walk, dir, &user))
          meet_user (walk, meeting, node, &user, STEP_PARTITION,
                     window (on_base, start * 512, user.size), how, depth);
      }
  }
}

/* ---- down: what a layer is built on ---- */

typedef enum {
  DOWN_LOOP,        /* @node is a loop over @lower */
  DOWN_PARTITION,   /* @node is a partition of @lower */
  DOWN_MEMBER,      /* @node (dm, md) is built on @lower */
} Down;

static char *
describe_down (const char    *how,
               const DsLayer *node,
               const DsLayer *lower,
               Down           down)
{
  const char *via = how != NULL ? how : node->label;
  const char *below = lower->label;

  switch (down)
    {
    case DOWN_LOOP:
      return how != NULL ? g_strdup_printf (_("%s, which is a loop over %s"), via, below)
                         : g_strdup_printf (_("%s is a loop over %s"), via, below);
    case DOWN_PARTITION:
      return how != NULL ? g_strdup_printf (_("%s, which is a partition of %s"), via, below)
                         : g_strdup_printf (_("%s is a partition of %s"), via, below);
    case DOWN_MEMBER:
    default:
      return how != NULL ? g_strdup_printf (_("%s, which is built on %s"), via, below)
                         : g_strdup_printf (_("%s is built on %s"), via, below);
    }
}

static void walk_down (DsStackWalk *walk, const DsLayer *node, Range target, const char *how,
                       unsigned depth);

/* @node (the target, or a layer under it) is built on @lower, where the
 * target covers @target: a share below, what else is built on @lower
 * (beside), and what @lower is built on. */
static void
meet_lower (DsStackWalk   *walk,
            const DsLayer *node,
            const DsLayer *lower,
            Down           down,
            Range          target,
            const char    *how,
            unsigned       depth)
{
  g_autofree char *way = describe_down (how, node, lower, down);
  Meeting meeting = { .where = DS_SHARE_BESIDE, .base = lower->label, .target = target };
  Range whole = { 0, lower->size };

  if (!first_visit (walk, lower))
    return;
  add_share (walk, &meeting, DS_SHARE_BELOW, g_strdup (way), ds_layer_in_use (walk, lower),
             TRUE, whole);
  walk_up (walk, &meeting, lower, whole, way, 0);
  walk_down (walk, lower, target, way, depth + 1);
}

static void
walk_down (DsStackWalk   *walk,
           const DsLayer *node,
           Range          target,
           const char    *how,
           unsigned       depth)
{
  const DsLoopRecord *loop;

  if (node->file)
    return;   /* a file's blocks are its filesystem's business */
  if (depth > MAX_DEPTH)
    {
      ds_safety_set_unknown (walk, _("more than %d devices are stacked under %s"),
                             MAX_DEPTH, node->label);
      return;
    }

  if (ds_sysfs_attr_exists (node->sysdir, "loop/backing_file"))
    {
      g_auto (DsLayer) lower = { 0 };

      loop = ds_loop_records_find (walk, node->dev);
      if (loop == NULL || !loop->known)
        {
          ds_safety_set_unknown (walk, _("the loop device %s cannot be asked what it is bound to"),
                                 node->label);
          return;
        }
      if (!loop->block)
        ds_layer_from_loop_file (loop, &lower);
      if (!loop->block || ds_layer_from_dev (walk, loop->bdev, &lower))
        meet_lower (walk, node, &lower, DOWN_LOOP, shift (target, loop->offset), how, depth);
    }
  else if (ds_sysfs_attr_exists (node->sysdir, "partition"))
    {
      /* sysfs resolves ".." past the symlink: the disk's folder. */
      g_autofree char *disk_dir = g_build_filename (node->sysdir, "..", NULL);
      g_auto (DsLayer) lower = { 0 };
      uint64_t start;

      if (!ds_sysfs_read_u64 (node->sysdir, "start", &start))
        ds_safety_set_unknown (walk, _("the start of the partition %s cannot be read"),
                               node->label);
      else if (ds_layer_from_sysdir (walk, disk_dir, &lower))
        meet_lower (walk, node, &lower, DOWN_PARTITION, shift (target, start * 512), how, depth);
    }

  {
    g_auto (GStrv) slaves = ds_sysfs_list_dir_names (node->sysdir, "slaves");

    for (size_t i = 0; slaves[i] != NULL; i++)
      {
        g_autofree char *dir = g_build_filename (SYS_CLASS_BLOCK, slaves[i], NULL);
        g_auto (DsLayer) lower = { 0 };

        if (ds_layer_from_sysdir (walk, dir, &lower))
          meet_lower (walk, node, &lower, DOWN_MEMBER, (Range) { 0, DS_SHARE_END_UNKNOWN },
                      how, depth);
      }
  }
}

void
ds_safety_probe_stack (DsTargetFacts     *facts,
                       const char        *path,
                       const struct stat *st)
{
  g_auto (DsLayer) target = { 0 };
  DsStackWalk walk = {
    .facts = facts,
    .shares = g_array_new (FALSE, TRUE, sizeof (DsShare)),
    .loops = ds_loop_records_read (),
    .seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
  };
  Meeting meeting = { .where = DS_SHARE_ABOVE };

  if (S_ISREG (st->st_mode))
    target = (DsLayer) { .file = TRUE, .dev = st->st_dev, .ino = st->st_ino,
                         .label = g_strdup (path), .size = (uint64_t) st->st_size };
  if (S_ISREG (st->st_mode) || ds_layer_from_dev (&walk, st->st_rdev, &target))
    {
      meeting.base = target.label;
      meeting.target = (Range) { 0, target.size };
      first_visit (&walk, &target);
      /* A file's own use (swap, a lock) is told apart by the probe. */
      if (!target.file)
        facts->in_use = ds_layer_in_use (&walk, &target);
      walk_up (&walk, &meeting, &target, meeting.target, NULL, 0);
      walk_down (&walk, &target, meeting.target, NULL, 0);
    }

  facts->n_shares = walk.shares->len;
  facts->shares = (DsShare *) (void *) g_array_free (walk.shares, FALSE);
  g_ptr_array_unref (walk.loops);
  g_clear_pointer (&walk.mounts, g_ptr_array_unref);
  g_hash_table_unref (walk.seen);
}
