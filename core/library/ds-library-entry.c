/* ds-library-entry.c: one saved result, as the library lists it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-annotation.h"
#include "ds-bench-file.h"
#include "ds-error.h"
#include "ds-library-entry.h"
#include "ds-result-json.h"

struct _DsLibraryEntry {
  GObject          parent_instance;

  char            *id;
  char            *path;
  DsLibraryStatus  status;
  char            *error_message;
  DsBenchKind      kind;
  char            *label;
  gboolean         custom_label;
  char            *notes;
  GStrv            tags;
  char            *device;
  char            *device_path;
  uint64_t         size_bytes;
  GDateTime       *date;
  char            *hostname;
  char            *summary;
};

G_DEFINE_FINAL_TYPE (DsLibraryEntry, ds_library_entry, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_PATH,
  PROP_STATUS,
  PROP_READABLE,
  PROP_ERROR_MESSAGE,
  PROP_KIND_NAME,
  PROP_LABEL,
  PROP_CUSTOM_LABEL,
  PROP_NOTES,
  PROP_TAGS,
  PROP_DEVICE,
  PROP_DEVICE_PATH,
  PROP_SIZE_BYTES,
  PROP_DATE,
  PROP_HOSTNAME,
  PROP_SUMMARY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
ds_library_entry_finalize (GObject *object)
{
  DsLibraryEntry *self = DS_LIBRARY_ENTRY (object);

  g_free (self->id);
  g_free (self->path);
  g_free (self->error_message);
  g_free (self->label);
  g_free (self->notes);
  g_strfreev (self->tags);
  g_free (self->device);
  g_free (self->device_path);
  g_clear_pointer (&self->date, g_date_time_unref);
  g_free (self->hostname);
  g_free (self->summary);

  G_OBJECT_CLASS (ds_library_entry_parent_class)->finalize (object);
}

static void
ds_library_entry_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  DsLibraryEntry *self = DS_LIBRARY_ENTRY (object);

  switch (prop_id)
    {
    case PROP_ID: g_value_set_string (value, self->id); break;
    case PROP_PATH: g_value_set_string (value, self->path); break;
    case PROP_STATUS: g_value_set_int (value, (int) self->status); break;
    case PROP_READABLE: g_value_set_boolean (value, ds_library_entry_is_readable (self)); break;
    case PROP_ERROR_MESSAGE: g_value_set_string (value, self->error_message); break;
    case PROP_KIND_NAME: g_value_set_string (value, ds_library_entry_get_kind_name (self)); break;
    case PROP_LABEL: g_value_set_string (value, self->label); break;
    case PROP_CUSTOM_LABEL: g_value_set_boolean (value, self->custom_label); break;
    case PROP_NOTES: g_value_set_string (value, self->notes); break;
    case PROP_TAGS: g_value_set_boxed (value, self->tags); break;
    case PROP_DEVICE: g_value_set_string (value, self->device); break;
    case PROP_DEVICE_PATH: g_value_set_string (value, self->device_path); break;
    case PROP_SIZE_BYTES: g_value_set_uint64 (value, self->size_bytes); break;
    case PROP_DATE: g_value_set_boxed (value, self->date); break;
    case PROP_HOSTNAME: g_value_set_string (value, self->hostname); break;
    case PROP_SUMMARY: g_value_set_string (value, self->summary); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_library_entry_class_init (DsLibraryEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ds_library_entry_finalize;
  object_class->get_property = ds_library_entry_get_property;

  properties[PROP_ID] = g_param_spec_string ("id", NULL, NULL, NULL, flags);
  properties[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL, flags);
  properties[PROP_STATUS] = g_param_spec_int ("status", NULL, NULL, 0, DS_LIBRARY_STATUS_UNREADABLE, 0, flags);
  properties[PROP_READABLE] = g_param_spec_boolean ("readable", NULL, NULL, FALSE, flags);
  properties[PROP_ERROR_MESSAGE] = g_param_spec_string ("error-message", NULL, NULL, NULL, flags);
  properties[PROP_KIND_NAME] = g_param_spec_string ("kind-name", NULL, NULL, NULL, flags);
  properties[PROP_LABEL] = g_param_spec_string ("label", NULL, NULL, NULL, flags);
  properties[PROP_CUSTOM_LABEL] = g_param_spec_boolean ("custom-label", NULL, NULL, FALSE, flags);
  properties[PROP_NOTES] = g_param_spec_string ("notes", NULL, NULL, NULL, flags);
  properties[PROP_TAGS] = g_param_spec_boxed ("tags", NULL, NULL, G_TYPE_STRV, flags);
  properties[PROP_DEVICE] = g_param_spec_string ("device", NULL, NULL, NULL, flags);
  properties[PROP_DEVICE_PATH] = g_param_spec_string ("device-path", NULL, NULL, NULL, flags);
  properties[PROP_SIZE_BYTES] = g_param_spec_uint64 ("size-bytes", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_DATE] = g_param_spec_boxed ("date", NULL, NULL, G_TYPE_DATE_TIME, flags);
  properties[PROP_HOSTNAME] = g_param_spec_string ("hostname", NULL, NULL, NULL, flags);
  properties[PROP_SUMMARY] = g_param_spec_string ("summary", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ds_library_entry_init (DsLibraryEntry *self)
{
}

char *
ds_result_describe (const DsResult *result)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);

  if (ops != NULL && ops->describe != NULL)
    return ops->describe (result);

  return g_strdup (result->spec.write ? "write" : "read");
}

DsLibraryEntry *
ds_library_entry_new_for_result (const char     *id,
                                 const char     *path,
                                 const DsResult *result)
{
  DsLibraryEntry *self = g_object_new (DS_TYPE_LIBRARY_ENTRY, NULL);
  GDateTime *date = NULL;

  self->id = g_strdup (id);
  self->path = g_strdup (path);
  self->status = result->cancelled ? DS_LIBRARY_STATUS_STOPPED :
                 result->error != NULL ? DS_LIBRARY_STATUS_FAILED :
                 DS_LIBRARY_STATUS_COMPLETE;
  self->kind = result->kind;
  self->label = ds_result_dup_label (result);
  self->custom_label = result->annotation.label != NULL;
  self->notes = g_strdup (result->annotation.notes);
  self->tags = result->annotation.tags ? g_strdupv (result->annotation.tags) : g_new0 (char *, 1);
  self->device = g_strdup (result->target.model ? result->target.model : result->target.path);
  self->device_path = g_strdup (result->target.path);
  self->size_bytes = result->target.size_bytes;
  if (result->started_at != NULL)
    date = g_date_time_new_from_iso8601 (result->started_at, NULL);
  if (date == NULL)
    date = g_date_time_new_now_utc ();
  self->date = date;
  self->hostname = g_strdup (result->hostname);
  self->summary = ds_result_describe (result);

  return self;
}

DsLibraryEntry *
ds_library_entry_new_unreadable (const char   *id,
                                 const char   *path,
                                 const GError *error,
                                 gint64        mtime_s)
{
  DsLibraryEntry *self = g_object_new (DS_TYPE_LIBRARY_ENTRY, NULL);

  self->id = g_strdup (id);
  self->path = g_strdup (path);
  self->status = DS_LIBRARY_STATUS_UNREADABLE;
  self->error_message = g_strdup (error != NULL ? error->message : "unreadable");
  self->kind = DS_BENCH_N_KINDS;
  self->label = g_path_get_basename (path);
  self->tags = g_new0 (char *, 1);
  self->date = g_date_time_new_from_unix_utc (mtime_s);
  if (self->date == NULL)
    self->date = g_date_time_new_from_unix_utc (0);
  self->summary = g_strdup ("unreadable");

  return self;
}

const char *
ds_library_entry_get_id (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->id;
}

const char *
ds_library_entry_get_path (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->path;
}

DsLibraryStatus
ds_library_entry_get_status (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), DS_LIBRARY_STATUS_UNREADABLE);
  return self->status;
}

gboolean
ds_library_entry_is_readable (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), FALSE);
  return self->status != DS_LIBRARY_STATUS_UNREADABLE;
}

const char *
ds_library_entry_get_error_message (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->error_message;
}

DsBenchKind
ds_library_entry_get_kind (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), DS_BENCH_N_KINDS);
  return self->kind;
}

const char *
ds_library_entry_get_kind_name (DsLibraryEntry *self)
{
  const DsBenchOps *ops;

  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  ops = ds_library_entry_is_readable (self) ? ds_bench_get (self->kind) : NULL;
  return ops != NULL ? ops->name : "?";
}

const char *
ds_library_entry_get_label (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->label;
}

gboolean
ds_library_entry_has_custom_label (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), FALSE);
  return self->custom_label;
}

const char *
ds_library_entry_get_notes (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->notes;
}

const char *const *
ds_library_entry_get_tags (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return (const char *const *) self->tags;
}

gboolean
ds_library_entry_has_tag (DsLibraryEntry *self,
                          const char     *tag)
{
  g_autofree char *wanted = NULL;

  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), FALSE);
  g_return_val_if_fail (tag != NULL, FALSE);

  /* Tags match without regard to case ("raid 10" finds "RAID 10"). */
  wanted = g_utf8_casefold (tag, -1);
  for (guint i = 0; self->tags[i] != NULL; i++)
    {
      g_autofree char *folded = g_utf8_casefold (self->tags[i], -1);

      if (strcmp (folded, wanted) == 0)
        return TRUE;
    }

  return FALSE;
}

const char *
ds_library_entry_get_device (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->device;
}

const char *
ds_library_entry_get_device_path (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->device_path;
}

uint64_t
ds_library_entry_get_size_bytes (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), 0);
  return self->size_bytes;
}

GDateTime *
ds_library_entry_get_date (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->date;
}

const char *
ds_library_entry_get_hostname (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->hostname;
}

const char *
ds_library_entry_get_summary (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->summary;
}

static gboolean
contains_casefold (const char *haystack,
                   const char *needle_folded)
{
  g_autofree char *folded = NULL;

  if (haystack == NULL)
    return FALSE;
  folded = g_utf8_casefold (haystack, -1);
  return strstr (folded, needle_folded) != NULL;
}

gboolean
ds_library_entry_matches (DsLibraryEntry *self,
                          const char     *text)
{
  g_autofree char *needle = NULL;

  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), FALSE);

  if (text == NULL || *text == '\0')
    return TRUE;
  needle = g_utf8_casefold (text, -1);

  if (contains_casefold (self->id, needle) || contains_casefold (self->label, needle) ||
      contains_casefold (self->notes, needle) || contains_casefold (self->device, needle) ||
      contains_casefold (self->device_path, needle) || contains_casefold (self->hostname, needle) ||
      contains_casefold (self->summary, needle) ||
      contains_casefold (ds_library_entry_get_kind_name (self), needle))
    return TRUE;
  for (guint i = 0; self->tags[i] != NULL; i++)
    if (contains_casefold (self->tags[i], needle))
      return TRUE;

  return FALSE;
}

DsResult *
ds_library_entry_load (DsLibraryEntry  *self,
                       GError         **error)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);

  return ds_result_load (self->path, error);
}
