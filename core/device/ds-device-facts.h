/* ds-device-facts.h: what sysfs, the mount table, the swaps and libblkid
 * say of a block device, below the DsDevice record: what the device
 * layer's files share and the write gate (core/safety) asks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-device.h"

G_BEGIN_DECLS

#define SYS_CLASS_BLOCK "/sys/class/block"

/* ---- ds-device-sysfs.c: reading sysfs, sorting names ---- */

/* The stripped contents of DIR/REL, or NULL if missing or empty. */
char      *ds_sysfs_read_attr       (const char *dir,
                                     const char *rel);
gboolean   ds_sysfs_read_u64        (const char *dir,
                                     const char *rel,
                                     uint64_t   *ret_value);
uint64_t   ds_sysfs_read_u64_or     (const char *dir,
                                     const char *rel,
                                     uint64_t    fallback);
gboolean   ds_sysfs_attr_exists     (const char *dir,
                                     const char *rel);
/* "none [mq-deadline] kyber" -> "mq-deadline"; a lone word is itself. */
char      *ds_sysfs_parse_scheduler (const char *text);
/* Names of the entries of DIR/REL (holders/), sorted; never NULL. */
char     **ds_sysfs_list_dir_names  (const char *dir,
                                     const char *rel);
/* Child partitions of a disk (subfolders with a `partition` attribute). */
char     **ds_sysfs_list_partitions (const char *sysdir);
/* Natural order: loop2 before loop10; ds_compare_names for GPtrArrays of
 * strings. */
int        ds_natural_compare       (const char *a,
                                     const char *b);
int        ds_compare_names         (gconstpointer a,
                                     gconstpointer b);
/* Adds the NULL and frees the array, returning its strings. */
char     **ds_ptr_array_to_strv     (GPtrArray  *array);

/* ---- ds-device-usage.c: mounts, swaps, signatures, in use ---- */

/* One line of /proc/self/mountinfo that matters here. */
typedef struct {
  unsigned  major;
  unsigned  minor;
  char     *mountpoint;
  char     *source;
} DsMountEntry;

void       ds_mount_entry_free      (gpointer    data);
/* Every mount of /proc/self/mountinfo, as DsMountEntry (free func set). */
GPtrArray *ds_mounts_read           (void);
/* Mount points of MAJOR:MINOR (or of a mount whose source is @path). */
char     **ds_mounts_points_for     (GPtrArray  *mounts,
                                     unsigned    major,
                                     unsigned    minor,
                                     const char *path);
/* TRUE if @target (a block device's or a regular file's stat) is an
 * active swap area. */
struct stat;
gboolean   ds_swap_uses             (const struct stat *target);
/* TRUE if MAJOR:MINOR is an active swap area. */
gboolean   ds_swap_is_active        (unsigned    major,
                                     unsigned    minor);
/* The first filesystem or partition-table signature of @path (a device
 * or an image file) with libblkid, read-only; both NULL when there is
 * none or @path cannot be opened. */
void       ds_device_probe_signature (const char  *path,
                                      char       **ret_type,
                                      char       **ret_label);

G_END_DECLS
