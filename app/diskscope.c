/* diskscope.c: the desktop app
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "ds-application.h"

int
main (int argc, char **argv)
{
  g_autoptr(DsApplication) app = NULL;
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  ds_application_prepare_environment ();
  app = ds_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);

  return status != 0 ? status : ds_application_get_exit_status (app);
}
