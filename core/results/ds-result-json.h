/* ds-result-json.h: results as JSON (schema diskscope-result/1)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "ds-result.h"

G_BEGIN_DECLS

JsonNode *ds_result_to_json   (const DsResult  *result);
/* Pretty-printed, with a trailing newline. */
char     *ds_result_to_data   (const DsResult  *result,
                               gsize           *ret_length);
/* Atomically (write to a temporary file, then rename). */
gboolean  ds_result_save      (const DsResult  *result,
                               const char      *path,
                               GError         **error);

/* Strict: a truncated file, not JSON, another schema, missing keys, wrong
 * types or absurd values give DS_ERROR_CORRUPT with what is wrong; never a
 * crash. */
DsResult *ds_result_load_data (const char      *data,
                               gssize           length,
                               GError         **error);
DsResult *ds_result_load      (const char      *path,
                               GError         **error);

/* FALSE when JSON @data nests objects and lists deeper than @max_depth
 * (outside strings): json-glib's parser recurses once per level, so a file
 * of a million '[' would overflow the stack.  Check before parsing. */
gboolean ds_json_nesting_ok  (const char  *data,
                              gsize        length,
                              unsigned     max_depth);

/* Helpers for the kinds' to_json/from_json. */
gboolean ds_json_get_double  (JsonObject  *object,
                              const char  *where,
                              const char  *member,
                              double       min,
                              double       max,
                              double      *ret_value,
                              GError     **error);
gboolean ds_json_get_uint64  (JsonObject  *object,
                              const char  *where,
                              const char  *member,
                              uint64_t     max,
                              uint64_t    *ret_value,
                              GError     **error);
/* Object or array member; NULL with @error if missing or of another type. */
JsonObject *ds_json_get_object (JsonObject *object,
                                const char *where,
                                const char *member,
                                GError    **error);
JsonArray  *ds_json_get_array  (JsonObject *object,
                                const char *where,
                                const char *member,
                                GError    **error);
/* TRUE if @node (an array element found at @where) is an object; else
 * FALSE with DS_ERROR_CORRUPT "@where is not an object". */
gboolean    ds_json_check_object (JsonNode   *node,
                                  const char *where,
                                  GError    **error);
/* A string member; NULL with @error if missing or not a string (when
 * @nullable, a JSON null gives NULL with no error). */
const char *ds_json_get_string (JsonObject *object,
                                const char *where,
                                const char *member,
                                gboolean    nullable,
                                GError    **error);

G_END_DECLS
