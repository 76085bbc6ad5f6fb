/* ds-health-text.c: smartctl's output as text, checked before json-glib
 * parses it (ds_health_parse(); the tree is read in ds-health-parse.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "ds-error.h"
#include "ds-health.h"
#include "ds-json.h"
#include "ds-limits.h"
#include "ds-text.h"

DsHealth *
ds_health_parse (const char  *json,
                 gssize       length,
                 int          exit_status,
                 GError     **error)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GError) local = NULL;

  if (json == NULL)
    length = 0;
  else if (length < 0)
    length = (gssize) strlen (json);

  if (length == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("smartctl printed nothing"));
      return NULL;
    }
  if ((uint64_t) length > DS_SMARTCTL_JSON_MAX_BYTES || memchr (json, '\0', (size_t) length) != NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("not smartctl's JSON output (binary, or over %" PRIu64 " MiB)"),
                   DS_SMARTCTL_JSON_MAX_BYTES >> 20);
      return NULL;
    }
  /* The result loader's bounds (depth, values, members, lists, strings)
   * before json-glib builds a tree: a file given to --from-json (or opened
   * in the app) is anyone's, and 16 MB of tiny values cost gigabytes as a
   * tree.  smartctl's largest objects and lists are far below them. */
  if (!ds_json_check_bounds_as (json, (gsize) length, _("not smartctl's JSON output"), error))
    return NULL;
  if (!json_parser_load_from_data (parser, json, length, &local))
    {
      g_autofree char *start = g_strndup (json, MIN (length, 80));
      g_autofree char *begins = ds_text_sanitize_short (g_strstrip (g_strdelimit (start, "\n\r\t", ' ')), 80);
      g_autofree char *why = ds_text_sanitize_short (local->message, 200);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("smartctl did not print JSON (%s); it began: %s"), why, begins);
      return NULL;
    }

  return ds_health_parse_node (json_parser_get_root (parser), exit_status, error);
}
