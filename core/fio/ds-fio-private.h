/* ds-fio-private.h: what the fio importer's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "ds-result.h"

G_BEGIN_DECLS

/* The document an entry comes from. */
typedef struct {
  const char *source;
  const char *fio_version;
  char       *started_at;
  JsonObject *global_options;
} DsFioDoc;

/* Members of fio's JSON, NULL (NAN for numbers) when missing or of
 * another type. */
double       ds_fio_number (JsonObject *o,
                            const char *name);
JsonObject  *ds_fio_object (JsonObject *o,
                            const char *name);
const char  *ds_fio_string (JsonObject *o,
                            const char *name);
/* A job option (fio writes them all as strings): the job's own, else the
 * global one, else NULL. */
const char  *ds_fio_option (JsonObject *job_options,
                            JsonObject *global_options,
                            const char *name);

/* One entry of "jobs" or "client_stats" as a workload result labelled
 * @label (@host: the server it ran on, for client runs); DS_ERROR_CORRUPT
 * or DS_ERROR_INVALID saying why it cannot be. */
DsResult    *ds_fio_result_from_entry (const DsFioDoc *doc,
                                       JsonObject     *job,
                                       JsonObject     *job_options,
                                       const char     *label,
                                       const char     *host,
                                       GError        **error);

G_END_DECLS
