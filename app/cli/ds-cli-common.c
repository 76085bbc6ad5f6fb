/* ds-cli-common.c: what every diskscope-cli command shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "ds-cli-agent.h"
#include "ds-cli-common.h"
#include "ds-error.h"
#include "ds-text.h"
#include "ds-udisks.h"

int
ds_cli_status_for_error (const GError *error)
{
  if (error == NULL)
    return DS_CLI_OK;
  if (error->domain == G_OPTION_ERROR)
    return DS_CLI_USAGE;
  if (error->domain != DS_ERROR)
    return DS_CLI_FAILED;

  switch (error->code)
    {
    case DS_ERROR_INVALID:
      return DS_CLI_USAGE;
    case DS_ERROR_REFUSED:
    case DS_ERROR_BUSY:     /* only a write open is exclusive */
      return DS_CLI_REFUSED;
    case DS_ERROR_CANCELLED:
      return DS_CLI_INTERRUPTED;
    default:
      return DS_CLI_FAILED;
    }
}

int
ds_cli_complain (int         status,
                 const char *format,
                 ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  /* Messages quote files and devices (anyone's text): whatever a reader
   * let through, no escape sequence reaches the terminal.  Line by line,
   * so a message of several lines keeps them. */
  {
    g_auto (GStrv) lines = g_strsplit (message, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      {
        g_autofree char *safe = ds_text_sanitize (lines[i]);

        g_free (lines[i]);
        lines[i] = g_steal_pointer (&safe);
      }
    g_free (message);
    message = g_strjoinv ("\n", lines);
  }

  fprintf (stderr, "diskscope-cli: %s\n", message);

  return status;
}

int
ds_cli_fail (const GError *error)
{
  return ds_cli_complain (ds_cli_status_for_error (error), "%s", error->message);
}

void
ds_cli_notice (const char *text,
               int         progress_width)
{
  g_autofree char *clean = NULL;

  if (text == NULL)
    return;
  clean = ds_text_sanitize (text);
  if (progress_width > 0)
    fprintf (stderr, "\r%*s\r", progress_width, "");
  fprintf (stderr, "diskscope-cli: %s\n", clean);
  fflush (stderr);
}

int
ds_cli_flush_stdout (int status)
{
  if (fflush (stdout) == 0 && !ferror (stdout))
    return status;

  return ds_cli_complain (DS_CLI_FAILED, _("could not write to stdout: %s"), g_strerror (errno));
}

/* The command's choice, made once as its options are read: the CLI's own
 * state, handed to each run (the core keeps none). */
static DsTargetAccess cli_access;

const DsTargetAccess *
ds_cli_target_access (void)
{
  return &cli_access;
}

gboolean
ds_cli_parse_options (GOptionContext  *context,
                      int             *argc,
                      char          ***argv,
                      int             *ret_status)
{
  g_autoptr (GError) error = NULL;
  gboolean no_udisks = FALSE;
  const GOptionEntry common[] = {
    { "no-udisks", 0, 0, G_OPTION_ARG_NONE, &no_udisks,
      N_("Do not ask udisks2 (and polkit) to open a device this user may not "
      "open: fail with permission denied instead"), NULL },
    { NULL }
  };

  /* Every command that may open a device takes it: one place.  The
   * entries' descriptions, the parameter string, summary and description
   * are marked N_() and translated here, when --help prints them. */
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, common, GETTEXT_PACKAGE);
  if (g_option_context_parse (context, argc, argv, &error))
    {
      cli_access = (DsTargetAccess) { .no_udisks = no_udisks };
      if (!no_udisks)
        ds_cli_agent_install (&cli_access);
      return TRUE;
    }

  *ret_status = ds_cli_complain (DS_CLI_USAGE, "%s", error->message);
  return FALSE;
}
