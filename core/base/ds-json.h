/* ds-json.h: the JSON layer under every result file: strict typed getters
 * (ds-json.c), the writer (ds-json-write.c) and the bounds scan that runs
 * before json-glib parses anything (ds-json-scan.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdint.h>

G_BEGIN_DECLS

/* ---- strict getters (ds-json.c) ------------------------------------------
 *
 * Each reads @member of @object, which the messages call "@where.@member",
 * and fails with DS_ERROR_CORRUPT saying what is wrong: missing, of another
 * type, or out of range.  On failure *ret_value is untouched. */

gboolean ds_json_get_double  (JsonObject  *object,
                              const char  *where,
                              const char  *member,
                              double       min,
                              double       max,
                              double      *ret_value,
                              GError     **error);
/* A whole number from 0 to @max (at most G_MAXINT64: json-glib reads
 * integers as gint64). */
gboolean ds_json_get_uint64  (JsonObject  *object,
                              const char  *where,
                              const char  *member,
                              uint64_t     max,
                              uint64_t    *ret_value,
                              GError     **error);
/* The same into an unsigned (@max at most G_MAXUINT). */
gboolean ds_json_get_unsigned (JsonObject  *object,
                               const char  *where,
                               const char  *member,
                               unsigned     max,
                               unsigned    *ret_value,
                               GError     **error);
gboolean ds_json_get_bool    (JsonObject  *object,
                              const char  *where,
                              const char  *member,
                              gboolean    *ret_value,
                              GError     **error);
/* Object or array member; NULL with @error if missing or of another type. */
/* Writing: a string member, or null when @value is NULL. */
void        ds_json_set_string_or_null (JsonObject *object,
                                        const char *member,
                                        const char *value);
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
/* A string member; NULL with @error if missing or not a string.  When
 * @nullable, a JSON null gives NULL with no error: tell the two apart with
 * ds_json_get_optional_string(). */
const char *ds_json_get_string (JsonObject *object,
                                const char *where,
                                const char *member,
                                gboolean    nullable,
                                GError    **error);
/* A member that is a string or null: TRUE with *ret_value = a copy or NULL;
 * FALSE with @error if it is missing or anything else. */
gboolean    ds_json_get_optional_string (JsonObject  *object,
                                         const char  *where,
                                         const char  *member,
                                         char       **ret_value,
                                         GError     **error);

/* Seconds read from a file back to whole nanoseconds, rounded: 15 ns is
 * written 1.5e-08 s, and 1.5e-08 * 1e9 is 14.999..., so truncating lost a
 * nanosecond at every save (2 % of values) and saving a loaded result
 * changed its text.  For values already checked to be in range. */
static inline uint64_t
ds_json_seconds_to_ns (double seconds)
{
  return (uint64_t) llround (seconds * 1e9);
}

/* ---- writing (ds-json-write.c) ------------------------------------------ */

/* A new object node that takes over the caller's reference to @object.
 * (json_node_init_object() takes a reference of its own: the caller's is
 * then never given up and the whole tree outlives the node.) */
JsonNode *ds_json_node_take_object (JsonObject *object);
/* The same for a list. */
JsonNode *ds_json_node_take_array  (JsonArray  *array);

/* Room ds_json_format_double() needs, with the terminating NUL. */
#define DS_JSON_DOUBLE_BUF 32

/* @value as a JSON number in the shortest form that reads back as exactly
 * the same double, always with a '.' or an exponent so that it reads back
 * as a double ("0.2", "1.0", "-0.0", "1e-14", "5e-324", "1.8e+19").  FALSE
 * (and "null" in @buf) for NaN and the infinities, which JSON cannot hold. */
gboolean ds_json_format_double (double  value,
                                char    buf[DS_JSON_DOUBLE_BUF]);

/* @node pretty-printed (two-space indent, "key" : value, as json-glib lays
 * it out), with a trailing newline, such that json-glib reads back the same
 * tree.  Unlike json_generator_to_data() in json-glib 1.6 (which writes
 * 1e-14 as "1e-14.0" and NaN as "nan.0"):
 *  - doubles as ds_json_format_double(); NaN and the infinities as null;
 *  - strings always valid UTF-8: bytes that are not UTF-8 are written as
 *    the text \xNN; control characters, DEL, C1 controls and U+2028/9 are
 *    escaped (\n, \u001b, ...), so the file is safe to cat. */
char    *ds_json_to_text       (JsonNode *node,
                                gsize    *ret_length);

/* @node as json_generator_to_data() pretty-prints it (two-space indent),
 * with a trailing newline: the --json output of the command line and
 * ds_comparison_to_json_data(), kept byte for byte as it has always been.
 * It has json-glib's ways with doubles and strings described above;
 * result files use ds_json_to_text(). */
char    *ds_json_to_generator_text (JsonNode *node);

/* ---- bounds (ds-json-scan.c) -------------------------------------------- */

/* Checks @data against the DS_JSON_MAX_* bounds of ds-limits.h in one pass,
 * without allocating per value: nesting depth, values in all, members per
 * object, entries per list (by the member that holds the list: "points",
 * "access", ...), bytes per string, and no NUL byte.  FALSE with
 * DS_ERROR_CORRUPT naming the list (as a path: "results.read.access") and
 * the bound.  Does not check that @data is JSON: json-glib does that next,
 * within these bounds. */
gboolean ds_json_check_bounds  (const char  *data,
                                gsize        length,
                                GError     **error);
/* The same for a file that is not a result (fio's JSON, smartctl's): the
 * message starts with @not_what ("not smartctl's JSON output"), not "not
 * a Diskscope result". */
gboolean ds_json_check_bounds_as (const char  *data,
                                  gsize        length,
                                  const char  *not_what,
                                  GError     **error);

/* ---- long lists (ds-json-pack.c) ---------------------------------------- */

/* A result's lists of points, read into columns in one pass instead of a
 * json-glib node a value: see ds-json-pack.c. */
typedef struct _DsJsonPack      DsJsonPack;
typedef struct _DsJsonPackTable DsJsonPackTable;

/* Packs the long lists of numbers or flat objects of @data that hold
 * points ("points", "row", ..., "access") and sets @ret_document to the
 * rest, each packed list replaced by a marker.  NULL (and @ret_document
 * NULL) when nothing was packed: parse @data as it is. */
DsJsonPack *ds_json_pack             (const char  *data,
                                      gsize        length,
                                      GString    **ret_document);
void        ds_json_pack_free        (DsJsonPack  *pack);
/* The pack ds_json_get_list() finds markers in, on this thread (NULL:
 * none), while the tree of the packed document is read. */
void        ds_json_pack_set_current (DsJsonPack  *pack);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsJsonPack, ds_json_pack_free)

/* A list as json-glib read it, or as ds_json_pack() packed it. */
typedef struct {
  JsonArray             *array;
  const DsJsonPackTable *table;
} DsJsonList;

/* The list @member of @object, either form; FALSE with @error as
 * ds_json_get_array() says it. */
gboolean    ds_json_get_list         (JsonObject        *object,
                                      const char        *where,
                                      const char        *member,
                                      DsJsonList        *ret,
                                      GError           **error);
guint       ds_json_list_get_length  (const DsJsonList  *list);
/* Entry @i of a list of numbers, when it is an integer (no message: the
 * caller says what it expected). */
gboolean    ds_json_list_int         (const DsJsonList  *list,
                                      guint              i,
                                      gint64            *ret);
/* Member @member of entry @i (an object) as ds_json_get_uint64() and
 * ds_json_get_double() read it, with their messages ("WHERE[i].member
 * ..."); no allocation unless something is wrong. */
gboolean    ds_json_list_get_uint64  (const DsJsonList  *list,
                                      guint              i,
                                      const char        *where,
                                      const char        *member,
                                      uint64_t           max,
                                      uint64_t          *ret_value,
                                      GError           **error);
gboolean    ds_json_list_get_double  (const DsJsonList  *list,
                                      guint              i,
                                      const char        *where,
                                      const char        *member,
                                      double             min,
                                      double             max,
                                      double            *ret_value,
                                      GError           **error);
/* Member @member of entry @i when it is an object, else NULL (always NULL
 * in a packed list: it holds only numbers and nulls). */
JsonObject *ds_json_list_get_object  (const DsJsonList  *list,
                                      guint              i,
                                      const char        *member);

G_END_DECLS
