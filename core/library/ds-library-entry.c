/* ds-library-entry.c: one saved result, as the library lists it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The type and what an entry tells; ds-library-entry-new.c makes entries.
 */
#include "config.h"

#include <string.h>

#include "ds-library-entry-private.h"
#include "ds-result-json.h"

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
  g_free (self->model);
  g_free (self->serial);
  g_free (self->wwn);
  g_free (self->headline_key);
  g_free (self->headline_name);
  g_free (self->search_text);

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

gboolean
ds_library_entry_matches (DsLibraryEntry *self,
                          const char     *text)
{
  g_autofree char *needle = NULL;

  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), FALSE);

  if (text == NULL || *text == '\0')
    return TRUE;
  needle = g_utf8_casefold (text, -1);
  /* A needle across two fields ("\n") never matches: no field has one,
   * but notes may; those are found by each line. */
  return strstr (self->search_text, needle) != NULL;
}

DsResult *
ds_library_entry_load (DsLibraryEntry  *self,
                       GError         **error)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);

  return ds_result_load (self->path, error);
}

const char *
ds_library_entry_get_model (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->model;
}

const char *
ds_library_entry_get_serial (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->serial;
}

const char *
ds_library_entry_get_wwn (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);
  return self->wwn;
}

guint
ds_library_entry_get_n_warnings (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), 0);
  return self->n_warnings;
}

gboolean
ds_library_entry_get_headline (DsLibraryEntry  *self,
                               const char     **key,
                               const char     **name,
                               int             *unit,
                               double          *value)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), FALSE);

  if (self->headline_key == NULL)
    return FALSE;
  if (key != NULL)
    *key = self->headline_key;
  if (name != NULL)
    *name = self->headline_name;
  if (unit != NULL)
    *unit = self->headline_unit;
  if (value != NULL)
    *value = self->headline_value;
  return TRUE;
}

/* @name is more than blanks (and, for a WWN, more than "0x"). */
static gboolean
names_drive (const char *name,
             gboolean    hex)
{
  if (name == NULL)
    return FALSE;
  name += strspn (name, " \t\n\r\f\v");
  if (hex && g_ascii_strncasecmp (name, "0x", 2) == 0)
    name += 2;
  return name[strspn (name, " \t\n\r\f\v")] != '\0';
}

char *
ds_library_entry_dup_device_key (DsLibraryEntry *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_ENTRY (self), NULL);

  /* A blank WWN or serial (or a bare "0x") names no drive: two drives
   * that both report one are not one. */
  if (names_drive (self->wwn, TRUE))
    return g_strconcat ("wwn:", self->wwn, NULL);
  if (names_drive (self->serial, FALSE))
    return g_strconcat ("serial:", self->serial, NULL);
  /* Without either: the model and capacity on one host (a loop device or
   * a file is one only by its path). */
  return g_strdup_printf ("%s:%s:%" G_GUINT64_FORMAT ":%s",
                          self->model != NULL ? "model" : "path",
                          self->model != NULL ? self->model :
                          self->device_path != NULL ? self->device_path : "?",
                          self->size_bytes, self->hostname != NULL ? self->hostname : "?");
}
