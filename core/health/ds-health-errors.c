/* ds-health-errors.c: smartctl's output that holds no health at all
 * (exit bits 0 and 1, no SMART, a device smartctl cannot reach), as an
 * error that says why in plain words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ds-error.h"
#include "ds-health-private.h"
#include "ds-text.h"

static gboolean
any_message_contains (DsHealth   *h,
                      const char *needle)
{
  for (guint i = 0; i < h->messages->len; i++)
    if (strstr (h->messages->pdata[i], needle) != NULL)
      return TRUE;

  return FALSE;
}

gboolean
_ds_health_check_readable (DsHealth  *h,
                           GError   **error)
{
  g_autofree char *said = g_strdup ("no message");
  /* The device's name, model and smartctl's messages come from the
   * output (a saved file is anyone's): escaped in every message here. */
  g_autofree char *dev = ds_text_sanitize_short (h->device ? h->device : "the device", 200);
  g_autofree char *model = h->model != NULL ? ds_text_sanitize_short (h->model, 200) : NULL;

  if (h->messages->len > 0)
    {
      g_autofree char *joined = NULL;

      g_ptr_array_add (h->messages, NULL);
      joined = g_strjoinv ("; ", (char **) h->messages->pdata);
      g_ptr_array_remove_index (h->messages, h->messages->len - 1);
      g_free (said);
      said = ds_text_sanitize_short (joined, 1000);
    }

  /* smartctl's messages say more than its bits (an undetectable device
   * type sets bit 0, as if the command line were wrong). */
  if (any_message_contains (h, "Permission denied") ||
      any_message_contains (h, "Operation not permitted"))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_PERMISSION,
                   _("smartctl could not open %s: %s. Reading SMART needs root "
                   "(sudo diskscope-cli health ...)"), dev, said);
      return FALSE;
    }
  /* An unknown USB bridge sets bit 0 too ("Please specify device type
   * with the -d option"): the command line is fine, the bridge is not. */
  if (any_message_contains (h, "USB bridge"))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("%s is behind a USB bridge smartctl does not know (%s): "
                   "its SMART data may be reachable with smartctl -d sat (or "
                   "-d usbjmicron, -d usbsunplus, -d usbprolific), or the bridge "
                   "hides it"), dev, said);
      return FALSE;
    }
  if (any_message_contains (h, "Unable to detect device type"))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("%s has no SMART that smartctl can read (%s): loop, zram, "
                   "virtual and RAID-volume devices have none; a disk behind a USB "
                   "bridge or a RAID controller may need smartctl's -d option"),
                   dev, said);
      return FALSE;
    }
  if ((h->exit_status & 0x3) && (any_message_contains (h, "No such device") ||
                                 any_message_contains (h, "No such file")))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND, _("%s: no such device (%s)"), dev, said);
      return FALSE;
    }
  if (h->exit_status & 0x1)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("smartctl did not accept its command line (exit status %d)%s%s"),
                   h->exit_status, ": ", said);
      return FALSE;
    }
  if (h->exit_status & 0x2)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("smartctl could not read %s (exit status %d: the device could not be "
                   "opened, did not identify itself, or is asleep)%s%s"),
                   dev, h->exit_status, ": ", said);
      return FALSE;
    }
  if (!h->smart_available)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("%s%s%s does not support SMART: there is no health data to read"),
                   dev, model ? " " : "", model ? model : "");
      return FALSE;
    }

  return TRUE;
}

