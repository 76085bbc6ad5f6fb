/* ds-device-item.c: a DsDevice in a list model
 *
 * Besides the device, an item keeps what a search looks through: its
 * path, name, model, vendor, serial, transport and size (in GB and in GiB,
 * with and without the space), folded to lower case once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-device-item.h"
#include "ds-units.h"

/* Ubuntu mounts each snap package from a loop device over a file here. */
#define SNAP_BACKING_PREFIX "/var/lib/snapd/"

struct _DsDeviceItem
{
  GObject   parent_instance;

  DsDevice *device;
  char     *title;
  char     *haystack;   /* casefolded, normalized: what search looks in */
};

G_DEFINE_FINAL_TYPE (DsDeviceItem, ds_device_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PATH,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
ds_device_item_finalize (GObject *object)
{
  DsDeviceItem *self = (DsDeviceItem *) object;

  g_clear_pointer (&self->device, ds_device_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->haystack, g_free);

  G_OBJECT_CLASS (ds_device_item_parent_class)->finalize (object);
}

static void
ds_device_item_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  DsDeviceItem *self = DS_DEVICE_ITEM (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, ds_device_item_get_path (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_device_item_class_init (DsDeviceItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ds_device_item_finalize;
  object_class->get_property = ds_device_item_get_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ds_device_item_init (DsDeviceItem *self)
{
}

static char *
fold (const char *text)
{
  g_autofree char *normalized = g_utf8_normalize (text, -1, G_NORMALIZE_ALL);

  return g_utf8_casefold (normalized != NULL ? normalized : text, -1);
}

/* A size as it is shown ("2.1 GB", "1.0 TB", "2 GiB") and as it is typed
 * ("2.1gb", "1 TB", "2gib", "2,1 GB" in a locale with a decimal comma). */
static void
add_size (GString    *haystack,
          const char *size)
{
  g_autofree char *dotted = g_strdelimit (g_strdup (size), ",", '.');
  g_auto(GStrv) words = g_strsplit (dotted, " ", 2);

  g_string_append_printf (haystack, "\n%s\n%s", size, dotted);
  if (words[0] != NULL && words[1] != NULL)
    {
      g_string_append_printf (haystack, "\n%s%s", words[0], words[1]);
      if (g_str_has_suffix (words[0], ".0"))
        {
          words[0][strlen (words[0]) - 2] = '\0';
          g_string_append_printf (haystack, "\n%s %s\n%s%s", words[0], words[1], words[0], words[1]);
        }
    }
}

static char *
make_haystack (const DsDevice *device)
{
  g_autoptr(GString) haystack = g_string_new (device->path);
  const char *fields[] = {
    device->name, device->model, device->vendor, device->serial, device->transport,
    ds_device_type_to_string (device->type),
  };
  g_autofree char *si = ds_format_size (device->size_bytes);
  g_autofree char *iec = ds_format_size_iec (device->size_bytes);

  /* One field a line: a search never matches across two of them. */
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (fields[i] != NULL)
      g_string_append_printf (haystack, "\n%s", fields[i]);
  add_size (haystack, si);
  add_size (haystack, iec);

  return fold (haystack->str);
}

DsDeviceItem *
ds_device_item_new (DsDevice *device)
{
  DsDeviceItem *self;

  g_return_val_if_fail (device != NULL, NULL);

  self = g_object_new (DS_TYPE_DEVICE_ITEM, NULL);
  self->device = device;
  self->title = ds_device_describe (device);
  self->haystack = make_haystack (device);

  return self;
}

const DsDevice *
ds_device_item_get_device (DsDeviceItem *self)
{
  g_return_val_if_fail (DS_IS_DEVICE_ITEM (self), NULL);

  return self->device;
}

const char *
ds_device_item_get_path (DsDeviceItem *self)
{
  g_return_val_if_fail (DS_IS_DEVICE_ITEM (self), NULL);

  return self->device->path;
}

const char *
ds_device_item_get_title (DsDeviceItem *self)
{
  g_return_val_if_fail (DS_IS_DEVICE_ITEM (self), NULL);

  return self->title;
}

static gboolean
is_size_unit (const char *word)
{
  static const char *const units[] = {
    "b", "bytes", "k", "kb", "kib", "m", "mb", "mib", "g", "gb", "gib", "t", "tb", "tib", "p",
    "pb", "pib", NULL,
  };

  return g_strv_contains (units, word);
}

/* @term in @haystack; a number only where a number starts ("2gib" is in
 * "2gib" but not in "12gib" or "1.2gib"). */
static gboolean
has_term (const char *haystack,
          const char *term)
{
  gboolean number = g_ascii_isdigit (term[0]);

  for (const char *p = strstr (haystack, term); p != NULL; p = strstr (p + 1, term))
    if (!number || p == haystack || !(g_ascii_isdigit (p[-1]) || p[-1] == '.' || p[-1] == ','))
      return TRUE;

  return FALSE;
}

gboolean
ds_device_item_matches (DsDeviceItem *self,
                        const char   *search)
{
  g_autofree char *folded = NULL;
  g_auto(GStrv) words = NULL;

  g_return_val_if_fail (DS_IS_DEVICE_ITEM (self), FALSE);

  if (search == NULL)
    return TRUE;

  /* A decimal comma is typed as a point (the haystack has both). */
  folded = g_strdelimit (fold (search), ",", '.');
  words = g_strsplit_set (g_strstrip (folded), " \t", -1);
  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autofree char *term = NULL;

      if (words[i][0] == '\0')
        continue;

      /* "2 GiB" is one size, not "2" anywhere and "gib" anywhere. */
      if (g_ascii_isdigit (words[i][0]) && words[i + 1] != NULL && is_size_unit (words[i + 1]))
        {
          term = g_strconcat (words[i], words[i + 1], NULL);
          i++;
        }
      else
        term = g_strdup (words[i]);

      if (!has_term (self->haystack, term))
        return FALSE;
    }

  return TRUE;
}

gboolean
ds_device_is_snap (const DsDevice *device)
{
  g_return_val_if_fail (device != NULL, FALSE);

  return device->type == DS_DEVICE_LOOP && device->backing_file != NULL &&
         g_str_has_prefix (device->backing_file, SNAP_BACKING_PREFIX);
}
