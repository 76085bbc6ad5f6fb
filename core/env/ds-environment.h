/* ds-environment.h: what the system was like under a run's target,
 * recorded once at its start: kernel, queue settings, the device stack,
 * the filesystem for a file test, the CPU governor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-result.h"

G_BEGIN_DECLS

typedef struct {
  /* The members the result's "environment" gets (besides started_at,
   * hostname and kernel, which the result keeps itself). */
  JsonObject *json;
  /* What the warnings need. */
  char       *diskstats_name;   /* the device /proc/diskstats counts for the
                                 * target ("loop3", "sda1"), or NULL */
  char       *loop_no_dio;      /* "loop3 over /x.img", or NULL */
  char       *cache_layer;      /* "bcache0", or NULL */
  uint64_t    cache_bytes;      /* that cache's size, 0 if unknown */
  gboolean    rotational;
  gboolean    virtual_layer;    /* a loop or zram device in the stack */
  gboolean    is_file;          /* a file or folder, not a block device */
  uint64_t    ram_bytes;
} DsEnvironment;

/* Looks at @path (a block device, a file or a folder): never fails; what
 * cannot be read is null in the JSON.  @sysfs is "/sys" but for tests. */
DsEnvironment *ds_environment_collect (const char    *path,
                                       const char    *sysfs);
void           ds_environment_free    (DsEnvironment *env);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsEnvironment, ds_environment_free)

/* The device stack below block device @name ("dm-0"), outermost first,
 * as JSON objects {name, type, ...}; adds what it finds to @env's facts. */
JsonArray     *ds_environment_stack   (DsEnvironment *env,
                                       const char    *sysfs,
                                       const char    *name);

/* @value as a string member, or null when NULL or not UTF-8. */
void           ds_environment_set_string (JsonObject  *o,
                                          const char  *member,
                                          const char  *value);

/* A short "Environment" block for the text report, from a result's
 * environment members. */
void           ds_environment_report  (JsonObject    *environment,
                                       const char    *kernel,
                                       GString       *out);

/* The result's environment members beyond started_at, hostname and
 * kernel: into the JSON's @env, and back from it. */
void           ds_result_environment_to_json   (const DsResult *result,
                                                JsonObject     *env);
void           ds_result_environment_from_json (DsResult       *result,
                                                JsonObject     *env);

G_END_DECLS
