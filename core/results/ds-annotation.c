/* ds-annotation.c: what the user says about a result (label, notes, tags)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "ds-annotation.h"
#include "ds-error.h"
#include "ds-result.h"
#include "ds-text.h"

void
ds_annotation_clear (DsAnnotation *annotation)
{
  g_clear_pointer (&annotation->label, g_free);
  g_clear_pointer (&annotation->notes, g_free);
  g_clear_pointer (&annotation->tags, g_strfreev);
}

void
ds_annotation_copy (DsAnnotation       *dst,
                    const DsAnnotation *src)
{
  dst->label = g_strdup (src->label);
  dst->notes = g_strdup (src->notes);
  dst->tags = g_strdupv (src->tags);
}

gboolean
ds_annotation_is_empty (const DsAnnotation *annotation)
{
  return annotation->label == NULL && annotation->notes == NULL &&
         (annotation->tags == NULL || annotation->tags[0] == NULL);
}

/* NULL if @text is fine for a field of at most @max characters (newlines
 * and tabs only when @multiline), else what is wrong with it. */
static const char *
check_text (const char *text,
            glong       max,
            gboolean    multiline)
{
  if (!g_utf8_validate (text, -1, NULL))
    return "is not valid UTF-8";
  if (g_utf8_strlen (text, -1) > max)
    return "is too long";

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (multiline && (c == '\n' || c == '\t'))
        continue;
      /* Control characters (terminal escapes among them) never reach a
       * terminal or a table from a result file. */
      if (g_unichar_iscntrl (c) || c == 0x2028 || c == 0x2029)
        return "contains a control character";
    }

  return NULL;
}

/* Trimmed copy; NULL when nothing but white space is left. */
static char *
dup_trimmed (const char *text)
{
  char *copy;

  if (text == NULL)
    return NULL;
  copy = g_strstrip (g_strdup (text));
  if (*copy == '\0')
    g_clear_pointer (&copy, g_free);

  return copy;
}

static gboolean
set_field (char       **field,
           const char  *what,
           const char  *text,
           glong        max,
           gboolean     multiline,
           GError     **error)
{
  g_autofree char *copy = dup_trimmed (text);
  const char *problem;

  if (copy != NULL && (problem = check_text (copy, max, multiline)) != NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("the %s %s (at most %ld characters%s)"),
                   what, problem, max, multiline ? "" : " on one line");
      return FALSE;
    }

  g_free (*field);
  *field = g_steal_pointer (&copy);
  return TRUE;
}

gboolean
ds_annotation_set_label (DsAnnotation *annotation,
                         const char   *label,
                         GError      **error)
{
  return set_field (&annotation->label, "label", label, DS_ANNOTATION_MAX_LABEL, FALSE, error);
}

gboolean
ds_annotation_set_notes (DsAnnotation *annotation,
                         const char   *notes,
                         GError      **error)
{
  return set_field (&annotation->notes, "notes", notes, DS_ANNOTATION_MAX_NOTES, TRUE, error);
}

gboolean
ds_annotation_has_tag (const DsAnnotation *annotation,
                       const char         *tag)
{
  return annotation->tags != NULL && tag != NULL &&
         g_strv_contains ((const char *const *) annotation->tags, tag);
}

gboolean
ds_annotation_add_tag (DsAnnotation *annotation,
                       const char   *tag,
                       GError      **error)
{
  g_autofree char *copy = dup_trimmed (tag);
  const char *problem;
  guint n = annotation->tags != NULL ? g_strv_length (annotation->tags) : 0;

  if (copy == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("a tag cannot be empty"));
      return FALSE;
    }
  if ((problem = check_text (copy, DS_ANNOTATION_MAX_TAG, FALSE)) != NULL)
    {
      /* Its beginning only: the tag may be 70 KB of anything. */
      g_autofree char *quoted = ds_text_sanitize_short (copy, 24);
      glong length = g_utf8_validate (copy, -1, NULL) ? g_utf8_strlen (copy, -1) : 0;

      if (length > DS_ANNOTATION_MAX_TAG)
        g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                     _("the tag “%s” is too long: %ld characters, at most %d"),
                     quoted, length, DS_ANNOTATION_MAX_TAG);
      else
        g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("the tag “%s” %s (at most %d characters)"),
                     quoted, problem, DS_ANNOTATION_MAX_TAG);
      return FALSE;
    }
  if (ds_annotation_has_tag (annotation, copy))
    return TRUE;
  if (n >= DS_ANNOTATION_MAX_TAGS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("a result has at most %d tags"),
                   DS_ANNOTATION_MAX_TAGS);
      return FALSE;
    }

  annotation->tags = g_renew (char *, annotation->tags, n + 2);
  annotation->tags[n] = g_steal_pointer (&copy);
  annotation->tags[n + 1] = NULL;
  return TRUE;
}

gboolean
ds_annotation_remove_tag (DsAnnotation *annotation,
                          const char   *tag)
{
  guint n;

  if (!ds_annotation_has_tag (annotation, tag))
    return FALSE;

  n = g_strv_length (annotation->tags);
  for (guint i = 0; i < n; i++)
    if (strcmp (annotation->tags[i], tag) == 0)
      {
        g_free (annotation->tags[i]);
        memmove (&annotation->tags[i], &annotation->tags[i + 1], (n - i) * sizeof (char *));
        break;
      }
  if (annotation->tags[0] == NULL)
    g_clear_pointer (&annotation->tags, g_strfreev);

  return TRUE;
}

/* ---- JSON --------------------------------------------------------------- */

void
ds_annotation_to_json (const DsAnnotation *annotation,
                       JsonObject         *root)
{
  JsonObject *o;
  JsonArray *tags;

  if (ds_annotation_is_empty (annotation))
    return;

  o = json_object_new ();
  if (annotation->label != NULL)
    json_object_set_string_member (o, "label", annotation->label);
  else
    json_object_set_null_member (o, "label");
  if (annotation->notes != NULL)
    json_object_set_string_member (o, "notes", annotation->notes);
  else
    json_object_set_null_member (o, "notes");
  tags = json_array_new ();
  for (guint i = 0; annotation->tags != NULL && annotation->tags[i] != NULL; i++)
    json_array_add_string_element (tags, annotation->tags[i]);
  json_object_set_array_member (o, "tags", tags);

  json_object_set_object_member (root, "annotation", o);
}

/* A string member or null; FALSE with DS_ERROR_CORRUPT for anything else. */
static gboolean
get_optional_string (JsonObject  *o,
                     const char  *member,
                     const char **ret_value,
                     GError     **error)
{
  JsonNode *node = json_object_get_member (o, member);

  *ret_value = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("annotation.%s is not a string"), member);
      return FALSE;
    }

  *ret_value = json_node_get_string (node);
  return TRUE;
}

static gboolean
as_corrupt (GError     **error,
            GError      *local,
            const char  *where)
{
  g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s: %s", where, local->message);
  g_error_free (local);
  return FALSE;
}

gboolean
ds_annotation_from_json (JsonObject    *root,
                         DsAnnotation  *annotation,
                         GError       **error)
{
  DsAnnotation read = { 0 };
  JsonNode *node = json_object_get_member (root, "annotation");
  GError *local = NULL;
  const char *s;
  JsonObject *o;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("annotation is not an object"));
      return FALSE;
    }
  o = json_node_get_object (node);

  if (!get_optional_string (o, "label", &s, error))
    return FALSE;
  if (!ds_annotation_set_label (&read, s, &local))
    return as_corrupt (error, local, "annotation.label");
  if (!get_optional_string (o, "notes", &s, error))
    goto fail;
  if (!ds_annotation_set_notes (&read, s, &local))
    {
      as_corrupt (error, local, "annotation.notes");
      goto fail;
    }

  node = json_object_get_member (o, "tags");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      JsonArray *tags;

      if (!JSON_NODE_HOLDS_ARRAY (node))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("annotation.tags is not a list"));
          goto fail;
        }
      tags = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (tags); i++)
        {
          JsonNode *t = json_array_get_element (tags, i);

          if (!JSON_NODE_HOLDS_VALUE (t) || json_node_get_value_type (t) != G_TYPE_STRING)
            {
              g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                           _("annotation.tags[%u] is not a string"), i);
              goto fail;
            }
          if (!ds_annotation_add_tag (&read, json_node_get_string (t), &local))
            {
              as_corrupt (error, local, "annotation.tags");
              goto fail;
            }
        }
    }

  ds_annotation_clear (annotation);
  *annotation = read;
  return TRUE;

fail:
  ds_annotation_clear (&read);
  return FALSE;
}

/* ---- labels ------------------------------------------------------------- */

char *
ds_result_default_label (const DsResult *result)
{
  g_autofree char *base = NULL;
  g_autoptr (GDateTime) utc = NULL;
  const char *name = result->target.model;

  if (name == NULL && result->target.path != NULL)
    name = base = g_path_get_basename (result->target.path);
  if (name == NULL)
    name = "?";

  if (result->started_at != NULL)
    utc = g_date_time_new_from_iso8601 (result->started_at, NULL);
  if (utc != NULL)
    {
      g_autoptr (GDateTime) local = g_date_time_to_local (utc);
      g_autofree char *when = g_date_time_format (local, "%Y-%m-%d %H:%M");

      return g_strdup_printf ("%s · %s", name, when);
    }

  return g_strdup (name);
}

char *
ds_result_dup_label (const DsResult *result)
{
  if (result->annotation.label != NULL)
    return g_strdup (result->annotation.label);

  return ds_result_default_label (result);
}

char *
ds_printable_text (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text ? text : "", -1);
  GString *out = g_string_new (NULL);

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      /* Controls (terminal escapes), line and paragraph separators, and
       * the bidi overrides and isolates that reorder what a reader sees. */
      if (g_unichar_iscntrl (c) || c == 0x2028 || c == 0x2029 ||
          (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
        g_string_append_c (out, ' ');
      else
        g_string_append_unichar (out, c);
    }

  return g_string_free (out, FALSE);
}
