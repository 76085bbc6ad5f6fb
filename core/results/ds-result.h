/* ds-result.h: what a run produced
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-annotation.h"
#include "ds-bench.h"

G_BEGIN_DECLS

#define DS_RESULT_SCHEMA "diskscope-result/1"

/* What the JSON calls "target": the device as it was during the run. */
typedef struct {
  char     *path;
  gboolean  is_block;            /* "kind": "block" | "file" */
  uint64_t  size_bytes;
  char     *model;               /* NULL where unknown */
  char     *serial;              /* the device's serial number and World */
  char     *wwn;                 /* Wide Name: NULL where unknown */
  uint32_t  logical_block_size;
  uint32_t  physical_block_size;
  gboolean  rotational;
} DsTargetInfo;

struct _DsResult {
  DsBenchKind   kind;
  DsBenchSpec   spec;            /* deep copy of what was asked */
  DsTargetInfo  target;
  char         *tool_version;
  char         *started_at;      /* ISO 8601, UTC */
  char         *hostname;
  char         *kernel;
  char         *engine;          /* the engine that ran ("io_uring", ...) */
  GPtrArray    *notes;           /* char*: e.g. "io_uring refused (EPERM): used threads" */
  /* The rest of the JSON's "environment" (env/ds-environment.h): queue,
   * device stack, filesystem, governor; NULL when not recorded. */
  JsonObject   *environment;
  GPtrArray    *warnings;        /* DsWarning* (env/ds-warnings.h) */

  gboolean      complete;        /* ran to the end */
  gboolean      cancelled;       /* stopped by the user */
  GError       *error;           /* NULL unless the run failed */
  int           error_errno;     /* 0 if none / not from the kernel */
  int64_t       error_offset_bytes; /* -1 if not tied to an offset */

  /* The kind's results, owned by its DsBenchOps (data_new/data_free). */
  gpointer      data;

  /* The user's label, notes and tags (ds-annotation.h). */
  DsAnnotation  annotation;
};

/* A result for a run of @spec about to start: a copy of @spec, the kind's
 * empty data, and where and when (tool version, host, kernel, time). */
DsResult *ds_result_new        (const DsBenchSpec *spec);
/* A result with only its kind: the kind's default spec, no data, no
 * environment.  The loader fills each from the file, so nothing of the
 * machine that loads it ends up in it. */
DsResult *ds_result_new_blank  (DsBenchKind        kind);
void      ds_result_free       (DsResult          *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsResult, ds_result_free)

void      ds_result_add_note   (DsResult          *result,
                                const char        *format,
                                ...) G_GNUC_PRINTF (2, 3);
/* Records the first error only (later ones are consequences). */
void      ds_result_set_error  (DsResult          *result,
                                const GError      *error,
                                int                errno_value,
                                int64_t            offset_bytes);

/* TRUE when @result holds anything measured: it ran to the end, or its
 * kind says its partial data holds figures (DsBenchOps.measured).  A
 * stopped or failed run that does is reported; one that does not was
 * refused or stopped before its first I/O, and only its reason is said. */
gboolean  ds_result_has_measurements (const DsResult *result);

void      ds_target_info_clear (DsTargetInfo      *info);

G_END_DECLS
