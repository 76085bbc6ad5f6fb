/* ds-annotation.h: what the user says about a result (label, notes, tags)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Stored in the result file itself, as an optional top-level member
 *
 *   "annotation": { "label": "DX440 RAID 5", "notes": "FC 8G, one path",
 *                   "tags": ["RAID 5", "FC 8G"] }
 *
 * so a result copied to a colleague or a shared folder keeps what it was.
 * The member is absent when nothing was said (the label then defaults to
 * the device model and the date: ds_result_dup_label()).  Older readers of
 * diskscope-result/1 ignore it.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct _DsResult DsResult;

/* Limits (characters): labels and tags are one line each, notes a few
 * paragraphs.  No control characters except newline and tab in notes. */
#define DS_ANNOTATION_MAX_LABEL 200
#define DS_ANNOTATION_MAX_NOTES 8192
#define DS_ANNOTATION_MAX_TAG   64
#define DS_ANNOTATION_MAX_TAGS  32

typedef struct {
  char  *label;   /* NULL: the default label */
  char  *notes;   /* NULL: none */
  GStrv  tags;    /* NULL or a NULL-terminated list, no duplicates */
} DsAnnotation;

void      ds_annotation_clear    (DsAnnotation       *annotation);
void      ds_annotation_copy     (DsAnnotation       *dst,
                                  const DsAnnotation *src);
gboolean  ds_annotation_is_empty (const DsAnnotation *annotation);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DsAnnotation, ds_annotation_clear)

/* Sets the label (NULL or "" or only spaces: back to the default) or the
 * notes; trims surrounding white space.  DS_ERROR_INVALID with what is
 * wrong (too long, a control character). */
gboolean  ds_annotation_set_label (DsAnnotation *annotation,
                                   const char   *label,
                                   GError      **error);
gboolean  ds_annotation_set_notes (DsAnnotation *annotation,
                                   const char   *notes,
                                   GError      **error);
/* Adds a tag (trimmed; an existing one is not added twice) or removes one;
 * DS_ERROR_INVALID for an empty, too long or unprintable tag, or too many. */
gboolean  ds_annotation_add_tag    (DsAnnotation *annotation,
                                    const char   *tag,
                                    GError      **error);
gboolean  ds_annotation_remove_tag (DsAnnotation *annotation,
                                    const char   *tag);
gboolean  ds_annotation_has_tag    (const DsAnnotation *annotation,
                                    const char         *tag);

/* The "annotation" member of a result's JSON object: written only when
 * not empty; read strictly (DS_ERROR_CORRUPT naming what is wrong).
 * ds-result-json.c calls these. */
void      ds_annotation_to_json   (const DsAnnotation *annotation,
                                   JsonObject         *root);
gboolean  ds_annotation_from_json (JsonObject         *root,
                                   DsAnnotation       *annotation,
                                   GError            **error);

/* The result's label: its own, else "MODEL · YYYY-MM-DD HH:MM" (the model,
 * else the target's file name; the start time in local time). */
char     *ds_result_dup_label      (const DsResult *result);
char     *ds_result_default_label  (const DsResult *result);

/* @text (NULL: "") made safe to print: invalid UTF-8 replaced, control
 * characters (terminal escapes among them), line separators and bidi
 * overrides turned into spaces.  Labels,
 * models and paths come from files that may have been written by anyone. */
char     *ds_printable_text        (const char     *text);

G_END_DECLS
