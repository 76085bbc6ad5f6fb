/* ds-json-scan.c: a result file's bounds, checked before json-glib parses it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * json-glib builds the whole tree before anyone can look at it: a 60 MB
 * list of small numbers costs gigabytes, and a million '[' overflow its
 * recursive parser's stack.  One pass over the bytes here counts what the
 * tree would hold (depth, values, members per object, entries per list,
 * bytes per string) against DS_JSON_MAX_* in ds-limits.h, with a fixed
 * stack of DS_JSON_MAX_DEPTH frames and nothing allocated per value.  It
 * tokenizes only as far as counting needs (strings and the six structural
 * characters); whether the rest is valid JSON is json-glib's job, within
 * these bounds.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "ds-error.h"
#include "ds-json.h"
#include "ds-limits.h"
#include "ds-text.h"

/* Entries allowed in a list, by the member that holds it. */
static const struct {
  const char *member;
  guint       max;
  const char *cap;
  const char *what;
} list_caps[] = {
  { "points", DS_JSON_MAX_POINTS, "DS_JSON_MAX_POINTS", "points" },
  /* A random access run's points as parallel arrays, one per field. */
  { "row", DS_JSON_MAX_POINTS, "DS_JSON_MAX_POINTS", "points" },
  { "offset_bytes", DS_JSON_MAX_POINTS, "DS_JSON_MAX_POINTS", "points" },
  { "transfer_bytes", DS_JSON_MAX_POINTS, "DS_JSON_MAX_POINTS", "points" },
  { "access_ns", DS_JSON_MAX_POINTS, "DS_JSON_MAX_POINTS", "points" },
  { "access", DS_JSON_MAX_ACCESS, "DS_JSON_MAX_ACCESS", "access-time dots" },
  { "errors", DS_JSON_MAX_ERRORS, "DS_JSON_MAX_ERRORS", "failed points" },
  { "notes", DS_JSON_MAX_NOTES, "DS_JSON_MAX_NOTES", "notes" },
};

typedef struct {
  gboolean    is_object;
  guint       count;        /* members or entries so far */
  guint       max;
  const char *cap;          /* the bound's name, for the message */
  const char *what;
  const char *key;          /* the member that holds this container */
  gsize       key_length;   /* (NULL at the top, or for a list element) */
} Frame;

typedef struct {
  Frame       stack[DS_JSON_MAX_DEPTH];
  guint       depth;
  guint       values;
  gboolean    top_closed;   /* the top-level object or list has ended */
  const char *key;          /* the key just read, until its value starts */
  gsize       key_length;
} Scan;

/* "results.read.access" for the innermost container (and "[]" for a list
 * inside a list). */
static char *
frame_path (const Scan *scan)
{
  GString *path = g_string_new (NULL);

  for (guint i = 1; i < scan->depth; i++)
    {
      const Frame *f = &scan->stack[i];

      if (f->key != NULL)
        {
          g_autofree char *key = g_strndup (f->key, f->key_length);
          g_autofree char *safe = ds_text_sanitize_short (key, 40);

          if (path->len > 0)
            g_string_append_c (path, '.');
          g_string_append (path, safe);
        }
      else
        {
          g_string_append (path, "[]");
        }
    }
  if (path->len == 0)
    g_string_append (path, "the top level");

  return g_string_free (path, FALSE);
}

/* Sets @error to DS_ERROR_CORRUPT saying which bound (the caller says
 * what the file is not) and is FALSE. */
#define refuse(error, ...) \
  (g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, __VA_ARGS__), FALSE)

/* A value starts (a member's value, a list entry, or the document). */
static gboolean
value_starts (Scan    *scan,
              GError **error)
{
  Frame *f = scan->depth > 0 ? &scan->stack[scan->depth - 1] : NULL;

  /* One document: json-glib leaks the first when a second follows
   * ("{}\n{}", found by fuzz-fio-import). */
  if (f == NULL && scan->top_closed)
    return refuse (error, _("more than one JSON document in it"));

  if (++scan->values > DS_JSON_MAX_VALUES)
    return refuse (error, _("more than %u values in all (the cap DS_JSON_MAX_VALUES)"),
                   DS_JSON_MAX_VALUES);
  if (f == NULL || f->is_object || ++f->count <= f->max)
    return TRUE;

  {
    g_autofree char *path = frame_path (scan);

    return refuse (error, _("%s has more than %u %s (the cap %s)"),
                   path, f->max, f->what, f->cap);
  }
}

/* A member (its ':') of the innermost object. */
static gboolean
member_starts (Scan    *scan,
               GError **error)
{
  Frame *f = scan->depth > 0 ? &scan->stack[scan->depth - 1] : NULL;

  if (f == NULL || !f->is_object || ++f->count <= f->max)
    return TRUE;

  {
    g_autofree char *path = frame_path (scan);

    return refuse (error, _("%s has more than %u members (the cap %s)"),
                   path, f->max, f->cap);
  }
}

static gboolean
open_container (Scan     *scan,
                gboolean  is_object,
                GError  **error)
{
  Frame *f;
  const Frame *parent = scan->depth > 0 ? &scan->stack[scan->depth - 1] : NULL;

  if (scan->depth >= DS_JSON_MAX_DEPTH)
    return refuse (error, _("nested more than %u levels deep (the cap DS_JSON_MAX_DEPTH)"),
                   DS_JSON_MAX_DEPTH);

  f = &scan->stack[scan->depth++];
  *f = (Frame) {
    .is_object = is_object,
    .max = is_object ? DS_JSON_MAX_MEMBERS : DS_JSON_MAX_LIST,
    .cap = is_object ? "DS_JSON_MAX_MEMBERS" : "DS_JSON_MAX_LIST",
    .what = "entries",
  };

  /* The member that holds it: the key just read, if the parent is an
   * object (a list's entries have no name). */
  if (parent != NULL && parent->is_object && scan->key != NULL)
    {
      f->key = scan->key;
      f->key_length = scan->key_length;
    }

  if (!is_object && f->key != NULL)
    for (gsize i = 0; i < G_N_ELEMENTS (list_caps); i++)
      if (strlen (list_caps[i].member) == f->key_length &&
          memcmp (list_caps[i].member, f->key, f->key_length) == 0)
        {
          f->max = list_caps[i].max;
          f->cap = list_caps[i].cap;
          f->what = list_caps[i].what;
        }

  return TRUE;
}

typedef enum {
  EXPECT_VALUE,   /* at the top, after '[', ':' or ',' in a list */
  EXPECT_KEY,     /* after '{' or ',' in an object */
  EXPECT_OTHER,   /* inside or after a token */
} Expect;

static gboolean
check_bounds (const char  *data,
              gsize        length,
              GError     **error)
{
  g_autofree Scan *scan = g_new0 (Scan, 1);
  Expect expect = EXPECT_VALUE;

  if (length > DS_JSON_MAX_FILE_BYTES)
    return refuse (error, _("%zu bytes, more than it may hold "
                   "(%" PRIu64 " MiB, the cap DS_JSON_MAX_FILE_BYTES)"),
                   length, DS_JSON_MAX_FILE_BYTES >> 20);
  if (memchr (data, '\0', length) != NULL)
    return refuse (error, _("the file is binary, not JSON"));

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      switch (c)
        {
        case '"':
          if (scan->depth == 0 && scan->top_closed)
            return refuse (error, _("more than one JSON document in it"));
          {
            gsize start = ++i;

            while (i < length && data[i] != '"')
              {
                i += data[i] == '\\' ? 2 : 1;
              }
            if (i - start > DS_JSON_MAX_STRING_BYTES)
              {
                g_autofree char *path = frame_path (scan);

                return refuse (error, _("a string in %s is longer than %u bytes "
                               "(the cap DS_JSON_MAX_STRING_BYTES)"),
                               path, DS_JSON_MAX_STRING_BYTES);
              }
            scan->key = NULL;
            if (expect == EXPECT_KEY)
              {
                scan->key = data + start;
                scan->key_length = MIN (i, length) - start;
              }
            else if (expect == EXPECT_VALUE && !value_starts (scan, error))
              {
                return FALSE;
              }
            expect = EXPECT_OTHER;
          }
          break;

        case '{':
        case '[':
          if (!value_starts (scan, error) || !open_container (scan, c == '{', error))
            return FALSE;
          scan->key = NULL;
          expect = c == '{' ? EXPECT_KEY : EXPECT_VALUE;
          break;

        case '}':
        case ']':
          if (scan->depth > 0 && --scan->depth == 0)
            scan->top_closed = TRUE;
          scan->key = NULL;
          expect = EXPECT_OTHER;
          break;

        case ':':
          /* The key stays known: a container that follows is named by it. */
          if (!member_starts (scan, error))
            return FALSE;
          expect = EXPECT_VALUE;
          break;

        case ',':
          scan->key = NULL;
          expect = scan->depth > 0 && scan->stack[scan->depth - 1].is_object ?
                   EXPECT_KEY : EXPECT_VALUE;
          break;

        case ' ':
        case '\t':
        case '\n':
        case '\r':
          break;

        default:
          /* The first character of a number or a literal. */
          if (scan->depth == 0 && scan->top_closed)
            return refuse (error, _("more than one JSON document in it"));
          if (expect == EXPECT_VALUE && !value_starts (scan, error))
            return FALSE;
          expect = EXPECT_OTHER;
          break;
        }
    }

  return TRUE;
}

gboolean
ds_json_check_bounds_as (const char  *data,
                         gsize        length,
                         const char  *not_what,
                         GError     **error)
{
  GError *local = NULL;

  if (check_bounds (data, length, &local))
    return TRUE;

  g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s: %s", not_what, local->message);
  g_error_free (local);
  return FALSE;
}

gboolean
ds_json_check_bounds (const char  *data,
                      gsize        length,
                      GError     **error)
{
  return ds_json_check_bounds_as (data, length, _("not a Diskscope result"), error);
}
